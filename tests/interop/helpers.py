"""Shared parameters for the interop tests: every registered game in every declared variant."""

from __future__ import annotations

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
