"""Observation encoders: one per registered game, fixed shapes, in bounds, and no leaks."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import teocalli
import teocalli.core
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


def _interleaved(game: teocalli.core.Game, seeds: range, limit: int) -> list[teocalli.core.State]:
    """The states of several random games, taken in turn from each (so an incremental encoder
    meets positions of different deals one after another, not only each one's successor)."""
    games = [random_states(game, seed, limit=limit) for seed in seeds]
    return [s for group in itertools.zip_longest(*games) for s in group if s is not None]


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_observe_from_the_engine_equals_the_view_encoding(
    name: str, options: dict[str, Any]
) -> None:
    """`observe(state, p)` (the adapters' fast path, from the engine's fields, updated by diff)
    is exactly `encode(state.view(p))` (the reference, from the view: leak-free by
    construction), and `mask` marks exactly `legal_action_ints`: on random games of every
    variant, in play order, interleaved across deals, and backwards."""
    game = teocalli.load(name, **options)
    encoder = encoder_for(game)
    if encoder.incremental:
        states = _interleaved(game, range(4), limit=game.max_length)  # whole games
    else:  # observe encodes the view: one short game shows it
        states = random_states(game, 0, limit=6)
    for state in states + states[::-7]:
        for player in range(game.num_players):
            expected = encoder.encode(state.view(player))
            assert np.array_equal(encoder.observe(state, player), expected), (
                f"step {len(state.history)}, player {player}"
            )
            mask = encoder.mask(state, player)
            assert mask.dtype == np.int8
            assert mask.shape == (game.num_distinct_actions,)
            assert np.flatnonzero(mask).tolist() == sorted(state.legal_action_ints(player))


INCREMENTAL = [c for c in CONFIGS if encoder_class(c.values[0]).incremental]


@pytest.mark.parametrize(("name", "options"), INCREMENTAL)
def test_observe_follows_the_states_it_observed_as_they_are_played(
    name: str, options: dict[str, Any]
) -> None:
    """The adapters observe the very state object they play, some steps on each time: an
    encoder may bring its buffer up to date from the steps applied since (Shifting Stones
    replays them). Two deals played in turn on their own state objects, each player observed
    after random gaps (none, one step, a turn, more than a dozen steps), twice at a step now
    and then, and at the end: always exactly the view encoding, and the mask the legal ids."""
    game = teocalli.load(name, **options)
    encoder = encoder_for(game)
    rng = Rng(5)
    states = [game.new_state(seed) for seed in (21, 22)]
    observed = 0
    while True:
        live = [s for s in states if not s.is_terminal()]
        for state in states:
            for player in range(game.num_players):
                if live and rng.randrange(4) != 0:
                    continue
                for _ in range(1 + (rng.randrange(5) == 0)):
                    expected = encoder.encode(state.view(player))
                    assert np.array_equal(encoder.observe(state, player), expected), (
                        f"deal {state.seed}, step {len(state.history)}, player {player}"
                    )
                    legal = sorted(state.legal_action_ints(player))
                    assert np.flatnonzero(encoder.mask(state, player)).tolist() == legal
                    observed += 1
        if not live:
            break
        for state in live:
            movers = state.to_move()
            player = movers[rng.randrange(len(movers))]
            actions = state.legal_actions(player)
            state.apply(actions[rng.randrange(len(actions))], player)
    assert observed >= 10


# Games whose ids name fixed actions (Stack Back's name bins of poses decoded in the position,
# and its mask is tested with the game).
FIXED_IDS = [c for c in CONFIGS if not teocalli.load(c.values[0], **c.values[1]).positional_ids]


@pytest.mark.parametrize(("name", "options"), FIXED_IDS)
def test_legal_actions_after_the_mask_are_those_of_a_game_never_masked(
    name: str, options: dict[str, Any]
) -> None:
    """An engine may build `legal_actions` from the ids its mask listed at the same step
    (Shifting Stones reads the scores from them): the actions are then exactly, in order, those
    of the same game played without any mask."""
    game = teocalli.load(name, **options)
    encoder = encoder_for(game)
    masked, plain = game.new_state(11), game.new_state(11)
    rng = Rng(4)
    steps = 0
    while not masked.is_terminal() and steps < 200:
        player = masked.to_move()[0]
        encoder.mask(masked, player)
        actions = masked.legal_actions(player)
        assert actions == plain.legal_actions(player), f"step {steps}"
        action = actions[rng.randrange(len(actions))]
        masked.apply(action, player)
        plain.apply(action, player)
        steps += 1
    assert steps >= 20


def test_observe_returns_a_new_array_each_time() -> None:
    """The fast path keeps a buffer per player, but never hands it out: an observation kept by
    the caller (a replay buffer) stays as it was when the game moves on."""
    game = teocalli.load("stakz")
    encoder = encoder_for(game)
    states = random_states(game, 1, limit=20)
    first = encoder.observe(states[0], 0)
    kept = first.copy()
    encoder.observe(states[-1], 0)
    first_again = encoder.observe(states[0], 0)
    assert np.array_equal(first, kept)
    assert first_again is not first
    assert np.array_equal(first_again, kept)


def test_every_encoder_is_incremental() -> None:
    """Every game's encoder writes from the engine's fields (none encodes the view per step)."""
    for name in ("aztack", "stakz", "shifting-stones", "space-aztecs", "stack-back"):
        assert encoder_for(teocalli.load(name)).incremental, name
