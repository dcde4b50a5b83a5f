"""The exact solver: BFS distance tables checked against brute force, plans, and the planner."""

from __future__ import annotations

import numpy as np
import pytest

from teocalli.core import Rng
from teocalli.games.shifting_stones.components import POINTS, matches
from teocalli.games.shifting_stones.grid import (
    NUM_GRIDS,
    grid_from_index,
    grid_index,
    neighbours,
    parse_grid,
)
from teocalli.games.shifting_stones.planner import best_turn, path_for
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


def brute_best_points(grid: list[int], hand: list[int]) -> int:
    """Every path of up to len(hand) - 1 moves: the best points its visited matches allow."""
    n = len(hand)
    best = 0

    def walk(index: int, depth: int, matched: frozenset[int]) -> None:
        nonlocal best
        here = grid_from_index(index)
        matched = matched | {c for c in hand if matches(c, here)}
        room = n - depth  # cards not spent on moves
        points = sorted((POINTS[c] for c in matched), reverse=True)[:room]
        best = max(best, sum(points))
        if depth + 1 < n:
            for nb in neighbours(index):
                walk(nb, depth + 1, matched)

    walk(grid_index(grid), 0, frozenset())
    return best


def test_planner_scores_as_many_points_as_the_hand_allows() -> None:
    grid = parse_grid("Su Fi Ho / Bo Se Tr / Se Ho Bi")
    # 21 (1 point) needs 1 flip, 2 and 3 (3 points) need 2 moves, 20 (5 points) needs 6
    plan = best_turn(grid, [21, 20, 3, 2])
    assert plan.points == 3 and len(plan.moves) == 2
    # seven cards: 1 + 2 + 3 (7 points in 3 moves) beat the 5-point card (6 moves)
    plan7 = best_turn(grid, [20, 1, 2, 3, 4, 5, 6])
    assert plan7.cards == (1, 2, 3) and plan7.points == 7


def test_planner_may_spend_a_matching_card_to_reach_a_better_one() -> None:
    # 21 (Tr Tr) matches now, 44 (Se Se Se, 3 points) needs 2 moves: pay with 21 and 10
    grid = parse_grid("Ho Bi Mo / Ho Bi Ho / Se Tr Tr")
    assert matches(21, grid) and SOLVER.distance(44, grid) == 2
    plan = best_turn(grid, [21, 44, 10])
    assert plan.cards == (44,) and plan.points == 3


def test_planner_agrees_with_brute_force_on_sample_hands() -> None:
    rng = Rng(11)
    for _ in range(4):
        grid = grid_from_index(rng.randrange(NUM_GRIDS))
        hand: set[int] = set()
        while len(hand) < 4:
            hand.add(1 + rng.randrange(72))
        assert best_turn(grid, sorted(hand)).points == brute_best_points(grid, sorted(hand))


def test_paths_visit_every_card_of_a_set() -> None:
    grid = parse_grid("Su Fi Ho / Bo Se Tr / Se Ho Bi")
    path = path_for(grid, (21, 67), 3)
    assert path is not None
    index = grid_index(grid)
    seen = {c for c in (21, 67) if matches(c, grid)}
    for move in path:
        index = neighbours(index)[move]
        seen |= {c for c in (21, 67) if matches(c, grid_from_index(index))}
    assert seen == {21, 67}


def test_solve_command_prints_the_distance_and_a_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["Su Fi Ho / Bo Se Tr / Se Ho Bi", "21"]) == 0
    out = capsys.readouterr().out
    assert "actions needed: 1" in out and "flip 5" in out and "score 21" in out
    with pytest.raises(SystemExit):
        run(["Su Fi Ho / Bo Se Tr", "21"])
