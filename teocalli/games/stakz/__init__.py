"""Stakz: match a tile's colour or symbol, stack, split on the fifth colour, empty your hand.

The names every game package exports are listed in docs/architecture.md ("A game package").
"""

from .actions import Action, EndTurn, Place, parse
from .game import Stakz
from .position import from_position, to_position
from .render import render
from .state import EndReason, StakzState

__all__ = [
    "Action",
    "EndReason",
    "EndTurn",
    "Place",
    "Stakz",
    "StakzState",
    "from_position",
    "parse",
    "render",
    "to_position",
]
