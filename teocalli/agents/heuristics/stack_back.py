"""Stack Back's greedy heuristic: pile whenever you can, and give the opponent nothing to pile on.

A piled stick gives another play at once, so piling is always taken: the lowest level first (the
level rule never lets you come back down) and the colour you hold most of. A stick on the wood
ends the turn and hands the board to the opponent, so it goes where the fewest sticks lie within
a bridge's reach of it, counting only bridges in a colour the opponent still holds (one differing
from both sticks). Everything used is public: the game has perfect information.
"""

from __future__ import annotations

import math

from teocalli.core import Action, Rng, State
from teocalli.games.stack_back.actions import PASS, Place
from teocalli.games.stack_back.components import LENGTHS, NUM_COLOURS
from teocalli.games.stack_back.state import StackBackState


def choose(state: State, player: int, rng: Rng) -> Action:
    assert isinstance(state, StackBackState)
    actions = state.legal_actions(player)
    places = [a for a in actions if isinstance(a, Place)]
    if not places:
        return PASS
    supply = state.supply[player]
    wood = [a for a in places if state.is_free_wood(a)]
    if len(wood) < len(places):
        best: list[Place] = []
        best_key: tuple[int, int] | None = None
        for a in places:
            if state.is_free_wood(a):
                continue
            level = state.level_of(a, player)
            if level is None:
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
    theirs = state.supply[1 - player]
    ground = [s for s in state.sticks if s.level == 0]
    supply = state.supply[player]
    best: list[Place] = []
    best_key: tuple[int, int] | None = None
    for a in wood:
        half = LENGTHS[a.colour] / 2
        x, y = a.x, a.y
        reach = 0
        for s in ground:
            usable = [
                LENGTHS[c]
                for c in range(NUM_COLOURS)
                if theirs[c] > 0 and c not in (a.colour, s.colour)
            ]
            if usable and math.hypot(s.cx - x, s.cy - y) - s.half - half <= max(usable) - 6:
                reach += 1
        key = (reach, -supply[a.colour])
        if best_key is None or key < best_key:
            best, best_key = [a], key
        elif key == best_key:
            best.append(a)
    return best[rng.randrange(len(best))]


def evaluate(state: State) -> list[float]:
    """Returns in [-1, 1] for a cut-off playout: who has fewer sticks left, ~6 sticks decisive."""
    assert isinstance(state, StackBackState)
    if state.is_terminal():
        return list(state.outcome().returns())
    left = [float(sum(s)) for s in state.supply]
    return [math.tanh((left[1 - p] - left[p]) / 6.0) for p in range(2)]


def rollout(state: State, player: int, rng: Rng) -> Action:
    """The playout policy for search: the greedy move (pile when possible, else a quiet spot)."""
    return choose(state, player, rng)
