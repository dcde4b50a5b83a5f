"""Interop adapters against the raw engine: `python -m benchmarks.bench_interop [--seconds S]`.

For every registered game (default options) it plays uniformly random legal games for about
`--seconds` per cell and prints engine steps per second, all in one run, with the same random
policy everywhere (teocalli's `Rng.randrange` over the legal actions, seeded by the episode):

- raw: the engine alone. A raw step is what a random playout does (benchmarks/common.py's
  `random_step`): `to_move()`, the engine's own `legal_actions(player)` (action objects), one of
  them drawn, `apply(action)`. No observation, no mask, no dense integers;
- pettingzoo: the AEC env: `agent_iter`, `last()` (the mover's observation and mask), the legal
  indices from the mask (`np.flatnonzero`), one drawn, `step(index)`;
- parallel: the Parallel env, for games that have one (every live agent's observation and mask
  each step);
- gymnasium: the single-agent env, seat 0 against random bots (every engine step counted, the
  bots' too; the learner's observation and mask at each of its steps);
- openspiel: the pyspiel game (`legal_actions`, `observation_tensor` of the mover, `apply_action`).

and the slowdown raw / adapter for each (the target is at most 2). Figures compare within one
run only.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

import teocalli
from teocalli.core import Rng

from .common import random_step

TARGET = 2.0
"""The adapters' goal: at most this many times slower than the raw engine."""


def _rate(play: Callable[[int], int], seconds: float) -> float:
    """Steps per second of `play(episode) -> steps`, repeated for about `seconds`."""
    steps = episodes = 0
    start = time.perf_counter()
    while True:
        steps += play(episodes)
        episodes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def raw(name: str) -> Callable[[int], int]:
    game = teocalli.load(name)

    def play(k: int) -> int:
        rng = Rng(k)
        state = game.new_state(k)
        while not state.is_terminal():
            random_step(state, rng)
        return len(state.history)

    return play


def pettingzoo_aec(name: str) -> Callable[[int], int]:
    from teocalli.interop import pettingzoo

    env = pettingzoo.env(name)

    def play(k: int) -> int:
        rng = Rng(k)
        env.reset(seed=k)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        assert env.game_state is not None
        return len(env.game_state.history)

    return play


def pettingzoo_parallel(name: str) -> Callable[[int], int] | None:
    from teocalli.core import Decision, game_class
    from teocalli.interop import pettingzoo

    if not game_class(name).info.decisions & {Decision.SIMULTANEOUS, Decision.RACE}:
        return None
    env = pettingzoo.parallel_env(name)

    def play(k: int) -> int:
        rng = Rng(k)
        observations, _infos = env.reset(seed=k)
        while env.agents:
            actions = {}
            for agent, obs in observations.items():
                legal = np.flatnonzero(obs["action_mask"])
                if len(legal):
                    actions[agent] = int(legal[rng.randrange(len(legal))])
            observations, *_ = env.step(actions)
        assert env.game_state is not None
        return len(env.game_state.history)

    return play


def gymnasium_env(name: str) -> Callable[[int], int]:
    from teocalli.interop import gymnasium

    env = gymnasium.env(name, opponents="random")

    def play(k: int) -> int:
        rng = Rng(k)
        _obs, info = env.reset(seed=k)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _obs, _r, done, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = done or truncated
        assert env.game_state is not None
        return len(env.game_state.history)

    return play


def openspiel_game(name: str) -> Callable[[int], int]:
    from teocalli.interop import openspiel

    game = openspiel.load(name)

    def play(k: int) -> int:
        rng = Rng(k)
        state = game.new_initial_state()
        state.apply_action(k % 1024)
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.randrange(len(outcomes)))][0])
                continue
            if state.is_simultaneous_node():
                joint = []
                for p in range(game.num_players()):
                    state.observation_tensor(p)
                    legal = state.legal_actions(p)
                    joint.append(legal[int(rng.randrange(len(legal)))])
                state.apply_actions(joint)
                steps += game.num_players()
                continue
            player = state.current_player()
            state.observation_tensor(player)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.randrange(len(legal)))])
            steps += 1
        return steps

    return play


ADAPTERS: dict[str, Callable[[str], Callable[[int], int] | None]] = {
    "pettingzoo": pettingzoo_aec,
    "parallel": pettingzoo_parallel,
    "gymnasium": gymnasium_env,
    "openspiel": openspiel_game,
}


def measure(name: str, seconds: float) -> dict[str, float]:
    """Steps per second of the raw engine and of each adapter (those the game has)."""
    rates = {"raw": _rate(raw(name), seconds)}
    for adapter, make in ADAPTERS.items():
        play = make(name)
        if play is not None:
            rates[adapter] = _rate(play, seconds)
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and adapter")
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all)")
    args = parser.parse_args(argv)
    names = args.games or list(teocalli.games())
    header = f"{'game':<16} {'raw steps/s':>12}"
    for adapter in ADAPTERS:
        header += f" {adapter + ' steps/s':>18} {'ratio':>6}"
    print(header)
    misses: list[str] = []
    for name in names:
        rates = measure(name, args.seconds)
        row = f"{name:<16} {rates['raw']:>12.0f}"
        for adapter in ADAPTERS:
            if adapter in rates:
                row += f" {rates[adapter]:>18.0f} {rates['raw'] / rates[adapter]:>6.2f}"
            else:
                row += f" {'-':>18} {'-':>6}"
        print(row, flush=True)
        slow = [a for a in ADAPTERS if a in rates and rates["raw"] / rates[a] > TARGET]
        if slow:
            misses.append(f"{name}: {', '.join(slow)}")
    print(f"slower than {TARGET:g}x the raw engine: " + ("; ".join(misses) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
