"""Positions written in Aztack notation, for tests and puzzles.

    A: Bt/Gw Yf/Gt Gt/Bw Yw/Gf Yt/Gw Rd/Gt   # base row A: each stone's halves on rows 1 and 2
    B: Bw/Rd Of/Bw Od/Bt Ow/Rt Rd/Yf Bd/Gt   # base row B: halves on rows 3 and 4
    placed: Bd/Yw@a1-b1                       # stones already placed, in order (rules checked)
    hand 0: Gf/Ow Rf/Gw                       # each player's hand
    hand 1: Od/Yt
    turn: 1                                   # optional: whose turn (default 0)
    discarded: Rw/Bf                          # optional: stones discarded after bonuses
    pending: 1                                # optional: players who owe a discard-or-keep
    last placed: 14 -1                        # optional: each player's latest placing step
                                              #   (-1: none; breaks ties at the end)

Every stone not named is out of play. The game's options (players, speed, declare) come from
`game`; placements need no declared match. The game is over, as after a step, when a hand is
empty (its player wins) or when nobody owes a decision and no stone in any hand fits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from teocalli.core import IllegalAction, InvalidAction

from .actions import Place, parse
from .components import BASE_CELLS, NUM_STONES, find_stone, parse_half, stone_text
from .state import AztackState, _mask, stones_of

if TYPE_CHECKING:
    from .game import Aztack


def _stone(text: str) -> tuple[int, bool]:
    a, _, b = text.partition("/")
    ha, hb = parse_half(a), parse_half(b)
    found = None if ha is None or hb is None else find_stone(ha, hb)
    if found is None:
        raise InvalidAction(f"{text!r} is not a stone of the set")
    return found


def _ints(words: list[str], key: str) -> list[int]:
    try:
        return [int(w) for w in words]
    except ValueError:
        raise InvalidAction(
            f"position: {key} takes whole numbers, not {' '.join(words)!r}"
        ) from None


def from_position(game: Aztack, text: str) -> AztackState:
    """Build a state from the position notation above (placements are checked by the rules)."""
    fields: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), []).extend(value.split())
    state = game.new_state(0)
    n = game.num_players
    used: list[int] = []
    state.height = [0] * len(state.height)
    state.top_stone = [-1] * len(state.top_stone)
    state.placed = []
    rows = fields.get("A", []) + fields.get("B", [])
    if len(rows) != 12:
        raise InvalidAction("a position needs 6 base stones in row A and 6 in row B")
    for i, word in enumerate(rows):
        stone, flipped = _stone(word)
        p, q = BASE_CELLS[i]
        state._lay(stone, *((q, p) if flipped else (p, q)))
        used.append(stone)
    state.hands = [0] * n
    for p in range(n):
        stones = [_stone(w)[0] for w in fields.get(f"hand {p}", [])]
        state.hands[p] = _mask(stones)
        used += stones
    state._refresh()
    declare, state.declare = state.declare, False  # the notation writes no declarations
    for word in fields.get("placed", []):
        action = parse(word)
        if not isinstance(action, Place):
            raise InvalidAction(f"{word!r} is not a placement")
        state.hands[0] |= 1 << action.stone
        reason = state.placement_reason(action, 0)
        state.hands[0] &= ~(1 << action.stone)
        if reason:
            raise IllegalAction(f"position: {word}: {reason}")
        state._lay(action.stone, action.p, action.q)
        used.append(action.stone)
        state._refresh()
    state.declare = declare
    discarded = [_stone(w)[0] for w in fields.get("discarded", [])]
    state.discarded = _mask(discarded)
    used += discarded
    if len(set(used)) != len(used):
        raise InvalidAction("a stone appears twice in the position")
    state.out_of_play = _mask([s for s in range(NUM_STONES) if s not in used])
    turn = _players(fields.get("turn", ["0"]), "turn", n)
    if len(turn) != 1:
        raise InvalidAction("position: turn is one player")
    state.turn = turn[0]
    state.pending = _mask(_players(fields.get("pending", []), "pending", n))
    last = _ints(fields.get("last placed", ["-1"] * n), "last placed")
    if len(last) != n or min(last) < -1:
        raise InvalidAction(f"position: last placed gives {n} steps (-1: never placed)")
    state.last_placed = last
    empty = [p for p in range(n) if not state.hands[p]]
    if len(empty) > 1:
        raise InvalidAction("position: only one hand can be empty (its player has won)")
    state.winner = empty[0] if empty else -1
    state.over = bool(empty) or not (
        state.pending or any(h & state.fits_anywhere for h in state.hands)
    )
    state.seed = None  # not dealt from a seed: it cannot be saved as a replay
    return state


def _players(words: list[str], key: str, n: int) -> list[int]:
    players = _ints(words, key)
    if any(not 0 <= p < n for p in players):
        raise InvalidAction(f"position: {key} names players 0 to {n - 1}")
    return players


def to_position(state: AztackState) -> str:
    """Write a state in the position notation (`from_position` reads it back)."""
    base, placed = state.placed[:12], state.placed[12:]
    words = [stone_text(s, flipped=p > q) for s, p, q, _ in base]
    lines = [f"A: {' '.join(words[:6])}", f"B: {' '.join(words[6:])}"]
    if placed:
        lines.append("placed: " + " ".join(str(Place(s, p, q)) for s, p, q, _ in placed))
    for player, hand in enumerate(state.hands):
        lines.append(f"hand {player}: " + " ".join(stone_text(s) for s in stones_of(hand)))
    lines.append(f"turn: {state.turn}")
    if state.discarded:
        lines.append("discarded: " + " ".join(stone_text(s) for s in stones_of(state.discarded)))
    if state.pending:
        lines.append("pending: " + " ".join(str(p) for p in stones_of(state.pending)))
    lines.append("last placed: " + " ".join(str(s) for s in state.last_placed))
    return "\n".join(lines) + "\n"
