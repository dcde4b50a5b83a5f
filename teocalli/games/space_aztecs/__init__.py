"""Space Aztecs (Lumberjacks Studio): piles, a simultaneous hidden card choice, Temples, Saucers.

The names every game package exports are listed in docs/architecture.md ("A game package").
"""

from .actions import Action, Capture, Choose, Keep, Take, Tuck, parse
from .game import SpaceAztecs
from .position import from_position, to_position
from .render import render
from .state import EndReason, SpaceAztecsState

__all__ = [
    "Action",
    "Capture",
    "Choose",
    "EndReason",
    "Keep",
    "SpaceAztecs",
    "SpaceAztecsState",
    "Take",
    "Tuck",
    "from_position",
    "parse",
    "render",
    "to_position",
]
