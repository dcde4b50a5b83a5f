"""The one task per room that plays its bots' moves, through the same checked path as people's.

It asks the `BotPool` (outside the event loop) for the move of whichever bot may act, and drops
the answer if the position changed while the bot thought (a person moved in a race, or took back
a step). Races wait the table's `bot_delay` when a person is in the race.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING

from teocalli.core import Decision, derive_seed

from .bots import fallback_move
from .errors import Refused

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("teocalli.server")


class BotDriver:
    """Starts, runs and ends the bot task of one room."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        """Make sure a bot task runs if some bot may have to act (room lock held)."""
        room = self.room
        if room.owned and self.task is None and not room.state.is_terminal() and self.next_turn():
            self.task = asyncio.create_task(self.drive(), name=f"bots-{room.id}")
            room.manager.tasks.add(self.task)
            self.task.add_done_callback(room.manager.tasks.discard)

    def next_turn(self) -> tuple[int, str, float] | None:
        """(seat, bot spec, delay) of the next bot move, if a bot may act now."""
        room = self.room
        state = room.state
        decision = state.decision()
        if decision is None:
            return None
        controls = room.seats.person_controls
        movers = [p for p in state.to_move() if not controls(p)]
        if not movers:
            return None
        if decision is Decision.RACE:
            humans = [p for p in state.to_move() if controls(p)]
            delay = float(room.settings.get("bot_delay", 0.0)) if humans else 0.0
            seat = movers[secrets.randbelow(len(movers))] if len(movers) > 1 else movers[0]
        else:
            seat, delay = movers[0], 0.0
        spec = room.seats[seat].bot_spec or room.settings.get("timeout_bot", "greedy")
        return seat, spec, delay

    def pace_left(self) -> float:
        """Seconds until a bot may show its step: the table's pace after the last step, while a
        person is connected (bot-only tables and empty rooms never wait)."""
        room = self.room
        pace = float(room.settings.get("pace", 0.0))
        if pace <= 0 or not room.present():
            return 0.0
        return room.last_step_at + pace - time.monotonic()

    async def drive(self) -> None:
        """Play bot moves until no bot may act; re-think whenever the position changed."""
        room = self.room
        try:
            while True:
                async with room.lock:
                    turn = self.next_turn()
                    if turn is None or room.state.is_terminal():
                        self.task = None
                        return
                    version, state = room.version, room.state
                seat, spec, delay = turn
                if delay > 0:
                    await asyncio.sleep(delay)
                    if version != room.version:
                        continue
                bot_seed = derive_seed(room.seed, len(state.history), seat)
                move = await room.manager.pool.choose(state, seat, spec, bot_seed, table=room.id)
                wait = self.pace_left()
                if wait > 0:  # let the people at the table see the last step first
                    await asyncio.sleep(wait)
                in_hand = time.perf_counter()  # the server's own cost from here (metrics.py)
                async with room.lock:
                    if version != room.version:
                        continue
                    by = "timeout" if seat in room.seats.timed_out else "bot"
                    try:
                        await room.apply(seat, move, by)
                        room.manager.metrics.action.observe(time.perf_counter() - in_hand, by)
                    except Refused as err:
                        if err.code == "stale":  # another process stored a step first
                            self.task = None
                            return
                        log.exception("bot move %r refused at table %s", move, room.id)
                        await room.apply(seat, fallback_move(state, seat, bot_seed), by)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot driver of table %s stopped", room.id)
            self.task = None
