"""Errors every part of teocalli shares: all are ValueErrors with a message for a person."""

from __future__ import annotations


class TeocalliError(ValueError):
    """Base of every error teocalli raises on purpose."""


class InvalidAction(TeocalliError):
    """The text or integer does not name an action of this game (it cannot be parsed)."""


class IllegalAction(TeocalliError):
    """The action is well formed but the rules forbid it now; the message names the rule."""


class InvalidOption(TeocalliError):
    """A game or bot option is unknown or out of range."""


class CorruptSave(TeocalliError):
    """A saved game cannot be loaded: the message says which part is wrong."""


class UnknownGame(TeocalliError):
    """No game is registered under that name."""
