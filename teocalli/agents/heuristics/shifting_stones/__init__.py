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
from itertools import combinations

from teocalli.core import Rng, State
from teocalli.games.shifting_stones.actions import END, SKIP, Action, Score
from teocalli.games.shifting_stones.components import POINTS, SWAPS
from teocalli.games.shifting_stones.grid import grid_index, neighbours, parse_grid
from teocalli.games.shifting_stones.solver import SOLVER

from .planner import best_turn, path_for, within_reach
from .walks import move_action

TURN_SEARCH: dict[str, float] = {"iterations": 1500, "confidence": 1.0, "depth": 4, "width": 8}
"""The turn search's defaults here: 1,500 playouts of 4 more turns each (then `evaluate`), over
the greedy turn and the 7 best proposals; 0.8 s of CPU a turn. Against the greedy bot
(docs/arena.md): full playouts over 24 candidates won 60.0% of 200 games; 4-turn playouts 68.3%
and 8 candidates 66.7% of the same 60; both together 62.5% of 200 (95% 55.6-68.9%).
(`confidence=1` measured better than 0 at 300 playouts.)"""


def _payer(hand: Sequence[int], keep: Sequence[int], index: int) -> int:
    """The card to spend: far from scoring and cheap (never one we plan to keep)."""
    spare = [c for c in hand if c not in keep]
    return min(spare, key=lambda c: (POINTS[c] / (1 + SOLVER.distance_at(c, index)), c))


def choose(state: State, player: int, rng: Rng) -> Action:
    view = state.view(player)["state"]
    can_skip = not view["acted"] and not view["skipped_last_turn"][player]
    can_skip = can_skip and bool(view["deck"] or view["discard"])  # else a skip draws nothing
    return decide(parse_grid(view["grid"]), view["hand"], can_skip)


def decide(grid: Sequence[int], hand: Sequence[int], can_skip: bool) -> Action:
    """The greedy step from the public grid and the hand alone (no randomness): the bot is a
    pure function of what it sees."""
    index = grid_index(grid)
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


_FOLLOW: dict[tuple[int, tuple[int, ...]], Action] = {}
"""Playout memory: (grid index, hand) reached inside a planned turn -> the plan's next step."""


def rollout(state: State, player: int, rng: Rng) -> Action:
    """The playout policy for search: the planner, planning once per turn and following it.

    `choose` re-plans every step from the view (the yardstick bot stays simple); a playout reads
    the world's own grid and hand (the acting player's knowledge in that world) and remembers
    the rest of the plan by the (grid, hand) each step leads to, so a turn costs one plan.
    """
    from teocalli.games.shifting_stones.state import ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    hand = state.hands[player]
    index = grid_index(state.grid)
    step = _FOLLOW.get((index, tuple(hand)))
    if step is not None:
        return step
    plan = best_turn(state.grid, hand)
    if not plan.cards:
        return choose(state, player, rng)
    if len(_FOLLOW) > 200_000:
        _FOLLOW.clear()
    left = list(hand)
    first: Action | None = None
    for k in range(len(plan.moves) + 1):
        if k:
            payer = _payer(left, plan.cards, index)
            action: Action = move_action(payer, plan.moves[k - 1])
            _FOLLOW[(index, tuple(left))] = action
            first = first or action
            left.remove(payer)
            index = neighbours(index)[plan.moves[k - 1]]
        for card in plan.scores_after[k]:
            action = Score(card)
            _FOLLOW[(index, tuple(left))] = action
            first = first or action
            left.remove(card)
    _FOLLOW[(index, tuple(left))] = END
    assert first is not None
    return first


def _keep_value(cards: Sequence[int], index: int) -> float:
    """What kept cards are worth for a later turn: points discounted by distance to scoring."""
    return sum(POINTS[c] / (1 + SOLVER.distance_at(c, index)) for c in cards)


def _played(
    index: int, scored: Sequence[int], moves: Sequence[int], payers: Sequence[int]
) -> tuple[tuple[Action, ...], int]:
    """The actions making `moves` paid by `payers` in order, each card of `scored` scored as soon
    as it matches; and the grid index reached."""
    actions: list[Action] = []
    left = list(scored)
    for k in range(len(moves) + 1):
        if k:
            actions.append(move_action(payers[k - 1], moves[k - 1]))
            index = neighbours(index)[moves[k - 1]]
        now = [c for c in left if SOLVER.distance_at(c, index) == 0]
        actions.extend(Score(c) for c in now)
        left = [c for c in left if c not in now]
    return tuple(actions), index


def turns(state: State, player: int, rng: Rng) -> list[tuple[Action, ...]]:
    """Whole turns for `turn_search`, from the player's view, best first by a static estimate.

    - every set of hand cards that some path within the hand's budget scores, by its shortest
      path, with every choice of which other cards pay for the moves (the rest are kept);
    - a skip when allowed; ending the turn at once (keeping the hand);
    - set-up turns: spend the least useful cards moving the grid towards one kept card.
    Each is scored as points now plus what the kept cards are worth on the grid left behind.
    """
    view = state.view(player)["state"]
    hand: list[int] = sorted(view["hand"])
    grid = parse_grid(view["grid"])
    index = grid_index(grid)
    dist = {c: SOLVER.distance_at(c, index) for c in hand}
    ranked: list[tuple[float, int, tuple[Action, ...]]] = []

    def add(value: float, actions: tuple[Action, ...]) -> None:
        ranked.append((-value, len(ranked), actions))

    for subset, budget in within_reach(grid, hand):
        path = path_for(grid, subset, budget)
        if path is not None:
            rest = [c for c in hand if c not in subset]
            points = sum(POINTS[c] for c in subset)
            for payers in combinations(rest, len(path)):
                actions, end = _played(index, subset, path, payers)
                kept = [c for c in rest if c not in payers]
                add(points + 0.5 * _keep_value(kept, end), (*actions, END))
    can_skip = not view["acted"] and not view["skipped_last_turn"][player]
    if can_skip and (view["deck"] or view["discard"]):
        add(0.5 * _keep_value(hand, index) + 0.5, (SKIP,))
    add(0.5 * _keep_value(hand, index), (END,))
    for target in hand:
        moves = SOLVER.plan(target, grid)
        others = sorted(
            (c for c in hand if c != target), key=lambda c: (POINTS[c] / (1 + dist[c]), c)
        )
        steps = [
            list(SWAPS).index((a, b)) if kind == "shift" else len(SWAPS) + a for kind, a, b in moves
        ]
        for k in range(1, min(len(steps), len(others)) + 1):
            actions, end = _played(index, (), steps[:k], others[:k])
            kept = [target, *others[k:]]
            add(0.5 * _keep_value(kept, end), (*actions, END))
    ranked.sort()
    return [actions for _, _, actions in ranked]
