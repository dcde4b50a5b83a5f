"""Interop adapters against the raw engine: `python -m benchmarks.bench_interop [--seconds S]`.

For every registered game (default options) it plays uniformly random legal games for about
`--seconds` per cell and prints engine steps per second, all in one run, with the same random
policy everywhere (teocalli's `Rng.randrange` over the legal actions, seeded by the episode):

- raw: the engine alone. A raw step is what a random playout does (benchmarks/common.py's
  `random_step`): `to_move()`, the engine's own `legal_actions(player)` (action objects), one of
  them drawn, `apply(action)`. No observation, no mask, no dense integers;
- encoders: the raw loop plus, before each step, the mover's observation and mask from the
  game's encoder (`Encoder.observe`, `Encoder.mask`): what observing costs on top of the engine,
  without any adapter's protocol;
- pettingzoo: the AEC env: `agent_iter`, `last()` (the mover's observation and mask), the legal
  indices from the mask (`np.flatnonzero`), one drawn, `step(index)`;
- aec-floor: the same AEC loop with a constant observation vector instead of the encoder's (masks
  real): the cost of the protocol, the masks and the policy alone; `pettingzoo` cannot beat it;
- parallel: the Parallel env, for games that have one (every live agent's observation and mask
  each step);
- gymnasium: the single-agent env, seat 0 against random bots (every engine step counted, the
  bots' too; the learner's observation and mask at each of its steps);
- openspiel: the pyspiel game: `legal_actions`, the mover's observation tensor through
  `open_spiel.python.observation.make_observation(game).set_from(state, player)` (a NumPy array,
  what OpenSpiel's Python RL code reads; `state.observation_tensor(player)` goes through C++ and
  returns a Python list, a copy that costs more than our encoding), `apply_action`;
- openspiel-floor: the same OpenSpiel loop without the observation tensor: what OpenSpiel's
  protocol (its C++ `apply_action` calling back into Python), the legal actions and the policy
  cost alone; `openspiel` cannot beat it.

and the slowdown raw / adapter for each (the target is at most 2). Figures compare within one
run only. With `--episodes`, also each adapter's median (and quartiles) over the deals of its
time on a deal over the raw engine's on the same deal: the pooled ratio weighs deals by their
raw cost, which a few deals can carry (Stack Back: a proof that a player is blocked can cost
seconds, a hundred times a usual deal's steps), the median shows the usual deal. `--clock cpu`
times every loop by this process's CPU time instead of the wall clock.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import teocalli
from teocalli.core import Rng

from .common import random_step

TARGET = 2.0
"""The adapters' goal: at most this many times slower than the raw engine."""
GOALS = ("encoders", "pettingzoo", "parallel", "gymnasium", "openspiel")
"""The columns held to TARGET (the floors are references, not adapters)."""


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""`--clock`: wall time, or this process's CPU time (steadier on a machine shared with other
work: another process's load slows the loops less than it stretches the wall clock)."""


class _Loop:
    """One way of playing (raw or an adapter): episodes played in turn, steps and time summed."""

    def __init__(self, play: Callable[[int], int], clock: Callable[[], float]) -> None:
        self.play = play
        self.clock = clock
        self.episodes = self.steps = 0
        self.elapsed = 0.0
        self.per_deal: list[float] = []
        """`once`'s time of each deal, in order (`--episodes`: the per-deal ratios)."""

    def once(self, episode: int) -> None:
        """Play one given episode, timed (after collecting the garbage the other loops left, so
        that no loop is billed for another's: it moved the ratios by up to a third)."""
        gc.collect()
        start = self.clock()
        self.steps += self.play(episode)
        self.episodes += 1
        spent = self.clock() - start
        self.elapsed += spent
        self.per_deal.append(spent)

    def run(self, seconds: float) -> None:
        """Play whole episodes (the next deals) for at least `seconds` of the loop's clock."""
        clock = self.clock
        gc.collect()  # not this loop's garbage (`once`)
        start = clock()
        while True:
            self.steps += self.play(self.episodes)
            self.episodes += 1
            if clock() - start >= seconds:
                break
        self.elapsed += clock() - start

    @property
    def rate(self) -> float:
        return self.steps / self.elapsed


def raw(name: str) -> Callable[[int], int]:
    game = teocalli.load(name)

    def play(k: int) -> int:
        rng = Rng(k)
        state = game.new_state(k)
        while not state.is_terminal():
            random_step(state, rng)
        return len(state.history)

    return play


def engine_encoders(
    name: str, observe_too: bool = True, mask_too: bool = True
) -> Callable[[int], int]:
    """The raw loop with the mover's observation and mask built before each step (either left
    out by its flag: `bench_encoder_parts` times them apart)."""
    from teocalli.interop.observation import encoder_for

    game = teocalli.load(name)
    encoder = encoder_for(game)
    observe, mask = encoder.observe, encoder.mask

    def play(k: int) -> int:
        rng = Rng(k)
        state = game.new_state(k)
        while not state.is_terminal():
            movers = state.to_move()
            player = movers[rng.randrange(len(movers))] if len(movers) > 1 else movers[0]
            if observe_too:
                observe(state, player)
            if mask_too:
                mask(state, player)
            actions = state.legal_actions(player)
            state.apply(actions[rng.randrange(len(actions))], player)
        return len(state.history)

    return play


def pettingzoo_aec(name: str, observations: bool = True) -> Callable[[int], int]:
    """The AEC loop; without `observations`, the env's encoder hands out a constant vector (the
    masks stay real): what the protocol, the masks and the policy cost alone (the floor)."""
    from teocalli.interop import pettingzoo

    env = pettingzoo.env(name)
    if not observations:
        constant = np.zeros(env.encoder.shape, np.float32)
        env.encoder.observe = lambda state, player: constant.copy()  # type: ignore[method-assign]

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


def openspiel_game(name: str, observations: bool = True) -> Callable[[int], int]:
    """The OpenSpiel loop; without `observations`, no observation tensor is set (the floor)."""
    from open_spiel.python.observation import make_observation

    from teocalli.interop import openspiel

    game = openspiel.load(name)
    observation = make_observation(game)  # numpy tensors, as OpenSpiel's Python algorithms use
    if not observations:
        observation.set_from = lambda state, player: None

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
                    observation.set_from(state, p)
                    legal = state.legal_actions(p)
                    joint.append(legal[int(rng.randrange(len(legal)))])
                state.apply_actions(joint)
                steps += game.num_players()
                continue
            player = state.current_player()
            observation.set_from(state, player)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.randrange(len(legal)))])
            steps += 1
        return steps

    return play


def pettingzoo_floor(name: str) -> Callable[[int], int]:
    return pettingzoo_aec(name, observations=False)


def openspiel_floor(name: str) -> Callable[[int], int]:
    return openspiel_game(name, observations=False)


ADAPTERS: dict[str, Callable[[str], Callable[[int], int] | None]] = {
    "encoders": engine_encoders,
    "pettingzoo": pettingzoo_aec,
    "aec-floor": pettingzoo_floor,
    "parallel": pettingzoo_parallel,
    "gymnasium": gymnasium_env,
    "openspiel": openspiel_game,
    "openspiel-floor": openspiel_floor,
}


WARM_UP = 10**6
"""The deal each loop plays once, untimed, before the timed deals 0, 1, 2, ..."""


def measure(
    name: str,
    seconds: float,
    turns: int = 6,
    adapters: list[str] | None = None,
    clock: str = "wall",
    *,
    episodes: int = 0,
    per_deal: dict[str, list[float]] | None = None,
) -> dict[str, float]:
    """Steps per second of the raw engine and of each adapter (those the game has).

    With `episodes`, every loop plays exactly the deals 0 to episodes-1, the loops taking turns
    deal by deal, instead of `seconds`: the same positions for every loop, which a game whose
    positions differ widely in cost (Stack Back: a blocked player's search) needs for a steady
    ratio. `per_deal` (with `episodes`) gets, per adapter, each deal's time over the raw
    engine's on the same deal: a ratio of rates pools the deals, so a few deals whose raw
    steps cost hundreds of times the usual (Stack Back's proofs that a player is blocked) can
    carry it, and the median per deal shows the usual game.

    The loops take turns, `turns` slices of `seconds / turns` each (at least one episode), so
    that all see the same machine load: on a shared machine only such interleaved figures give
    meaningful ratios. Every loop plays the same deals (0, 1, 2, ...) in the same order, after
    one untimed episode of a deal none of them times (`WARM_UP`), so that what a loop pays
    once per process (the first call of a code path, Stack Back's compiled kernels loading)
    is not counted against its first slice.
    """
    tick = CLOCKS[clock]
    loops = {"raw": _Loop(raw(name), tick)}
    for adapter, make in ADAPTERS.items():
        if adapters is not None and adapter not in adapters:
            continue
        play = make(name)
        if play is not None:
            loops[adapter] = _Loop(play, tick)
    for loop in loops.values():
        loop.play(WARM_UP)
    if episodes:
        for k in range(episodes):
            for loop in loops.values():
                loop.once(k)
        if per_deal is not None:
            base = loops["raw"].per_deal
            for label, loop in loops.items():
                if label != "raw":
                    per_deal[label] = [t / r for t, r in zip(loop.per_deal, base, strict=True)]
        return {label: loop.rate for label, loop in loops.items()}
    for _ in range(turns):
        for loop in loops.values():
            loop.run(seconds / turns)
    return {label: loop.rate for label, loop in loops.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and adapter")
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all)")
    parser.add_argument(
        "--turns",
        type=int,
        default=6,
        help="slices each loop's time is cut into, taken in turn (each plays a whole episode "
        "at least: use 1 for Stack Back, whose adapter episodes take many seconds)",
    )
    parser.add_argument(
        "--adapters",
        nargs="*",
        choices=list(ADAPTERS),
        default=None,
        help="the columns to measure besides raw (default: all)",
    )
    parser.add_argument(
        "--clock",
        choices=list(CLOCKS),
        default="wall",
        help="time the loops by the wall clock or by this process's CPU time (steadier when "
        "other work shares the machine)",
    )
    parser.add_argument(
        "--episodes",
        type=int,
        default=0,
        help="instead of --seconds: every loop plays exactly these many deals (0, 1, ...), "
        "taking turns deal by deal (steady ratios for Stack Back)",
    )
    args = parser.parse_args(argv)
    if args.turns < 1:
        parser.error("--turns must be at least 1")
    names = args.games or list(teocalli.games())
    header = f"{'game':<16} {'raw steps/s':>12}"
    for adapter in ADAPTERS:
        header += f" {adapter + ' steps/s':>18} {'ratio':>6}"
    print(header)
    misses: list[str] = []
    spreads: list[str] = []
    for name in names:
        per_deal: dict[str, list[float]] = {}
        rates = measure(
            name, args.seconds, args.turns, args.adapters, args.clock, episodes=args.episodes,
            per_deal=per_deal,
        )  # fmt: skip
        for adapter, ratios in per_deal.items():
            q1, median, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
            spreads.append(f"{name} {adapter}: {median:.2f} ({q1:.2f}-{q3:.2f})")
        row = f"{name:<16} {rates['raw']:>12.0f}"
        for adapter in ADAPTERS:
            if adapter in rates:
                row += f" {rates[adapter]:>18.0f} {rates['raw'] / rates[adapter]:>6.2f}"
            else:
                row += f" {'-':>18} {'-':>6}"
        print(row, flush=True)
        slow = [
            a for a in ADAPTERS if a in rates and a in GOALS and rates["raw"] / rates[a] > TARGET
        ]
        if slow:
            misses.append(f"{name}: {', '.join(slow)}")
    if spreads:
        print("per deal, time / raw time: median (quartiles): " + "; ".join(spreads))
    print(f"slower than {TARGET:g}x the raw engine: " + ("; ".join(misses) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
