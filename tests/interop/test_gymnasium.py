"""Gymnasium: check_env for every game, bots as opponents, masks, illegal actions, seeds."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from teocalli.core import IllegalAction, InvalidOption
from teocalli.interop import gymnasium as tg

from .helpers import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_check_env(name: str) -> None:
    # check_env steps with unmasked random actions, nearly all illegal in these games: with
    # on_illegal="lose" such a step ends the episode (reward -1) instead of raising.
    check_env(tg.env(name, opponents="random", on_illegal="lose"), skip_render_check=True)


def _episode(env: tg.TeocalliGymEnv, seed: int, check: bool = False) -> tuple[list[int], float]:
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    actions, terminated, reward = [], False, 0.0
    while not terminated:
        mask = info["action_mask"]
        if check:
            state = env.game_state
            assert state is not None
            assert env.seat in state.to_move()
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(
                state.legal_action_ints(env.seat)
            )
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs in env.observation_space
        assert not truncated
    return actions, reward


@pytest.mark.parametrize(
    ("name", "opponents", "options"),
    [
        ("stakz", "greedy", {"players": 3}),
        ("space-aztecs", ["greedy", "random", "random"], {"players": 4}),
        ("aztack", "greedy", {"players": 3, "speed": True}),
        ("shifting-stones", "random", {"players": 1}),
    ],
)
def test_episodes_against_bots(name: str, opponents: str | list[str], options: dict) -> None:
    env = tg.env(name, opponents=opponents, seat=1 if options["players"] > 1 else 0, **options)
    _actions, reward = _episode(env, 3, check=True)
    state = env.game_state
    assert state is not None and state.is_terminal()
    assert reward == state.returns()[env.seat]


def test_seeds_reproduce_bots_included() -> None:
    env = tg.env("space-aztecs", opponents="greedy", players=3, seat=None)
    assert _episode(env, 11) == _episode(env, 11)
    env.reset(seed=11)
    assert env.game_state is not None and env.game_state.seed == 11


def test_illegal_action_raises_by_default_and_loses_on_request() -> None:
    env = tg.env("aztack")
    _obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(illegal)
    lose = tg.env("aztack", on_illegal="lose")
    lose.reset(seed=0)
    _obs, reward, terminated, _trunc, info = lose.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert info["illegal_action"]
    with pytest.raises(IllegalAction, match="episode is over"):
        lose.step(illegal)


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="needs 2 opponent"):
        tg.env("stakz", opponents=["random"], players=3)
    with pytest.raises(InvalidOption, match="no bot"):
        tg.env("stakz", opponents="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        tg.env("stakz", seat=5)


def test_action_masks_method_matches_info() -> None:
    env = tg.env("stakz")
    _obs, info = env.reset(seed=1)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
