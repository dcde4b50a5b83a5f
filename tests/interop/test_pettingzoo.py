"""PettingZoo: api_test for every game and variant, parallel_api_test, masks, seeds, secrecy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import teocalli
from teocalli.core import Decision, IllegalAction
from teocalli.interop import pettingzoo as tz

from .helpers import CONFIGS

# api_test warns for any dict observation unless the env's name is one of PettingZoo's own classic
# games (chess_v6, connect_four_v3, ...), which use the very same {"observation", "action_mask"}
# dict as ours; these two warnings are about that name list only.
DICT_OBS = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
]

PARALLEL_CONFIGS = [
    pytest.param(name, dict(opts), id=f"{name}-{variant}")
    for name in teocalli.games()
    for variant, opts in teocalli.core.game_class(name).info.variants.items()
    if teocalli.core.game_class(name).info.decisions & {Decision.SIMULTANEOUS, Decision.RACE}
]


@pytest.mark.parametrize(("name", "options"), CONFIGS)
@DICT_OBS[0]
@DICT_OBS[1]
def test_api_test(name: str, options: dict[str, Any]) -> None:
    api_test(tz.env(name, **options), num_cycles=8)


@pytest.mark.parametrize(("name", "options"), PARALLEL_CONFIGS)
def test_parallel_api_test(name: str, options: dict[str, Any]) -> None:
    parallel_api_test(tz.parallel_env(name, **options), num_cycles=400)


def test_parallel_env_refuses_games_of_turns_only() -> None:
    with pytest.raises(ValueError, match="no simultaneous choice or race"):
        tz.parallel_env("stakz")


def _play_aec(env: tz.TeocalliAECEnv, seed: int, check_masks: bool = False) -> list[int]:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken = []
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if check_masks:
            state = env.game_state
            assert state is not None
            p = int(agent.rpartition("_")[2])
            assert p in state.to_move()
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(state.legal_action_ints(p))
        action = int(rng.choice(np.flatnonzero(mask)))
        taken.append(action)
        env.step(action)
    return taken


@pytest.mark.parametrize(
    ("name", "options"),
    [("aztack", {"players": 3, "speed": True}), ("space-aztecs", {"players": 3}), ("stakz", {})],
)
def test_masks_match_legal_actions_and_games_finish(name: str, options: dict[str, Any]) -> None:
    env = tz.env(name, **options)
    _play_aec(env, 1, check_masks=True)
    assert env.game_state is not None and env.game_state.is_terminal()
    assert env.agents == []


def test_seeds_reproduce() -> None:
    env = tz.env("aztack", players=4, speed=True)
    assert _play_aec(env, 7) == _play_aec(env, 7)
    env.reset(seed=7)
    assert env.game_state is not None
    assert env.game_state.seed == 7  # reset(seed=s) deals teocalli's game s


def test_final_rewards_are_the_returns() -> None:
    env = tz.env("stakz", players=3)
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game_state is not None
    returns = env.game_state.returns()
    assert finals == {f"player_{p}": returns[p] for p in range(3)}


def test_illegal_action_raises_the_engines_message() -> None:
    env = tz.env("aztack")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(illegal)


def test_simultaneous_choices_stay_hidden_in_the_aec_env() -> None:
    """At Space Aztecs' card choice, what player 0 chose never shows in player 1's observation."""
    env = tz.env("space-aztecs", players=2)
    env.reset(seed=3)
    state = env.game_state
    assert state is not None
    while state.decision() is not Decision.SIMULTANEOUS:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.agent_selection == "player_0"
    choices = np.flatnonzero(env.observe("player_0")["action_mask"])
    assert len(choices) > 1
    seen = set()
    for choice in choices:
        trial = tz.env("space-aztecs", players=2)
        trial.reset(seed=3)
        trial.game_state = state.clone()
        trial.agent_selection = "player_0"
        trial.step(int(choice))
        assert trial.agent_selection == "player_1"
        seen.add(trial.observe("player_1")["observation"].tobytes())
    assert len(seen) == 1


def test_parallel_env_applies_a_simultaneous_choice_at_once() -> None:
    env = tz.parallel_env("space-aztecs", players=3)
    observations, _ = env.reset(seed=4)
    state = env.game_state
    assert state is not None
    while state.decision() is not Decision.SIMULTANEOUS:
        movers = state.to_move()
        assert len(movers) == 1
        agent = f"player_{movers[0]}"
        action = int(np.flatnonzero(observations[agent]["action_mask"])[0])
        # the others' actions are ignored
        observations, *_ = env.step(dict.fromkeys(env.agents, 0) | {agent: action})
        state = env.game_state
        assert state is not None
    before = len(state.history)
    actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
    env.step(actions)
    assert env.game_state is not None
    assert len(env.game_state.history) >= before + 3


def test_parallel_env_needs_every_chooser() -> None:
    env = tz.parallel_env("space-aztecs", players=2)
    env.reset(seed=0)
    with pytest.raises(IllegalAction, match="may act now"):
        env.step({})
