"""Judging a pose: its derived level, what it rests on and whether the rules let it stay.

The rules of docs/games/stack-back.md, in the order a refusal names them:
- Level: 0 if the footprint touches no stick (overlap above the 3 mm² tolerance), else one above
  the highest stick it touches.
- On the wood: resting on a board (it may overhang its edges); a stick reaching both boards must
  cross the gap, resting at least 6 x 6 mm on each (so a green can never straddle).
- Piled at level k: exactly two touched sticks of level k-1 (one alone, or a third, is refused),
  each overlapped by at least 6 x 6 mm; a colour differing from both; neither support already
  carrying that colour; the level rule (the caller's floor).
- Balance (balance.py): after the placement every stick stands: its resultant lies inside its
  support polygon (on one board: its centre over the board), 1 mm from its edge.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from .actions import Place, lattice_index
from .balance import NEW, Load, Stick, try_add
from .components import HALF_LENGTHS, HALF_WIDTH, SPEC, WEIGHTS
from .geometry import DEEP, Array, axis, box, clip, quads, sat_hits
from .grow import NOBODY, Room
from .support import Edge, Point, corners, rectangle, support

TOL = SPEC.touch_tolerance
assert math.pi * DEEP**2 > TOL, "footprints shrunk by DEEP that meet must touch (geometry.DEEP)"
REST = SPEC.rest_minimum - 1e-6
BOARD_QUADS = np.stack([box(*b) for b in SPEC.boards])
BOARD_CORNERS = [rectangle(*b) for b in SPEC.boards]


EDGES = 24
"""Room for a support polygon's edges in `Statics.poly` (the hull of two clipped rectangles: at
most 16; a stick on the wood: at most 8)."""


@dataclass(frozen=True, slots=True)
class Statics:
    """Per placed stick, as arrays, what the compiled piled candidates (cand_kernels.py) read of
    it that never changes: its footprint (cx, cy, ux, uy, half) and circumscribed radius, level,
    colour, supports (-1: none), contact centroids (relative to its centre) and support
    polygon's edges (`npoly` of them)."""

    rows: Array
    reach: Array
    level: npt.NDArray[np.int64]
    colour: npt.NDArray[np.int64]
    sup: npt.NDArray[np.int64]
    cont: Array
    poly: Array
    npoly: npt.NDArray[np.int64]


def _no_sticks() -> Room:
    """Storage for the per-stick columns of a `Layout`, no stick in it (see `Layout.with_stick`
    for what each column holds)."""
    f, i = np.float64, np.int64
    shapes: tuple[tuple[tuple[int, ...], type], ...] = (
        ((), f), ((), f), ((), f), ((), f), ((), f), ((4, 2), f), ((), i), ((5,), f),
        ((), f), ((), i), ((), i), ((2,), i), ((2, 2), f), ((EDGES, 3), f), ((), i),
    )  # fmt: skip
    return Room.of(*(np.zeros((0, *shape), dtype=dtype) for shape, dtype in shapes))


@dataclass(frozen=True, slots=True)
class Layout:
    """The placed sticks' footprints as arrays (a new Layout per placement; never changed: its
    arrays are the first rows of storage that grows in place past them, grow.py)."""

    cx: Array
    cy: Array
    ux: Array
    uy: Array
    half: Array
    quads: Array
    levels: tuple[int, ...]
    keys: npt.NDArray[np.int64] | None
    """Each stick's `pose_key`, for the overlap memo of `touches`."""
    statics: Statics
    room: Room

    @staticmethod
    def empty() -> Layout:
        return Layout.of(_no_sticks(), ())

    @staticmethod
    def of(room: Room, levels: tuple[int, ...]) -> Layout:
        """The Layout of the first `len(levels)` rows of `room`."""
        n = len(levels)
        cx, cy, ux, uy, half, quad, keys, rows, reach, level, colour, sup, cont, poly, npoly = [
            c[:n] for c in room.columns
        ]
        statics = Statics(rows, reach, level, colour, sup, cont, poly, npoly)
        return Layout(cx, cy, ux, uy, half, quad, levels, keys, statics, room)

    def with_stick(self, s: Stick, who: int = NOBODY) -> Layout:
        """This layout and `s`: its row written in place past this layout's rows when `who` owns
        the storage and nothing lies there yet (grow.py), else in a copy. The corners are
        `geometry.quads`' arithmetic in Python floats (the same doubles), the radius numpy's
        hypot, as before."""
        n = len(self.levels)
        room = self.room.room(n, 1, who)
        cx, cy, ux, uy, half, quad, keys, rows, reach, level, colour, sup, cont, poly, npoly = (
            room.columns
        )
        x, y, vx, vy, h = s.cx, s.cy, s.ux, s.uy, s.half
        cx[n], cy[n], ux[n], uy[n], half[n] = x, y, vx, vy, h
        ax, ay = vx * h, vy * h  # half the long side
        bx, by = -vy * HALF_WIDTH, vx * HALF_WIDTH  # half the short side
        quad[n] = ((x + ax + bx, y + ay + by), (x - ax + bx, y - ay + by),
                   (x - ax - bx, y - ay - by), (x + ax - bx, y + ay - by))  # fmt: skip
        keys[n] = pose_key(s.pose)
        rows[n] = (x, y, vx, vy, h)
        reach[n] = np.hypot(h, HALF_WIDTH)
        level[n] = s.level
        colour[n] = s.colour
        sup[n] = s.supports if s.supports else (-1, -1)
        cont[n] = 0.0
        for k, c in enumerate(s.contacts[:2] if s.supports else ()):
            cont[n, k] = c.real, c.imag
        poly[n] = 0.0
        if s.polygon:
            poly[n, : len(s.polygon)] = s.polygon
        npoly[n] = len(s.polygon)
        room.used = n + 1
        return Layout.of(room, (*self.levels, s.level))


@dataclass(frozen=True, slots=True)
class Footprints:
    """Candidate footprints as arrays, for judging many poses at once."""

    cx: Array
    cy: Array
    ux: Array
    uy: Array
    half: Array
    keys: npt.NDArray[np.int64] | None = None
    """Each pose's `pose_key`, for the overlap memo of `touches`."""

    @staticmethod
    def of(poses: Sequence[Place]) -> Footprints:
        cx = np.array([p.x10 / 10 for p in poses])
        cy = np.array([p.y10 / 10 for p in poses])
        dirs = np.array([axis(p.a10) for p in poses]).reshape(-1, 2)
        half = np.array([HALF_LENGTHS[p.colour] for p in poses])
        keys = np.array([pose_key(p) for p in poses], dtype=np.int64)
        return Footprints(cx, cy, dirs[:, 0].copy(), dirs[:, 1].copy(), half, keys)

    def quads(self) -> Array:
        return quads(self.cx, self.cy, self.ux, self.uy, self.half)


Touch = tuple[int, float, float, float]
"""(stick index, overlap area, overlap centroid x, y)."""

_OVERLAPS: dict[int, tuple[float, float, float]] = {}
"""Overlap (area, centroid x, y) of two poses' footprints, by `pose_key` pair: a pure function of
the two poses, so kept across positions (a search meets the same candidate against the same stick
again and again; clipping them was most of the cost of generating candidates)."""
_OVERLAPS_MAX = 150_000
_KEY_SHIFT = 1 << 31


def pose_key(place: Place) -> int:
    """A pose's dense index, the key of the memos; -1 off the lattice (never memoised: a person's
    or a shaken hand's poses are endless)."""
    key = lattice_index(place.colour, place.x10, place.y10, place.a10)
    return -1 if key is None else key


def touches(layout: Layout, feet: Footprints) -> list[list[Touch]]:
    """For each candidate, the placed sticks it touches (overlap above the tolerance)."""
    out: list[list[Touch]] = [[] for _ in range(len(feet.cx))]
    if not len(layout.cx) or not len(feet.cx):
        return out
    hits = sat_hits(feet.cx, feet.cy, feet.ux, feet.uy, feet.half,
                    layout.cx, layout.cy, layout.ux, layout.uy, layout.half)  # fmt: skip
    ci, sj = np.nonzero(hits)
    if not len(ci):
        return out
    if feet.keys is not None and layout.keys is not None:
        return _touches_memo(layout, feet, ci, sj, out)
    area, cent = clip(feet.quads()[ci], layout.quads[sj])
    for c, s, a, g in zip(ci.tolist(), sj.tolist(), area.tolist(), cent.tolist(), strict=True):
        if a > TOL:
            out[c].append((s, a, g[0], g[1]))
    return out


def _touches_memo(
    layout: Layout,
    feet: Footprints,
    ci: npt.NDArray[np.intp],
    sj: npt.NDArray[np.intp],
    out: list[list[Touch]],
) -> list[list[Touch]]:
    """`touches` with each pair's overlap clipped once per process (same numbers, same order)."""
    assert feet.keys is not None and layout.keys is not None
    memo = _OVERLAPS
    pairs = list(zip(ci.tolist(), sj.tolist(), strict=True))
    kc, ks = feet.keys[ci], layout.keys[sj]
    # a pair with a pose off the lattice gets a negative key of its own, never memoised
    keys = np.where(
        (kc >= 0) & (ks >= 0), kc * _KEY_SHIFT + ks, -1 - np.arange(len(ci), dtype=np.int64)
    ).tolist()
    miss = [k for k, key in enumerate(keys) if key not in memo]
    fresh: dict[int, tuple[float, float, float]] = {}
    if miss:
        if len(memo) + len(miss) > _OVERLAPS_MAX:
            memo.clear()
            miss = list(range(len(keys)))
        rows = np.array(miss)
        area, cent = clip(feet.quads()[ci[rows]], layout.quads[sj[rows]])
        for k, a, g in zip(miss, area.tolist(), cent.tolist(), strict=True):
            fresh[keys[k]] = value = (a, g[0], g[1])
            if keys[k] >= 0:
                memo[keys[k]] = value
    for (c, s), key in zip(pairs, keys, strict=True):
        a, gx, gy = fresh[key] if key in fresh else memo[key]
        if a > TOL:
            out[c].append((s, a, gx, gy))
    return out


def base(pose: Place, owner: int, level: int = 0) -> Stick:
    ux, uy = axis(pose.a10)
    c = pose.colour
    return Stick(
        pose, owner, level, pose.x10 / 10, pose.y10 / 10, ux, uy, HALF_LENGTHS[c], WEIGHTS[c]
    )


def _feet(stick: Stick) -> list[Point]:
    return corners(stick.cx, stick.cy, stick.ux, stick.uy, stick.half)


def on_wood(pose: Place, owner: int) -> Stick | str:
    """The stick laid on the wood, or why the wood cannot take it there (balance aside: a stick
    on one board may overhang its edges, and stands while its centre is over the board)."""
    stick = base(pose, owner)
    feet = _feet(stick)
    area, cent = clip(np.repeat(np.array([feet]), 2, axis=0), BOARD_QUADS)
    on = [k for k in (0, 1) if area[k] > TOL]
    if not on:
        return "a stick on the wood must rest on a board"
    if len(on) == 2 and (area[0] < REST or area[1] < REST):
        return (
            "a stick over the gap must cross it, resting at least 6 x 6 mm on each board "
            "(a green stick is too short to straddle)"
        )
    centre = stick.centre
    return replace(
        stick,
        contacts=tuple(complex(cent[k, 0], cent[k, 1]) - centre for k in on),
        polygon=support(feet, [BOARD_CORNERS[k] for k in on], stick.cx, stick.cy),
    )


def piled(
    pose: Place,
    owner: int,
    touched: Sequence[Touch],
    sticks: Sequence[Stick],
    carries: Sequence[int],
) -> Stick | str:
    """The stick piled on what it touches, or the rule it breaks (balance aside)."""
    level = 1 + max(sticks[t[0]].level for t in touched)
    below = [t for t in touched if sticks[t[0]].level == level - 1]
    if len(below) == 1:
        return "a piled stick must rest on two sticks, not on one alone"
    if len(below) > 2:
        return f"a piled stick rests on exactly two sticks: this one would touch {len(below)}"
    if min(t[1] for t in below) < REST:
        return "a piled stick must rest at least 6 x 6 mm on each of its two supports"
    colour = pose.colour
    name = SPEC.names[colour]
    for s, _, _, _ in below:
        if sticks[s].colour == colour:
            return f"a stick never rests on a stick of its own colour (a {name} on a {name})"
    for s, _, _, _ in below:
        if carries[s] >> colour & 1:
            held = SPEC.names[sticks[s].colour]
            return f"a {held} stick that already carries a {name} cannot take a second {name}"
    ux, uy = axis(pose.a10)
    cx, cy, half = pose.x10 / 10, pose.y10 / 10, HALF_LENGTHS[colour]
    centre = complex(cx, cy)
    a, b = below[0][0], below[1][0]
    return Stick(
        pose, owner, level, cx, cy, ux, uy, half, WEIGHTS[colour], (a, b),
        tuple(complex(t[2], t[3]) - centre for t in below),
        _polygon(pose, (cx, cy, ux, uy, half), sticks[a], sticks[b]),
    )  # fmt: skip


_POLYGONS: dict[tuple[int, int, int], tuple[Edge, ...]] = {}
"""Support polygons of a pose on two supports' poses, by `pose_key`s: pure geometry, kept across
positions (the candidates bridging two sticks are judged again at every step of a game)."""
_POLYGONS_MAX = 100_000


def _polygon(
    pose: Place, frame: tuple[float, float, float, float, float], a: Stick, b: Stick
) -> tuple[Edge, ...]:
    """The support polygon of a stick at `pose` (centre, axis and half-length `frame`) resting
    on `a` and `b` (memoised on the lattice)."""
    key = (pose_key(pose), pose_key(a.pose), pose_key(b.pose))
    known = _POLYGONS.get(key) if min(key) >= 0 else None
    if known is not None:
        return known
    feet = corners(*frame)
    polygon = support(feet, [_feet(a), _feet(b)], *frame[:2])
    if min(key) >= 0:
        if len(_POLYGONS) >= _POLYGONS_MAX:
            _POLYGONS.clear()
        _POLYGONS[key] = polygon
    return polygon


class Verdict:
    """A placement the rules allow: the stick and the load deltas to commit. Made from them,
    or (`Verdict.later`) from a recipe that makes them when first read: the compiled piled
    candidates find some 30 legal bridges a position, and a game places one of them. Never
    changed once made; equal when the stick and the deltas are."""

    __slots__ = ("_args", "_deltas", "_recipe", "_stick")
    _stick: Stick
    _deltas: dict[int, Load]
    _recipe: Callable[..., tuple[Stick, dict[int, Load]]] | None
    _args: tuple[Any, ...]

    def __init__(self, stick: Stick, deltas: dict[int, Load]) -> None:
        self._stick = stick
        self._deltas = deltas
        self._recipe = None

    @classmethod
    def later(
        cls, recipe: Callable[..., tuple[Stick, dict[int, Load]]], args: tuple[Any, ...]
    ) -> Verdict:
        """A verdict whose stick and deltas `recipe(*args)` makes when first read."""
        verdict = cls.__new__(cls)
        verdict._recipe = recipe
        verdict._args = args
        return verdict

    def _make(self) -> None:
        recipe = self._recipe
        if recipe is not None:
            self._stick, self._deltas = recipe(*self._args)
            self._recipe = None
            self._args = ()

    @property
    def stick(self) -> Stick:
        self._make()
        return self._stick

    @property
    def deltas(self) -> dict[int, Load]:
        self._make()
        return self._deltas

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return (self.stick, self.deltas) == (other.stick, other.deltas)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Verdict(stick={self.stick!r}, deltas={self.deltas!r})"


def settle(
    stick: Stick, sticks: Sequence[Stick], force: Sequence[float], moment: Sequence[complex]
) -> Verdict | str:
    """Check balance after adding `stick`: a Verdict, or which stick would fall."""
    return settle_reads(stick, sticks, force, moment)[0]


def settle_reads(
    stick: Stick, sticks: Sequence[Stick], force: Sequence[float], moment: Sequence[complex]
) -> tuple[Verdict | str, tuple[int, ...]]:
    """`settle`, and the sticks whose loads it read (the verdict stays while theirs do)."""
    falls, deltas = try_add(sticks, force, moment, stick)
    if falls is None:
        return Verdict(stick, deltas), tuple(deltas)
    return falls_message(falls, sticks), tuple(deltas)


def falls_message(falls: int, sticks: Sequence[Stick]) -> str:
    """Why a placement is refused when stick `falls` (`balance.NEW`: the new one) would fall."""
    if falls == NEW:
        return (
            "this stick would fall: its weight and load are not inside its support polygon, "
            f"{SPEC.margin:g} mm from its edge"
        )
    s = sticks[falls]
    return (
        f"this stick would make the {SPEC.names[s.colour]} stick at {s.pose.x:g},{s.pose.y:g} "
        f"(level {s.level}) fall"
    )
