"""Aztack: stack stones matching both colours or both glyphs beneath them; empty your hand first.

The names every game package exports are listed in docs/architecture.md ("A game package").
"""

from .actions import Action, Discard, Keep, Match, Pass, Place, parse
from .game import Aztack
from .position import from_position, to_position
from .render import render
from .state import AztackState, EndReason

__all__ = [
    "Action",
    "Aztack",
    "AztackState",
    "Discard",
    "EndReason",
    "Keep",
    "Match",
    "Pass",
    "Place",
    "from_position",
    "parse",
    "render",
    "to_position",
]
