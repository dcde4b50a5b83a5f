"""Stack Back's actions: poses in a compact notation that round-trips, and a pose key.

Notation:
  `Y35.0,50.0@90.0`  place a yellow (Y), mauve (M) or green (G) stick centred at x=35.0 mm,
                     y=50.0 mm, its long axis at 90.0 degrees (0 = along x, counter-clockwise).
                     Printed with one decimal; parsed from any decimals and quantised to 0.1 mm
                     and 0.1 degree (half to even), the angle folded into [0, 180). Colour names
                     (`yellow 35 50 @ 90`) and lower case are read too.
  `pass`             nothing can be placed anywhere (the search of search.py finds no pose)

Action ids (for learning agents and the adapters): ids.py, docs/games/stack-back.md "Action
ids". An id names a bin of poses (colour, 12 mm in x and y, 15 degrees) and a position decodes it
to a legal pose of that bin; 14,041 ids with `pass`.

The pose key (`lattice_index`, below) is no action id: a number for each pose of the 2 mm / 5
degree lattice of components.json, which keys the engine's geometry memos and orders its
candidates. `apply` takes any pose the notation can write (whole tenths within 10 m, the angle
folded into [0, 180): see `malformed`).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from teocalli.core import InvalidAction

from .components import SPEC


class Colour(enum.IntEnum):
    """A stick colour; the value indexes the component table."""

    YELLOW = 0
    MAUVE = 1
    GREEN = 2

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    @property
    def key(self) -> str:
        return SPEC.keys[self]


@dataclass(frozen=True, slots=True)
class Place:
    """Put one stick of `colour` from your supply at a pose, in tenths of mm and of degrees."""

    colour: Colour
    x10: int
    y10: int
    a10: int

    @property
    def x(self) -> float:
        return self.x10 / 10

    @property
    def y(self) -> float:
        return self.y10 / 10

    @property
    def angle(self) -> float:
        return self.a10 / 10

    def __str__(self) -> str:
        return f"{self.colour.key}{_tenths(self.x10)},{_tenths(self.y10)}@{_tenths(self.a10)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Nothing can be placed (or a turn of piled plays ends): the turn goes to the other player."""

    def __str__(self) -> str:
        return "pass"


Action = Place | Pass
PASS = Pass()


def _tenths(v: int) -> str:
    sign = "-" if v < 0 else ""
    return f"{sign}{abs(v) // 10}.{abs(v) % 10}"


_NUMBER = r"([-+]?\d+(?:\.\d*)?|[-+]?\.\d+)"
_PLACE = re.compile(
    rf"^(y|m|g|yellow|mauve|green)\s*{_NUMBER}\s*[,\s]\s*{_NUMBER}\s*@\s*{_NUMBER}$", re.IGNORECASE
)
_COLOUR_WORDS = {"y": 0, "m": 1, "g": 2, "yellow": 0, "mauve": 1, "green": 2}
REACH10 = 100_000
"""How far from the origin a pose's x and y may lie, in tenths of mm (10 m: far off the boards,
so refused by the rules, but a number every part handles)."""
HALF_TURN10 = 1800
"""Angles are folded into [0, 180) degrees, in tenths: a stick turned half round is the same."""


def quantise(value: str | float) -> int:
    """A number in tenths, rounded half to even (exact on the decimal text, no float error)."""
    try:
        d = Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN)
    except InvalidOperation:
        raise InvalidAction(f"{value!r} is not a number") from None
    return int(d * 10)


def pose(colour: Colour | int, x: float, y: float, angle: float) -> Place:
    """A Place from millimetres and degrees, quantised as the notation is."""
    a10 = quantise(angle) % HALF_TURN10
    return Place(Colour(colour), quantise(x), quantise(y), a10)


def parse(text: str) -> Action:
    """Read Stack Back notation (see the module docstring)."""
    t = text.strip()
    if t.lower() == "pass":
        return PASS
    m = _PLACE.match(t)
    if not m:
        raise InvalidAction(
            f"cannot read {text!r}: write a pose as colour x,y@angle, like Y35.0,50.0@90.0 "
            "(colour Y, M or G; mm and degrees), or pass"
        )
    x10, y10, a10 = quantise(m[2]), quantise(m[3]), quantise(m[4])
    if max(abs(x10), abs(y10)) > REACH10:
        raise InvalidAction(f"{text!r}: a stick must be placed within 10 m of the boards")
    return Place(Colour(_COLOUR_WORDS[m[1].lower()]), x10, y10, a10 % HALF_TURN10)


def malformed(action: object) -> str | None:
    """Why an action object is no Stack Back action at all (None: it is one).

    The one check of an object's fields, so the rules may trust them: a Colour (not its number:
    the notation prints its key), whole tenths (not floats, so never NaN or infinite) within the
    reach the notation reads, and the angle folded into [0, 180) degrees as the notation folds it
    (so a pose reads back as itself). Whether the pose stands is the rules' question.
    """
    if type(action) is Place:
        if type(action.colour) is not Colour:
            return f"{action!r}: the colour must be a Colour (YELLOW, MAUVE or GREEN)"
        x10, y10, a10 = action.x10, action.y10, action.a10
        if type(x10) is not int or type(y10) is not int or type(a10) is not int:
            return f"{action!r}: x, y and the angle are whole numbers of tenths (of mm, of degrees)"
        if max(abs(x10), abs(y10)) > REACH10:
            return f"{action!r}: a stick must be placed within 10 m of the boards"
        if not 0 <= a10 < HALF_TURN10:
            return f"{action!r}: the angle is in tenths of a degree from 0 to {HALF_TURN10 - 1}"
        return None
    if type(action) is Pass:
        return None
    return f"{action!r} is not a Stack Back action"


# --- the pose key ------------------------------------------------------------------------------
X_CELLS = SPEC.x_cells
Y_CELLS = SPEC.y_cells
A_CELLS = SPEC.angle_cells
XY10 = SPEC.step * 10
A10 = SPEC.angle_step * 10


def lattice_index(colour: int, x10: int, y10: int, a10: int) -> int | None:
    """The pose key of a pose on the 2 mm / 5 degree lattice (x 0-236, y 0-100 mm), None off it:
    ((colour * 36 + angle / 5) * 119 + x / 2) * 51 + y / 2. The engine's memos and candidate
    order use it; it is no action id (those are ids.py's bins)."""
    if x10 % XY10 or y10 % XY10 or a10 % A10:
        return None
    xi, yi, ai = x10 // XY10, y10 // XY10, a10 // A10
    if not (0 <= xi < X_CELLS and 0 <= yi < Y_CELLS and 0 <= ai < A_CELLS):
        return None
    return ((colour * A_CELLS + ai) * X_CELLS + xi) * Y_CELLS + yi
