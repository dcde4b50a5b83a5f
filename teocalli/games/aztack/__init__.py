"""Aztack: stack stones matching both colours or both glyphs beneath them; empty your hand first."""

from .actions import Discard, Keep, Match, Pass, Place
from .game import Aztack
from .state import AztackState, EndReason

__all__ = ["Aztack", "AztackState", "Discard", "EndReason", "Keep", "Match", "Pass", "Place"]
