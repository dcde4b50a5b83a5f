"""The exact solver: BFS distance tables checked against brute force, and plans (the greedy
bot's planner on these tables is tested in tests/agents/test_planner_shifting_stones.py)."""

from __future__ import annotations

import numpy as np
import pytest

from teocalli.core import Rng
from teocalli.games.shifting_stones.components import matches
from teocalli.games.shifting_stones.grid import (
    NUM_GRIDS,
    grid_from_index,
    grid_index,
    neighbours,
)
from teocalli.games.shifting_stones.solve_cli import run
from teocalli.games.shifting_stones.solver import SOLVER, match_mask

CARDS = (21, 20, 37, 12, 8)  # a 1x2, a 5-point 3x3, a grey-square column, Fish centre, Sun corner


def brute_distance(grid: list[int], card: int, limit: int) -> int | None:
    """Breadth-first search from one grid, in plain Python, up to `limit` moves."""
    start = grid_index(grid)
    frontier, seen = [start], {start}
    for depth in range(limit + 1):
        if any(matches(card, grid_from_index(i)) for i in frontier):
            return depth
        nxt = []
        for i in frontier:
            for nb in neighbours(i):
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return None


def test_there_are_2580480_grids_and_21_moves_each_its_own_inverse() -> None:
    assert NUM_GRIDS == 2_580_480
    rng = Rng(5)
    for _ in range(200):
        i = rng.randrange(NUM_GRIDS)
        nbs = neighbours(i)
        assert len(nbs) == 21
        for m, nb in enumerate(nbs):
            assert neighbours(nb)[m] == i


@pytest.mark.parametrize("card", CARDS)
def test_match_mask_agrees_with_the_rule_engine(card: int) -> None:
    mask = match_mask(card)
    rng = Rng(card)
    for _ in range(300):
        i = rng.randrange(NUM_GRIDS)
        assert bool(mask[i]) == matches(card, grid_from_index(i))


@pytest.mark.parametrize("card", CARDS)
def test_distances_against_brute_force_on_sample_grids(card: int) -> None:
    rng = Rng(100 + card)
    for _ in range(6):
        grid = grid_from_index(rng.randrange(NUM_GRIDS))
        exact = SOLVER.distance(card, grid)
        brute = brute_distance(grid, card, 3)
        assert exact == brute if brute is not None else exact > 3


@pytest.mark.parametrize("card", CARDS)
def test_distance_tables_are_consistent_bfs_tables(card: int) -> None:
    """d = 0 exactly on matches, else 1 + the least neighbour: the characterisation of BFS."""
    table = SOLVER.distances(card)
    assert int(table.max()) <= 10
    assert np.array_equal(table == 0, match_mask(card))
    rng = Rng(7 * card)
    for _ in range(300):
        i = rng.randrange(NUM_GRIDS)
        if table[i]:
            assert table[i] == 1 + min(int(table[nb]) for nb in neighbours(i))


@pytest.mark.parametrize("card", CARDS)
def test_plans_are_shortest_and_end_in_a_match(card: int) -> None:
    rng = Rng(card + 1)
    for _ in range(10):
        grid = grid_from_index(rng.randrange(NUM_GRIDS))
        plan = SOLVER.plan(card, grid)
        assert len(plan) == SOLVER.distance(card, grid)
        for kind, a, b in plan:
            if kind == "shift":
                grid[a], grid[b] = grid[b], grid[a]
            else:
                grid[a] ^= 1
        assert matches(card, grid)


def test_solve_command_prints_the_distance_and_a_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["Su Fi Ho / Bo Se Tr / Se Ho Bi", "21"]) == 0
    out = capsys.readouterr().out
    assert "actions needed: 1" in out and "flip 5" in out and "score 21" in out
    with pytest.raises(SystemExit):
        run(["Su Fi Ho / Bo Se Tr", "21"])
