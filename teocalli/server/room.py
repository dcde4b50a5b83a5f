"""One table in memory: its live state and connections, and the checked path of every change.

Every change goes through the room's lock: check with the engine on a clone, store it (one
transaction, `store.py`), only then swap the new state in and tell every connection its own view
(`views.py`). Who sits where is `seats.py`, the clock `clocks.py`, and the bots' task
`bot_driver.py`: each can be read and tested alone.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from teocalli.core import Decision, Game, State, TeocalliError, derive_seed

from .bot_driver import BotDriver
from .bots import BotSpecError, check_bot_spec
from .clocks import TableClock, follow_the_mover
from .db import StoredTable, TableRow, now_utc
from .errors import Refused
from .outbox import Outbox
from .seats import HAND_OVER_GRACE, Seat, Seats
from .store import StepConflict, TableStore
from .tokens import hash_token, new_token
from .views import state_message, visible_log

if TYPE_CHECKING:
    from .tables import Manager

__all__ = ["HAND_OVER_GRACE", "Connection", "Refused", "Room", "Seat", "visible_log"]

JUDGE_RATE = 20.0
"""Judge requests a connection may make per second (a dragged Stack Back stick asks often)."""
JUDGE_BURST = 20.0
HINT_SPEC = "solo:iterations=300"
"""The bot a hint asks: the solo planner in solo Shifting Stones, a 300-playout search elsewhere."""


@dataclass(eq=False)
class Connection:
    """One WebSocket at a table: a seat or a spectator (seat None), with its bounded outbox."""

    seat: int | None
    outbox: Outbox = field(default_factory=Outbox)
    token: str | None = field(default=None, repr=False)
    """The seat's token as this connection presented it (memory only): its rematch link."""
    ack: tuple[float, int] | None = None
    """(when read, step seen) of this person's action still to be acknowledged (metrics.py)."""
    judged: tuple[float, float] = (JUDGE_BURST, 0.0)
    """Token bucket of `judge` requests: (tokens, when last refilled)."""

    def may_judge(self) -> bool:
        """At most JUDGE_RATE judge requests a second (a burst of JUDGE_BURST)."""
        tokens, then = self.judged
        now = time.monotonic()
        tokens = min(JUDGE_BURST, tokens + (now - then) * JUDGE_RATE)
        self.judged = (tokens - 1.0, now) if tokens >= 1.0 else (tokens, now)
        return tokens >= 1.0


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
        self.seats = Seats(seats, manager.now)
        self._status_after_taken()
        self.state = state
        self.decisions = decisions
        self.version = 0
        self.last_step_at = time.monotonic()
        """When the last step was shown (real time: the bots' pace is for people's eyes)."""
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.store = TableStore(
            row.id,
            manager.db,
            manager.run_db,
            manager.cluster,
            metrics=manager.metrics,
            writer=manager.writer,
        )
        self.owned = False
        """Whether this process drives the table's bots and clock (it holds the lease)."""
        self.bots = BotDriver(self)
        self.clock: TableClock | None = None
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
            "seats": [s.summary() | {"present": s.seat in self.present()} for s in self.seats],
            "created": self.created.isoformat(),
            "step": len(self.state.history),
            "clock": self.settings.get("clock"),
            "bot_delay": self.settings.get("bot_delay", 0.0),
            "pace": self.settings.get("pace", 0.0),
            "open_seats": self.settings.get("open_seats", False),
            "hints": self.settings.get("hints", False),
            "outcome": self.outcome,
            "rematch": self.settings.get("rematch"),
        }

    def present(self) -> set[int]:
        """Seats with a connection open now."""
        return {c.seat for c in self.connections if c.seat is not None}

    def state_message(
        self, seat: int | None, shared: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """`seat`'s state message; `shared` is what every connection's has in common (given by
        a broadcast, which works it out once)."""
        if shared is None:
            shared = self.shared_parts()
        return state_message(
            self.state,
            self.decisions,
            seat,
            controls=seat is not None and self.seats.person_controls(seat),
            **shared,
        )

    def shared_parts(self) -> dict[str, Any]:
        return {
            "table": self.summary(),
            "clock": self.clock.to_json() if self.clock else None,
            "bot_seats": self.seats.bot_seats(),
        }

    def broadcast(self) -> None:
        """Queue every connection's own new view (spectators share one message)."""
        if not self.connections:
            return
        over = {"type": "over", "outcome": self.outcome} if self.state.is_terminal() else None
        shared = self.shared_parts()
        messages: dict[int | None, dict[str, Any]] = {}
        for conn in self.connections:
            message = messages.get(conn.seat)
            if message is None:
                message = messages[conn.seat] = self.state_message(conn.seat, shared)
            conn.outbox.put(message)
            if over:
                conn.outbox.put(over)

    def authenticate(self, seat_text: str | None, token: str | None) -> int | None:
        """The seat a (seat, token) pair opens; None for a spectator; Refused if forged."""
        return self.seats.authenticate(seat_text, token)

    # --- changes ----------------------------------------------------------------------------------
    async def join(self, conn: Connection, name: str | None) -> None:
        """Add a connection; the first visit with a seat's link takes the seat."""
        async with self.lock:
            self.connections.add(conn)
            seat = conn.seat
            self.seats.arrived(seat)
            if seat is not None and (not self.seats[seat].taken or name):
                s = self.seats[seat]
                changes: dict[str, Any] = {"taken": True}
                if name:
                    changes["name"] = name[:40]
                await self.store.update_seat(seat, changes, self._status_once_taken(seat))
                s.taken = True
                s.name = changes.get("name", s.name)
                self._status_after_taken()
                self.broadcast()
            else:
                conn.outbox.put(self.state_message(seat))
                if self.state.is_terminal():
                    conn.outbox.put({"type": "over", "outcome": self.outcome})

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.seats.left(conn.seat, (c.seat for c in self.connections))
        if conn.seat is not None and conn.seat not in self.present():
            self.broadcast()  # the others see that this person is away

    def announce_rematch(self, table_id: str) -> None:
        """Tell every connection of the rematch, each person with their own link."""
        spectate = f"/table/{table_id}"
        for conn in self.connections:
            link = None
            if conn.seat is not None and conn.token:
                link = f"/table/{table_id}?seat={conn.seat}#token={conn.token}"
            conn.outbox.put(
                {"type": "rematch", "table": table_id, "link": link, "spectate": spectate}
            )

    async def claim(self, seat: int, name: str | None) -> str:
        """Give a free person's seat to whoever asks from the lobby (if the table allows it):
        a fresh token, so the seat's old link no longer opens it."""
        async with self.lock:
            if not self.settings.get("open_seats"):
                raise Refused("this table's seats are taken by invitation only", "closed", 403)
            self._refuse_if_finished("seats are not taken")
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
                raise Refused(f"Seat {seat + 1} is not a person's seat", "bad_seat")
            if self.seats[seat].taken:
                raise Refused(f"seat {seat + 1} is already taken", "seat_taken", 409)
            token = new_token()
            changes: dict[str, Any] = {"token_hash": hash_token(token), "taken": True}
            if name:
                changes["name"] = name
            await self.store.update_seat(seat, changes, self._status_once_taken(seat))
            s = self.seats[seat]
            s.token_hash, s.taken, s.name = changes["token_hash"], True, name or s.name
            self.seats.left(seat, ())  # nobody is there yet: absent from now
            self._status_after_taken()
            self.broadcast()
            return token

    async def judge(self, conn: Connection, action: str, step: int) -> dict[str, Any]:
        """Whether `action` would be legal for the connection's seat now; nothing is played.

        Judged on a clone in a worker thread: a rule check may be real work (Stack Back's)."""
        reply: dict[str, Any] = {"type": "judged", "step": step, "action": action}
        seat = conn.seat
        if seat is None or not self.seats.person_controls(seat):
            raise Refused("only the person at a seat can ask about their moves", "spectator")
        if not conn.may_judge():
            raise Refused(f"at most {JUDGE_RATE:.0f} judge requests a second", "too_fast")
        if step != len(self.state.history):
            return reply | {"legal": False, "reason": "the position has changed since"}
        world = self.state.clone()

        def check() -> str | None:
            try:
                world.apply(action, seat)
            except TeocalliError as err:
                return str(err)
            return None

        reason = await anyio.to_thread.run_sync(check, limiter=self.manager.judge_limiter)
        return reply | {"legal": reason is None, "reason": reason}

    async def hint(self, seat: int | None) -> dict[str, Any]:
        """The bot's suggestion for the person at `seat` (tables with hints on): thought out in
        the bot pool like a bot's move, from what that seat may know."""
        if not self.settings.get("hints"):
            raise Refused("hints are off at this table", "no_hints")
        if seat is None or not self.seats.person_controls(seat):
            raise Refused("only the person at a seat can ask for a hint", "spectator")
        state = self.state
        if not state.legal_actions(seat):
            raise Refused("it is not your move: there is nothing to suggest", "not_your_turn")
        step = len(state.history)
        bot_seed = derive_seed(self.seed, step, seat, 1)
        move = await self.manager.pool.choose(state, seat, HINT_SPEC, bot_seed, table=self.id)
        return {"type": "hint", "step": step, "action": move}

    def _refuse_if_finished(self, what: str) -> None:
        if self.state.is_terminal():
            raise Refused(f"the game is over: {what} no longer", "finished", 409)

    async def act(self, seat: int | None, action: str, step: int) -> None:
        """A person's move: refused unless it is for the step they saw and the engine allows it."""
        async with self.lock:
            if seat is None:
                raise Refused("spectators cannot move: open a seat's link to play", "spectator")
            if not self.seats.person_controls(seat):
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
            await self.apply(seat, action, "person")

    async def undo(self, seat: int | None) -> None:
        async with self.lock:
            self._refuse_if_finished("steps cannot be taken back")
            if seat is None or not self.seats.person_controls(seat):
                raise Refused("only the person at a seat can take back its step", "cannot_undo")
            if not self.state.can_undo(seat):
                raise Refused(
                    "that step cannot be taken back: it was not yours, someone acted since, "
                    "or it revealed, drew or placed something final",
                    "cannot_undo",
                )
            new = self.state.undo(seat)
            index = len(self.state.history) - 1
            changes, clocks = self._after(new)
            try:
                await self.store.remove_last_step(index, changes, clocks)
            except StepConflict:
                raise self._stale() from None
            self._swap(new, self.decisions[:-1])

    async def hand_to_bot(self, seat: int | None, target: int | None, spec: str) -> None:
        """Hand a person's seat to a bot: your own, or that of someone who has been away."""
        async with self.lock:
            if seat is None:
                raise Refused("spectators cannot hand seats to bots", "spectator")
            self._refuse_if_finished("seats are not handed to bots")
            target = seat if target is None else target
            if target != seat:
                self.seats.check_hand_over(target, (c.seat for c in self.connections))
            try:
                spec = check_bot_spec(spec, self.game)
            except (BotSpecError, TeocalliError) as err:
                raise Refused(str(err), "bad_bot") from None
            await self.store.update_seat(target, {"handed_to": spec})
            self.seats[target].handed_to = spec
            self._changed()

    async def take_back(self, seat: int | None) -> None:
        async with self.lock:
            if seat is None:
                raise Refused("spectators have no seat to take back", "spectator")
            self._refuse_if_finished("seats are not taken back")
            if self.seats[seat].handed_to is None and seat not in self.seats.timed_out:
                raise Refused("your seat is not played by a bot", "not_handed")
            await self.store.update_seat(seat, {"handed_to": None})
            self.seats[seat].handed_to = None
            self.seats.timed_out.discard(seat)
            self._changed()

    async def apply(self, seat: int, action: str, by: str) -> None:
        """Check with the engine on a clone, store, then swap in and tell everyone (lock held)."""
        new = self.state.clone()
        decision = new.decision()
        try:
            new.apply(action, seat)
        except TeocalliError as err:
            raise Refused(str(err), "illegal") from None
        changes, clocks = self._after(new)
        try:
            await self.store.append_step(
                index=len(new.history) - 1,
                player=seat,
                action=str(new.history[-1].action),
                by=by,
                changes=changes,
                clocks=clocks,
            )
        except StepConflict:
            raise self._stale() from None
        self._swap(new, [*self.decisions, decision])

    def _stale(self) -> Refused:
        """Another process stored a step first: catch up (after the lock) and say so."""
        if self.clock is not None:
            self.follow_clock(self.state)  # `_after` moved the clock for a step never stored
        task = asyncio.create_task(self.manager.refresh(self), name=f"refresh-{self.id}")
        self.manager.tasks.add(task)
        task.add_done_callback(self.manager.tasks.discard)
        return Refused(
            "someone else moved first at another server: look again and choose your move",
            "stale",
        )

    def catch_up(self, item: StoredTable) -> None:
        """Take what the database holds (lock held): another process changed this table."""
        row = item.row
        self.settings, self.status, self.outcome = dict(row.settings), row.status, row.outcome
        for seat, stored in zip(self.seats, item.seats, strict=True):
            seat.taken, seat.name = stored.taken, stored.name
            seat.handed_to, seat.token_hash = stored.handed_to, stored.token_hash
        self._status_after_taken()
        ours = [(s.player, str(s.action)) for s in self.state.history]
        if item.steps != ours:
            prefix = item.steps[: len(ours)] == ours
            new = self.state.clone() if prefix else self.game.new_state(self.seed)
            decisions = list(self.decisions) if prefix else []
            for player, action in item.steps[len(ours) if prefix else 0 :]:
                decisions.append(new.decision())
                new.apply(action, player)
            self.state, self.decisions = new, decisions
            self.last_step_at = time.monotonic()
        if self.clock is not None:
            for stored in item.seats:
                if stored.clock_remaining is not None:
                    self.clock.remaining[stored.seat] = stored.clock_remaining
            terminal = self.state.is_terminal()
            self.clock.running_for = None if terminal else row.clock_running_for
            self.clock.started = self.manager.now()
        self.version += 1
        self.broadcast()
        if self.owned:
            self.bots.kick()

    async def hear_step(self, step: dict[str, Any]) -> bool:
        """Play a step another process stored (its news, cluster.py) on this copy and tell the
        connections; False if the news does not follow on from this copy (reload it then)."""
        try:
            index, player, action = int(step["i"]), int(step["p"]), str(step["a"])
            clocks, running_for = step.get("c"), step.get("r")
        except (KeyError, TypeError, ValueError):
            return False
        async with self.lock:
            history = self.state.history
            if len(history) > index:  # already here (a reload read it): nothing new
                have = history[index]
                return (have.player, str(have.action)) == (player, action)
            if len(history) < index or self.state.is_terminal():
                return False
            new = self.state.clone()
            decision = new.decision()
            try:
                new.apply(action, player)
            except TeocalliError:
                return False
            self.state, self.decisions = new, [*self.decisions, decision]
            self.last_step_at = time.monotonic()
            if new.is_terminal():
                self.status, self.outcome = "finished", new.outcome().to_json()
            if self.clock is not None and isinstance(clocks, list):
                for seat, left in enumerate(clocks[: len(self.seats)]):
                    self.clock.remaining[seat] = float(left)
                self.clock.running_for = None if new.is_terminal() else running_for
                self.clock.started = self.manager.now()
            self.version += 1
            self.broadcast()
            if self.owned:
                self.bots.kick()
            return True

    async def hear_change(self, seat: Any, table: Any) -> bool:
        """Apply another process's change of a seat's fields and of the table's status or
        settings (its news, cluster.py) to this copy and tell the connections; False if the
        news is not one this copy can apply (reload it then). Checked whole before anything
        changes: a malformed piece of news changes nothing."""
        seat_changes = _seat_changes(seat, len(self.seats)) if seat is not None else (None, {})
        table_changes = _table_changes(table if table is not None else {})
        if seat_changes is None or table_changes is None:
            return False
        k, fields = seat_changes
        async with self.lock:
            if k is not None:
                for name, value in fields.items():
                    setattr(self.seats[k], name, value)
                if "handed_to" in fields and fields["handed_to"] is None:
                    self.seats.timed_out.discard(k)  # taken back, as the writer did
            if "settings" in table_changes:
                self.settings = dict(table_changes["settings"])
            self._status_after_taken()  # from the seats, whatever the writer thought
            if self.clock is not None and "clock_running_for" in table_changes:
                self.clock.running_for = table_changes["clock_running_for"]
                self.clock.started = self.manager.now()
            if self.state.is_terminal():
                self.version += 1
                self.broadcast()
            else:
                self._changed()
            return True

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
            self.follow_clock(new)
            clocks = [self.clock.left(k) for k in range(len(self.seats))]
            changes["clock_running_for"] = self.clock.running_for
        return changes, clocks

    def _swap(self, new: State, decisions: list[Decision | None]) -> None:
        self.last_step_at = time.monotonic()
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
            self.follow_clock(self.state)
        self.broadcast()
        self.bots.kick()

    def _status_once_taken(self, seat: int) -> dict[str, Any]:
        """The table's changes to store with `seat` taken: "running" once every person's seat
        is taken (stored in the seat's own transaction)."""
        if self.status == "finished":
            return {}
        others = all(s.taken or s.kind == "bot" for s in self.seats if s.seat != seat)
        status = "running" if others else "open"
        return {"status": status} if status != self.status else {}

    def _status_after_taken(self) -> None:
        """An unfinished table is "running" once every person's seat is taken, else "open".

        Derived from the seats, never taken from the stored column alone: two people taking the
        last two seats at once on two processes each store "open" (neither has heard of the
        other yet), and every process (and a restart) still sees "running" once it knows both
        seats are taken."""
        if self.status != "finished":
            self.status = "running" if self.seats.all_present() else "open"

    # --- the clock ------------------------------------------------------------------------------
    def follow_clock(self, state: State) -> None:
        """Time the person who alone must move in `state`; nobody otherwise."""
        assert self.clock is not None
        follow_the_mover(
            self.clock,
            state.decision(),
            state.to_move(),
            self.seats.person_controls,
            self.seats.timed_out,
        )

    async def save_clock(self) -> None:
        """Store the clocks as they stand now (the manager's periodic save)."""
        async with self.lock:
            if self.clock is None or self.state.is_terminal():
                return
            await self.store.update_table({}, [self.clock.left(k) for k in range(len(self.seats))])

    async def check_clock(self) -> None:
        """If the timed person's time is up: they pass where the rules allow it (the game's
        declared pass, keep or end of turn), else a bot plays the rest of their turn."""
        if self.clock is None or not self.owned:
            return
        async with self.lock:
            seat = self.clock.expired()
            if seat is None or self.state.is_terminal():
                return
            self.clock.stop()
            passing = self.state.pass_action(seat)
            if passing is not None:
                self.clock.after_timeout(seat)
                await self.apply(seat, str(passing), "timeout")
                return
            self.seats.timed_out.add(seat)
            self._changed()


SEAT_FIELDS: dict[str, tuple[type, ...]] = {
    "taken": (bool,),
    "name": (str, type(None)),
    "handed_to": (str, type(None)),
    "token_hash": (str, type(None)),
}
"""A seat's fields that another process's news may set, and their types."""
STATUSES = ("open", "running")


def _seat_changes(news: Any, seats: int) -> tuple[int | None, dict[str, Any]] | None:
    """(seat, fields) of a seat's news, checked; None if it is not well formed."""
    if not isinstance(news, dict):
        return None
    k = news.get("k")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < seats:
        return None
    fields = {name: value for name, value in news.items() if name != "k"}
    for name, value in fields.items():
        if name not in SEAT_FIELDS or not isinstance(value, SEAT_FIELDS[name]):
            return None
    return k, fields


def _table_changes(news: Any) -> dict[str, Any] | None:
    """A table's changed fields from another process's news, checked; None if malformed."""
    if not isinstance(news, dict):
        return None
    for name, value in news.items():
        ok = (
            (name == "status" and value in STATUSES)
            or (name == "settings" and isinstance(value, dict))
            or (
                name == "clock_running_for"
                and (value is None or (isinstance(value, int) and not isinstance(value, bool)))
            )
        )
        if not ok:
            return None
    return news
