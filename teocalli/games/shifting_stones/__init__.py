"""Shifting Stones: shift and flip a 3 x 3 grid of stones to match pattern cards (1-5 players)."""

from .game import ShiftingStones
from .state import EndReason, ShiftingStonesState

__all__ = ["EndReason", "ShiftingStones", "ShiftingStonesState"]
