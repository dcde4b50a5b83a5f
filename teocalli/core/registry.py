"""The registry of games: `load(name, **options)` and `games()`."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGame
from .game import Game

# Registered name -> "module:Class". Importing lazily keeps `teocalli` fast to start.
_REGISTRY: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Register a game class by its import path ("package.module:Class")."""
    _REGISTRY[name] = target


def games() -> list[str]:
    """The names of every registered game."""
    importlib.import_module("teocalli.games")  # registers the built-in games
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    games()
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise UnknownGame(
            f"there is no game {name!r}; the games are: {', '.join(sorted(_REGISTRY))}"
        ) from None
    module, _, cls = target.partition(":")
    game_cls: type[Game] = getattr(importlib.import_module(module), cls)
    return game_cls


def load(name: str, **options: Any) -> Game:
    """A game with the given options (validated: a clear error names any bad one)."""
    return game_class(name)(**options)
