"""Shared parameters and helpers for the interop tests: every registered game in every declared
variant, random steps, counted encoder methods."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import teocalli
from teocalli.core import Game, Rng, State, game_class

CONFIGS = [
    pytest.param(name, dict(opts), id=f"{name}-{variant}")
    for name in teocalli.games()
    for variant, opts in game_class(name).info.variants.items()
]
GAMES = [pytest.param(name, id=name) for name in teocalli.games()]


def random_states(game: Game, seed: int, limit: int = 400) -> list[State]:
    """The states of one seeded random game (uniform legal actions), at most `limit` steps."""
    rng = Rng(seed)
    state = game.new_state(seed)
    states = [state.clone()]
    while not state.is_terminal() and len(states) <= limit:
        player = state.to_move()[rng.randrange(len(state.to_move()))]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
        states.append(state.clone())
    return states


def random_step(state: State, rng: Rng) -> None:
    """One uniformly random legal action by a uniformly drawn mover (a draw even for one)."""
    movers = state.to_move()
    player = movers[rng.randrange(len(movers))]
    actions = state.legal_actions(player)
    state.apply(actions[rng.randrange(len(actions))], player)


def counted(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> list[int]:
    """Count the calls of method `name` of class `owner` (patched for the test): the counter
    is the list's one item, read after the play."""
    calls = [0]
    method = getattr(owner, name)

    def wrapper(self: Any, *args: Any) -> Any:
        calls[0] += 1
        return method(self, *args)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def assert_same(encoder: Any, state: State, player: int) -> None:
    """The encoder's observation equals `encode(view)` (naming the fields that differ) and its
    mask the engine's legal ids."""
    expected = encoder.encode(state.view(player))
    got = encoder.observe(state, player)
    wrong = np.flatnonzero(got != expected)
    fields = {
        f.name for f in encoder.layout.fields.values() for i in wrong if f.start <= i < f.stop
    }
    assert not len(wrong), f"step {len(state.history)}, player {player}: {sorted(fields)}"
    legal = sorted(state.legal_action_ints(player))
    assert np.flatnonzero(encoder.mask(state, player)).tolist() == legal


def random_gap(state: State, rng: Rng) -> None:
    """A few random steps (0-2; one time in three up to 23): the steps an env may apply
    between two observations of the same state object."""
    gap = rng.randrange(24) if rng.randrange(3) == 0 else rng.randrange(3)
    for _ in range(gap):
        if state.is_terminal():
            break
        random_step(state, rng)
