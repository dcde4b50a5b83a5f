"""The generated pattern matchers (`components.MATCHERS`, what `matches` reads) give the
placement tables' answer for every card, on grids that hold a placement and on grids that do
not."""

from __future__ import annotations

from teocalli.core import Rng
from teocalli.games.shifting_stones.components import (
    CARD_IDS,
    CELLS,
    MATCHERS,
    PLACEMENTS,
    matches,
    matches_by_table,
)
from teocalli.games.shifting_stones.grid import random_grid


def test_the_matchers_are_the_engines_rule() -> None:
    """Every card on random grids (mostly no match), and on grids made to hold each of its
    placements (a match, wherever the rest of the grid lies)."""
    rng = Rng(3)
    grids = [random_grid(rng) for _ in range(3000)]
    for card in CARD_IDS:
        for checks in PLACEMENTS[card]:
            grid = random_grid(rng)
            for cell, symbol in checks:
                grid[cell] = symbol
            grids.append(grid)
    hits = 0
    for grid in grids:
        assert len(grid) == CELLS
        for card in CARD_IDS:
            expected = matches_by_table(card, grid)
            assert MATCHERS[card](grid) is expected, (card, grid)
            assert matches(card, grid) is expected, (card, grid)
            hits += expected
    assert hits >= sum(len(p) for p in PLACEMENTS.values())
