"""Positions written as text, so that rule tests read like the rulebook.

One `key: value` per line; blank lines and `#` comments are ignored:

    stacks: Rc Rt Bt / Oh      # stacks bottom to top, separated by '/', numbered from 0
    hand 0: Rs Bx              # every player's hand (required for each player)
    hand 1: Gx Ph Ph
    pile: Rc Bt                # the pile in draw order; '-' is empty; omitted: every tile
                               # not elsewhere, in tile order
    turn: 0                    # whose turn (default 0); also: used, placed, idle, scores, starter
    rounds: 3 0 won 1 / 5 2 stuck   # optional: finished rounds, points per player and how each
                                    # ended (won by a player, or stuck)
    ended: won                      # optional: the match is over, its last round won (or stuck)

`used: 0 2` lists the stacks that received a tile this turn. `scores` defaults to the sum of
`rounds` (a larger total carries points of earlier rounds). A hand may be empty (`-`) only in a
finished match. A built position
has no seed, so it cannot be saved; it can be played on, cloned and determinized like any other.
`to_position` writes every key, so that `from_position` gives back the same position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from teocalli.core import InvalidAction

from .components import (
    COLOUR,
    COPIES,
    MAX_OF_A_COLOUR,
    MAX_STACKS,
    NUM_COLOURS,
    NUM_TILES,
    TILE_TEXT,
    parse_tile,
)
from .state import EndReason, StakzState, colour_bits

if TYPE_CHECKING:
    from .game import Stakz

_KEYS = ("stacks", "pile", "turn", "used", "placed", "idle", "scores", "starter", "rounds", "ended")


def _tiles(text: str, where: str) -> list[int]:
    if text.strip() == "-":
        return []
    out = []
    for word in text.split():
        t = parse_tile(word)
        if t is None:
            raise InvalidAction(f"position: {word!r} in {where} is not a tile like Rc")
        out.append(t)
    return out


def _ints(text: str, where: str) -> list[int]:
    try:
        return [int(w) for w in text.split()]
    except ValueError:
        raise InvalidAction(f"position: {where} takes whole numbers, not {text!r}") from None


def from_position(game: Stakz, text: str) -> StakzState:
    """The position `text` describes (see the module docstring); InvalidAction if it is not one."""
    n = game.num_players
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not colon or (key not in _KEYS and not key.startswith("hand ")):
            raise InvalidAction(f"position: cannot read the line {raw.strip()!r}")
        if key in fields:
            raise InvalidAction(f"position: {key!r} is given twice")
        fields[key] = value
    state = game.new_state(0)
    state.seed = None
    stacks = [tuple(_tiles(part, "stacks")) for part in fields.get("stacks", "").split("/")]
    if not all(stacks):
        raise InvalidAction("position: every stack needs at least one tile")
    if len(stacks) > MAX_STACKS:
        raise InvalidAction(f"position: there are never more than {MAX_STACKS} stacks")
    for s, stack in enumerate(stacks):
        seen, _ = colour_bits(stack)
        counts = [0] * NUM_COLOURS
        for t in stack:
            counts[COLOUR[t]] += 1
        if max(counts) > MAX_OF_A_COLOUR:
            raise InvalidAction(f"position: stack {s} holds three tiles of one colour")
        if seen == (1 << NUM_COLOURS) - 1:
            raise InvalidAction(f"position: stack {s} holds all five colours (it would have split)")
    hands = []
    for p in range(n):
        if f"hand {p}" not in fields:
            raise InvalidAction(f"position: give every hand, 'hand {p}:' is missing")
        hand = [0] * NUM_TILES
        for t in _tiles(fields.pop(f"hand {p}"), f"hand {p}"):
            hand[t] += 1
        if not any(hand) and "ended" not in fields:
            raise InvalidAction(f"position: hand {p} is empty, so the round would be over")
        hands.append(hand)
    extra = [k for k in fields if k.startswith("hand ")]
    if extra:
        raise InvalidAction(f"position: {extra[0]!r} names no player of a {n}-player game")
    used_count = [0] * NUM_TILES
    for stack in stacks:
        for t in stack:
            used_count[t] += 1
    for hand in hands:
        for t in range(NUM_TILES):
            used_count[t] += hand[t]
    if "pile" in fields:
        pile = _tiles(fields["pile"], "pile")
    else:
        pile = [t for t in range(NUM_TILES) for _ in range(max(0, COPIES - used_count[t]))]
    for t in pile:
        used_count[t] += 1
    for t in range(NUM_TILES):
        if used_count[t] > COPIES:
            raise InvalidAction(f"position: there are only {COPIES} tiles {TILE_TEXT[t]}")
    state.stacks = stacks
    state.hands = hands
    state.hand_size = [sum(h) for h in hands]
    state.pile = pile
    state.pile_colours = [0] * NUM_COLOURS
    for t in pile:
        state.pile_colours[COLOUR[t]] += 1
    (state.player,) = _one(fields.get("turn", "0"), "turn", n)
    (state.starter,) = _one(fields.get("starter", "0"), "starter", n)
    used = _ints(fields.get("used", ""), "used")
    if any(not 0 <= s < len(stacks) for s in used):
        raise InvalidAction(f"position: used names a stack that is not there: {used}")
    state.used = sum(1 << s for s in set(used))
    state.placed = _ints(fields.get("placed", str(len(set(used)))), "placed")[0]
    state.idle = _ints(fields.get("idle", "0"), "idle")[0]
    state.rounds = _rounds(fields.get("rounds", ""), n)
    if "scores" in fields:
        scores = _ints(fields["scores"], "scores")
        if len(scores) != n:
            raise InvalidAction(f"position: give {n} scores, not {len(scores)}")
        state.scores = scores
    else:
        state.scores = [sum(points[p] for points, _ in state.rounds) for p in range(n)]
    ended = fields.get("ended", "").strip()
    if ended not in ("", "won", "stuck"):
        raise InvalidAction(f"position: ended is 'won' or 'stuck', not {ended!r}")
    state.over = bool(ended)
    state.reason = EndReason.STUCK_ROUND if ended == "stuck" else EndReason.ROUND_WON
    return state


def _rounds(text: str, n: int) -> list[tuple[tuple[int, ...], int]]:
    """`3 0 won 1 / 5 2 stuck`: each finished round's points and its winner (-1: stuck)."""
    out: list[tuple[tuple[int, ...], int]] = []
    for part in text.split("/") if text.strip() else []:
        words = part.split()
        how = words[n:]
        points = tuple(_ints(" ".join(words[:n]), "rounds"))
        if len(points) != n or how[:1] not in (["won"], ["stuck"]):
            raise InvalidAction(
                f"position: write each round as {n} points then 'won P' or 'stuck', not {part!r}"
            )
        winner = _one(" ".join(how[1:]), "rounds' winner", n)[0] if how[0] == "won" else -1
        if how[0] == "stuck" and len(how) != 1:
            raise InvalidAction(f"position: a stuck round has no winner: {part!r}")
        out.append((points, winner))
    return out


def _tiles_text(tiles: list[int]) -> str:
    return " ".join(TILE_TEXT[t] for t in tiles) or "-"


def to_position(state: StakzState) -> str:
    """The position in the notation above, every key written (`from_position` reads it back)."""
    lines = ["stacks: " + " / ".join(_tiles_text(list(s)) for s in state.stacks)]
    for p, hand in enumerate(state.hands):
        tiles = [t for t in range(NUM_TILES) for _ in range(hand[t])]
        lines.append(f"hand {p}: {_tiles_text(tiles)}")
    lines += [
        f"pile: {_tiles_text(state.pile)}",
        f"turn: {state.player}",
        f"starter: {state.starter}",
        "used: " + " ".join(str(s) for s in range(len(state.stacks)) if state.used >> s & 1),
        f"placed: {state.placed}",
        f"idle: {state.idle}",
        "scores: " + " ".join(str(s) for s in state.scores),
    ]
    if state.rounds:
        rounds = [
            " ".join(str(x) for x in points) + (f" won {w}" if w >= 0 else " stuck")
            for points, w in state.rounds
        ]
        lines.append("rounds: " + " / ".join(rounds))
    if state.over:
        lines.append(f"ended: {'stuck' if state.reason is EndReason.STUCK_ROUND else 'won'}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _one(text: str, where: str, n: int) -> list[int]:
    values = _ints(text, where)
    if len(values) != 1 or not 0 <= values[0] < n:
        raise InvalidAction(f"position: {where} must be one player, 0 to {n - 1}")
    return values
