"""A Gymnasium single-agent environment: one seat learns, the other seats are opponents.

`env(name, opponents="random", seat=0, **options)`, or `gymnasium.make("teocalli/Stakz-v0")`
once this module is imported (every game is registered: `GYM_IDS`; without importing it first,
`gymnasium.make("teocalli.interop.gymnasium:teocalli/Stakz-v0")` imports it). The observation is
the game's fixed-shape float32 encoding of `view(seat)` (teocalli/interop/observation/); actions
are the game's dense action integers, with the legal ones in `info["action_mask"]` (int8). The
reward is 0 until the end, then the seat's `returns()` value in [-1, 1].

Opponents act between the learner's steps. Each is a teocalli bot spec (`"random"`, `"greedy"`,
`"mcts:iterations=200"`), a teocalli `Agent`, or a policy over observations: a callable
`(observation, mask) -> action` (self-play: pass your learner's policy) or an object with such a
method `act(observation, mask)`; a policy gets its own seat's observation and mask, built like the
learner's. Bots get their own seed derived from the deal, and see only what their seat may know.

An illegal action ends the episode (`on_illegal="lose"`, the default) with reward -1 and the
engine's reason in `info["illegal_action"]` (PettingZoo's TerminateIllegalWrapper convention), so
that tools sampling unmasked actions (Gymnasium's `check_env`) run on the default env;
`on_illegal="raise"` raises the engine's IllegalAction instead. Once the episode is over, the
mask marks only action 0 (`common.NO_OP`), so masked samplers never see an empty mask (a vector
env's auto-reset step ignores the action).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, SupportsInt, runtime_checkable

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import teocalli
from teocalli.agents import Agent, make_agent
from teocalli.core import Decision, IllegalAction, InvalidAction, State, derive_seed

from .common import (
    ILLEGAL_REWARD,
    RENDER_MODES,
    Mask,
    OnIllegal,
    action_mask,
    apply_index,
    check_on_illegal,
    check_render_mode,
    next_mover,
    render,
    seed_from,
    terminal_mask,
)
from .observation import Array, encoder_for


@runtime_checkable
class Policy(Protocol):
    """A policy object: `act(observation, mask)` gives a dense action integer."""

    def act(self, observation: Array, mask: Mask) -> SupportsInt: ...


PolicyFn = Callable[[Array, Mask], SupportsInt]
Opponent = str | Agent | Policy | PolicyFn


class _PolicySeat:
    """An opponent that acts from its seat's observation and mask."""

    def __init__(self, policy: Policy | PolicyFn, env: TeocalliGymEnv) -> None:
        self.choose: PolicyFn = policy.act if isinstance(policy, Policy) else policy
        self.env = env

    def act(self, state: State, player: int) -> int:
        observation = self.env.encoder.observe(state, player)
        mask = action_mask(self.env.encoder, state, player)
        return int(self.choose(observation, mask))


class TeocalliGymEnv(gym.Env[Array, np.int64]):
    """One seat of a teocalli game against opponents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        name: str,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int | None = 0,
        on_illegal: OnIllegal = "lose",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = teocalli.load(name, **options)
        self.encoder = encoder_for(self.game)
        n = self.game.num_players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be None (a random seat) or 0 to {n - 1}, not {seat!r}")
        specs: list[Opponent] = (
            list(opponents)
            if isinstance(opponents, Sequence) and not isinstance(opponents, str)
            else [opponents] * (n - 1)
        )
        if len(specs) != n - 1:
            raise ValueError(
                f"a {n}-player game needs {n - 1} opponent(s), one per other seat in seat "
                f"order, not {len(specs)}"
            )
        for spec in specs:
            if isinstance(spec, str):
                make_agent(spec, self.game)  # a bad spec fails now, with the registry's message
            elif not (isinstance(spec, Agent | Policy) or callable(spec)):
                raise TypeError(
                    "an opponent is a bot spec, a teocalli Agent, a callable (observation, mask)"
                    f" -> action or an object with act(observation, mask), not {spec!r}"
                )
        self.on_illegal: OnIllegal = check_on_illegal(on_illegal)
        self.render_mode = check_render_mode(render_mode)
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.seat = 0 if seat is None else seat
        self.game_state: State | None = None
        self.bots: dict[int, Agent | _PolicySeat] = {}
        self._lost = False
        self._size = self.game.num_distinct_actions
        self._mask_of: tuple[State | None, int] = (None, -1)
        """The position `_mask_cache` was built for: the state object and its steps taken."""
        self._mask_cache: Mask = terminal_mask(self._size)

    # --- the episode --------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Deal a new game: `reset(seed=s)` deals teocalli's game `s` (replayable with the CLI)."""
        super().reset(seed=seed)
        deal = seed if seed is not None else seed_from(self.np_random)
        n = self.game.num_players
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(n))
        others = [p for p in range(n) if p != self.seat]
        self.bots = {
            p: self._opponent(spec, deal, p)
            for p, spec in zip(others, self.opponent_specs, strict=True)
        }
        self.game_state = self.game.new_state(deal)
        self._lost = False
        self._play_bots()
        return self._observation(), self._info()

    def _opponent(self, spec: Opponent, deal: int, player: int) -> Agent | _PolicySeat:
        if isinstance(spec, str):
            return make_agent(spec, self.game, seed=_bot_seed(deal, player))
        if isinstance(spec, Agent):
            return spec
        return _PolicySeat(spec, self)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state is None:
            raise IllegalAction("call reset() before step()")
        if self._lost or state._is_terminal():
            raise IllegalAction("the episode is over: call reset()")
        try:
            if type(action) is int and 0 <= action < self._size:  # the usual case
                state.apply(action, self.seat)
            else:
                apply_index(state, action, self.seat)
        except (IllegalAction, InvalidAction) as err:
            if self.on_illegal == "raise":
                raise
            self._lost = True
            info = self._info()
            info["illegal_action"] = str(err)
            return self._observation(), ILLEGAL_REWARD, True, False, info
        self._play_bots()
        if state._is_terminal():
            reward = float(state.returns()[self.seat])
            return self._observation(), reward, True, False, self._info()
        return self.encoder.observe(state, self.seat), 0.0, False, False, self._info()

    def _play_bots(self) -> None:
        """Let the bots act until the learner may act or the game ends (races drawn by seed)."""
        state = self.game_state
        assert state is not None
        seat, bots = self.seat, self.bots
        while not state._is_terminal():
            movers = state._to_move()
            if len(movers) == 1:  # a turn: the learner's, or a bot's
                mover = movers[0]
                if mover == seat:
                    return
            else:  # a simultaneous choice (the learner first, if it may) or a race (drawn)
                if seat in movers and state._decision() is not Decision.RACE:
                    return
                drawn = next_mover(state, self.np_random)
                if drawn is None or drawn == seat:
                    return
                mover = drawn
            choice = bots[mover].act(state, mover)
            if isinstance(choice, int):
                apply_index(state, choice, mover)
            else:
                state.apply(choice, mover)

    def _observation(self) -> Array:
        assert self.game_state is not None
        return self.encoder.observe(self.game_state, self.seat)

    def _info(self) -> dict[str, Any]:
        state = self.game_state
        assert state is not None
        if self._lost or state._is_terminal():
            info: dict[str, Any] = {"action_mask": terminal_mask(self._size), "seat": self.seat}
            if state._is_terminal():
                info["outcome"] = state.outcome().to_json()
            return info
        mask = self.encoder.mask(state, self.seat)
        self._mask_cache, self._mask_of = mask, (state, len(state.history))
        return {"action_mask": mask, "seat": self.seat}

    def _mask(self) -> Mask:
        """The learner's mask: the one `_info` built for this position, or a new one."""
        state = self.game_state
        assert state is not None, "call reset() first"
        if self._lost or state._is_terminal():
            return terminal_mask(self._size)
        if self._mask_of[0] is not state or self._mask_of[1] != len(state.history):
            self._mask_cache = self.encoder.mask(state, self.seat)
            self._mask_of = (state, len(state.history))
        return self._mask_cache

    def action_masks(self) -> np.ndarray:
        """The current legal-action mask (the method name sb3-contrib's MaskablePPO calls)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        return render(self.game_state, self.seat, self.render_mode)


def _bot_seed(deal: int, player: int) -> int:
    """Each bot's own seed, fixed by the deal and its seat, so an episode replays exactly (the
    core's one-way derivation, as the server seeds its bots: a sixth of the cost of seeding a
    NumPy generator, paid for every bot at every reset)."""
    return derive_seed(deal, player)


def env(
    name: str,
    opponents: Opponent | Sequence[Opponent] = "random",
    seat: int | None = 0,
    on_illegal: OnIllegal = "lose",
    render_mode: str | None = None,
    **options: Any,
) -> TeocalliGymEnv:
    """A game for one learning seat against opponents, e.g. `env("stakz", opponents="greedy")`.

    `opponents` is one opponent for every other seat or a list, one per other seat in seat order:
    a bot spec (`"random"`, `"greedy"`, `"mcts:iterations=200"`, ...), a teocalli Agent, a
    callable `(observation, mask) -> action` or an object with `act(observation, mask)`;
    `seat=None` draws the learner's seat each episode; `options` are the game's (`players=3`).
    """
    return TeocalliGymEnv(
        name,
        opponents=opponents,
        seat=seat,
        on_illegal=on_illegal,
        render_mode=render_mode,
        **options,
    )


def gym_id(name: str) -> str:
    """The `gymnasium.make` id of a game: `teocalli/ShiftingStones-v0` for shifting-stones."""
    return "teocalli/" + "".join(part.capitalize() for part in name.split("-")) + "-v0"


def register_all() -> dict[str, str]:
    """Register every game with Gymnasium (idempotent); {game name: id}."""
    ids = {}
    for name in teocalli.games():
        ids[name] = gym_id(name)
        if ids[name] not in gym.registry:
            gym.register(
                id=ids[name], entry_point=f"{__name__}:TeocalliGymEnv", kwargs={"name": name}
            )
    return ids


GYM_IDS = register_all()

__all__ = ["GYM_IDS", "Policy", "TeocalliGymEnv", "env", "gym_id", "register_all"]
