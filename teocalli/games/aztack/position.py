"""Positions written in Aztack notation, for tests and puzzles.

    A: Bt/Gw Yf/Gt Gt/Bw Yw/Gf Yt/Gw Rd/Gt   # base row A: each stone's halves on rows 1 and 2
    B: Bw/Rd Of/Bw Od/Bt Ow/Rt Rd/Yf Bd/Gt   # base row B: halves on rows 3 and 4
    placed: Bd/Yw@a1-b1                       # stones already placed, in order (rules checked)
    hand 0: Gf/Ow Rf/Gw                       # each player's hand
    hand 1: Od/Yt
    turn: 1                                   # optional: whose turn (default 0)

Every stone not named is out of play. The game's options (players, speed) come from `game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from teocalli.core import IllegalAction, InvalidAction

from .actions import Place, parse
from .components import BASE_CELLS, NUM_STONES, find_stone, parse_half
from .state import AztackState, _mask

if TYPE_CHECKING:
    from .game import Aztack


def _stone(text: str) -> tuple[int, bool]:
    a, _, b = text.partition("/")
    ha, hb = parse_half(a), parse_half(b)
    found = None if ha is None or hb is None else find_stone(ha, hb)
    if found is None:
        raise InvalidAction(f"{text!r} is not a stone of the set")
    return found


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
    if len(set(used)) != len(used):
        raise InvalidAction("a stone appears twice in the position")
    state.out_of_play = _mask([s for s in range(NUM_STONES) if s not in used])
    state.turn = int(fields.get("turn", ["0"])[0])
    state.seed = None  # not dealt from a seed: it cannot be saved as a replay
    return state


def to_position(state: AztackState) -> str:
    """Write a state in the position notation (`from_position` reads it back)."""
    from .actions import Place
    from .components import stone_text
    from .state import stones_of

    base, placed = state.placed[:12], state.placed[12:]
    words = [stone_text(s, flipped=p > q) for s, p, q, _ in base]
    lines = [f"A: {' '.join(words[:6])}", f"B: {' '.join(words[6:])}"]
    if placed:
        lines.append("placed: " + " ".join(str(Place(s, p, q)) for s, p, q, _ in placed))
    for player, hand in enumerate(state.hands):
        lines.append(f"hand {player}: " + " ".join(stone_text(s) for s in stones_of(hand)))
    lines.append(f"turn: {state.turn}")
    return "\n".join(lines) + "\n"
