"""Observation encoders: one module per game, found by the game's name.

`encoder_for(game)` gives the encoder of a loaded game. A game's encoder is the `ENCODER` class of
`teocalli.interop.observation.<package>` (the naming convention of `teocalli/parts.py`): a new
game adds its module here and nothing else; `tests/test_parts.py` names a registered game without
one.
"""

from __future__ import annotations

from teocalli.core import Game
from teocalli.parts import export

from .base import Array, Encoder, Field, Layout, Mask


def encoder_class(name: str) -> type[Encoder]:
    """The encoder class of a registered game; a clear error (MissingPart) if it has none yet."""
    encoder_cls: type[Encoder] = export(name, "observation")
    return encoder_cls


def encoder_for(game: Game) -> Encoder:
    """The encoder of a loaded game (its shape depends only on the game's options)."""
    return encoder_class(game.info.name)(game)


__all__ = ["Array", "Encoder", "Field", "Layout", "Mask", "encoder_class", "encoder_for"]
