"""Stack Back: pile sticks on two boards, resting each on exactly two others, without a fall.

The names every game package exports are listed in docs/architecture.md ("A game package").
"""

from . import jit_cache  # noqa: F401 - first: numba's cache directory, before any kernel compiles
from .actions import PASS, Action, Colour, Pass, Place, parse, pose
from .game import StackBack
from .position import from_position, to_position
from .render import render
from .state import EndReason, StackBackState

__all__ = [
    "PASS",
    "Action",
    "Colour",
    "EndReason",
    "Pass",
    "Place",
    "StackBack",
    "StackBackState",
    "from_position",
    "parse",
    "pose",
    "render",
    "to_position",
]
