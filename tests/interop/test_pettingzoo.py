"""PettingZoo: every test utility of pettingzoo.test that applies, on the default env of every
game (api_test on every variant); masks, seeds, secrecy, illegal actions, max_cycles."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.test.state_test import test_state as state_check
from pettingzoo.test.state_test import test_state_space as state_space_check

import teocalli
from teocalli.core import Decision, IllegalAction
from teocalli.interop import pettingzoo as tz

from .helpers import CONFIGS, GAMES

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


PARALLEL_GAMES = [
    pytest.param(name, id=name)
    for name in teocalli.games()
    if teocalli.core.game_class(name).info.decisions & {Decision.SIMULTANEOUS, Decision.RACE}
]


@pytest.mark.parametrize("name", GAMES)
@DICT_OBS[0]
@DICT_OBS[1]
def test_default_env_passes_the_aec_utilities(name: str) -> None:
    """api_test, seed_test, render_test and state_test's AEC checks on `env(name)` as is."""
    api_test(tz.env(name), num_cycles=8)
    seed_test(functools.partial(tz.env, name), num_cycles=40)
    render_test(functools.partial(tz.env, name))
    state_space_check(tz.env(name))
    state_check(tz.env(name), num_cycles=4)


@pytest.mark.parametrize("name", PARALLEL_GAMES)
def test_default_parallel_env_passes_the_parallel_utilities(name: str) -> None:
    parallel_api_test(tz.parallel_env(name), num_cycles=100)
    parallel_seed_test(functools.partial(tz.parallel_env, name), num_cycles=40)
    state_test(tz.env(name), tz.parallel_env(name), num_cycles=4)


def _masked(space: Any, obs: dict[str, Any]) -> int:
    return int(space.sample(obs["action_mask"]))


@pytest.mark.parametrize("name", PARALLEL_GAMES)
def test_max_cycles_truncates_like_pettingzoos_max_cycles_test(name: str) -> None:
    """pettingzoo.test.max_cycles_test's checks with masked actions (it samples unmasked ones,
    which end the episode under the illegal-action convention): N Parallel steps, and N cycles
    of as many AEC steps as agents."""
    cycles = 4
    par = tz.parallel_env(name, max_cycles=cycles)
    observations, _ = par.reset(seed=0)
    steps = 0
    while par.agents:
        actions = {a: _masked(par.action_space(a), observations[a]) for a in par.agents}
        observations, _r, terminations, truncations, _i = par.step(actions)
        steps += 1
    assert steps == cycles and all(truncations.values()) and not any(terminations.values())
    aec = tz.env(name, max_cycles=cycles)
    aec.reset(seed=0)
    acted = 0
    for agent in aec.agent_iter():
        obs, _r, terminated, truncated, _i = aec.last()
        if terminated or truncated:
            assert truncated and not terminated
            assert np.flatnonzero(obs["action_mask"]).tolist() == [0]
            aec.step(None)
            continue
        acted += 1
        aec.step(_masked(aec.action_space(agent), obs))
    assert acted == cycles * len(aec.possible_agents)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_ends_the_episode_with_a_penalty(name: str) -> None:
    env = tz.env(name)
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.rewards[agent] == -1.0
    assert all(env.terminations.values())
    assert sum(env.rewards.values()) == -1.0
    assert env.infos[agent]["illegal_action"]
    for other in env.agents:
        assert np.flatnonzero(env.observe(other)["action_mask"]).tolist() == [0]


def test_parallel_env_refuses_games_of_turns_only() -> None:
    with pytest.raises(ValueError, match="no simultaneous choice or race"):
        tz.parallel_env("stakz")


def _play_aec(env: tz.TeocalliAECEnv, seed: int, check_masks: bool = False) -> list[int]:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken = []
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:  # over: the mask marks only the no-op 0
            assert np.flatnonzero(obs["action_mask"]).tolist() == [0]
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


def test_illegal_action_raises_the_engines_message_on_request() -> None:
    env = tz.env("aztack", on_illegal="raise")
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
