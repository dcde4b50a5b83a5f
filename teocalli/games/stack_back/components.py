"""Stack Back's components as data (components.json), validated once at import.

Coordinates, once: millimetres seen from above, x to the right along the two boards, y up.
Board A is [0,100] x [0,100], board B is [136,236] x [0,100]; the 36 mm between them is the gap.
A stick is a 6 mm square section of its colour's length; its pose is its centre (x, y) and the
direction of its long axis, an angle in degrees in [0, 180) (a stick turned half round is the same
stick). A stick of level k lies at height 6k.

The dense-index lattice (actions.py) is `step_mm` on x and y and `angle_step_deg` on the angle;
the wood candidates (candidates.py) are a coarser sub-lattice of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLOUR_KEYS = ("Y", "M", "G")
"""The colours in index order; Colour in actions.py follows it."""


@dataclass(frozen=True, slots=True)
class Spec:
    """The whole component table: shared by every game and state, never changed."""

    boards: tuple[tuple[float, float, float, float], ...]
    width: float
    keys: tuple[str, ...]
    names: tuple[str, ...]
    lengths: tuple[float, ...]
    per_player: tuple[int, ...]
    touch_tolerance: float
    rest_minimum: float
    margin: float
    step: int
    angle_step: int
    x_cells: int
    y_cells: int
    wood_angles: tuple[int, ...]
    wood_x: tuple[int, ...]
    wood_y: tuple[int, ...]
    pile_offsets: tuple[float, ...]

    @property
    def angle_cells(self) -> int:
        return 180 // self.angle_step

    @property
    def region(self) -> tuple[float, float, float, float]:
        """The boards and the gap together: the only place a stick on the wood may lie."""
        return (
            min(b[0] for b in self.boards),
            min(b[1] for b in self.boards),
            max(b[2] for b in self.boards),
            max(b[3] for b in self.boards),
        )


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise ValueError(f"stack_back/components.json: {message}")


def _range(value: Any, what: str) -> tuple[int, ...]:
    _need(
        isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value),
        f"{what} must be [first, last, step] in whole millimetres",
    )
    first, last, step = value
    _need(step > 0 and first <= last, f"{what} must have first <= last and a positive step")
    return tuple(range(first, last + 1, step))


def load_spec(data: dict[str, Any]) -> Spec:
    """Validate the table: a different physical edition is a data change, checked here."""
    boards = tuple(tuple(float(v) for v in b) for b in data["boards"])
    _need(len(boards) == 2, "Stack Back has exactly two boards")
    _need(
        all(len(b) == 4 and b[0] < b[2] and b[1] < b[3] for b in boards), "a board is x0,y0,x1,y1"
    )
    _need(boards[0][2] < boards[1][0], "board A must lie left of board B with a gap between")
    colours = data["colours"]
    keys = tuple(c["key"] for c in colours)
    _need(keys == COLOUR_KEYS, f"the colours must be {COLOUR_KEYS} in that order, not {keys}")
    lengths = tuple(float(c["length_mm"]) for c in colours)
    width = float(data["stick_width_mm"])
    _need(all(length > width for length in lengths), "every stick must be longer than it is wide")
    per_player = tuple(int(c["per_player"]) for c in colours)
    _need(all(n > 0 for n in per_player), "each player has at least one stick of each colour")
    lattice = data["lattice"]
    wood = data["wood_lattice"]
    spec = Spec(
        boards=boards,  # type: ignore[arg-type]
        width=width,
        keys=keys,
        names=tuple(c["name"] for c in colours),
        lengths=lengths,
        per_player=per_player,
        touch_tolerance=float(data["touch_tolerance_mm2"]),
        rest_minimum=float(data["rest_minimum_mm2"]),
        margin=float(data["balance_margin_mm"]),
        step=int(lattice["step_mm"]),
        angle_step=int(lattice["angle_step_deg"]),
        x_cells=int(lattice["x_cells"]),
        y_cells=int(lattice["y_cells"]),
        wood_angles=tuple(int(a) for a in wood["angles_deg"]),
        wood_x=_range(wood["x_mm"], "wood_lattice.x_mm"),
        wood_y=_range(wood["y_mm"], "wood_lattice.y_mm"),
        pile_offsets=tuple(float(f) for f in data["pile_offsets"]),
    )
    _need(0 < spec.touch_tolerance < spec.rest_minimum, "0 < touch tolerance < rest minimum")
    _need(180 % spec.angle_step == 0, "angle_step_deg must divide 180")
    region = spec.region
    _need(
        (spec.x_cells - 1) * spec.step >= region[2] and (spec.y_cells - 1) * spec.step >= region[3],
        "the index lattice must cover the boards",
    )
    for v in spec.wood_x + spec.wood_y:
        _need(v % spec.step == 0, f"wood lattice value {v} is not on the {spec.step} mm lattice")
    for a in spec.wood_angles:
        _need(a % spec.angle_step == 0 and 0 <= a < 180, f"wood angle {a} is not on the lattice")
    _need(all(-1.0 < f < 1.0 for f in spec.pile_offsets), "pile offsets are fractions in (-1, 1)")
    return spec


SPEC = load_spec(json.loads(resources.files(__package__).joinpath("components.json").read_text()))
NUM_COLOURS = len(SPEC.keys)
LENGTHS = SPEC.lengths
HALF_LENGTHS = tuple(length / 2 for length in SPEC.lengths)
HALF_WIDTH = SPEC.width / 2
WEIGHTS = SPEC.lengths
"""Uniform density and one section: a stick's weight is proportional to its length."""
