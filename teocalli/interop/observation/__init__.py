"""Observation encoders: one module per game, registered here by game name.

`encoder_for(game)` gives the encoder of a loaded game; `ENCODERS` maps every registered game name
to its encoder class (a test fails if a registered game has none). A new game adds one module here
and one line below.
"""

from __future__ import annotations

import importlib

from teocalli.core import Game

from .base import Array, Encoder, Field, Layout

ENCODERS: dict[str, str] = {
    "aztack": "teocalli.interop.observation.aztack:AztackEncoder",
    "stakz": "teocalli.interop.observation.stakz:StakzEncoder",
    "shifting-stones": "teocalli.interop.observation.shifting_stones:ShiftingStonesEncoder",
    "space-aztecs": "teocalli.interop.observation.space_aztecs:SpaceAztecsEncoder",
    "stack-back": "teocalli.interop.observation.stack_back:StackBackEncoder",
}


def encoder_class(name: str) -> type[Encoder]:
    """The encoder class of a registered game; a clear error if it has none yet."""
    try:
        target = ENCODERS[name]
    except KeyError:
        raise KeyError(
            f"no observation encoder is registered for {name!r}: add a module to "
            "teocalli/interop/observation/ and a line to ENCODERS"
        ) from None
    module, _, cls = target.partition(":")
    encoder_cls: type[Encoder] = getattr(importlib.import_module(module), cls)
    return encoder_cls


def encoder_for(game: Game) -> Encoder:
    """The encoder of a loaded game (its shape depends only on the game's options)."""
    return encoder_class(game.info.name)(game)


__all__ = ["ENCODERS", "Array", "Encoder", "Field", "Layout", "encoder_class", "encoder_for"]
