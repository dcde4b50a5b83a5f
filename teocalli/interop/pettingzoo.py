"""PettingZoo environments for every teocalli game: `env(name, **options)` (AEC) and
`parallel_env(name, **options)` (games with simultaneous choices or races).

Observations follow PettingZoo's classic board games (chess, connect four): a dict with
"observation" (the game's fixed-shape float32 encoding of `view(player)`, see
teocalli/interop/observation/) and "action_mask" (int8 over the game's dense action integers).
Rewards come once, at the end, from `State.returns()`.

Conventions (docs/interop/pettingzoo.md):

- An illegal action ends the episode (`on_illegal="lose"`, the default, as PettingZoo's classic
  games do): the offender's reward is -1, everyone else's 0, every agent is terminated and the
  offender's info has "illegal_action" (the engine's reason). `on_illegal="raise"` raises the
  engine's IllegalAction instead.
- Once an agent's episode is over (terminated or truncated), its mask marks only action 0
  (`common.NO_OP`) so that maskers never see an empty mask; it must then step None (AEC).
- `max_cycles=N` truncates the episode: after N Parallel steps, or after N times the number of
  agents AEC steps (a cycle: as many steps as agents). None (the default): games end by their
  rules, within `Game.max_length` steps.
- `state()` is every player's observation, concatenated in seat order (what all players know
  together; never a deck order or a pending secret no player knows).
- Render modes: "ansi" returns the text picture, "human" prints it.

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
from teocalli.core import Decision, Game, IllegalAction, InvalidAction, State

from .common import (
    ILLEGAL_REWARD,
    RENDER_MODES,
    SEED_BOUND,
    Mask,
    OnIllegal,
    agent_index,
    agent_name,
    apply_index,
    check_max_cycles,
    check_on_illegal,
    check_render_mode,
    next_mover,
    render,
    terminal_mask,
)
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
        self.state_space = spaces.Box(np.tile(low, n), np.tile(high, n), dtype=np.float32)

    def observe(self, state: State, player: int, over: bool = False) -> Observation:
        """`player`'s observation dict; once `over`, the mask marks only NO_OP."""
        encoder = self.encoder
        if over or state._is_terminal():
            mask = terminal_mask(self.size)
        else:
            mask = encoder.mask(state, player)
        return {"observation": encoder.observe(state, player), "action_mask": mask}

    def global_state(self, state: State) -> Array:
        """Every player's observation in seat order (PettingZoo's `state()`)."""
        observe = self.encoder.observe
        return np.concatenate([observe(state, p) for p in range(self.game.num_players)])


class _EnvCommon:
    """What the AEC and Parallel envs share: the game, spaces, encoder, rendering, generator."""

    metadata: dict[str, Any]

    def _set_up(
        self,
        name: str,
        options: dict[str, Any],
        render_mode: str | None,
        on_illegal: str,
        max_cycles: int | None,
    ) -> None:
        self._spaces = _Spaces(name, options)
        self.game = self._spaces.game
        self.encoder = self._spaces.encoder  # `encoder.describe()` prints the observation layout
        self.possible_agents = list(self._spaces.agents)
        self.observation_spaces = self._spaces.observation_spaces
        self.action_spaces = self._spaces.action_spaces
        self.state_space = self._spaces.state_space
        self.render_mode = check_render_mode(render_mode)
        self.on_illegal: OnIllegal = check_on_illegal(on_illegal)
        self.max_cycles = check_max_cycles(max_cycles)
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None  # what `rng` is made from at its first use
        self.game_state: State | None = None
        self._over = False  # the episode ended: terminal, an illegal action, or max_cycles
        self._steps = 0

    def _deal(self, seed: int | None) -> int:
        """The deal of `reset(seed)`: `reset(seed=s)` deals teocalli's game `s` and seeds the
        env's generator with `s`; without a seed, the next deal is drawn from the generator."""
        if seed is not None:
            # made at its first use (a race, an unseeded reset): most episodes never draw from
            # it, and making a NumPy generator costs about as much as one or two engine steps
            self._rng, self._rng_seed = None, seed
            return seed
        return int(self.rng.integers(SEED_BOUND))

    @property
    def rng(self) -> np.random.Generator:
        """The env's generator (who acts first in a race, unseeded deals)."""
        if self._rng is None:
            self._rng = np.random.default_rng(self._rng_seed)
        return self._rng

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def state(self) -> Array:
        """The global state: every player's observation, concatenated in seat order."""
        assert self.game_state is not None, "call reset() first"
        return self._spaces.global_state(self.game_state)

    def render(self) -> str | None:
        return render(self.game_state, None, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the env holds only a game state."""


class TeocalliAECEnv(_EnvCommon, AECEnv[str, Observation, int]):
    """One teocalli game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        name: str,
        render_mode: str | None = None,
        on_illegal: OnIllegal = "lose",
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self._set_up(name, options, render_mode, on_illegal, max_cycles)
        self.metadata = {
            "name": f"teocalli_{self.game.info.name}",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,  # its simultaneous choices are sequential AEC steps
        }
        self._cache: dict[str, Observation] = {}
        self._seats = {a: p for p, a in enumerate(self.possible_agents)}
        self._size = self.game.num_distinct_actions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deal = self._deal(seed)
        self.game_state = self.game.new_state(deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._over = False
        self._steps = 0
        self._cache = {}
        self._select()

    def _select(self) -> None:
        """`agent_selection` after `reset` or a step that did not end the episode."""
        state = self.game_state
        assert state is not None
        movers = state._to_move()
        mover = movers[0] if len(movers) == 1 else next_mover(state, self.rng)
        if mover is not None:
            self.agent_selection = self.possible_agents[mover]

    def observe(self, agent: str) -> Observation:
        """The agent's observation and mask, built once per step (cached until the next one)."""
        obs = self._cache.get(agent)
        if obs is None:
            state = self.game_state
            assert state is not None, "call reset() first"
            obs = self._cache[agent] = self._spaces.observe(state, agent_index(agent), self._over)
        return obs

    def step(self, action: int | None) -> None:
        # The episode ends for every agent at once (`_over`), and every reward is 0 before it
        # ends: so the selected agent is live exactly while not `_over`, and its cumulative
        # reward is already 0.
        if self._over:
            self._was_dead_step(action)
            return
        state = self.game_state
        assert state is not None, "call reset() first"
        agent = self.agent_selection
        if action is None:
            raise IllegalAction(f"{agent} is still in the game: give an action, not None")
        self._cache.clear()
        try:
            if type(action) is int and 0 <= action < self._size:  # the usual case
                state.apply(action, self._seats[agent])
            else:
                apply_index(state, action, self._seats[agent])
        except (IllegalAction, InvalidAction) as err:
            if self.on_illegal == "raise":
                raise
            self._over = True
            self.rewards[agent] = ILLEGAL_REWARD
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": str(err)}
            self._accumulate_rewards()
            return
        self._steps += 1
        if state._is_terminal():
            self._over = True
            returns = state.returns()
            outcome = state.outcome().to_json()
            for a in self.agents:
                self.rewards[a] = returns[agent_index(a)]
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome}
        elif self.max_cycles is not None and self._steps >= self.max_cycles * len(self.agents):
            self._over = True
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._select()
            return  # every reward is 0: nothing to accumulate
        self._accumulate_rewards()


class TeocalliParallelEnv(_EnvCommon, ParallelEnv[str, Observation, int]):
    """A game with simultaneous choices or races as a PettingZoo Parallel environment.

    Each `step` takes one action from every agent who may act now (`to_move()`); the actions of
    the others are ignored, as PettingZoo does for agents with nothing to do. A turn applies its
    one player's action; a simultaneous choice applies every chooser's (the last resolves it); a
    race applies the actions in an order drawn from the env's seeded generator, each checked
    against the position as it is then: one made illegal by an earlier arrival is dropped and its
    agent's info says why. An action illegal where it was chosen follows `on_illegal`.
    """

    def __init__(
        self,
        name: str,
        render_mode: str | None = None,
        on_illegal: OnIllegal = "lose",
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        self._set_up(name, options, render_mode, on_illegal, max_cycles)
        kinds = self.game.info.decisions
        if not kinds & {Decision.SIMULTANEOUS, Decision.RACE}:
            raise ValueError(
                f"{name} has no simultaneous choice or race, so it has no Parallel env: every step "
                "is one player's turn. Use teocalli.interop.pettingzoo.env (AEC) instead"
            )
        self.metadata = {
            "name": f"teocalli_{self.game.info.name}_parallel",
            "render_modes": list(RENDER_MODES),
        }
        self.agents: list[str] = []

    def _observations(self, agents: list[str]) -> dict[str, Observation]:
        assert self.game_state is not None
        state, over, observe = self.game_state, self._over, self._spaces.observe
        if agents == self.possible_agents:  # every seat: their names in seat order
            return {a: observe(state, p, over) for p, a in enumerate(agents)}
        return {a: observe(state, agent_index(a), over) for a in agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        deal = self._deal(seed)
        self.game_state = self.game.new_state(deal)
        self.agents = list(self.possible_agents)
        self._over = False
        self._steps = 0
        return self._observations(self.agents), {a: {} for a in self.agents}

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
        assert state is not None, "call reset() first"
        live, names = self.agents, self.possible_agents
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        rewards = dict.fromkeys(live, 0.0)
        terminated = dict.fromkeys(live, False)
        truncated = terminated.copy()
        chosen: list[tuple[int, int]] = []
        for p in state.to_move():
            action = actions.get(names[p])
            if action is None:
                raise IllegalAction(f"{names[p]} may act now: give it an action")
            chosen.append((p, action))
        illegal = self._apply(state, chosen, infos)
        if illegal:
            self._over = True
            for p, reason in illegal.items():
                rewards[names[p]] = ILLEGAL_REWARD
                infos[names[p]]["illegal_action"] = reason
            terminated = dict.fromkeys(live, True)
        else:
            state = self.game_state
            assert state is not None
            self._steps += 1
            if state._is_terminal():
                self._over = True
                returns = state.returns()
                outcome = state.outcome().to_json()
                for a in live:
                    rewards[a] = returns[agent_index(a)]
                    terminated[a] = True
                    infos[a]["outcome"] = outcome
            elif self.max_cycles is not None and self._steps >= self.max_cycles:
                self._over = True
                truncated = dict.fromkeys(live, True)
        observations = self._observations(live)
        if self._over:
            self.agents = []
        return observations, rewards, terminated, truncated, infos

    def _apply(
        self, state: State, chosen: list[tuple[int, Any]], infos: dict[str, dict[str, Any]]
    ) -> dict[int, str]:
        """Apply the movers' actions; the illegal ones' reasons (then nothing is applied)."""
        illegal: dict[int, str] = {}
        race = state.decision() is Decision.RACE
        trial = state.clone() if race or len(chosen) > 1 else state
        for p, action in chosen:  # a race: each must be legal where it was chosen
            try:
                apply_index(state.clone() if race else trial, action, p)
            except (IllegalAction, InvalidAction) as err:
                if self.on_illegal == "raise":
                    raise
                illegal[p] = str(err)
        if illegal or not race:
            if not illegal:
                self.game_state = trial
            return illegal
        for i in self.rng.permutation(len(chosen)):
            p, action = chosen[int(i)]
            try:
                apply_index(state, action, p)
            except IllegalAction as err:
                infos[agent_name(p)]["dropped"] = (
                    f"another player's action arrived first and made this one illegal: {err}"
                )
        return illegal


def env(
    name: str,
    render_mode: str | None = None,
    on_illegal: OnIllegal = "lose",
    max_cycles: int | None = None,
    **options: Any,
) -> TeocalliAECEnv:
    """The AEC environment of a game with its options, e.g. `env("stakz", players=3)`."""
    return TeocalliAECEnv(
        name, render_mode=render_mode, on_illegal=on_illegal, max_cycles=max_cycles, **options
    )


def parallel_env(
    name: str,
    render_mode: str | None = None,
    on_illegal: OnIllegal = "lose",
    max_cycles: int | None = None,
    **options: Any,
) -> TeocalliParallelEnv:
    """The Parallel environment of a game with simultaneous choices or races (Space Aztecs'
    card choice, Aztack's Speed Stack); a clear error for a game of turns only."""
    return TeocalliParallelEnv(
        name, render_mode=render_mode, on_illegal=on_illegal, max_cycles=max_cycles, **options
    )


__all__ = ["TeocalliAECEnv", "TeocalliParallelEnv", "env", "parallel_env"]
