"""Stack Back: pile sticks on two boards, resting each on exactly two others, without a fall."""

from .actions import PASS, Colour, Pass, Place, parse, pose
from .game import StackBack
from .position import from_position
from .state import EndReason, StackBackState

__all__ = [
    "PASS",
    "Colour",
    "EndReason",
    "Pass",
    "Place",
    "StackBack",
    "StackBackState",
    "from_position",
    "parse",
    "pose",
]
