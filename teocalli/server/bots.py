"""Bots at the table: they think outside the event loop, in a worker pool, with a time cap.

A worker gets only plain data (game name, options, seed, steps, bot spec, seat) and rebuilds the
position by replay, so a process pool needs no pickling of live objects and a bot can never touch
the table's own state. If a bot overruns its cap, the table does not wait: it plays a seeded
random legal move instead (the late answer is dropped), so one slow bot never stalls a table,
and the event loop serving every other table never runs bot code at all.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import teocalli
from teocalli.agents import make_agent
from teocalli.core import Game, Rng, State


@lru_cache(maxsize=64)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return teocalli.load(name, **dict(options))


@dataclass(frozen=True)
class BotJob:
    """Plain data a worker needs to rebuild the position and think."""

    name: str
    options: Mapping[str, Any]
    seed: int
    steps: Sequence[tuple[int, str]]
    spec: str
    bot_seed: int
    player: int


def choose_move(job: BotJob) -> str:
    """The bot's move, in notation, for the job's player in the position its steps lead to."""
    game = _game(job.name, tuple(sorted(job.options.items())))
    state = game.replay(job.seed, job.steps)
    agent = make_agent(job.spec, game, job.bot_seed)
    return str(agent.act(state, job.player))


def fallback_move(state: State, player: int, bot_seed: int) -> str:
    """A seeded random legal move, for a bot that overran its cap."""
    legal = state.legal_actions(player)
    return str(legal[Rng(bot_seed).randrange(len(legal))])


class BotPool:
    """The pool where bots think; `workers=0` uses threads (cheap to start, for tests)."""

    def __init__(self, workers: int = 1, think_cap: float = 10.0) -> None:
        self.think_cap = think_cap
        self.executor: Executor
        if workers > 0:
            self.executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn")
            )
        else:
            self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="teocalli-bot")

    async def choose(self, state: State, player: int, spec: str, bot_seed: int) -> str:
        """The bot's move within the cap, else a fallback move; never blocks the event loop."""
        game = state.game
        assert state.seed is not None
        steps = [(s.player, str(s.action)) for s in state.history]
        loop = asyncio.get_running_loop()
        job = BotJob(
            name=game.info.name,
            options=dict(game.options),
            seed=state.seed,
            steps=steps,
            spec=spec,
            bot_seed=bot_seed,
            player=player,
        )
        future = loop.run_in_executor(self.executor, choose_move, job)
        try:
            return await asyncio.wait_for(future, self.think_cap)
        except TimeoutError:
            return fallback_move(state, player, bot_seed)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
