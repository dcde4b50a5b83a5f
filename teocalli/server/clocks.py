"""Turn clocks: per move or a time bank, measured with an injected time source.

Only people's turns are timed, and only at a TURN decision (one player to move): bots have their
own think-time cap, and simultaneous choices and races have no single player to wait for.

Timeout consequence: a bot (the table's `timeout_bot`, greedy by default) plays that move for the
absent player: it plays the rest of that turn (a turn may be several steps). In "move" mode the
allowance is per turn and the next turn starts afresh; in "bank" mode the empty bank is topped up
by a grace of a tenth of the bank (at least 5 s) for each later turn, so the person can go on.

Time is read from `now()` (monotonic seconds), so tests drive it by hand. The server persists the
remaining seconds with every step and every few seconds while a clock runs; after a restart the
running clock resumes from what was stored (the server's downtime is not charged to anyone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from teocalli.core import Decision

ClockMode = Literal["move", "bank"]
MIN_GRACE = 5.0


@dataclass
class TableClock:
    """The clock of one table: remaining seconds per seat and who it runs for now."""

    mode: ClockMode
    seconds: float
    remaining: list[float]
    now: Callable[[], float] = field(repr=False)
    running_for: int | None = None
    started: float = 0.0

    @classmethod
    def fresh(
        cls, mode: ClockMode, seconds: float, seats: int, now: Callable[[], float]
    ) -> TableClock:
        return cls(mode, float(seconds), [float(seconds)] * seats, now)

    def left(self, seat: int) -> float:
        """Seconds left for `seat` at this moment."""
        base = self.remaining[seat]
        if seat == self.running_for:
            base -= self.now() - self.started
        return max(0.0, base)

    def stop(self) -> None:
        """Charge the running seat for the time it used and stop the clock."""
        if self.running_for is not None:
            self.remaining[self.running_for] = self.left(self.running_for)
        self.running_for = None

    def start(self, seat: int | None) -> None:
        """Time `seat` (None: nobody); a seat already timed keeps running (a turn of steps)."""
        if seat is not None and seat == self.running_for:
            return
        self.stop()
        if seat is None:
            return
        if self.mode == "move":
            self.remaining[seat] = self.seconds
        self.running_for = seat
        self.started = self.now()

    def expired(self) -> int | None:
        """The seat whose time has run out, if any."""
        seat = self.running_for
        if seat is not None and self.left(seat) <= 0.0:
            return seat
        return None

    def after_timeout(self, seat: int) -> None:
        """Give a bank-mode seat its grace after a bot moved for it."""
        if self.mode == "bank":
            self.remaining[seat] = max(MIN_GRACE, self.seconds / 10)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "seconds": self.seconds,
            "remaining": [round(self.left(k), 3) for k in range(len(self.remaining))],
            "running_for": self.running_for,
        }


def follow_the_mover(
    clock: TableClock,
    decision: Decision | None,
    movers: tuple[int, ...],
    person_controls: Callable[[int], bool],
    timed_out: set[int],
) -> None:
    """Time the person who alone must move now, nobody otherwise; a timeout ends (with its
    grace) once someone else is to move."""
    timed: int | None = None
    if decision is Decision.TURN:
        mover = movers[0]
        if timed_out and mover not in timed_out:
            for seat in timed_out:
                clock.after_timeout(seat)
            timed_out.clear()
        if person_controls(mover):
            timed = mover
    elif timed_out:
        for seat in timed_out:
            clock.after_timeout(seat)
        timed_out.clear()
    clock.start(timed)
