"""Pieces every game's benchmark shares: random playouts, sampled positions, rates."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from teocalli.core import Game, Rng, State


def random_step(state: State, rng: Rng) -> None:
    """One uniformly random legal action by a uniformly chosen player who may act."""
    movers = state.to_move()
    player = movers[rng.randrange(len(movers))] if len(movers) > 1 else movers[0]
    actions = state.legal_actions(player)
    state.apply(actions[rng.randrange(len(actions))], player)


def random_playouts(game: Game, games: int, seed: int = 12345) -> tuple[float, float]:
    """Games per second and steps per second of uniformly random play through the protocol."""
    rng = Rng(seed)
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(i)
        while not state.is_terminal():
            random_step(state, rng)
        steps += len(state.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed


def sample_positions(game: Game, count: int, every: int = 4, seed: int = 7) -> list[State]:
    """`count` positions met along random games (each kept with probability 1/every)."""
    rng = Rng(seed)
    sample: list[State] = []
    i = 0
    while len(sample) < count:
        state = game.new_state(i)
        i += 1
        while not state.is_terminal():
            if rng.randrange(every) == 0:
                sample.append(state.clone())
            random_step(state, rng)
    return sample[:count]


def per_second(work: Callable[[State], object], sample: Sequence[State], reps: int = 10) -> float:
    """How many times per second `work` runs over the sampled positions."""
    start = time.perf_counter()
    for _ in range(reps):
        for state in sample:
            work(state)
    return reps * len(sample) / (time.perf_counter() - start)
