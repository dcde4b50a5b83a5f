"""Stakz: match a tile's colour or symbol, stack, split on the fifth colour, empty your hand."""

from .actions import EndTurn, Place
from .game import Stakz
from .state import EndReason, StakzState

__all__ = ["EndReason", "EndTurn", "Place", "Stakz", "StakzState"]
