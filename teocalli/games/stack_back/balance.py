"""The static balance model of docs/games/stack-back.md: beams on two contacts, lever-rule loads.

Each stick carries its own weight (its length: one density, one section) at its centre. A stick
resting on two others, or straddling the gap on its two board contacts, is a beam: it stands when
the resultant of its weight and of the loads on it lies between the centroids of its two contact
areas with `SPEC.margin` (1 mm) to spare. A piled stick's load then passes to its two supports by
the lever rule, at the centroids of the contacts. A stick on one board always stands and passes
its load to the wood.

Positions along a stick are axial coordinates t (mm from its centre along its axis). A state keeps,
per stick, the total force on it F and the moment M = sum(F_i * t_i) about its centre; the
resultant is at t = M / F. The model is linear, so a new stick's effect is propagated down as
deltas (`try_add`), touching only the sticks beneath it. `evaluate` recomputes everything from
scratch (tests compare the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Place
from .components import SPEC

NEW = -1
"""`try_add`'s name for the stick being added, when it is the one that would fall."""


@dataclass(frozen=True, slots=True)
class Stick:
    """A placed stick: its pose, derived level, supports and where its contacts lie."""

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
    contacts: tuple[float, ...] = ()
    """Axial coordinates on this stick of its two contact centroids; () on one board."""
    lands: tuple[float, ...] = ()
    """Axial coordinates, on each support, of where this stick's load lands."""

    @property
    def colour(self) -> int:
        return int(self.pose.colour)


def stands(stick: Stick, force: float, moment: float) -> bool:
    """Whether the resultant lies between the contacts' centroids with the margin to spare."""
    if not stick.contacts:
        return True
    return margin(stick, force, moment) >= SPEC.margin - 1e-9


def margin(stick: Stick, force: float, moment: float) -> float:
    """How far (mm) the resultant lies inside the span between the contact centroids (< 0: out)."""
    if not stick.contacts:
        return float("inf")
    t = moment / force
    lo, hi = sorted(stick.contacts)
    return min(t - lo, hi - t)


def split(stick: Stick, force: float, moment: float) -> tuple[float, float]:
    """The lever rule: the loads a piled stick passes to its two supports."""
    ta, tb = stick.contacts
    span = tb - ta
    return (force * tb - moment) / span, (moment - force * ta) / span


def try_add(
    sticks: Sequence[Stick], force: Sequence[float], moment: Sequence[float], new: Stick
) -> tuple[int | None, dict[int, tuple[float, float]]]:
    """Add `new`'s weight to the structure: (the stick that would fall or None, the deltas).

    The deltas (dF, dM) per stick beneath are what `commit` adds once the placement is made.
    """
    if not stands(new, new.weight, 0.0):
        return NEW, {}
    deltas: dict[int, tuple[float, float]] = {}
    by_level: dict[int, list[int]] = {}
    if new.supports:
        _pass_down(new, (new.weight, 0.0), sticks, deltas, by_level)
    for level in range(new.level - 1, -1, -1):
        for i in sorted(by_level.get(level, ())):
            stick = sticks[i]
            d_f, d_m = deltas[i]
            if not stands(stick, force[i] + d_f, moment[i] + d_m):
                return i, deltas
            if stick.supports:
                _pass_down(stick, (d_f, d_m), sticks, deltas, by_level)
    return None, deltas


def _pass_down(
    stick: Stick,
    load: tuple[float, float],
    sticks: Sequence[Stick],
    deltas: dict[int, tuple[float, float]],
    by_level: dict[int, list[int]],
) -> None:
    shares = split(stick, *load)
    for s, share, at in zip(stick.supports, shares, stick.lands, strict=True):
        if s in deltas:
            f, m = deltas[s]
            deltas[s] = (f + share, m + share * at)
        else:
            deltas[s] = (share, share * at)
            by_level.setdefault(sticks[s].level, []).append(s)


def evaluate(sticks: Sequence[Stick]) -> tuple[list[float], list[float]]:
    """Forces and moments on every stick, recomputed top-down from nothing but the sticks."""
    force = [s.weight for s in sticks]
    moment = [0.0] * len(sticks)
    for i in sorted(range(len(sticks)), key=lambda j: -sticks[j].level):
        stick = sticks[i]
        if stick.supports:
            loads = split(stick, force[i], moment[i])
            for s, load, at in zip(stick.supports, loads, stick.lands, strict=True):
                force[s] += load
                moment[s] += load * at
    return force, moment


def margins(sticks: Sequence[Stick]) -> list[float]:
    """Every stick's balance margin (mm) in the structure as it is: it stands if >= SPEC.margin."""
    force, moment = evaluate(sticks)
    return [margin(s, f, m) for s, f, m in zip(sticks, force, moment, strict=True)]
