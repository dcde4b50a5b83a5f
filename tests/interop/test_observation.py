"""Observation encoders: one per registered game, fixed shapes, in bounds, and no leaks."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.interop.observation import Encoder, encoder_class, encoder_for

from .helpers import CONFIGS, random_states


def test_every_registered_game_has_an_encoder() -> None:
    for name in teocalli.games():
        assert issubclass(encoder_class(name), Encoder), name


def test_a_game_without_an_encoder_is_told_where_to_add_one() -> None:
    from teocalli.parts import MissingPart

    with pytest.raises(MissingPart, match=r"add teocalli/interop/observation/no_encoder\.py"):
        encoder_class("no-encoder")


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_shape_is_fixed_and_values_in_bounds(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    encoder = encoder_for(game)
    assert encoder_for(teocalli.load(name, **options)).shape == encoder.shape
    for state in random_states(game, 5)[::3] + random_states(game, 5)[-1:]:
        for player in range(game.num_players):
            obs = encoder.encode(state.view(player))
            assert obs.shape == encoder.shape
            assert obs.dtype == np.float32
            assert np.all(obs >= encoder.low)
            assert np.all(obs <= encoder.high)
            assert obs[encoder.f_seat.start + player] == 1.0


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_observation_is_the_same_in_every_determinized_world(
    name: str, options: dict[str, Any]
) -> None:
    """Like the core's leak test: what a player observes cannot depend on what they cannot know."""
    game = teocalli.load(name, **options)
    encoder = encoder_for(game)
    for state in random_states(game, 9, limit=150)[:-1:4]:
        for player in range(game.num_players):
            obs = encoder.encode(state.view(player))
            for k in range(2):
                world = state.determinize(player, Rng(k))
                assert np.array_equal(encoder.encode(world.view(player)), obs)


def test_hidden_information_does_not_reach_the_observation() -> None:
    """Stakz: the opponent's hand symbols and the pile order vary across worlds; the encoding
    of player 0 does not, while the encoding of the full state (player 1's own view) does."""
    game = teocalli.load("stakz")
    encoder = encoder_for(game)
    state = random_states(game, 3, limit=10)[-1]
    worlds = [state.determinize(0, Rng(k)) for k in range(6)]
    assert len({tuple(encoder.encode(w.view(1))) for w in worlds}) > 1
    assert len({tuple(encoder.encode(w.view(0))) for w in worlds}) == 1


def test_layout_is_contiguous_and_described() -> None:
    for name in teocalli.games():
        encoder = encoder_for(teocalli.load(name))
        fields = list(encoder.layout.fields.values())
        assert fields[0].start == 0
        for a, b in itertools.pairwise(fields):
            assert a.stop == b.start
        assert fields[-1].stop == encoder.shape[0]
        table = encoder.describe()
        assert all(f"| {f.name} |" in table for f in fields)


def test_spectator_views_are_refused() -> None:
    game = teocalli.load("aztack")
    with pytest.raises(ValueError, match="per player"):
        encoder_for(game).encode(game.new_state(0).view(None))
