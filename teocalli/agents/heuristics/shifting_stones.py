"""Shifting Stones' greedy bot: a planner that scores as many points per turn as its hand allows.

It sees only its own hand and the public grid (from its view). Each step it re-plans the turn
exactly with the solver's distance tables (`planner.best_turn`):
- if some points are reachable, it scores a planned card that matches now, or makes the plan's
  next move paying with the card it least wants to keep;
- otherwise it skips when allowed before acting (two more cards: a longer reach next turn);
- otherwise it keeps the card nearest to scoring and spends the others moving the grid towards it,
  then ends its turn (fresh cards are drawn for every card spent).
"""

from __future__ import annotations

from collections.abc import Sequence

from teocalli.core import Rng, State
from teocalli.games.shifting_stones.actions import END, SKIP, Action, Flip, Score, Shift
from teocalli.games.shifting_stones.components import POINTS, SWAPS
from teocalli.games.shifting_stones.grid import grid_index, parse_grid
from teocalli.games.shifting_stones.planner import best_turn
from teocalli.games.shifting_stones.solver import SOLVER


def move_action(card: int, move: int) -> Action:
    """The engine action for neighbour move `move` (0-11 swaps, 12-20 flips) paid by `card`."""
    if move < len(SWAPS):
        return Shift(card, *SWAPS[move])
    return Flip(card, move - len(SWAPS))


def _payer(hand: Sequence[int], keep: Sequence[int], index: int) -> int:
    """The card to spend: far from scoring and cheap (never one we plan to keep)."""
    spare = [c for c in hand if c not in keep]
    return min(spare, key=lambda c: (POINTS[c] / (1 + SOLVER.distance_at(c, index)), c))


def choose(state: State, player: int, rng: Rng) -> Action:
    view = state.view(player)["state"]
    hand: list[int] = view["hand"]
    grid = parse_grid(view["grid"])
    index = grid_index(grid)
    can_skip = not view["acted"] and not view["skipped_last_turn"][player]
    can_skip = can_skip and bool(view["deck"] or view["discard"])  # else a skip draws nothing
    plan = best_turn(grid, hand)
    if plan.cards:
        if plan.scores_after[0]:
            return Score(plan.scores_after[0][0])
        return move_action(_payer(hand, plan.cards, index), plan.moves[0])
    if can_skip:
        return SKIP
    if len(hand) <= 1:
        return END
    target = min(hand, key=lambda c: (SOLVER.distance_at(c, index), -POINTS[c], c))
    moves = SOLVER.plan(target, grid)
    if not moves:  # pragma: no cover - a matching target would have been planned
        return END
    kind, a, b = moves[0]
    move = list(SWAPS).index((a, b)) if kind == "shift" else len(SWAPS) + a
    return move_action(_payer(hand, (target,), index), move)


def evaluate(state: State) -> list[float]:
    """Returns in [-1, 1] for a cut-off playout: points scored so far plus the +3 bonus leader.

    A player's value is their lead over the others' mean, squashed so ~8 points is decisive.
    """
    import math

    from teocalli.games.shifting_stones.state import ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    if state.is_terminal():
        return list(state.outcome().returns())
    n = state.num_players
    points = [float(state.points(p)) for p in range(n)]
    if n == 1:
        return [math.tanh((points[0] - 20.0) / 10.0)]
    ones = [state.ones(p) for p in range(n)]
    top = max(ones)
    if top:
        points = [x + 3.0 * (o == top) for x, o in zip(points, ones, strict=True)]
    total = sum(points)
    return [math.tanh((x - (total - x) / (n - 1)) / 8.0) for x in points]


def rollout(state: State, player: int, rng: Rng) -> Action:
    """The playout policy for search: the planner itself (about 0.1 ms a decision)."""
    return choose(state, player, rng)
