"""The blocked end that Stack Back's rule, perft, id and breakdown tests share: a greedy game's
end that two passes ended (tests/data/stack-back-blocked.txt), with the slivers the free-space
stage of the pass search (free_space.py) finds in it filled, so that no pose at all is left."""

from __future__ import annotations

from pathlib import Path

import teocalli
from teocalli.games.stack_back import StackBackState, from_position, parse

BLOCKED = (Path(__file__).parents[2] / "data" / "stack-back-blocked.txt").read_text()
"""The data position: supplies of 3 2 0 and 2 1 0 sticks that fit nowhere on the 4 mm / 5 degree
lattice of search.py (its free-space stage finds slivers: `FILLERS`)."""

FILLERS = (
    (0, "Y53.6,14.0@0.2"), (0, "M44.0,16.0@0.0"), (1, "Y44.8,1.2@0.2"), (0, "Y76.2,98.8@0.2"),
    (1, "M117.8,68.8@22.2"), (0, "M188.6,95.8@68.2"), (1, "M118.8,11.4@154.4"),
    (1, "Y124.0,8.0@110.0"), (0, "Y224.4,97.6@156.7"), (0, "M216.0,92.0@0.0"),
)  # fmt: skip
"""The slivers the free-space search finds in the data position, found and filled one by one:
with them placed, no pose at all is left for either player."""


def blocked(text: str = BLOCKED, fillers: int = len(FILLERS), **options: object) -> StackBackState:
    """The position `text` (the data position by default) with `FILLERS` laid (the first
    `fillers` of them), its supplies kept.

    The fillers are laid, not written in the notation: they give an owner more sticks of a colour
    than the notation lets one hold."""
    game = teocalli.load("stack-back", **options)
    state: StackBackState = from_position(game, text)  # type: ignore[arg-type]
    supply = [list(s) for s in state.supply]
    state.supply = [[9, 9, 9], [9, 9, 9]]
    for owner, pose in FILLERS[:fillers]:
        state.lay(parse(pose), owner)
    state.supply = supply
    state._cache = None  # the supplies changed at the same step
    state._id_table = None
    return state
