"""Positions sampled from seeded random Stack Back games, shared by the kernel tests: each test
names its seeds, how often it samples and which positions it wants, and gets the same clones
whatever other tests ask for."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back.state import StackBackState


def random_positions(
    seeds: Iterable[int],
    every: int,
    keep: Callable[[StackBackState], bool] = lambda state: True,
) -> list[StackBackState]:
    """Clones of every `every`-th position (steps every-1, 2*every-1, ...) that `keep` accepts,
    along one random game per seed (the game and its moves both seeded by it)."""
    game = teocalli.load("stack-back")
    out = []
    for seed in seeds:
        state = game.new_state(seed)
        assert isinstance(state, StackBackState)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            if step % every == every - 1 and keep(state):
                clone = state.clone()
                assert isinstance(clone, StackBackState)
                out.append(clone)
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            step += 1
    return out
