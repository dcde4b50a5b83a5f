"""Stack Back's greedy heuristic: pile whenever you can, and give the opponent nothing to pile on.

A piled stick gives another play at once, so piling is always taken: the lowest level first (the
level rule never lets you come back down) and the colour you hold most of. A stick on the wood
ends the turn and hands the board to the opponent, so it goes where the fewest sticks lie within
a bridge's reach of it, counting only bridges in a colour the opponent still holds (one differing
from both sticks). Everything used is public: the game has perfect information.

For the turn-level search (`turns`, `evaluate`, `rollout`): a turn is a run of piles then one
stick on the wood, and the sticks it places are the score that matters, so the proposals are the
longest pile runs a depth-first search finds (greedy's lowest-level-first run is not always the
longest), each finished by the wood placements that leave the opponent the fewest piles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from teocalli.core import Action, Rng, State
from teocalli.games.stack_back.actions import PASS, Place
from teocalli.games.stack_back.components import LENGTHS, NUM_COLOURS
from teocalli.games.stack_back.state import StackBackState

Turn = tuple[Action, ...]

PLAN_NODES = 40
"""Positions the pile search of `turns` expands (a turn rarely has more than a few piles)."""
CHAIN_NODES = 8
"""Positions the pile search of a cut-off evaluation or a 2-ply estimate expands."""
PLANS = 6
"""Pile runs `turns` finishes with wood placements (the longest, in search order)."""
WOODS = 4
"""Wood placements tried after each pile run (the quietest, then other colours)."""
_EXACT = 1e-6
"""Reach distances this close to the threshold are recomputed exactly as the greedy did."""

TURN_SEARCH: dict[str, float] = {"iterations": 100, "confidence": 1.0}
"""The turn search's defaults here: 100 playouts, about 1-2 s a turn on one core (40 of 40 games
against greedy)."""


def choose(state: State, player: int, rng: Rng) -> Action:
    assert isinstance(state, StackBackState)
    actions = state.legal_actions(player)
    places = [a for a in actions if isinstance(a, Place)]
    if not places:
        return PASS
    supply = state.supply[player]
    verdicts = state.placements(player)
    # A candidate on the free wood is exactly one that touches nothing: level 0.
    wood = [a for a in places if verdicts[a].stick.level == 0]
    if len(wood) < len(places):
        best: list[Place] = []
        best_key: tuple[int, int] | None = None
        for a in places:
            level = verdicts[a].stick.level
            if level == 0:
                continue
            key = (level, -supply[a.colour])
            if best_key is None or key < best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        if best:
            return best[rng.randrange(len(best))]
    return _quiet_wood(state, player, wood, rng)


def _quiet_wood(state: StackBackState, player: int, wood: list[Place], rng: Rng) -> Place:
    """The wood placement that leaves the opponent the fewest bridges, then our commonest colour."""
    keys = wood_keys(state, player, wood)
    best_key = min(keys)
    best = [a for a, k in zip(wood, keys, strict=True) if k == best_key]
    return best[rng.randrange(len(best))]


def wood_keys(state: StackBackState, player: int, wood: Sequence[Place]) -> list[tuple[int, int]]:
    """Per wood placement: (sticks on the wood within a bridge's reach of it for a colour the
    opponent holds, minus our supply of its colour). Vectorised; distances within `_EXACT` of a
    threshold are recomputed with math.hypot, so the result is exactly the scalar rule's."""
    theirs = state.supply[1 - player]
    supply = state.supply[player]
    ground = [s for s in state.sticks if s.level == 0]
    if not wood:
        return []
    colour = np.array([a.colour for a in wood])
    if not ground:
        return [(0, -supply[c]) for c in colour.tolist()]
    # reach[ca][cs]: the longest bridge the opponent can lay between colours ca and cs, less 6
    reach = np.full((NUM_COLOURS, NUM_COLOURS), -np.inf)
    for ca in range(NUM_COLOURS):
        for cs in range(NUM_COLOURS):
            usable = [LENGTHS[c] for c in range(NUM_COLOURS) if theirs[c] > 0 and c not in (ca, cs)]
            if usable:
                reach[ca, cs] = max(usable) - 6
    wx = np.array([a.x for a in wood])
    wy = np.array([a.y for a in wood])
    gx = np.array([s.cx for s in ground])
    gy = np.array([s.cy for s in ground])
    gh = np.array([s.half for s in ground])
    gc = np.array([s.colour for s in ground])
    wh = np.array([LENGTHS[c] / 2 for c in colour.tolist()])
    gap = np.hypot(gx[None, :] - wx[:, None], gy[None, :] - wy[:, None]) - gh[None, :]
    gap -= wh[:, None]
    limit = reach[colour[:, None], gc[None, :]]
    near = gap <= limit
    close = np.abs(gap - limit) < _EXACT
    for i, j in zip(*np.nonzero(close), strict=True):
        a, s = wood[int(i)], ground[int(j)]
        near[i, j] = (
            math.hypot(s.cx - a.x, s.cy - a.y) - s.half - LENGTHS[a.colour] / 2 <= limit[i, j]
        )
    counts = near.sum(axis=1).tolist()
    return [(n, -supply[c]) for n, c in zip(counts, colour.tolist(), strict=True)]


# --- the turn-level search ------------------------------------------------------------------
def pile_options(state: StackBackState, player: int) -> list[Place]:
    """The piles `player` may make now (every offset of a bridge: which one is taken changes what
    can follow), lowest level first."""
    supply = state.supply[player]
    seen: set[tuple[tuple[int, ...], int, Place]] = set()
    ranked: list[tuple[int, int, int, Place]] = []
    for a, verdict in state.placements(player).items():
        stick = verdict.stick
        if stick.level == 0:
            continue
        key = (stick.supports, stick.colour, a)
        if key in seen:
            continue
        seen.add(key)
        ranked.append((stick.level, -supply[stick.colour], len(ranked), a))
    ranked.sort()
    return [r[3] for r in ranked]


def pile_plans(
    state: StackBackState, player: int, budget: int
) -> list[tuple[tuple[Place, ...], StackBackState]]:
    """Pile runs from here for `player`, depth first (greedy's order first), with the position
    each ends in; a run ends when no pile is left, the game ends, or the budget is spent."""
    leaves: list[tuple[tuple[Place, ...], StackBackState]] = []
    seen: set[frozenset[Place]] = set()
    expanded = 0

    def walk(run: tuple[Place, ...], s: StackBackState) -> None:
        nonlocal expanded
        if s.is_terminal() or s.turn != player or expanded >= budget:
            leaves.append((run, s))
            return
        expanded += 1
        options = pile_options(s, player)
        if not options:
            leaves.append((run, s))
            return
        for a in options:
            key = frozenset((*run, a))
            if key in seen:  # the same piles in another order: the same position
                continue
            seen.add(key)
            child = s.clone()
            child.apply(a, player)
            walk((*run, a), child)

    walk((), state)
    return leaves


def best_chain(state: StackBackState, player: int, budget: int = CHAIN_NODES) -> int:
    """The most piles `player` can make in a row from here (a bounded search)."""
    if state.is_terminal() or state.turn != player:
        return 0
    return max(len(run) for run, _ in pile_plans(state, player, budget))


def _finish(state: StackBackState, player: int, rng: Rng) -> list[Turn]:
    """Ways to end the turn from `state` (after piles): the quietest wood placements, else the
    rest of the turn as greedy would play it (piles left, or a pass)."""
    if state.is_terminal() or state.turn != player:
        return [()]
    verdicts = state.placements(player)
    wood = [a for a, v in verdicts.items() if v.stick.level == 0]
    if not wood:
        world = state.clone()
        steps: list[Action] = []
        while not world.is_terminal() and world.turn == player and len(steps) < 60:
            action = choose(world, player, rng)
            steps.append(action)
            world.apply(action, player)
        return [tuple(steps)]
    keys = wood_keys(state, player, wood)
    order = sorted(range(len(wood)), key=lambda i: keys[i])
    picked: list[int] = order[:2]
    colours = {wood[i].colour for i in picked}
    for i in order:  # the quietest spot of each other colour
        if len(picked) >= WOODS:
            break
        if wood[i].colour not in colours:
            colours.add(wood[i].colour)
            picked.append(i)
    for i in order:
        if len(picked) >= WOODS:
            break
        if i not in picked:
            picked.append(i)
    return [(wood[i],) for i in picked]


def turn_value(state: StackBackState, player: int, turn: Turn) -> float:
    """A 2-ply estimate: sticks the turn places less the piles the opponent can then make."""
    world = state.clone()
    for action in turn:
        world.apply(action, player)
    if world.is_terminal():
        return 100.0 if world.left(player) == 0 else sum(isinstance(a, Place) for a in turn)
    placed = sum(isinstance(a, Place) for a in turn)
    return placed - best_chain(world, 1 - player)


def turns(state: State, player: int, rng: Rng) -> list[Turn]:
    """Whole turns for `turn_search`, best first by `turn_value`: the longest pile runs the
    search finds (and greedy's order among equals), each with a few ways to end the turn."""
    assert isinstance(state, StackBackState)
    if state.is_terminal() or state.turn != player:
        return []
    plans = pile_plans(state, player, PLAN_NODES)
    order = sorted(range(len(plans)), key=lambda i: -len(plans[i][0]))
    scored: list[tuple[float, int, Turn]] = []
    seen: set[Turn] = set()
    for i in order[:PLANS]:
        run, end = plans[i]
        for tail in _finish(end, player, rng):
            turn = (*run, *tail)
            if not turn or turn in seen:
                continue
            seen.add(turn)
            scored.append((-turn_value(state, player, turn), len(scored), turn))
    scored.sort()
    return [t for _, _, t in scored]


def evaluate(state: State) -> list[float]:
    """Returns in [-1, 1] for a cut-off playout: who has fewer sticks left once the player to
    move has made the piles waiting for them; ~6 sticks decisive."""
    assert isinstance(state, StackBackState)
    if state.is_terminal():
        return list(state.outcome().returns())
    left = [float(sum(s)) for s in state.supply]
    mover = state.turn
    left[mover] -= best_chain(state, mover)
    return [math.tanh((left[1 - p] - left[p]) / 6.0) for p in range(2)]


def rollout(state: State, player: int, rng: Rng) -> Action:
    """The playout policy for search: the greedy move (pile when possible, else a quiet spot)."""
    return choose(state, player, rng)


__all__ = ["choose", "evaluate", "rollout", "turns"]
