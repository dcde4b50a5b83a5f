"""A game pickles as its class and options (`Game.__reduce__`), so a state mid-game pickles too
and plays on exactly as the original: what process pools, Ray and SB3's subprocess vector envs
need of anything that holds a state."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from teocalli import load
from teocalli.core import Rng

from .test_conformance import CONFIGS


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_a_pickled_state_plays_on_as_the_original(name: str, options: dict[str, Any]) -> None:
    game = load(name, **options)
    copy_game = pickle.loads(pickle.dumps(game))
    assert type(copy_game) is type(game)
    assert dict(copy_game.options) == dict(game.options)
    state, rng = game.new_state(3), Rng(3)
    for _ in range(6):  # a few steps in: dealt, with a history and a used generator
        if state.is_terminal():
            break
        player = state.to_move()[0]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.game is not game and copy.to_json() == state.to_json()
    for _ in range(8):  # the same legal moves and the same chance events, step for step
        if state.is_terminal():
            break
        player = state.to_move()[0]
        assert copy.to_move() == state.to_move()
        assert sorted(copy.legal_action_ints(player)) == sorted(state.legal_action_ints(player))
        index = sorted(state.legal_action_ints(player))[0]
        state.apply(index, player)
        copy.apply(index, player)
        assert copy.view(player) == state.view(player)
    assert copy.to_json() == state.to_json()
