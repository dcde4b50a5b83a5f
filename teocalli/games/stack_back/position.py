"""Positions written in Stack Back notation, for tests and puzzles.

    sticks: 0:Y20.0,50.0@90.0 1:Y50,50@90   # owner:pose, placed in this order (rules checked,
            0:G35,50@0                      #   all but the turn and the level rule)
    supply 0: 9 10 9                        # optional: sticks left (yellow mauve green)
    turn: 1                                 # optional: whose turn (default 0)
    placed: 2                               # optional: sticks already placed this turn
    floor: 0 1                              # optional: each player's level floor
    idle: 1                                 # optional: turns in a row that placed nothing
    piled: 3 1                              # optional: each player's sticks placed on others
    passes: 0 1                             # optional: each player's turns passed
    fumbles: 1 0                            # optional: each player's sticks that slipped
                                            #   (dexterity)

A line without a key continues the previous key. The game's options come from `game`.
`to_position` writes every key, so that `from_position` gives back the same position (the
search's caches start empty: they fill again on demand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from teocalli.core import InvalidAction

from .actions import Place, parse
from .state import StackBackState

if TYPE_CHECKING:
    from .game import StackBack


def from_position(game: StackBack, text: str) -> StackBackState:
    """Build a state from the position notation above."""
    fields: dict[str, list[str]] = {}
    key = ""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, colon, value = line.partition(":")
        if colon and not head.strip()[:1].isdigit():
            key = head.strip()
            fields[key] = value.split()
        elif key:
            fields[key] += line.split()
        else:
            raise InvalidAction(f"position line {line!r} has no key (like 'sticks:')")
    state = game.new_state(0)
    for word in fields.get("sticks", []):
        owner, colon, rest = word.partition(":")
        if not colon or owner not in ("0", "1"):
            raise InvalidAction(f"{word!r}: write each stick as owner:pose, like 0:Y20,50@90")
        place = parse(rest)
        if not isinstance(place, Place):
            raise InvalidAction(f"{word!r} is not a pose")
        state.lay(place, int(owner))
    for p in range(2):
        if f"supply {p}" in fields:
            counts = [int(w) for w in fields[f"supply {p}"]]
            if len(counts) != 3 or min(counts) < 0:
                raise InvalidAction("a supply is three counts: yellow mauve green")
            state.supply[p] = counts
    state.turn = int(fields.get("turn", ["0"])[0])
    state.placed_this_turn = int(fields.get("placed", ["0"])[0])
    state.floor = _pair(fields, "floor")
    state.idle = int(fields.get("idle", ["0"])[0])
    state.piled_plays = _pair(fields, "piled")
    state.passes = _pair(fields, "passes")
    state.fumbles = _pair(fields, "fumbles")
    state._cache = None
    state.seed = None  # not dealt from a seed: it cannot be saved as a replay
    return state


def _pair(fields: dict[str, list[str]], key: str) -> list[int]:
    words = fields.get(key, ["0", "0"])
    if len(words) != 2 or not all(w.isdigit() for w in words):
        raise InvalidAction(f"position: {key} takes two whole numbers, one per player")
    return [int(w) for w in words]


def to_position(state: StackBackState) -> str:
    """The position in the notation above, every key written (`from_position` reads it back)."""
    sticks = [f"{s.owner}:{s.pose}" for s in state.sticks]
    rows = [" ".join(sticks[i : i + 4]) for i in range(0, len(sticks), 4)] or [""]
    lines = [f"sticks: {rows[0]}".rstrip(), *(f"        {row}" for row in rows[1:])]
    lines += [f"supply {p}: {' '.join(str(n) for n in state.supply[p])}" for p in range(2)]
    lines += [
        f"turn: {state.turn}",
        f"placed: {state.placed_this_turn}",
        f"floor: {state.floor[0]} {state.floor[1]}",
        f"idle: {state.idle}",
        f"piled: {state.piled_plays[0]} {state.piled_plays[1]}",
        f"passes: {state.passes[0]} {state.passes[1]}",
        f"fumbles: {state.fumbles[0]} {state.fumbles[1]}",
    ]
    return "\n".join(lines) + "\n"
