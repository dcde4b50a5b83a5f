"""The static balance model of docs/games/stack-back.md: support polygons, lever-rule loads.

Each stick carries its own weight (its length: one density, one section) at its centre, and the
loads that the sticks resting on it pass down. Its *support polygon* is the convex hull, seen from
above, of its contact areas (support.py): the overlaps with its two supports for a piled stick, its
overlap with the board for a stick on one board, with each board for a stick straddling the gap.
It stands when the resultant of its weight and loads lies inside that polygon at least
`SPEC.margin` (1 mm) from its edge: the rigid-body condition for a body on a flat support.

How a stick on two contact areas passes its load down (statically indeterminate: any split whose
reactions balance it would do; this one is chosen because it is continuous, never pulls on a
support, and matches MuJoCo on the generated scenes of tests/games/stack_back/
test_balance_physics.py):
with a and b the centroids of the two contact areas and P the resultant point, let s be P's
position along the line from a to b (0 at a, 1 at b) and o = P - (a + s (b - a)) its offset
across that line.
- 0 <= s <= 1, the lever rule: a share (1 - s) F lands at a + o, a share s F at b + o (the offset
  moves both landing points alike, so the moments balance exactly);
- s < 0 (the resultant beyond a's centroid, still inside the polygon): all of F lands on a at P,
  and likewise s > 1 on b (the contact at b lifts off; its support carries nothing).
A stick on the wood passes its load to the wood.

A state keeps, per stick, the total force on it F and its first moment M = sum(F_i (p_i - c)) about
its centre c, as a complex number (x + iy, millimetres from above); the resultant lies at
c + M / F. The split is piecewise linear, so a new stick's effect goes down as deltas (`try_add`):
each stick beneath gets its new totals, and passes on the difference between its new split and
its old one; only sticks beneath the new one are touched. `evaluate` recomputes everything from
scratch (the tests compare the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Place
from .components import SPEC
from .support import Edge, depth

NEW = -1
"""`try_add`'s name for the stick being added, when it is the one that would fall."""

EPS = 1e-9

Load = tuple[float, complex]
"""(force, first moment about the stick's centre)."""


@dataclass(frozen=True, slots=True)
class Stick:
    """A placed stick: its pose, derived level, supports and support polygon."""

    pose: Place
    owner: int
    level: int
    cx: float
    cy: float
    ux: float
    uy: float
    half: float
    weight: float
    supports: tuple[int, ...] = ()
    """The two sticks it rests on (piled), or () on the wood."""
    contacts: tuple[complex, ...] = ()
    """The centroids of its contact areas (x + iy, relative to its centre): one per support, or
    per board it rests on."""
    polygon: tuple[Edge, ...] = ()
    """Its support polygon's edges, relative to its centre (support.py); () would make it fall."""

    @property
    def colour(self) -> int:
        return int(self.pose.colour)

    @property
    def centre(self) -> complex:
        return complex(self.cx, self.cy)


def margin(stick: Stick, force: float, moment: complex) -> float:
    """How far (mm) the resultant lies inside the support polygon (< 0: outside)."""
    p = moment / force
    return depth(stick.polygon, p.real, p.imag)


def stands(stick: Stick, force: float, moment: complex) -> bool:
    """Whether the resultant lies inside the support polygon with the margin to spare."""
    return margin(stick, force, moment) >= SPEC.margin - EPS


def split(stick: Stick, force: float, moment: complex) -> tuple[Load, Load]:
    """The loads a piled stick passes to its two supports: (share, landing point relative to this
    stick's centre) each, by the lever rule along the line through the contact centroids."""
    a, b = stick.contacts
    p = moment / force
    d = b - a
    span = (d * d.conjugate()).real
    if span < 1e-12:  # two contacts in one place (never met: supports do not overlap)
        return (force / 2, p), (force / 2, p)
    s = ((p - a) * d.conjugate()).real / span
    if s <= 0.0:
        return (force, p), (0.0, p)
    if s >= 1.0:
        return (0.0, p), (force, p)
    o = p - (a + s * d)
    return (force * (1.0 - s), a + o), (force * s, b + o)


def _pass(
    stick: Stick,
    shares: tuple[Load, Load],
    sign: float,
    sticks: Sequence[Stick],
    deltas: dict[int, Load],
) -> None:
    """Add (sign = 1) or take away (-1) the shares on `stick`'s supports, as their own loads."""
    c = stick.centre
    for s, (share, at) in zip(stick.supports, shares, strict=True):
        f = sign * share
        m = f * (c + at - sticks[s].centre)
        if s in deltas:
            f0, m0 = deltas[s]
            deltas[s] = (f0 + f, m0 + m)
        else:
            deltas[s] = (f, m)


_FIRST: dict[tuple[Place, ...], tuple[bool, tuple[Load, ...]]] = {}
"""Per pose and its supports' poses: whether the new stick stands on its own weight, and the
loads its weight passes to each support. Pure geometry (its contact areas and support polygon
follow from the three poses), so kept across positions; `try_add` starts from it."""
_FIRST_MAX = 100_000


def _first(sticks: Sequence[Stick], new: Stick) -> tuple[bool, tuple[Load, ...]]:
    key = (new.pose, *(sticks[s].pose for s in new.supports))
    known = _FIRST.get(key)
    if known is not None:
        return known
    ok = stands(new, new.weight, 0j)
    loads: tuple[Load, ...] = ()
    if ok and new.supports:
        deltas: dict[int, Load] = {}
        _pass(new, split(new, new.weight, 0j), 1.0, sticks, deltas)
        loads = tuple(deltas[s] for s in new.supports)
    if len(_FIRST) >= _FIRST_MAX:
        _FIRST.clear()
    _FIRST[key] = (ok, loads)
    return ok, loads


def try_add(
    sticks: Sequence[Stick], force: Sequence[float], moment: Sequence[complex], new: Stick
) -> tuple[int | None, dict[int, Load]]:
    """Add `new` to the structure: (the stick that would fall or None, the deltas).

    The deltas (dF, dM) per stick beneath are what `commit` adds once the placement is made.
    """
    ok, first = _first(sticks, new)
    if not ok:
        return NEW, {}
    deltas: dict[int, Load] = dict(zip(new.supports, first, strict=True))
    if not new.supports:
        return None, deltas
    for level in range(new.level - 1, -1, -1):
        for i in sorted(k for k in deltas if sticks[k].level == level):
            stick = sticks[i]
            d_f, d_m = deltas[i]
            f, m = force[i] + d_f, moment[i] + d_m
            if not stands(stick, f, m):
                return i, deltas
            if stick.supports:
                _pass(stick, split(stick, f, m), 1.0, sticks, deltas)
                _pass(stick, split(stick, force[i], moment[i]), -1.0, sticks, deltas)
    return None, deltas


def evaluate(sticks: Sequence[Stick]) -> tuple[list[float], list[complex]]:
    """Forces and moments on every stick, recomputed top-down from nothing but the sticks."""
    force = [s.weight for s in sticks]
    moment = [0j] * len(sticks)
    for i in sorted(range(len(sticks)), key=lambda j: -sticks[j].level):
        stick = sticks[i]
        if stick.supports:
            c = stick.centre
            for s, (share, at) in zip(
                stick.supports, split(stick, force[i], moment[i]), strict=True
            ):
                force[s] += share
                moment[s] += share * (c + at - sticks[s].centre)
    return force, moment


def margins(sticks: Sequence[Stick]) -> list[float]:
    """Every stick's balance margin (mm) in the structure as it is: it stands if >= SPEC.margin."""
    force, moment = evaluate(sticks)
    return [margin(s, f, m) for s, f, m in zip(sticks, force, moment, strict=True)]
