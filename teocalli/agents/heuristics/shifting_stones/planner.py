"""Exact turn planning on the solver's tables: the most points a hand can score this turn.

A hand of n cards scoring the set S can pay for at most n - |S| moves. `best_turn` tries the sets
of the hand from the most valuable down and returns the first that some path of at most that
many moves visits a matching grid for every card of (scoring a card costs no move, so each is
scored as soon as the path reaches it). Feasibility is an iterative-deepening search over the 21
moves, pruned by the exact distance tables: a grid is abandoned when some card still to score is
further away than the moves left. It is exact: no better set is feasible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from teocalli.games.shifting_stones.components import POINTS
from teocalli.games.shifting_stones.grid import grid_index, neighbours
from teocalli.games.shifting_stones.solver import SOLVER, Solver

MAX_PLANNED_HAND = 10
"""Hands beyond this (only after repeated skips) plan with their 10 most promising cards."""


@dataclass(frozen=True)
class Plan:
    """The cards to score and the moves (neighbour numbers: 0-11 swaps, 12-20 flips of cells
    0-8), with `scores_after[k]` the cards scored once k moves are made."""

    cards: tuple[int, ...]
    moves: tuple[int, ...]
    scores_after: tuple[tuple[int, ...], ...]

    @property
    def points(self) -> int:
        return sum(POINTS[c] for c in self.cards)


EMPTY = Plan((), (), ((),))


def _search(
    tables: dict[int, bytes],
    index: int,
    cards: tuple[int, ...],
    left: int,
    failed: set[tuple[int, tuple[int, ...], int]],
) -> list[int] | None:
    # the solver's packed tables read inline: this is the bots' innermost loop
    remaining = []
    worst = 0
    half, odd = index >> 1, index & 1
    for c in cards:
        byte = tables[c][half]
        d = (byte >> 4) if odd else (byte & 15)
        if d:
            remaining.append(c)
            worst = max(worst, d)
    if not remaining:
        return []
    if worst > left:
        return None
    key = (index, tuple(remaining), left)
    if key in failed:
        return None
    rest_cards = key[1]
    for move, nb in enumerate(neighbours(index)):
        rest = _search(tables, nb, rest_cards, left - 1, failed)
        if rest is not None:
            return [move, *rest]
    failed.add(key)
    return None


def path_for(
    grid: Sequence[int], cards: Sequence[int], budget: int, solver: Solver = SOLVER
) -> list[int] | None:
    """A shortest list of moves of length at most `budget` along which every card matches at
    some point; None if there is none."""
    index = grid_index(grid)
    cards = tuple(cards)
    if not cards:
        return []
    low = max(solver.distance_at(c, index) for c in cards)
    tables = {c: solver.table(c) for c in cards}
    failed: set[tuple[int, tuple[int, ...], int]] = set()
    for limit in range(low, budget + 1):
        path = _search(tables, index, cards, limit, failed)
        if path is not None:
            return path
    return None


def scores_along(
    grid: Sequence[int], cards: Sequence[int], moves: Sequence[int], solver: Solver = SOLVER
) -> tuple[tuple[int, ...], ...]:
    """Per number of moves made (0 to all), the cards of `cards` that first match then."""
    index = grid_index(grid)
    left = list(cards)
    out = []
    for k in range(len(moves) + 1):
        if k:
            index = neighbours(index)[moves[k - 1]]
        now = tuple(c for c in left if solver.distance_at(c, index) == 0)
        left = [c for c in left if c not in now]
        out.append(now)
    return tuple(out)


def within_reach(
    grid: Sequence[int], hand: Sequence[int], solver: Solver = SOLVER
) -> list[tuple[tuple[int, ...], int]]:
    """Every set S of hand cards (of the `MAX_PLANNED_HAND` most promising, for big hands) whose
    cards are each within the n - |S| moves the rest of the hand can pay for: (S, n - |S|),
    smallest sets first. Only these can be scored this turn (a path must still be found)."""
    index = grid_index(grid)
    hand = sorted(hand)
    n = len(hand)
    dist = {c: solver.distance_at(c, index) for c in hand}
    pool = hand
    if n > MAX_PLANNED_HAND:
        pool = sorted(hand, key=lambda c: (dist[c], -POINTS[c], c))[:MAX_PLANNED_HAND]
    return [
        (subset, n - size)
        for size in range(1, len(pool) + 1)
        for subset in combinations(pool, size)
        if all(dist[c] <= n - size for c in subset)
    ]


def best_turn(grid: Sequence[int], hand: Sequence[int], solver: Solver = SOLVER) -> Plan:
    """The plan scoring the most points this turn (ties: the most cards, then the set whose
    farthest card is nearest)."""
    index = grid_index(grid)
    candidates = []
    for subset, budget in within_reach(grid, hand, solver):
        points = sum(POINTS[c] for c in subset)
        lower = max(solver.distance_at(c, index) for c in subset)
        candidates.append((-points, -len(subset), lower, subset, budget))
    candidates.sort()
    for *_, subset, budget in candidates:
        path = path_for(grid, subset, budget, solver)
        if path is not None:
            return Plan(subset, tuple(path), scores_along(grid, subset, path, solver))
    return EMPTY
