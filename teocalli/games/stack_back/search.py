"""The search behind "can place nothing" (docs/games/stack-back.md, "Blocked players").

Poses are continuous, so whether any pose at all is legal is decided on a documented lattice:
centres on multiples of `STEP` (4 mm) in x and y, angles on multiples of `ASTEP` (5 degrees), in
every colour of the player's supply. Every pose of that lattice that could be legal is judged
exactly (by the same rules as `apply`), so the search is complete for any legal pose with a
little room around it: if every pose within 2 mm in x and in y and 2.5 degrees of some pose is
legal, that box holds a lattice pose, and the search finds it (or another). The filters that
skip lattice poses before judging are exact in the refusing direction (they only skip poses the
rules would refuse):

- On the wood (level 0): per colour, the lattice poses the bare boards take are computed once;
  then a pose is skipped when a point of its centre line at least 1 mm from its ends lies more
  than 1 mm deep inside a placed stick (the two footprints then share a disc of radius 1 mm, more
  than the 3 mm² touch tolerance). The depths come from a 1 mm raster of every stick's depth
  (`Depths`), read at the nearest raster point with the raster's 0.71 mm of slack. Survivors are
  judged in full, in lattice order.
- Piled (level k >= 1): for every two sticks of one level (at or above the player's floor less
  one) close enough for some colour to bridge, and every colour the player holds that may rest on
  both, the lattice poses whose footprint overlaps both supports are found per angle in the box
  where the two overlap regions meet, kept when both overlaps reach 6 x 6 mm and no other stick
  of level k-1 or higher is touched, then judged in full (colours, carries, the level rule,
  balance), in lattice order.

`find` returns, per colour, the first legal wood pose and the first legal pile it meets (the
candidate list then holds them); an empty result means no pose of the lattice is legal: a pass.
A colour found to have no wood pose stays without one for the rest of the game (placing sticks
only takes wood away), which the state remembers (`no_wood`).

The slow check of tests/games/stack_back/test_sb_search.py judges every pose of a finer lattice
(2 mm, 2.5 degrees) and random poses on sampled blocked positions, independently of the filters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .actions import Colour, Place
from .balance import Stick
from .components import HALF_LENGTHS, HALF_WIDTH, LENGTHS, NUM_COLOURS, SPEC
from .geometry import Array, box, clip, quads
from .rules import REST, TOL, Layout, Verdict

if TYPE_CHECKING:
    from .state import StackBackState

STEP = 4
"""mm between lattice centres."""
ASTEP = 5
"""Degrees between lattice angles."""
ANGLES = tuple(range(0, 180, ASTEP))
DEEP = 1.0
"""A centre-line point this deep (mm) inside a placed stick, at least this far from the ends of
the pose, makes the two footprints share more than the touch tolerance (pi > 3 mm²)."""
SLACK = math.sqrt(0.5)
"""How far a point may lie from its nearest raster point (mm): depth is 1-Lipschitz."""
OVERSHOOT = 2.5
"""mm: a footprint reaching further than this into the gap over one edge (without crossing the
gap) has more than 3 mm² in it (a corner d mm in holds at least d² mm²)."""
REST_INSET = 0.2
"""mm: a convex overlap of 36 mm² within a footprint (perimeter at most 2 x (72 + 6) = 156 mm)
holds a disc of radius at least area / perimeter = 0.23 mm, so both shrunk by 0.2 mm still meet."""
SAMPLES = 9
"""Centre-line points tested per wood pose by the raster filter."""
PAD = 40
"""mm of raster beyond the boards on each side."""
INDEXED = (0.0, 0.0, (SPEC.x_cells - 1) * SPEC.step, (SPEC.y_cells - 1) * SPEC.step)
"""Where a centre has a dense index (x0, y0, x1, y1): pile poses are sought there."""


@dataclass(frozen=True, slots=True)
class WoodPoses:
    """One colour's lattice poses the bare wood takes, as arrays in lattice order."""

    x10: npt.NDArray[np.int64]
    y10: npt.NDArray[np.int64]
    a10: npt.NDArray[np.int64]
    cx: Array
    cy: Array
    ux: Array
    uy: Array


@cache
def wood_poses(colour: int) -> WoodPoses:
    """The lattice poses of `colour` that lie legally on the bare boards (exactly as `on_wood`
    and balance judge them: within the boards and the gap, a straddle resting 6 x 6 mm on each
    board and balanced on its two board contacts)."""
    x0, y0, x1, y1 = SPEC.region
    h = HALF_LENGTHS[colour]
    xs = np.arange(math.ceil(x0 / STEP) * STEP, x1 + 1e-9, STEP)
    ys = np.arange(math.ceil(y0 / STEP) * STEP, y1 + 1e-9, STEP)
    ang = np.array(ANGLES, dtype=np.float64)
    ga, gx, gy = np.meshgrid(ang, xs, ys, indexing="ij")
    a, x, y = ga.ravel(), gx.ravel(), gy.ravel()
    ux, uy = np.cos(np.radians(a)), np.sin(np.radians(a))
    ex = h * np.abs(ux) + HALF_WIDTH * np.abs(uy)
    ey = h * np.abs(uy) + HALF_WIDTH * np.abs(ux)
    inside = (x - ex >= x0 - 1e-6) & (x + ex <= x1 + 1e-6) & (y - ey >= y0 - 1e-6)
    inside &= y + ey <= y1 + 1e-6
    a, x, y, ux, uy, ex = a[inside], x[inside], y[inside], ux[inside], uy[inside], ex[inside]
    gap0, gap1 = SPEC.boards[0][2], SPEC.boards[1][0]
    ok = (x + ex <= gap0 + 1e-9) | (x - ex >= gap1 - 1e-9)
    # into the gap by more than OVERSHOOT without crossing it: more than 3 mm² in the gap
    crosses = (x - ex < gap0) & (x + ex > gap1)
    slight = np.minimum(x + ex - gap0, gap1 - (x - ex)) <= OVERSHOOT
    near = np.nonzero(~ok & (crosses | slight))[0]
    if len(near):
        hh = np.full(len(near), h)
        q = quads(x[near], y[near], ux[near], uy[near], hh)
        full = LENGTHS[colour] * SPEC.width
        area_a, cent_a = clip(q, np.repeat(box(*SPEC.boards[0])[None], len(near), axis=0))
        area_b, cent_b = clip(q, np.repeat(box(*SPEC.boards[1])[None], len(near), axis=0))
        on_one = full - area_a - area_b <= TOL
        straddle = (area_a >= REST) & (area_b >= REST)
        ta = (cent_a[:, 0] - x[near]) * ux[near] + (cent_a[:, 1] - y[near]) * uy[near]
        tb = (cent_b[:, 0] - x[near]) * ux[near] + (cent_b[:, 1] - y[near]) * uy[near]
        lo, hi = np.minimum(ta, tb), np.maximum(ta, tb)
        stands = (lo <= -SPEC.margin + 1e-9) & (hi >= SPEC.margin - 1e-9)
        ok[near] = on_one | (straddle & stands)
    a, x, y, ux, uy = a[ok], x[ok], y[ok], ux[ok], uy[ok]
    return WoodPoses(
        np.rint(x * 10).astype(np.int64),
        np.rint(y * 10).astype(np.int64),
        np.rint(a * 10).astype(np.int64),
        x,
        y,
        ux,
        uy,
    )


@dataclass(frozen=True, slots=True)
class Depths:
    """How deep (mm) each point of a 1 mm raster lies inside the placed sticks (0 outside)."""

    grid: Array
    count: int

    @staticmethod
    def empty() -> Depths:
        x0, y0, x1, y1 = SPEC.region
        nx = int(x1 - x0) + 2 * PAD + 1
        ny = int(y1 - y0) + 2 * PAD + 1
        return Depths(np.zeros((nx, ny)), 0)

    def with_sticks(self, sticks: Sequence[Stick]) -> Depths:
        if self.count >= len(sticks):
            return self
        grid = self.grid.copy()
        for s in sticks[self.count :]:
            _stamp(grid, s)
        return Depths(grid, len(sticks))

    def at(self, x: Array, y: Array) -> Array:
        """The raster's depth at the nearest raster point (0 beyond the raster)."""
        x0, y0 = SPEC.region[0] - PAD, SPEC.region[1] - PAD
        i = np.rint(x - x0).astype(np.int64)
        j = np.rint(y - y0).astype(np.int64)
        nx, ny = self.grid.shape
        ok = (i >= 0) & (i < nx) & (j >= 0) & (j < ny)
        out = np.zeros(len(i))
        out[ok] = self.grid[i[ok], j[ok]]
        return out


def _stamp(grid: Array, s: Stick) -> None:
    x0, y0 = SPEC.region[0] - PAD, SPEC.region[1] - PAD
    ex = s.half * abs(s.ux) + HALF_WIDTH * abs(s.uy)
    ey = s.half * abs(s.uy) + HALF_WIDTH * abs(s.ux)
    nx, ny = grid.shape
    i0, i1 = max(0, math.floor(s.cx - ex - x0)), min(nx - 1, math.ceil(s.cx + ex - x0))
    j0, j1 = max(0, math.floor(s.cy - ey - y0)), min(ny - 1, math.ceil(s.cy + ey - y0))
    if i0 > i1 or j0 > j1:
        return
    px = np.arange(i0, i1 + 1) + x0 - s.cx
    py = np.arange(j0, j1 + 1) + y0 - s.cy
    t = px[:, None] * s.ux + py[None, :] * s.uy
    n = -px[:, None] * s.uy + py[None, :] * s.ux
    depth = np.minimum(s.half - np.abs(t), HALF_WIDTH - np.abs(n))
    view = grid[i0 : i1 + 1, j0 : j1 + 1]
    np.maximum(view, depth, out=view)


def _wood_survivors(colour: int, depths: Depths) -> npt.NDArray[np.intp]:
    """Indices into `wood_poses(colour)` that the raster cannot refuse."""
    wp = wood_poses(colour)
    idx = np.nonzero(depths.at(wp.cx, wp.cy) <= DEEP + 1e-9)[0]  # centres are raster points
    reach = HALF_LENGTHS[colour] - DEEP
    for t in np.linspace(-reach, reach, SAMPLES):
        if not len(idx) or t == 0:
            continue
        d = depths.at(wp.cx[idx] + t * wp.ux[idx], wp.cy[idx] + t * wp.uy[idx])
        idx = idx[d <= DEEP + SLACK]
    return idx


def _judge_all(
    state: StackBackState, player: int, poses: Sequence[Place]
) -> tuple[Place, Verdict] | None:
    """The first of `poses` the rules allow `player` now, judged in full."""
    for place in poses:
        verdict = state.judge(place, player)
        if not isinstance(verdict, str):
            return place, verdict
    return None


CHUNK = 256


def find_wood(state: StackBackState, player: int, colour: int) -> tuple[Place, Verdict] | None:
    """The first lattice pose of `colour` on the wood legal now (None: there is none)."""
    wp = wood_poses(colour)
    idx = _wood_survivors(colour, state.depths)
    layout = state.layout
    every = np.arange(len(layout.cx))
    for start in range(0, len(idx), CHUNK):
        part = idx[start : start + CHUNK]
        n = len(part)
        hh = np.full(n, HALF_LENGTHS[colour])
        px, py, pux, puy = wp.cx[part], wp.cy[part], wp.ux[part], wp.uy[part]
        free: npt.NDArray[np.bool_] = np.ones(n, dtype=bool)
        if len(layout.cx):
            # shrunk by 1 mm and still meeting: a disc of radius 1 in both (> 3 mm²)
            sure = _sat(px, py, pux, puy, hh - DEEP, HALF_WIDTH - DEEP, layout, every, DEEP)
            free = np.logical_not(sure.any(axis=1))
            hits = _sat(px, py, pux, puy, hh, HALF_WIDTH, layout, every, 0.0) & free[:, None]
            ci, sj = np.nonzero(hits)
            if len(ci):
                q = quads(px[ci], py[ci], pux[ci], puy[ci], hh[ci])
                area, _ = clip(q, layout.quads[sj])
                free[ci[area > TOL]] = False
        poses = [
            Place(Colour(colour), int(wp.x10[k]), int(wp.y10[k]), int(wp.a10[k]))
            for k in part[free].tolist()
        ]
        found = _judge_all(state, player, poses)
        if found is not None:
            return found
    return None


def _reach(a: Stick, b: Stick, colour: int) -> bool:
    """Whether a stick of `colour` could overlap both (a bound: never refuses a bridge)."""
    ra = math.hypot(a.half, HALF_WIDTH)
    rb = math.hypot(b.half, HALF_WIDTH)
    rc = math.hypot(LENGTHS[colour], SPEC.width)
    return math.hypot(b.cx - a.cx, b.cy - a.cy) <= ra + rb + rc


def _sat(  # noqa: PLR0917 - a set of footprints against some of the placed sticks
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array, w: float,
    layout: Layout, rows: npt.NDArray[np.intp], shrink: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """(K, M): whether footprint i (half-length h, half-width w) meets stick rows[j] shrunk by
    `shrink` mm on every side (the separating-axis test)."""
    dx, dy = layout.cx[rows], layout.cy[rows]
    vx, vy = layout.ux[rows], layout.uy[rows]
    k = layout.half[rows][None, :] - shrink
    v = HALF_WIDTH - shrink
    ddx = dx[None, :] - cx[:, None]
    ddy = dy[None, :] - cy[:, None]
    c = np.abs(ux[:, None] * vx[None, :] + uy[:, None] * vy[None, :])
    s = np.abs(ux[:, None] * vy[None, :] - uy[:, None] * vx[None, :])
    hh = h[:, None]
    on_u = np.abs(ddx * ux[:, None] + ddy * uy[:, None]) < hh + k * c + v * s
    on_v = np.abs(-ddx * uy[:, None] + ddy * ux[:, None]) < w + k * s + v * c
    on_p = np.abs(ddx * vx[None, :] + ddy * vy[None, :]) < k + hh * c + w * s
    on_q = np.abs(-ddx * vy[None, :] + ddy * vx[None, :]) < v + hh * s + w * c
    out: npt.NDArray[np.bool_] = on_u & on_v & on_p & on_q
    return out


def _pair_poses(a: Stick, b: Stick, colour: int) -> tuple[Array, Array, Array]:
    """Lattice (x, y, angle) whose footprint's bounding box meets both supports' boxes' sums."""
    h = HALF_LENGTHS[colour]
    out_x, out_y, out_a = [], [], []
    for angle in ANGLES:
        r = math.radians(angle)
        ux, uy = abs(math.cos(r)), abs(math.sin(r))
        ex = h * ux + HALF_WIDTH * uy
        ey = h * uy + HALF_WIDTH * ux
        lo_x, hi_x, lo_y, hi_y = -math.inf, math.inf, -math.inf, math.inf
        for s in (a, b):
            sx = s.half * abs(s.ux) + HALF_WIDTH * abs(s.uy)
            sy = s.half * abs(s.uy) + HALF_WIDTH * abs(s.ux)
            lo_x, hi_x = max(lo_x, s.cx - sx - ex), min(hi_x, s.cx + sx + ex)
            lo_y, hi_y = max(lo_y, s.cy - sy - ey), min(hi_y, s.cy + sy + ey)
        if lo_x > hi_x or lo_y > hi_y:
            continue
        lo_x, hi_x = max(lo_x, INDEXED[0]), min(hi_x, INDEXED[2])
        lo_y, hi_y = max(lo_y, INDEXED[1]), min(hi_y, INDEXED[3])
        xs = np.arange(math.ceil(lo_x / STEP), math.floor(hi_x / STEP) + 1) * STEP
        ys = np.arange(math.ceil(lo_y / STEP), math.floor(hi_y / STEP) + 1) * STEP
        if not len(xs) or not len(ys):
            continue
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        out_x.append(gx.ravel().astype(np.float64))
        out_y.append(gy.ravel().astype(np.float64))
        out_a.append(np.full(gx.size, float(angle)))
    if not out_x:
        z = np.zeros(0)
        return z, z, z
    return np.concatenate(out_x), np.concatenate(out_y), np.concatenate(out_a)


def find_pile(state: StackBackState, player: int, colour: int) -> tuple[Place, Verdict] | None:
    """The first lattice pose of `colour` that piles legally now (None: there is none)."""
    sticks = state.sticks
    layout = state.layout
    floor = state.floor[player]
    by_level: dict[int, list[int]] = {}
    for i, s in enumerate(sticks):
        if s.level + 1 >= floor and s.colour != colour and not state.carries[i] >> colour & 1:
            by_level.setdefault(s.level, []).append(i)
    levels = np.array(layout.levels, dtype=np.int64)
    ex_all = layout.half * np.abs(layout.ux) + HALF_WIDTH * np.abs(layout.uy)
    ey_all = layout.half * np.abs(layout.uy) + HALF_WIDTH * np.abs(layout.ux)
    h = HALF_LENGTHS[colour]
    for level in sorted(by_level):
        group = by_level[level]
        others_all = np.nonzero(levels >= level)[0]
        for k, i in enumerate(group):
            for j in group[k + 1 :]:
                a, b = sticks[i], sticks[j]
                if not _reach(a, b, colour):
                    continue
                x, y, ang = _pair_poses(a, b, colour)
                if not len(x):
                    continue
                ux, uy = np.cos(np.radians(ang)), np.sin(np.radians(ang))
                hh = np.full(len(x), h)
                pair = np.array([i, j])
                # overlapping both supports by 6 x 6 mm needs the footprints shrunk by the
                # inradius bound to still meet (a convex overlap of 36 mm² inside a stick's
                # footprint has an inscribed disc of radius at least 36 / its perimeter)
                keep = np.arange(len(x))
                for shrink in (0.0, REST_INSET):
                    hits = _sat(x[keep], y[keep], ux[keep], uy[keep], hh[keep] - shrink,
                                HALF_WIDTH - shrink, layout, pair, shrink)  # fmt: skip
                    keep = keep[hits.all(axis=1)]
                if not len(keep):
                    continue
                others = others_all[(others_all != i) & (others_all != j)]
                if len(others):  # only those whose box meets the poses' boxes
                    reach = h + HALF_WIDTH
                    kx, ky = x[keep], y[keep]
                    near = (ox := layout.cx[others]) + (oex := ex_all[others]) >= kx.min() - reach
                    near &= ox - oex <= kx.max() + reach
                    near &= (oy := layout.cy[others]) + (oey := ey_all[others]) >= ky.min() - reach
                    near &= oy - oey <= ky.max() + reach
                    others = others[near]
                if len(others):
                    kx, ky, kux, kuy, kh = x[keep], y[keep], ux[keep], uy[keep], hh[keep]
                    # shrunk by 1 mm and still meeting: a disc of radius 1 in both (> 3 mm²)
                    sure = _sat(kx, ky, kux, kuy, kh - DEEP, HALF_WIDTH - DEEP, layout, others,
                                DEEP).any(axis=1)  # fmt: skip
                    keep = keep[~sure]
                    kx, ky, kux, kuy, kh = x[keep], y[keep], ux[keep], uy[keep], hh[keep]
                    hits = _sat(kx, ky, kux, kuy, kh, HALF_WIDTH, layout, others, 0.0)
                    ci, sj = np.nonzero(hits)
                    if len(ci):
                        q = quads(kx[ci], ky[ci], kux[ci], kuy[ci], kh[ci])
                        area, _ = clip(q, layout.quads[others[sj]])
                        bad = np.zeros(len(keep), dtype=bool)
                        bad[ci[area > TOL]] = True
                        keep = keep[~bad]
                if not len(keep):
                    continue
                q = quads(x[keep], y[keep], ux[keep], uy[keep], hh[keep])
                area_a, _ = clip(q, np.repeat(layout.quads[i][None], len(keep), axis=0))
                area_b, _ = clip(q, np.repeat(layout.quads[j][None], len(keep), axis=0))
                keep = keep[(area_a >= REST) & (area_b >= REST)]
                order = np.lexsort((np.rint(y[keep] * 10), np.rint(x[keep] * 10),
                                    np.rint(ang[keep] * 10)))  # fmt: skip
                poses = [
                    Place(Colour(colour), round(x[m] * 10), round(y[m] * 10), round(ang[m] * 10))
                    for m in keep[order].tolist()
                ]
                found = _judge_all(state, player, poses)
                if found is not None:
                    return found
    return None


def find(state: StackBackState, player: int) -> list[tuple[Place, Verdict]]:
    """Per colour in `player`'s supply: the first legal wood pose and the first legal pile of
    the lattice (in that order); [] when no lattice pose is legal."""
    out: list[tuple[Place, Verdict]] = []
    supply = state.supply[player]
    for colour in range(NUM_COLOURS):
        if supply[colour] <= 0:
            continue
        if not state.no_wood >> colour & 1:
            found = find_wood(state, player, colour)
            if found is None:
                state.no_wood |= 1 << colour
            else:
                out.append(found)
        pile = find_pile(state, player, colour)
        if pile is not None:
            out.append(pile)
    return out
