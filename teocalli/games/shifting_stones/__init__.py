"""Shifting Stones: shift and flip a 3 x 3 grid of stones to match pattern cards (1-5 players).

The names every game package exports are listed in docs/architecture.md ("A game package").
"""

from .actions import Action, End, Flip, Score, Shift, Skip, parse
from .game import ShiftingStones
from .position import from_position, to_position
from .render import render
from .state import EndReason, ShiftingStonesState

__all__ = [
    "Action",
    "End",
    "EndReason",
    "Flip",
    "Score",
    "Shift",
    "ShiftingStones",
    "ShiftingStonesState",
    "Skip",
    "from_position",
    "parse",
    "render",
    "to_position",
]
