"""The greedy bot's exact turn planner (agents/heuristics/shifting_stones/planner.py): the most
points a hand can score this turn, checked against a brute force over every walk of the grid."""

from __future__ import annotations

from teocalli.agents.heuristics.shifting_stones.planner import best_turn, path_for
from teocalli.core import Rng
from teocalli.games.shifting_stones.components import POINTS, matches
from teocalli.games.shifting_stones.grid import (
    NUM_GRIDS,
    grid_from_index,
    grid_index,
    neighbours,
    parse_grid,
)
from teocalli.games.shifting_stones.solver import SOLVER


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
