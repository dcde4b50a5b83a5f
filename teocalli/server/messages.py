"""Wire messages from a browser: validated here, with a clear error for each kind of mistake.

Every client message is a small JSON object with a "type"; anything else is refused before it
reaches a table, so a malformed or hostile message can never change a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Refused
from .inputs import excerpt, loads

MAX_MESSAGE_BYTES = 4096
"""No legitimate message comes near this: an action's notation is a few dozen characters."""

MAX_ACTION_CHARS = 200
MAX_BOT_SPEC_CHARS = 100


class MessageError(ValueError):
    """A refused message: `code` is for programs, the text for people."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Act:
    action: str
    step: int


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class HandToBot:
    """Hand a seat to a bot: your own (seat None), or that of a person who has left."""

    bot: str
    seat: int | None = None


@dataclass(frozen=True)
class TakeBack:
    pass


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class Judge:
    """Ask whether an action would be legal now, playing nothing (a Stack Back pose dragged)."""

    action: str
    step: int


@dataclass(frozen=True)
class Hint:
    """Ask for the bot's suggestion (tables with hints on)."""


ClientMessage = Act | Undo | HandToBot | TakeBack | Ping | Judge | Hint


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Read one client message; raise MessageError saying what is wrong."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise MessageError(
            f"that message is too long ({len(raw)} bytes; at most {MAX_MESSAGE_BYTES})",
            "too_large",
        )
    try:
        data: Any = loads(raw)
    except Refused as err:
        raise MessageError(f"that message is refused: {err.message}", err.code) from None
    if not isinstance(data, dict):
        raise MessageError('a message must be a JSON object with a "type"', "bad_message")
    kind = data.get("type")
    if kind in ("act", "judge"):
        action = data.get("action")
        step = data.get("step")
        if not isinstance(action, str) or not action.strip():
            raise MessageError('an act message needs the move\'s notation in "action"', "bad_act")
        if len(action) > MAX_ACTION_CHARS:
            raise MessageError("that move's notation is far too long", "bad_act")
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise MessageError(
                'an act message needs "step": the step number of the position you saw',
                "bad_act",
            )
        return Act(action.strip(), step) if kind == "act" else Judge(action.strip(), step)
    if kind == "undo":
        return Undo()
    if kind == "hand_to_bot":
        bot = data.get("bot", "greedy")
        if not isinstance(bot, str) or not bot.strip() or len(bot) > MAX_BOT_SPEC_CHARS:
            raise MessageError('hand_to_bot needs a bot name such as "greedy"', "bad_bot")
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise MessageError('hand_to_bot\'s "seat" must be a seat number', "bad_seat")
        return HandToBot(bot.strip(), seat)
    if kind == "take_back":
        return TakeBack()
    if kind == "ping":
        return Ping()
    if kind == "hint":
        return Hint()
    raise MessageError(
        f"unknown message type {excerpt(kind)}: use act, judge, hint, undo, hand_to_bot, "
        "take_back or ping",
        "unknown_type",
    )
