"""One table in memory: its live state, seats and connections, and the checked path of a change.

Every change goes through the room's lock: check with the engine on a clone, store it (one
transaction), only then swap the new state in and tell every connection (each its own view). Bots
are driven by one task per room that asks the `BotPool` and then submits the move through the same
checked path as a person's.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from teocalli.core import Decision, Effect, Game, State, TeocalliError, derive_seed

from .bots import BotSpecError, check_bot_spec, fallback_move
from .clocks import TableClock
from .db import TableRow, now_utc
from .errors import Refused
from .outbox import Outbox
from .tokens import check_token

if TYPE_CHECKING:
    from .tables import Manager

log = logging.getLogger("teocalli.server")

SECRET_CHOICE = "chose in secret"
HAND_OVER_GRACE = 60.0
"""Seconds a person must have been away before another player may hand their seat to a bot."""

__all__ = ["HAND_OVER_GRACE", "Connection", "Refused", "Room", "Seat", "visible_log"]


@dataclass
class Seat:
    """One seat: a person (reached by a token) or a bot; a person's seat may be handed to a bot."""

    seat: int
    kind: str
    bot: str | None
    token_hash: str | None
    taken: bool = False
    name: str | None = None
    handed_to: str | None = None

    @property
    def bot_spec(self) -> str | None:
        """The bot that plays this seat now, if any."""
        return self.bot if self.kind == "bot" else self.handed_to

    def summary(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "taken": self.taken,
            "name": self.name,
            "handed_to": self.handed_to,
        }


@dataclass(eq=False)
class Connection:
    """One WebSocket at a table: a seat or a spectator (seat None), with its bounded outbox."""

    seat: int | None
    outbox: Outbox = field(default_factory=Outbox)


def visible_log(
    state: State, decisions: Sequence[Decision | None], viewer: int | None
) -> list[list[Any]]:
    """The game log as `viewer` may read it, with unrevealed secret choices redacted.

    The engine's `log` already hides what its game declares hidden; as a second line of defence,
    the trailing choices of a simultaneous round that is not yet resolved (steps taken at a
    SIMULTANEOUS decision since the last step that revealed something) read "chose in secret"
    to everyone but their author.
    """
    entries = [[player, text] for player, text in state.log(viewer)]
    if state.is_terminal():
        return entries
    for i in range(len(state.history) - 1, -1, -1):
        step = state.history[i]
        if decisions[i] is not Decision.SIMULTANEOUS or Effect.REVEALED in step.effect:
            break
        if step.player != viewer:
            entries[i][1] = SECRET_CHOICE
    return entries


class Room:
    """One table: its game, state, seats, clock and connections."""

    def __init__(
        self,
        manager: Manager,
        row: TableRow,
        seats: list[Seat],
        state: State,
        decisions: list[Decision | None],
    ) -> None:
        self.manager = manager
        self.id = row.id
        self.game: Game = state.game
        self.seed = row.seed
        self.created = row.created
        self.settings: dict[str, Any] = dict(row.settings)
        self.status = row.status
        self.outcome = row.outcome
        self.seats = seats
        self.state = state
        self.decisions = decisions
        self.version = 0
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.timed_out: set[int] = set()
        self.clock: TableClock | None = None
        self.absent_since: dict[int, float] = {s.seat: manager.now() for s in seats}
        """When each person's seat was last left by its last connection (a restart counts)."""
        spec = self.settings.get("clock")
        if spec:
            self.clock = TableClock.fresh(spec["mode"], spec["seconds"], len(seats), manager.now)

    # --- what people see ------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.info.name,
            "options": dict(self.game.options),
            "status": self.status,
            "seats": [s.summary() for s in self.seats],
            "created": self.created.isoformat(),
            "step": len(self.state.history),
            "clock": self.settings.get("clock"),
            "bot_delay": self.settings.get("bot_delay", 0.0),
            "outcome": self.outcome,
            "rematch": self.settings.get("rematch"),
        }

    def bot_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.bot_spec is not None or s.seat in self.timed_out]

    def person_controls(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "human" and s.handed_to is None and seat not in self.timed_out

    def state_message(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        mine = seat is not None and self.person_controls(seat)
        return {
            "type": "state",
            "table": self.summary(),
            "seat": seat,
            "step": len(state.history),
            "view": state.view(seat),
            "legal": [str(a) for a in state.legal_actions(seat)] if mine else [],
            "log": visible_log(state, self.decisions, seat),
            "can_undo": bool(mine and seat is not None and state.can_undo(seat)),
            "clock": self.clock.to_json() if self.clock else None,
            "bot_seats": self.bot_seats(),
        }

    def broadcast(self) -> None:
        over = {"type": "over", "outcome": self.outcome} if self.state.is_terminal() else None
        for conn in self.connections:
            conn.outbox.put(self.state_message(conn.seat))
            if over:
                conn.outbox.put(over)

    def authenticate(self, seat_text: str | None, token: str | None) -> int | None:
        """The seat a (seat, token) pair opens; None for a spectator; Refused if forged."""
        if seat_text is None or seat_text == "":
            if token:
                raise Refused("a seat token needs its seat number (?seat=K)", "bad_seat", 403)
            return None
        try:
            seat = int(seat_text)
        except ValueError:
            raise Refused(f"{seat_text!r} is not a seat number", "bad_seat", 403) from None
        if not 0 <= seat < len(self.seats):
            raise Refused(f"this table has no seat {seat}", "bad_seat", 403)
        if self.seats[seat].kind != "human":
            raise Refused(f"seat {seat} is a bot's seat", "bad_seat", 403)
        if not check_token(token, self.seats[seat].token_hash):
            raise Refused(
                f"that link's token does not open seat {seat}: ask for the table's link again",
                "forged_token",
                403,
            )
        return seat

    # --- changes ----------------------------------------------------------------------------------
    async def join(self, conn: Connection, name: str | None) -> None:
        """Add a connection; the first visit with a seat's link takes the seat."""
        async with self.lock:
            self.connections.add(conn)
            seat = conn.seat
            if seat is not None:
                self.absent_since.pop(seat, None)
            if seat is not None and (not self.seats[seat].taken or name):
                s = self.seats[seat]
                changes: dict[str, Any] = {"taken": True}
                if name:
                    changes["name"] = name[:40]
                await self.manager.run_db(self.manager.db.update_seat, self.id, seat, **changes)
                s.taken = True
                s.name = changes.get("name", s.name)
                await self._store_status()
                self.broadcast()
            else:
                conn.outbox.put(self.state_message(seat))
                if self.state.is_terminal():
                    conn.outbox.put({"type": "over", "outcome": self.outcome})

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        seat = conn.seat
        if seat is not None and not any(c.seat == seat for c in self.connections):
            self.absent_since[seat] = self.manager.now()

    def _refuse_if_finished(self, what: str) -> None:
        if self.state.is_terminal():
            raise Refused(f"the game is over: {what} no longer", "finished", 409)

    async def act(self, seat: int | None, action: str, step: int) -> None:
        """A person's move: refused unless it is for the step they saw and the engine allows it."""
        async with self.lock:
            if seat is None:
                raise Refused("spectators cannot move: open a seat's link to play", "spectator")
            if not self.person_controls(seat):
                raise Refused(
                    "a bot is playing your seat now: take it back first", "bot_controlled"
                )
            now = len(self.state.history)
            if step != now:
                raise Refused(
                    f"the position changed since you saw it (you saw step {step}, it is now "
                    f"step {now}): look again and choose your move",
                    "stale",
                )
            await self._apply(seat, action, "person")

    async def undo(self, seat: int | None) -> None:
        async with self.lock:
            self._refuse_if_finished("steps cannot be taken back")
            if seat is None or not self.person_controls(seat):
                raise Refused("only the person at a seat can take back its step", "cannot_undo")
            if not self.state.can_undo(seat):
                raise Refused(
                    "that step cannot be taken back: it was not yours, someone acted since, "
                    "or it revealed or drew something",
                    "cannot_undo",
                )
            new = self.state.undo(seat)
            index = len(self.state.history) - 1
            decisions = self.decisions[:-1]
            changes, clocks = self._after(new)
            await self.manager.run_db(
                self.manager.db.remove_last_step,
                self.id,
                index=index,
                table_changes=changes,
                clocks=clocks,
            )
            self._swap(new, decisions)

    async def hand_to_bot(self, seat: int | None, target: int | None, spec: str) -> None:
        """Hand a person's seat to a bot: your own, or that of someone who has left."""
        async with self.lock:
            if seat is None:
                raise Refused("spectators cannot hand seats to bots", "spectator")
            self._refuse_if_finished("seats are not handed to bots")
            target = seat if target is None else target
            if not 0 <= target < len(self.seats) or self.seats[target].kind != "human":
                raise Refused(f"seat {target} is not a person's seat", "bad_seat")
            if target != seat:
                self._check_absent(target)
            try:
                spec = check_bot_spec(spec, self.game)
            except (BotSpecError, TeocalliError) as err:
                raise Refused(str(err), "bad_bot") from None
            await self.manager.run_db(self.manager.db.update_seat, self.id, target, handed_to=spec)
            self.seats[target].handed_to = spec
            self._changed()

    async def take_back(self, seat: int | None) -> None:
        async with self.lock:
            if seat is None:
                raise Refused("spectators have no seat to take back", "spectator")
            self._refuse_if_finished("seats are not taken back")
            if self.seats[seat].handed_to is None and seat not in self.timed_out:
                raise Refused("your seat is not played by a bot", "not_handed")
            await self.manager.run_db(self.manager.db.update_seat, self.id, seat, handed_to=None)
            self.seats[seat].handed_to = None
            self.timed_out.discard(seat)
            self._changed()

    def _check_absent(self, target: int) -> None:
        """Another person's seat may be handed over only if they have been away long enough."""
        if any(c.seat == target for c in self.connections):
            raise Refused(
                f"the person at seat {target} is still here: only they can hand it over",
                "seat_present",
            )
        away = self.manager.now() - self.absent_since.get(target, self.manager.now())
        if away < HAND_OVER_GRACE:
            raise Refused(
                f"the person at seat {target} left {away:.0f} s ago: their seat can be handed "
                f"to a bot once they have been away {HAND_OVER_GRACE:.0f} s",
                "grace",
            )

    async def _apply(self, seat: int, action: str, by: str) -> None:
        """Check with the engine on a clone, store, then swap in and tell everyone (lock held)."""
        new = self.state.clone()
        decision = new.decision()
        try:
            new.apply(action, seat)
        except TeocalliError as err:
            raise Refused(str(err), "illegal") from None
        index = len(new.history) - 1
        changes, clocks = self._after(new)
        await self.manager.run_db(
            self.manager.db.append_step,
            self.id,
            index=index,
            player=seat,
            action=str(new.history[-1].action),
            by=by,
            table_changes=changes,
            clocks=clocks,
        )
        self._swap(new, [*self.decisions, decision])

    def _after(self, new: State) -> tuple[dict[str, Any], list[float] | None]:
        """The table's stored fields once `new` is the position (the clock already moved on)."""
        changes: dict[str, Any] = {}
        if new.is_terminal():
            changes = {
                "status": "finished",
                "finished": now_utc(),
                "outcome": new.outcome().to_json(),
            }
        clocks = None
        if self.clock is not None:
            self._update_clock(new)
            clocks = [self.clock.left(k) for k in range(len(self.seats))]
            changes["clock_running_for"] = self.clock.running_for
        return changes, clocks

    def _swap(self, new: State, decisions: list[Decision | None]) -> None:
        self.state = new
        self.decisions = decisions
        if new.is_terminal():
            self.status = "finished"
            self.outcome = new.outcome().to_json()
            if self.clock is not None:
                self.clock.stop()
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        if self.clock is not None:
            self._update_clock(self.state)
        self.broadcast()
        self.kick()

    def _update_clock(self, state: State) -> None:
        """Time the person who alone must move now; nobody otherwise."""
        assert self.clock is not None
        timed: int | None = None
        if state.decision() is Decision.TURN:
            mover = state.to_move()[0]
            if self.timed_out and mover not in self.timed_out:
                for seat in self.timed_out:
                    self.clock.after_timeout(seat)
                self.timed_out.clear()
            if self.person_controls(mover):
                timed = mover
        elif self.timed_out:
            for seat in self.timed_out:
                self.clock.after_timeout(seat)
            self.timed_out.clear()
        self.clock.start(timed)

    async def _store_status(self) -> None:
        if self.status == "finished":
            return
        status = "running" if all(s.taken or s.kind == "bot" for s in self.seats) else "open"
        if status != self.status:
            await self.manager.run_db(self.manager.db.update_table, self.id, {"status": status})
            self.status = status

    async def save_clock(self) -> None:
        """Store the clocks as they stand now (the manager's periodic save)."""
        async with self.lock:
            if self.clock is None or self.state.is_terminal():
                return
            clocks = [self.clock.left(k) for k in range(len(self.seats))]
            await self.manager.run_db(self.manager.db.update_table, self.id, {}, clocks)

    async def check_clock(self) -> None:
        """If the timed person's time is up: they pass where the rules allow it (the game's
        declared pass, keep or end of turn), else a bot plays the rest of their turn."""
        if self.clock is None:
            return
        async with self.lock:
            seat = self.clock.expired()
            if seat is None or self.state.is_terminal():
                return
            self.clock.stop()
            passing = self.state.pass_action(seat)
            if passing is not None:
                self.clock.after_timeout(seat)
                await self._apply(seat, str(passing), "timeout")
                return
            self.timed_out.add(seat)
            self._changed()

    # --- bots -----------------------------------------------------------------------------------
    def kick(self) -> None:
        """Make sure a bot task runs if some bot may have to act (lock held)."""
        if self.bot_task is None and not self.state.is_terminal() and self._bot_turn():
            self.bot_task = asyncio.create_task(self._drive(), name=f"bots-{self.id}")
            self.manager.tasks.add(self.bot_task)
            self.bot_task.add_done_callback(self.manager.tasks.discard)

    def _bot_turn(self) -> tuple[int, str, float] | None:
        """(seat, bot spec, delay) of the next bot move, if a bot may act now."""
        state = self.state
        decision = state.decision()
        if decision is None:
            return None
        movers = [p for p in state.to_move() if not self.person_controls(p)]
        if not movers:
            return None
        if decision is Decision.RACE:
            humans = [p for p in state.to_move() if self.person_controls(p)]
            delay = float(self.settings.get("bot_delay", 0.0)) if humans else 0.0
            seat = movers[secrets.randbelow(len(movers))] if len(movers) > 1 else movers[0]
        else:
            seat, delay = movers[0], 0.0
        spec = self.seats[seat].bot_spec or self.settings.get("timeout_bot", "greedy")
        return seat, spec, delay

    async def _drive(self) -> None:
        """Play bot moves until no bot may act; re-think whenever the position changed."""
        try:
            while True:
                async with self.lock:
                    turn = self._bot_turn()
                    if turn is None or self.state.is_terminal():
                        self.bot_task = None
                        return
                    version, state = self.version, self.state
                seat, spec, delay = turn
                if delay > 0:
                    await asyncio.sleep(delay)
                    if version != self.version:
                        continue
                bot_seed = derive_seed(self.seed, len(state.history), seat)
                try:
                    move = await self.manager.pool.choose(
                        state, seat, spec, bot_seed, table=self.id
                    )
                except Exception:
                    log.exception("bot %s failed at table %s; playing a random move", spec, self.id)
                    move = fallback_move(state, seat, bot_seed)
                async with self.lock:
                    if version != self.version:
                        continue
                    by = "timeout" if seat in self.timed_out else "bot"
                    try:
                        await self._apply(seat, move, by)
                    except Refused:
                        log.exception("bot move %r refused at table %s", move, self.id)
                        await self._apply(seat, fallback_move(state, seat, bot_seed), by)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot driver of table %s stopped", self.id)
            self.bot_task = None
