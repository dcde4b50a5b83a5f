"""Positions written as text, so rule tests read like the rulebook.

One statement per line (`#` starts a comment); card ids as in docs/games/space-aztecs.md, piles A-H:

    removed green          the set out of the game (2-4 players; default: the game's option)
    start 1                the Starting Player (default 0)
    round 3                (default 1)
    pile A: PNK-01 BLU-04  a pile's cards; `pile B: -` is an empty pile
    city 0: PNK-03 BLU-T1[BLU-04 BLU-05] YEL-S1[PNK-02] CDX-1
                           player 0's city: Aztecs in view, Temples and Saucers with the cards
                           under them in brackets, Codex cards
    held 0: A              player 0 holds pile A this round (players take piles clockwise from
                           the Starting Player; once all hold one, the hidden choice is on)
    chose 0: PNK-01        player 0 has chosen that card of their pile, face down
    seen 0: B@2 C          piles player 0 held in earlier rounds (@round; default this round)
    last: PNK-05 YEL-02    the cards played last round, by player
    playing: 2             the choices are revealed and being played: the card of the 3rd player
                           clockwise from the Starting Player (who played the earliest time) is
                           asking its owner; each `chose` card is written in its pile if it is
                           not played yet, else where it went
    capture: BLU-S1 2 0    ... a Flying Saucer waits for its owner's capture from player 2, then 0
    tuck: PNK-03           ... or a Special Agent offers to tuck this Aztec

Every card of the game not written anywhere is dealt, in card order, round robin into the piles
not written; it is an error if that leaves cards over. A position without held piles in which
two piles are empty or enough Saucers were played is a finished game. `to_position` writes every
position (`from_position` gives it back).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .components import (
    CARD_ID,
    COLOUR,
    COLOURS,
    IS_AZTEC,
    KIND,
    NUM_CARDS,
    NUM_PILES,
    Kind,
    deck,
    parse_card,
    parse_pile,
    pile_text,
)
from .state import CAPTURED, CHOSEN, CITY, TEMPLED, EndReason, Phase, SpaceAztecsState

if TYPE_CHECKING:
    from .game import SpaceAztecs

_TOKEN = re.compile(r"([A-Za-z]+-[A-Za-z0-9]+)(?:\[([^\]]*)\])?")


class PositionError(ValueError):
    """The position text is not a position of this game."""


def _card(text: str, line: str) -> int:
    card = parse_card(text)
    if card is None:
        raise PositionError(f"{line!r}: {text!r} is not a card id")
    return card


def _player(text: str, n: int, line: str) -> int:
    if not text.isdigit() or not 0 <= int(text) < n:
        raise PositionError(f"{line!r}: players are 0 to {n - 1}")
    return int(text)


def from_position(game: SpaceAztecs, text: str) -> SpaceAztecsState:
    """Build the position `text` describes (see the module docstring)."""
    n = game.num_players
    state = SpaceAztecsState(game, None)
    removed = state.removed if game.options["removed_set"] != "random" or n >= 5 else None
    where: dict[int, int] = {}
    host: dict[int, int] = {}
    piles: dict[int, list[int]] = {}
    held: dict[int, int] = {}
    chose: dict[int, int] = {}
    seen: dict[tuple[int, int], int | None] = {}
    start, round_ = 0, 1
    last: tuple[int, ...] = ()
    playing = -1
    asking: tuple[str, ...] = ()

    def put(card: int, place: int, line: str) -> None:
        if card in where:
            raise PositionError(f"{line!r}: {CARD_ID[card]} is written twice")
        where[card] = place

    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(":")
        words = head.split()
        body = rest.split()
        if words[0] == "removed" and len(words) == 2 and not rest:
            if n >= 5:
                raise PositionError(f"{line!r}: with 5-6 players no set is removed")
            if words[1] not in COLOURS:
                raise PositionError(f"{line!r}: the sets are {', '.join(COLOURS)}")
            removed = COLOURS.index(words[1])
        elif words[0] in ("start", "round") and len(words) == 2 and not rest:
            if words[0] == "start":
                start = _player(words[1], n, line)
            elif words[1].isdigit() and int(words[1]) >= 1:
                round_ = int(words[1])
            else:
                raise PositionError(f"{line!r}: rounds count from 1")
        elif words[0] == "pile" and len(words) == 2:
            x = parse_pile(words[1])
            if x is None or x in piles:
                raise PositionError(f"{line!r}: name each pile A-H once")
            piles[x] = [] if body == ["-"] else [_card(t, line) for t in body]
            for c in piles[x]:
                put(c, x, line)
        elif words[0] == "city" and len(words) == 2:
            p = _player(words[1], n, line)
            for m in _TOKEN.finditer(rest):
                top = _card(m[1], line)
                put(top, CITY + p, line)
                if m[2] is None:
                    continue
                kind = KIND[top]
                if kind not in (Kind.TEMPLE, Kind.SAUCER):
                    raise PositionError(f"{line!r}: only Temples and Saucers have cards under them")
                for t in m[2].split():
                    c = _card(t, line)
                    if not IS_AZTEC[c] or COLOUR[c] != COLOUR[top]:
                        raise PositionError(
                            f"{line!r}: under {CARD_ID[top]} go only Aztecs of its colour"
                        )
                    put(c, (TEMPLED if kind is Kind.TEMPLE else CAPTURED) + p, line)
                    host[c] = top
            leftover = _TOKEN.sub("", rest).strip()
            if leftover:
                raise PositionError(f"{line!r}: cannot read {leftover!r}")
        elif words[0] == "held" and len(words) == 2 and len(body) == 1:
            x = parse_pile(body[0])
            if x is None:
                raise PositionError(f"{line!r}: the piles are A to H")
            held[_player(words[1], n, line)] = x
        elif words[0] == "chose" and len(words) == 2 and len(body) == 1:
            chose[_player(words[1], n, line)] = _card(body[0], line)
        elif words[0] == "seen" and len(words) == 2:
            p = _player(words[1], n, line)
            for t in body:
                letter, _, r = t.partition("@")
                x = parse_pile(letter)
                if x is None or (r and not r.isdigit()):
                    raise PositionError(f"{line!r}: write piles like B or B@2")
                seen[(p, x)] = int(r) if r else None
        elif words[0] == "playing" and len(words) == 1 and len(body) == 1:
            playing = _player(body[0], n, line)
        elif words[0] in ("capture", "tuck") and len(words) == 1 and body and not asking:
            asking = (words[0], *body)
        elif words[0] == "last" and len(words) == 1:
            last = tuple(_card(t, line) for t in body)
            if len(last) != n:
                raise PositionError(f"{line!r}: give one card per player")
        else:
            raise PositionError(f"cannot read {line!r}")

    if removed is None:
        raise PositionError("say which set is removed (removed pink|yellow|blue|green)")
    in_game = set(deck(game.options["codex"], removed))
    stray = sorted(c for c in where if c not in in_game)
    if stray:
        raise PositionError(f"{CARD_ID[stray[0]]} is not in this game's deck")
    unwritten = [x for x in range(NUM_PILES) if x not in piles]
    rest_cards = [c for c in sorted(in_game) if c not in where]
    if rest_cards and not unwritten:
        raise PositionError(
            f"{len(rest_cards)} cards are written nowhere, and every pile is written: "
            f"{', '.join(CARD_ID[c] for c in rest_cards[:6])}..."
        )
    for i, c in enumerate(rest_cards):
        where[c] = unwritten[i % len(unwritten)]

    state.removed = removed
    state.where = [where.get(c, -1) for c in range(NUM_CARDS)]
    state.host = [host.get(c, -1) for c in range(NUM_CARDS)]
    state.pile_size = [sum(1 for w in state.where if w == x) for x in range(NUM_PILES)]
    state.start = start
    state.round = round_
    state.saucers_played = sum(
        1 for c in range(NUM_CARDS) if KIND[c] is Kind.SAUCER and state.where[c] >= CITY
    )
    state.last_played = last
    state._new_round_fields()
    order = [(start + i) % n for i in range(len(held))]
    if sorted(held) != sorted(order):
        raise PositionError(
            "piles are taken clockwise from the Starting Player: "
            f"players {order} should hold piles, not {sorted(held)}"
        )
    for p, x in held.items():
        if state.holder[x] >= 0:
            raise PositionError(f"pile {pile_text(x)} is held by two players")
        state.holder[x] = p
        state.held[p] = x
        state.seen_round[p * NUM_PILES + x] = round_
    state.picks = len(held)
    state.phase = Phase.CHOOSE if len(held) == n else Phase.PICK
    for (p, x), when in seen.items():
        if state.held[p] != x:
            state.seen_round[p * NUM_PILES + x] = when if when is not None else round_
    for p, card in chose.items():
        if state.phase is not Phase.CHOOSE:
            raise PositionError("cards are chosen only once every player holds a pile")
        if state.where[card] == state.held[p]:
            state.where[card] = CHOSEN + p
            state.pile_size[state.held[p]] -= 1
        elif playing < 0 or state.where[card] < CITY:
            raise PositionError(f"{CARD_ID[card]} is not in player {p}'s pile")
        state.chosen[p] = card
    if playing >= 0:
        _resolving(state, playing, asking)
    elif asking:
        raise PositionError("capture and tuck questions arise only while cards are played")
    elif state.phase is Phase.CHOOSE and min(state.chosen) >= 0:
        raise PositionError("at least one player must still be choosing")
    for p in range(n):
        if state.held[p] >= 0 and state.pile_size[state.held[p]] + (state.chosen[p] >= 0) == 0:
            raise PositionError(f"player {p} holds an empty pile")
    two_empty = sum(1 for s in state.pile_size if s == 0) >= 2
    saucers = state.saucers_played >= state.saucer_limit
    if not held and (two_empty or saucers):  # the world ended with the last round
        state.phase = Phase.OVER
        state.end_reason = (
            EndReason.BOTH
            if two_empty and saucers
            else EndReason.PILES
            if two_empty
            else EndReason.SAUCERS
        )
    return state


def _resolving(state: SpaceAztecsState, playing: int, asking: tuple[str, ...]) -> None:
    """The revealed choices being played, stopped at a question to the card's owner."""
    n = state.num_players
    if min(state.chosen) < 0:
        raise PositionError("cards are played once every player has chosen: write every `chose`")
    state.order = tuple((state.start + i) % n for i in range(n))
    state.playing = playing
    for i, p in enumerate(state.order):
        if (state.where[state.chosen[p]] == CHOSEN + p) != (i > playing):
            raise PositionError(
                f"player {p}'s {CARD_ID[state.chosen[p]]} must be "
                + ("in their pile: it is not played yet" if i > playing else "played")
            )
    owner = state.order[playing]
    if not asking:
        raise PositionError("say what the card being played asks (capture ... or tuck ...)")
    line = " ".join(asking)
    if asking[0] == "tuck" and len(asking) == 2:
        state.tuck_card = _card(asking[1], line)
        if state.tuck_card != state.chosen[owner]:
            raise PositionError(f"{line!r}: only the Aztec player {owner} played can be tucked")
        state.phase = Phase.TUCK
    elif asking[0] == "capture" and len(asking) >= 3:
        state.saucer = _card(asking[1], line)
        if state.saucer != state.chosen[owner] or KIND[state.saucer] is not Kind.SAUCER:
            raise PositionError(f"{line!r}: name the Flying Saucer player {owner} played")
        state.victims = tuple(_player(v, n, line) for v in asking[2:])
        state.phase = Phase.CAPTURE
    else:
        raise PositionError(
            f"cannot read {line!r}: write `capture SAUCER VICTIM...` or `tuck CARD`"
        )


def to_position(state: SpaceAztecsState) -> str:
    """The text of any position (`from_position` reads it back)."""
    n = state.num_players
    lines = []
    if n <= 4:
        lines.append(f"removed {COLOURS[state.removed]}")
    lines += [f"start {state.start}", f"round {state.round}"]
    for x in range(NUM_PILES):
        cards = state.pile_cards(x)
        holder = state.holder[x]
        unplayed = state.chosen[holder] if holder >= 0 else -1
        if unplayed >= 0 and state.where[unplayed] == CHOSEN + holder:
            cards = sorted([*cards, unplayed])  # written in its pile, then `chose`
        lines.append(f"pile {pile_text(x)}: {' '.join(CARD_ID[c] for c in cards) or '-'}")
    for p in range(n):
        tokens = []
        for c in state.cards_at(CITY + p):
            under = [
                CARD_ID[u]
                for u in range(NUM_CARDS)
                if state.host[u] == c and state.where[u] >= TEMPLED
            ]
            tokens.append(f"{CARD_ID[c]}[{' '.join(under)}]" if under else CARD_ID[c])
        lines.append(f"city {p}: {' '.join(tokens)}".rstrip())
    order = [(state.start + i) % n for i in range(state.picks)]
    lines += [f"held {p}: {pile_text(state.held[p])}" for p in order]
    lines += [f"chose {p}: {CARD_ID[state.chosen[p]]}" for p in order if state.chosen[p] >= 0]
    for p in range(n):
        seen = [
            f"{pile_text(x)}@{state.seen_round[p * NUM_PILES + x]}"
            for x in range(NUM_PILES)
            if state.seen_round[p * NUM_PILES + x] and state.held[p] != x
        ]
        if seen:
            lines.append(f"seen {p}: {' '.join(seen)}")
    if state.last_played:
        lines.append(f"last: {' '.join(CARD_ID[c] for c in state.last_played)}")
    if state.order:
        lines.append(f"playing: {state.playing}")
    if state.phase is Phase.CAPTURE:
        victims = " ".join(str(v) for v in state.victims)
        lines.append(f"capture: {CARD_ID[state.saucer]} {victims}")
    elif state.phase is Phase.TUCK:
        lines.append(f"tuck: {CARD_ID[state.tuck_card]}")
    return "\n".join(lines) + "\n"
