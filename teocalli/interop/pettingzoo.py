"""PettingZoo environments for every teocalli game: `env(name, **options)` (AEC) and
`parallel_env(name, **options)` (games with simultaneous choices or races).

Observations follow PettingZoo's classic board games (chess, connect four): a dict with
"observation" (the game's fixed-shape float32 encoding of `view(player)`, see
teocalli/interop/observation/) and "action_mask" (int8 over the game's dense action integers).
Rewards come once, at the end, from `State.returns()`. An illegal action raises the engine's
IllegalAction, whose message names the rule.

Who acts (AEC): `agent_selection` follows `to_move()`. At a simultaneous choice the choosers act
one after another (lowest seat first) and see nothing of the others' pending choices, since
observations come from views. In a race the env draws who acts next among those who may, from
its own generator seeded by `reset(seed=...)`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

import teocalli
from teocalli.core import Decision, Game, IllegalAction, State

from .common import Mask, action_mask, agent_index, agent_name, apply_index, as_index, next_mover
from .observation import Array, encoder_for

Observation = dict[str, Array | Mask]


class _Spaces:
    """Game, encoder and per-agent spaces shared by the AEC and the Parallel env."""

    def __init__(self, name: str, options: dict[str, Any]) -> None:
        self.game: Game = teocalli.load(name, **options)
        self.encoder = encoder_for(self.game)
        n, size = self.game.num_players, self.game.num_distinct_actions
        self.size = size
        self.agents = [agent_name(p) for p in range(n)]
        low, high = self.encoder.low, self.encoder.high
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for a in self.agents
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(size) for a in self.agents
        }

    def observe(self, state: State, player: int) -> Observation:
        return {
            "observation": self.encoder.encode(state.view(player)),
            "action_mask": action_mask(state, player, self.size),
        }


def _deal(
    rng: np.random.Generator | None, seed: int | None
) -> tuple[np.random.Generator, int | None]:
    """The env's generator and the deal seed: `reset(seed=s)` deals teocalli's game `s`."""
    if seed is not None:
        return np.random.default_rng(seed), seed
    return (rng if rng is not None else np.random.default_rng()), None


class _EnvCommon:
    """What the AEC and Parallel envs share: the game, spaces, encoder, rendering, generator."""

    metadata: dict[str, Any]

    def _set_up(self, name: str, options: dict[str, Any], render_mode: str | None) -> None:
        self._spaces = _Spaces(name, options)
        self.game = self._spaces.game
        self.encoder = self._spaces.encoder  # `encoder.describe()` prints the observation layout
        self.possible_agents = list(self._spaces.agents)
        self.observation_spaces = self._spaces.observation_spaces
        self.action_spaces = self._spaces.action_spaces
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._rng: np.random.Generator | None = None
        self.game_state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]


class TeocalliAECEnv(_EnvCommon, AECEnv[str, Observation, int]):
    """One teocalli game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(self, name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self._set_up(name, options, render_mode)
        self.metadata = {
            "name": f"teocalli_{self.game.info.name}",
            "render_modes": ["ansi"],
            "is_parallelizable": False,  # its simultaneous choices are sequential AEC steps
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng, deal = _deal(self._rng, seed)
        if deal is None:
            deal = int(self._rng.integers(2**63 - 1))
        self.game_state = self.game.new_state(deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        assert self.game_state is not None and self._rng is not None
        mover = next_mover(self.game_state, self._rng)
        if mover is not None:
            self.agent_selection = agent_name(mover)

    def observe(self, agent: str) -> Observation:
        assert self.game_state is not None, "call reset() first"
        return self._spaces.observe(self.game_state, agent_index(agent))

    def step(self, action: int | None) -> None:
        state = self.game_state
        assert state is not None, "call reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is still in the game: give an action, not None")
        apply_index(state, action, agent_index(agent))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_terminal():
            returns = state.returns()
            outcome = state.outcome().to_json()
            for a in self.agents:
                self.rewards[a] = returns[agent_index(a)]
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.game_state is not None:
            return self.game_state.render(None)
        return None

    def close(self) -> None:
        """Nothing to release: the env holds only a game state."""


class TeocalliParallelEnv(_EnvCommon, ParallelEnv[str, Observation, int]):
    """A game with simultaneous choices or races as a PettingZoo Parallel environment.

    Each `step` takes one action from every agent who may act now (`to_move()`); the actions of
    the others are ignored, as PettingZoo does for agents with nothing to do. A turn applies its
    one player's action; a simultaneous choice applies every chooser's (the last resolves it); a
    race applies the actions in an order drawn from the env's seeded generator, each checked
    against the position as it is then: one made illegal by an earlier arrival is dropped and its
    agent's info says why.
    """

    def __init__(self, name: str, render_mode: str | None = None, **options: Any) -> None:
        self._set_up(name, options, render_mode)
        kinds = self.game.info.decisions
        if not kinds & {Decision.SIMULTANEOUS, Decision.RACE}:
            raise ValueError(
                f"{name} has no simultaneous choice or race, so it has no Parallel env: every step "
                "is one player's turn. Use teocalli.interop.pettingzoo.env (AEC) instead"
            )
        self.metadata = {
            "name": f"teocalli_{self.game.info.name}_parallel",
            "render_modes": ["ansi"],
        }
        self.agents: list[str] = []

    def _observations(self) -> dict[str, Observation]:
        assert self.game_state is not None
        return {a: self._spaces.observe(self.game_state, agent_index(a)) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self._rng, deal = _deal(self._rng, seed)
        if deal is None:
            deal = int(self._rng.integers(2**63 - 1))
        self.game_state = self.game.new_state(deal)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.game_state
        assert state is not None and self._rng is not None, "call reset() first"
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        chosen: list[tuple[int, int]] = []
        for p in state.to_move():
            agent = agent_name(p)
            if actions.get(agent) is None:
                raise IllegalAction(f"{agent} may act now: give it an action")
            chosen.append((p, as_index(self.game, actions[agent])))
        if state.decision() is Decision.RACE:
            for p, index in chosen:  # each must be legal where it was chosen
                state.clone().apply(index, p)
            for i in self._rng.permutation(len(chosen)):
                p, index = chosen[int(i)]
                try:
                    state.apply(index, p)
                except IllegalAction as err:
                    infos[agent_name(p)]["dropped"] = (
                        f"another player's action arrived first and made this one illegal: {err}"
                    )
        else:
            trial = state.clone()  # all or nothing: an illegal action changes nothing
            for p, index in chosen:
                trial.apply(index, p)
            self.game_state = state = trial
        live = list(self.agents)
        rewards = dict.fromkeys(live, 0.0)
        terminated = dict.fromkeys(live, False)
        if state.is_terminal():
            returns = state.returns()
            outcome = state.outcome().to_json()
            for a in live:
                rewards[a] = returns[agent_index(a)]
                terminated[a] = True
                infos[a]["outcome"] = outcome
        observations = self._observations()
        if state.is_terminal():
            self.agents = []
        return observations, rewards, terminated, dict.fromkeys(live, False), infos

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.game_state is not None:
            return self.game_state.render(None)
        return None

    def close(self) -> None:
        """Nothing to release: the env holds only a game state."""


def env(name: str, render_mode: str | None = None, **options: Any) -> TeocalliAECEnv:
    """The AEC environment of a game with its options, e.g. `env("stakz", players=3)`."""
    return TeocalliAECEnv(name, render_mode=render_mode, **options)


def parallel_env(name: str, render_mode: str | None = None, **options: Any) -> TeocalliParallelEnv:
    """The Parallel environment of a game with simultaneous choices or races (Space Aztecs'
    card choice, Aztack's Speed Stack); a clear error for a game of turns only."""
    return TeocalliParallelEnv(name, render_mode=render_mode, **options)


__all__ = ["TeocalliAECEnv", "TeocalliParallelEnv", "env", "parallel_env"]
