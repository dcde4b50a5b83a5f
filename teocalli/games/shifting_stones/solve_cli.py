"""`teocalli solve shifting-stones GRID CARD`: exact actions a grid needs before a card scores."""

from __future__ import annotations

import argparse

from .components import CARDS, POINTS, pattern_text
from .grid import grid_text, parse_grid
from .solver import SOLVER


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="teocalli solve shifting-stones",
        description="The exact number of shift/flip actions the grid needs before CARD scores, "
        "and one shortest plan (from breadth-first search over all 2,580,480 grids; the card's "
        "table is built and cached on first use).",
    )
    parser.add_argument(
        "grid", help="the grid, rows top to bottom: 'Su Fi Ho / Bo Se Tr / Se Tr Bi'"
    )
    parser.add_argument("card", type=int, help="the pattern card's id, 1-72")
    args = parser.parse_args(argv)
    try:
        grid = parse_grid(args.grid)
    except ValueError as err:
        parser.error(str(err))
    if args.card not in CARDS:
        parser.error(f"there is no card {args.card} (cards are 1 to 72)")
    plan = SOLVER.plan(args.card, grid)
    print(f"card {args.card} ({POINTS[args.card]} pt): {pattern_text(args.card)}")
    print(f"grid: {grid_text(grid)}")
    print(f"actions needed: {len(plan)}")
    for step, (kind, a, b) in enumerate(plan, start=1):
        if kind == "shift":
            grid[a], grid[b] = grid[b], grid[a]
            print(f"  {step}. shift {a + 1}-{b + 1}  -> {grid_text(grid)}")
        else:
            grid[a] ^= 1
            print(f"  {step}. flip {a + 1}      -> {grid_text(grid)}")
    print(f"then: score {args.card}")
    return 0
