"""A Gymnasium single-agent environment: one seat learns, the other seats are teocalli bots.

`env(name, opponents="greedy", seat=0, **options)`. The observation is the game's fixed-shape
float32 encoding of `view(seat)` (teocalli/interop/observation/); actions are the game's dense
action integers, with the legal ones in `info["action_mask"]` (int8). The reward is 0 until the
end, then the seat's `returns()` value in [-1, 1]. Bots act between the learner's steps, each with
its own seed derived from the deal, and see only what their seat may know (they use views and
`determinize`, never the true state's hidden parts).

An illegal action raises the engine's IllegalAction (its message names the rule) by default. With
`on_illegal="lose"` it ends the episode instead with reward -1 and the message in
`info["illegal_action"]`, the convention of PettingZoo's TerminateIllegalWrapper: use it for
learners or tools that sample unmasked actions, such as Gymnasium's own `check_env`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import teocalli
from teocalli.agents import Agent, make_agent
from teocalli.core import Decision, IllegalAction, InvalidAction, State

from .common import SEED_BOUND, action_mask, apply_index, next_mover, seed_from
from .observation import Array, encoder_for

OnIllegal = Literal["raise", "lose"]


class TeocalliGymEnv(gym.Env[Array, np.int64]):
    """One seat of a teocalli game against bots (see the module docstring)."""

    def __init__(
        self,
        name: str,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        on_illegal: OnIllegal = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.metadata = {"render_modes": ["ansi"]}
        self.game = teocalli.load(name, **options)
        self.encoder = encoder_for(self.game)
        n = self.game.num_players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be None (a random seat) or 0 to {n - 1}, not {seat!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(
                f"a {n}-player game needs {n - 1} opponent bot(s), one per other seat in seat "
                f"order, not {len(specs)}"
            )
        for spec in specs:
            make_agent(spec, self.game)  # a bad spec fails now, with the bot registry's message
        if on_illegal not in ("raise", "lose"):
            raise ValueError(f"on_illegal must be 'raise' or 'lose', not {on_illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.on_illegal: OnIllegal = on_illegal
        self.render_mode = render_mode
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.seat = 0 if seat is None else seat
        self.game_state: State | None = None
        self.bots: dict[int, Agent] = {}
        self._lost = False

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
            p: make_agent(spec, self.game, seed=_bot_seed(deal, p))
            for p, spec in zip(others, self.opponent_specs, strict=True)
        }
        self.game_state = self.game.new_state(deal)
        self._lost = False
        self._play_bots()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state is None:
            raise IllegalAction("call reset() before step()")
        if state.is_terminal() or self._lost:
            raise IllegalAction("the episode is over: call reset()")
        try:
            apply_index(state, action, self.seat)
        except (IllegalAction, InvalidAction) as err:
            if self.on_illegal == "raise":
                raise
            self._lost = True
            info = self._info()
            info["illegal_action"] = str(err)
            return self._observation(), -1.0, True, False, info
        self._play_bots()
        terminated = state.is_terminal()
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def _play_bots(self) -> None:
        """Let the bots act until the learner may act or the game ends (races drawn by seed)."""
        state = self.game_state
        assert state is not None
        while True:
            movers = state.to_move()
            if not movers or (state.decision() is not Decision.RACE and self.seat in movers):
                return
            mover = next_mover(state, self.np_random)
            if mover is None or mover == self.seat:
                return
            state.apply(self.bots[mover].act(state, mover), mover)

    def _observation(self) -> Array:
        assert self.game_state is not None
        return self.encoder.encode(self.game_state.view(self.seat))

    def _info(self) -> dict[str, Any]:
        state = self.game_state
        assert state is not None
        info: dict[str, Any] = {
            "action_mask": action_mask(state, self.seat, self.game.num_distinct_actions),
            "seat": self.seat,
        }
        if state.is_terminal():
            info["outcome"] = state.outcome().to_json()
        return info

    def action_masks(self) -> np.ndarray:
        """The current legal-action mask (the method name sb3-contrib's MaskablePPO calls)."""
        assert self.game_state is not None, "call reset() first"
        return action_mask(self.game_state, self.seat, self.game.num_distinct_actions).astype(bool)

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.game_state is not None:
            return self.game_state.render(self.seat)
        return None


def _bot_seed(deal: int, player: int) -> int:
    """Each bot's own seed, fixed by the deal and its seat, so an episode replays exactly."""
    return int(np.random.default_rng([deal, player]).integers(SEED_BOUND))


def env(
    name: str,
    opponents: str | Sequence[str] = "random",
    seat: int | None = 0,
    on_illegal: OnIllegal = "raise",
    render_mode: str | None = None,
    **options: Any,
) -> TeocalliGymEnv:
    """A game for one learning seat against bots, e.g. `env("stakz", opponents="greedy")`.

    `opponents` is one bot spec for every other seat or a list, one per other seat in seat order
    (`"random"`, `"greedy"`, `"mcts:iterations=200"`, ...); `seat=None` draws the learner's seat
    each episode; `options` are the game's (`players=3`, ...).
    """
    return TeocalliGymEnv(
        name,
        opponents=opponents,
        seat=seat,
        on_illegal=on_illegal,
        render_mode=render_mode,
        **options,
    )


__all__ = ["TeocalliGymEnv", "env"]
