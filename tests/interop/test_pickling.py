"""Pickling: every adapter's env (and OpenSpiel's game and state), pickled mid-game as Ray and
SB3's subprocess vector envs do, continues the very same game as the original: the same
observations, masks, rewards and ends, step for step, under the same actions."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import teocalli
from teocalli.core import Decision, game_class
from teocalli.interop import gymnasium as tg
from teocalli.interop import openspiel as tos
from teocalli.interop import pettingzoo as tz

from .helpers import GAMES

STEPS = 120
"""Steps compared after the pickle: the games end sooner or show every kind of step within
this many."""
SLOW = {"stack-back": 30}
"""Fewer steps for a game whose steps take milliseconds (its lattice search)."""
PICKLED_AT = (0, 9)
"""Steps played before pickling: right after `reset`, and mid-game."""

PARALLEL_GAMES = [
    pytest.param(name, id=name)
    for name in teocalli.games()
    if game_class(name).info.decisions & {Decision.SIMULTANEOUS, Decision.RACE}
]


def _aec_trace(env: tz.TeocalliAECEnv, rng: np.random.Generator, limit: int) -> list[Any]:
    """What the agents see along `limit` AEC steps of masked random play."""
    trace: list[Any] = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        seen = (obs["observation"].tobytes(), obs["action_mask"].tobytes())
        trace.append((agent, *seen, reward, terminated, truncated, repr(info)))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return trace


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_aec_env_continues_the_same_game(name: str) -> None:
    env = tz.env(name)
    steps = SLOW.get(name, STEPS)
    for before in PICKLED_AT:
        env.reset(seed=4)
        _aec_trace(env, np.random.default_rng(1), before)
        copy = pickle.loads(pickle.dumps(env))
        assert copy.game_state is not env.game_state
        assert copy.game_state.history == env.game_state.history
        ours = _aec_trace(env, np.random.default_rng(2), steps)
        theirs = _aec_trace(copy, np.random.default_rng(2), steps)
        assert len(ours) == steps or ours[-1][4]  # the whole budget, or to the end
        assert theirs == ours


def _parallel_trace(
    env: tz.TeocalliParallelEnv, observations: dict[str, Any], seed: int, limit: int
) -> list[Any]:
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    while env.agents and len(trace) < limit:
        actions = {}
        for agent, obs in observations.items():
            legal = np.flatnonzero(obs["action_mask"])
            if len(legal):
                actions[agent] = int(rng.choice(legal))
        observations, rewards, terminated, truncated, infos = env.step(actions)
        seen = {
            a: (o["observation"].tobytes(), o["action_mask"].tobytes())
            for a, o in observations.items()
        }
        trace.append((seen, rewards, terminated, truncated, repr(infos)))
    return trace


@pytest.mark.parametrize("name", PARALLEL_GAMES)
def test_a_pickled_parallel_env_continues_the_same_game(name: str) -> None:
    env = tz.parallel_env(name)
    observations, _ = env.reset(seed=5)
    for _ in range(PICKLED_AT[1]):
        actions = {
            a: int(np.flatnonzero(o["action_mask"])[0])
            for a, o in observations.items()
            if o["action_mask"].any()
        }
        observations, *_ = env.step(actions)
    copy = pickle.loads(pickle.dumps((env, observations)))
    ours = _parallel_trace(env, observations, 3, STEPS)
    theirs = _parallel_trace(copy[0], copy[1], 3, STEPS)
    assert len(ours) == STEPS or not env.agents
    assert theirs == ours


def _gym_trace(env: tg.TeocalliGymEnv, info: dict[str, Any], seed: int, limit: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    done = False
    while not done and len(trace) < limit:
        obs, reward, done, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        mask = info.pop("action_mask")
        trace.append((obs.tobytes(), mask.tobytes(), reward, done, truncated, repr(info)))
        info["action_mask"] = mask
        assert env.game_state is not None
        trace.append(len(env.game_state.history))  # the bots' steps too
    return trace


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_gymnasium_env_continues_the_same_game(name: str) -> None:
    """The random bots' generators travel with the env, so the bots play on the same."""
    env = tg.env(name, seat=None)
    _obs, info = env.reset(seed=6)
    for before in PICKLED_AT:
        if before:
            _gym_trace(env, info, 1, before)
            info = {"action_mask": env._mask()}
        copy = pickle.loads(pickle.dumps(env))
        assert copy.seat == env.seat
        ours = _gym_trace(env, dict(info), 2, SLOW.get(name, STEPS))
        theirs = _gym_trace(copy, dict(info), 2, SLOW.get(name, STEPS))
        assert theirs == ours
        _obs, info = env.reset(seed=6)


def _spiel_trace(state: Any, seed: int, limit: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    game = state.get_game()
    trace: list[Any] = []
    while not state.is_terminal() and len(trace) < limit:
        if state.is_chance_node():
            outcomes = [a for a, _p in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
            continue
        if state.is_simultaneous_node():
            legal = [state.legal_actions(p) for p in range(game.num_players())]
            trace.append((legal, [state.observation_tensor(p) for p in range(len(legal))]))
            state.apply_actions([int(rng.choice(actions)) for actions in legal])
            continue
        player = state.current_player()
        trace.append((player, state.legal_actions(), state.observation_tensor(player)))
        state.apply_action(int(rng.choice(state.legal_actions())))
    trace.append((state.is_terminal(), state.returns()))
    return trace


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_openspiel_game_and_state_continue_the_same_game(name: str) -> None:
    game = tos.load(name, deals=16)
    copy_game = pickle.loads(pickle.dumps(game))
    assert str(copy_game) == str(game)
    assert type(copy_game) is type(game)
    state = game.new_initial_state()
    state.apply_action(7)
    _spiel_trace(state, 1, PICKLED_AT[1])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    ours = _spiel_trace(state, 2, SLOW.get(name, STEPS))
    theirs = _spiel_trace(copy, 2, SLOW.get(name, STEPS))
    assert len(ours) > 1
    assert theirs == ours
