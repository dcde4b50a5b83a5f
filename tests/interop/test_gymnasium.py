"""Gymnasium: check_env and gymnasium.make for every game, bots and policies as opponents,
masks (terminal ones under vector auto-reset too), illegal actions, seeds."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import teocalli
from teocalli.agents import make_agent
from teocalli.core import IllegalAction, InvalidOption
from teocalli.interop import gymnasium as tg

from .helpers import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_check_env_on_the_default_env_and_its_registered_id(name: str) -> None:
    # check_env steps with unmasked random actions, nearly all illegal in these games: by
    # default (on_illegal="lose") such a step ends the episode with reward -1.
    check_env(gymnasium.make(tg.gym_id(name)).unwrapped)  # every render mode too (by its spec)
    check_env(gymnasium.make(tg.gym_id(name), render_mode="ansi").unwrapped)
    # the same env from the function (without a spec, check_env cannot remake it per render mode)
    check_env(tg.env(name), skip_render_check=True)
    made = gymnasium.make(tg.gym_id(name))
    assert isinstance(made.unwrapped, tg.TeocalliGymEnv)
    assert made.unwrapped.game.info.name == name
    _obs, info = made.reset(seed=1)
    assert info["action_mask"].any()


def test_every_game_has_a_registered_id() -> None:
    assert {name: tg.gym_id(name) for name in teocalli.games()} == tg.GYM_IDS
    assert tg.gym_id("shifting-stones") == "teocalli/ShiftingStones-v0"
    env = gymnasium.make("teocalli/Stakz-v0", players=3, opponents="greedy", seat=2)
    assert env.unwrapped.game.num_players == 3  # type: ignore[attr-defined]
    env.close()


def _masked_choice(rng: np.random.Generator) -> Any:
    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.dtype == np.float32
        return int(rng.choice(np.flatnonzero(mask)))

    return policy


class _FirstLegal:
    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])


def test_opponents_may_be_policies_and_agents() -> None:
    """Self-play: the opponents are callables (observation, mask) -> action, policy objects with
    act(observation, mask), or teocalli Agents, mixed with bot names."""
    game = teocalli.load("space-aztecs", players=4)
    opponents = [
        _masked_choice(np.random.default_rng(0)),
        _FirstLegal(),
        make_agent("greedy", game),
    ]
    env = tg.env("space-aztecs", opponents=opponents, players=4, seat=1)
    _actions, reward = _episode(env, 5, check=True)
    assert env.game_state is not None and env.game_state.is_terminal()
    assert -1.0 <= reward <= 1.0
    with pytest.raises(TypeError, match="opponent"):
        tg.env("stakz", opponents=[42])  # type: ignore[list-item]


@pytest.mark.parametrize("name", GAMES)
def test_vector_auto_reset_with_a_masked_sampler(name: str) -> None:
    """The terminal mask marks only the no-op 0, so a masked sampler never meets an empty mask,
    however episodes end (illegal actions included) and however the vector env resets."""

    def make() -> tg.TeocalliGymEnv:
        return tg.env(name)

    envs = gymnasium.vector.SyncVectorEnv([make, make])
    _obs, info = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(40):
        actions = []
        for i in range(2):
            legal = np.flatnonzero(info["action_mask"][i])
            assert len(legal) >= 1
            # now and then an illegal action, to end episodes quickly
            if t % 7 == 3 and i == 0:
                actions.append(int(np.flatnonzero(info["action_mask"][i] == 0)[0]))
            else:
                actions.append(int(rng.choice(legal)))
        _obs, _rewards, terminated, truncated, info = envs.step(np.array(actions))
        for i in np.flatnonzero(terminated | truncated):
            ends += 1
            assert np.flatnonzero(info["action_mask"][i]).tolist() == [0]
    assert ends >= 2
    envs.close()


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
    assert np.flatnonzero(info["action_mask"]).tolist() == [0]  # over: only the no-op
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


def test_illegal_action_loses_by_default_and_raises_on_request() -> None:
    env = tg.env("aztack", on_illegal="raise")
    _obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(illegal)
    lose = tg.env("aztack")
    lose.reset(seed=0)
    _obs, reward, terminated, _trunc, info = lose.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert info["illegal_action"]
    assert np.flatnonzero(info["action_mask"]).tolist() == [0]
    assert lose.action_masks().sum() == 1
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
