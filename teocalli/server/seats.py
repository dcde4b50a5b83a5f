"""Who sits where: people reached by tokens, bots, seats handed over, and who is present.

Pure bookkeeping, with no I/O: the room asks it who controls a seat, whether a link opens a seat,
and whether an absent person's seat may be handed to a bot; the room stores what changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import Refused
from .tokens import check_token

HAND_OVER_GRACE = 60.0
"""Seconds a person must have been away before another player may hand their seat to a bot."""


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


class Seats:
    """A table's seats, the people whose clock ran out, and when each person was last seen."""

    def __init__(self, seats: list[Seat], now: Callable[[], float]) -> None:
        self.all = seats
        self.now = now
        self.timed_out: set[int] = set()
        """People whose time ran out: a bot plays the rest of their turn."""
        self.absent_since: dict[int, float] = {s.seat: now() for s in seats}
        """When each person's seat was last left by its last connection (a start counts)."""

    def __len__(self) -> int:
        return len(self.all)

    def __getitem__(self, seat: int) -> Seat:
        return self.all[seat]

    def __iter__(self) -> Any:
        return iter(self.all)

    def person_controls(self, seat: int) -> bool:
        s = self.all[seat]
        return s.kind == "human" and s.handed_to is None and seat not in self.timed_out

    def bot_seats(self) -> list[int]:
        return [s.seat for s in self.all if s.bot_spec is not None or s.seat in self.timed_out]

    def all_present(self) -> bool:
        """Every person's seat has been taken (the table is running, no longer open)."""
        return all(s.taken or s.kind == "bot" for s in self.all)

    def authenticate(self, seat_text: str | None, token: str | None) -> int | None:
        """The seat a (seat, token) pair opens; None for a spectator; Refused if forged."""
        if seat_text is None or seat_text == "":
            if token:
                raise Refused("a seat token needs its seat number (?seat=K)", "bad_seat", 403)
            return None
        try:
            seat = int(seat_text)
        except ValueError:
            raise Refused(f"{seat_text[:20]!r} is not a seat number", "bad_seat", 403) from None
        if not 0 <= seat < len(self.all):
            raise Refused(
                f"this table has no seat {seat} (seats are numbered from 0 in links)",
                "bad_seat",
                403,
            )
        if self.all[seat].kind != "human":
            raise Refused(f"Seat {seat + 1} is a bot's seat", "bad_seat", 403)
        if not check_token(token, self.all[seat].token_hash):
            raise Refused(
                f"that link's token does not open Seat {seat + 1}: ask for the table's link again",
                "forged_token",
                403,
            )
        return seat

    def arrived(self, seat: int | None) -> None:
        if seat is not None:
            self.absent_since.pop(seat, None)

    def left(self, seat: int | None, still_connected: Iterable[int | None]) -> None:
        """A connection of `seat` closed; the person is absent once their last one is gone."""
        if seat is not None and seat not in set(still_connected):
            self.absent_since[seat] = self.now()

    def check_hand_over(self, target: int, connected: Iterable[int | None]) -> None:
        """Another person's seat may be handed to a bot only if they have been away long enough
        (HAND_OVER_GRACE) and none of their connections is open."""
        if not 0 <= target < len(self.all) or self.all[target].kind != "human":
            raise Refused(f"Seat {target + 1} is not a person's seat", "bad_seat")
        if target in set(connected):
            raise Refused(
                f"the person at Seat {target + 1} is still here: only they can hand it over",
                "seat_present",
            )
        away = self.now() - self.absent_since.get(target, self.now())
        if away < HAND_OVER_GRACE:
            raise Refused(
                f"the person at Seat {target + 1} left {away:.0f} s ago: their seat can be handed "
                f"to a bot once they have been away {HAND_OVER_GRACE:.0f} s",
                "grace",
            )
