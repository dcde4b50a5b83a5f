"""The second stage of the pass search: poses found by following the free space itself.

`search.find` judges a 4 mm / 5 degree lattice; a legal pose with less room than that (a stick
in a 6 mm slot, a pose whose legal region is about 1 mm and 1 degree wide) slips between its
points. When the lattice finds nothing, `find` here decides (docs/games/stack-back.md, "Blocked
players: the search"). It splits the angles into intervals of `ASTEP10` tenths of a degree
(centres 0.2, 0.7, ..., 179.7 degrees: not the whole degrees of the test's slow search) and, per
interval, colour and place (the wood; every eligible pair of supports), computes with shapely a
polygon of centres that holds every legal centre of every angle of the interval:

- Wood: the centres the wood allows (1 mm inside a board, or crossing the gap), less, for every
  placed stick, the centres where the pose surely touches it: the pose shrunk by 1 mm meets the
  stick shrunk by 1 mm (a point 1 mm deep in both footprints is the centre of a shared disc of
  radius 1 mm: pi > 3 mm², the touch tolerance), a Minkowski sum of two rectangles. Turning the
  pose by up to half the interval moves its shrunk footprint by at most (h - 1) sin(delta), so
  it is shrunk by that much more and the region holds the whole interval's legal centres.
- Piles on supports a and b (same level, a colour differing from both that neither carries, at
  or above the level floor less one): the centres where the pose (grown by h sin(delta) for the
  interval) shrunk by 0.2 mm meets each support shrunk by 0.2 mm (resting 6 x 6 mm needs it:
  search.REST_INSET) and their projections overlap by 6 mm along the support's axis and the
  pose's (36 mm² inside a 6 mm wide rectangle is 6 mm long), inside the hull of the two
  supports' footprints shrunk by 1 mm (a new stick carries nothing: its centre lies 1 mm inside
  its support polygon, which lies in that hull), less the centres where it surely touches a
  third stick of that level or above (as on the wood).

Each bound is a necessary condition of legality at every angle of the interval, so an empty
polygon proves that no pose of that interval, colour and place is legal, and the search proves
"no pose at all" only by finding every polygon empty (the wood is met `COARSE` intervals at a
time first: an empty group proves its intervals empty). A non-empty polygon is
refined: each component's most interior point (the centre of its largest inscribed circle),
then a grid in it (`RES` mm on the wood, at the interval's centre angle and `SPREAD` tenths
either side; `RES_PILE` mm for piles, at the centre angle); each sample is first
clipped exactly against the sticks near it (touching, resting 6 x 6 mm, a pile's centre 1 mm
inside the hull of its two contacts, as the rules measure) and the survivors are judged by
the rules `apply` uses, the first legal one returned. A pile polygon's survivors are judged
`ROUND` at a time, spread over it (`_spread`): its first round as it is met, the rest in rounds
over all the colour's polygons, so that polygons whose samples stand are not starved by one whose
samples all fall (a support's balance, which only the judgement checks). What the refinement
may miss is a legal pose whose legal region is narrower than the samples' spacing: the measured
figure is in the docs. Every resource is bounded: at most `MAX_SAMPLES` samples per polygon
and `MAX_JUDGED` poses judged per search. Poses are sought wherever the rules allow them, beyond
the boards too (every centre has an action id: ids.py), so a pose found always has an id to
mask. A stage that found nothing is remembered for the same sticks (`_NOTHING`), as the other
player, blocked in turn, meets the same polygons.

Only poses whose verdict `apply` would also give are returned (each is judged by
`state.judge`): the engine offers them as its candidates instead of `pass`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from .actions import Colour, Place
from .balance import Stick
from .components import HALF_LENGTHS, HALF_WIDTH, NUM_COLOURS, SPEC
from .geometry import Array, box, clip, quads
from .rules import REST, TOL, Layout, Verdict
from .wood_kernels import first_free, overlap_matrix, touch_mask

if TYPE_CHECKING:
    from .state import StackBackState

ASTEP10 = 5
"""Tenths of a degree per angle interval (0.5 degrees)."""
AOFF10 = 2
"""The first interval's centre, in tenths (0.2 degrees: off the test's whole degrees)."""
SPREAD = (0, -2, 2)
"""Angles sampled per interval on the wood, in tenths from its centre (piles: the centre)."""
RES = 0.2
"""mm between the samples of a wood polygon's grid (rounded to the 0.1 mm of a pose)."""
RES_PILE = 0.4
"""mm between the samples of a pile polygon's grid (a pile's legal region is wider: its
supports' 6 x 6 mm rests leave it room, where a wood pose may fit a slot to 0.1 mm)."""
DEEP = 1.0
"""mm of shrink proving a touch: two footprints sharing a point this deep share more than 3 mm²."""
REST_INSET = 0.2
"""mm: resting 6 x 6 mm on a support needs the footprints shrunk by this much to meet
(search.REST_INSET)."""
MAX_SAMPLES = 4_000
"""Samples per polygon (a bound on the refinement's cost)."""
MAX_JUDGED = 6_000
"""Poses judged in full per search (a bound on its cost)."""
ROUND = 8
"""Pile samples judged per polygon in turn: its first `ROUND` (spread over it) as it is met, the
rest in rounds over every polygon of the colour once all are met."""

_DELTA = math.radians(ASTEP10 / 20)
"""Half an interval (radians)."""
COARSE = 5
"""Intervals per group on the wood (2.5 degrees): a group's polygon is tried first."""
_CENTRES10 = np.arange(AOFF10, 1800, ASTEP10, dtype=np.float64)


@dataclass(frozen=True, slots=True)
class Rects:
    """Centred rectangles as arrays: centre, unit long axis, half-length, half-width."""

    cx: Array
    cy: Array
    ux: Array
    uy: Array
    h: Array
    w: Array

    def corners(self) -> Array:
        """(N, 4, 2) corners."""
        ax, ay = self.ux * self.h, self.uy * self.h
        bx, by = -self.uy * self.w, self.ux * self.w
        out = np.empty((len(self.cx), 4, 2))
        for k, (sa, sb) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
            out[:, k, 0] = self.cx + sa * ax + sb * bx
            out[:, k, 1] = self.cy + sa * ay + sb * by
        return out


def minkowski(a: Array, b: Array) -> npt.NDArray[np.object_]:
    """Polygons a[i] + b[i] - centre(b[i]) for (N, 4, 2) rectangle corner arrays: the centres at
    which a rectangle shaped as b[i] meets a[i]. The sum of two rectangles is the octagon whose
    edges are their four sides each way, in order of angle, about a[i]'s centre."""
    n = len(a)
    edges = np.concatenate(
        (a[:, [1, 2, 3, 0]] - a, b[:, [1, 2, 3, 0]] - b), axis=1
    )  # (N, 8, 2): every side of both, each way round (each rectangle's sides close a loop)
    order = np.argsort(np.arctan2(edges[..., 1], edges[..., 0]), axis=1)
    edges = np.take_along_axis(edges, order[..., None], axis=1)
    ring = np.cumsum(edges, axis=1)
    ring += a.mean(axis=1, keepdims=True) - ring.mean(axis=1, keepdims=True)
    out: npt.NDArray[np.object_] = shapely.polygons(ring.reshape(n, 8, 2))
    return out


def _pose_rects(colour: int, a10: Array, grow: float, shrink: float) -> Rects:
    """The pose's footprint at angles `a10` centred at 0, grown then shrunk (mm)."""
    r = np.radians(a10 / 10)
    n = len(a10)
    h = HALF_LENGTHS[colour] + grow - shrink
    w = HALF_WIDTH + grow - shrink
    return Rects(np.zeros(n), np.zeros(n), np.cos(r), np.sin(r), np.full(n, h), np.full(n, w))


def _stick_rects(sticks: list[Stick], shrink: float) -> Rects:
    return Rects(
        np.array([s.cx for s in sticks]),
        np.array([s.cy for s in sticks]),
        np.array([s.ux for s in sticks]),
        np.array([s.uy for s in sticks]),
        np.array([s.half - shrink for s in sticks]),
        np.full(len(sticks), HALF_WIDTH - shrink),
    )


def _sure(
    colour: int, sticks: list[Stick], a10: Array, delta: float = _DELTA
) -> npt.NDArray[np.object_]:
    """(len(a10), len(sticks)): per interval and stick, the centres where every pose of the
    interval surely touches the stick (both shrunk by `DEEP`, the pose by its turn more)."""
    turn = (HALF_LENGTHS[colour] - DEEP) * math.sin(delta) + 1e-6
    pose = _pose_rects(colour, a10, 0.0, DEEP + turn).corners()
    stick = _stick_rects(sticks, DEEP).corners()
    n, m = len(a10), len(sticks)
    return minkowski(np.repeat(stick[None], n, 0).reshape(-1, 4, 2),
                     np.repeat(pose, m, 0)).reshape(n, m)  # fmt: skip


def _wood_allowed(colour: int, a10: int, delta: float) -> shapely.Geometry:
    """Where a wood pose's centre may lie, for every angle within `delta` (radians) of `a10`:
    1 mm inside a board (a stick on one board), or reaching across the gap (a straddle)."""
    m = SPEC.margin
    parts = [shapely.box(x0 + m, y0 + m, x1 - m, y1 - m) for x0, y0, x1, y1 in SPEC.boards]
    r = math.radians(a10 / 10)
    h = HALF_LENGTHS[colour]
    ex = h * abs(math.cos(r)) + HALF_WIDTH * abs(math.sin(r)) + (h + HALF_WIDTH) * delta
    gap0, gap1 = SPEC.boards[0][2], SPEC.boards[1][0]
    x0, y0, x1, y1 = SPEC.region
    lo, hi = max(x0, gap1 - ex), min(x1, gap0 + ex)
    if lo < hi:
        parts.append(shapely.box(lo, y0, hi, y1))
    return shapely.union_all(parts)


@dataclass
class Budget:
    """What one search spent: poses judged (bounded by `MAX_JUDGED`) and polygons refined."""

    judged: int = 0
    polygons: int = 0
    samples: int = 0


def _samples(region: shapely.Geometry, res: float) -> tuple[Array, Array]:
    """Centres (mm, on the 0.1 mm of a pose) in `region`: each component's most interior point
    first, then a `res` grid (multiples of `res`) over each component, at most `MAX_SAMPLES`
    (spread evenly over them when there are more)."""
    firsts: list[tuple[float, float]] = []
    xs_all: list[Array] = []
    ys_all: list[Array] = []
    for part in shapely.get_parts(region):
        if part.is_empty or part.area <= 0:
            continue
        centre = shapely.get_point(shapely.maximum_inscribed_circle(part, 0.05), 0)
        firsts.append((round(shapely.get_x(centre), 1), round(shapely.get_y(centre), 1)))
        x0, y0, x1, y1 = part.bounds
        xs = np.round(np.arange(math.floor(x0 / res), math.ceil(x1 / res) + 1) * res, 1)
        ys = np.round(np.arange(math.floor(y0 / res), math.ceil(y1 / res) + 1) * res, 1)
        if len(xs) * len(ys) > 40 * MAX_SAMPLES:  # a large component: thin the grid evenly
            step = math.ceil(math.sqrt(len(xs) * len(ys) / (40 * MAX_SAMPLES)))
            xs, ys = xs[::step], ys[::step]
        gx, gy = (g.ravel() for g in np.meshgrid(xs, ys, indexing="ij"))
        inside = shapely.intersects_xy(part, gx, gy)  # its edge too: a slot may be that thin
        xs_all.append(gx[inside])
        ys_all.append(gy[inside])
    gx = np.concatenate(xs_all) if xs_all else np.zeros(0)
    gy = np.concatenate(ys_all) if ys_all else np.zeros(0)
    if len(gx) > MAX_SAMPLES:
        pick = np.linspace(0, len(gx) - 1, MAX_SAMPLES).astype(np.int64)
        gx, gy = gx[pick], gy[pick]
    fx = np.array([p[0] for p in firsts])
    fy = np.array([p[1] for p in firsts])
    return np.concatenate((fx, gx)), np.concatenate((fy, gy))


def _poses(
    x: Array, y: Array, a10: int, spread: tuple[int, ...] = SPREAD
) -> tuple[Array, Array, Array]:
    """The samples at each angle of the interval: (x10, y10, a10) as integer arrays."""
    xs, ys, angs = [], [], []
    for d in spread:
        xs.append(np.rint(x * 10))
        ys.append(np.rint(y * 10))
        angs.append(np.full(len(x), (a10 + d) % 1800))
    return (np.concatenate(xs).astype(np.int64), np.concatenate(ys).astype(np.int64),
            np.concatenate(angs).astype(np.int64))  # fmt: skip


def _overlaps(
    colour: int, x10: Array, y10: Array, a10: Array, sticks: list[Stick]
) -> npt.NDArray[np.float64]:
    """(K, M): the exact overlap (mm²) of each pose's footprint with each stick's (compiled:
    `wood_kernels.overlap_matrix`)."""
    n = len(x10)
    r = np.radians(a10 / 10)
    st = _stick_rects(sticks, 0.0)
    h = np.full(n, HALF_LENGTHS[colour])
    out: npt.NDArray[np.float64] = overlap_matrix(
        x10 / 10, y10 / 10, np.cos(r), np.sin(r), h, st.cx, st.cy, st.ux, st.uy, st.h, HALF_WIDTH
    )
    return out


@dataclass(frozen=True, slots=True)
class _Scan:
    """Poses (x10, y10, a10 columns of one colour) and the sticks `rows` of a layout, as the
    compiled touch tests take them (`reach`: how far from each stick a pose's centre may lie
    and still meet it)."""

    cx: Array
    cy: Array
    ux: Array
    uy: Array
    h: float
    layout: Layout
    rows: npt.NDArray[np.intp]
    reach: Array
    idx: npt.NDArray[np.intp]

    @staticmethod
    def of(
        colour: int, poses: tuple[Array, Array, Array], layout: Layout, rows: npt.NDArray[np.intp]
    ) -> _Scan:
        x10, y10, a10 = poses
        r = np.radians(a10 / 10)
        h = HALF_LENGTHS[colour]
        reach = math.hypot(h, HALF_WIDTH) + np.hypot(layout.half[rows], HALF_WIDTH) + 1e-6
        idx = np.arange(len(x10))
        return _Scan(x10 / 10, y10 / 10, np.cos(r), np.sin(r), h, layout, rows, reach, idx)

    def touching(self) -> npt.NDArray[np.bool_]:
        """Whether each pose touches one of the sticks (overlap above the tolerance)."""
        lay, rows = self.layout, self.rows
        out: npt.NDArray[np.bool_] = touch_mask(
            self.cx, self.cy, self.ux, self.uy, self.h, HALF_WIDTH, lay.cx[rows], lay.cy[rows],
            lay.ux[rows], lay.uy[rows], lay.half[rows], lay.quads[rows], self.reach, DEEP, TOL,
        )  # fmt: skip
        return out

    def next_free(self, at: int, touching: npt.NDArray[np.bool_]) -> int:
        """The first pose from `at` on that touches no stick (the number of poses: none);
        those passed over are marked in `touching`."""
        lay, rows = self.layout, self.rows
        out: int = first_free(
            self.cx, self.cy, self.ux, self.uy, self.h, HALF_WIDTH, self.idx, at, lay.cx[rows],
            lay.cy[rows], lay.ux[rows], lay.uy[rows], lay.half[rows], lay.quads[rows],
            self.reach, DEEP, TOL, touching,
        )  # fmt: skip
        return out


def _judge_free(
    state: StackBackState, player: int, colour: int, poses: tuple[Array, Array, Array],
    budget: Budget,
) -> tuple[Place, Verdict] | None:  # fmt: skip
    """`_judge` of those `poses` that touch no stick: each next one found by a compiled scan
    that stops there (`wood_kernels.first_free`), so poses after the first legal one are
    never tested."""
    layout = state.layout
    scan = _Scan.of(colour, poses, layout, np.arange(len(layout.cx)))
    n = len(poses[0])
    touching = np.zeros(n, dtype=bool)
    xs, ys, angles = (p.tolist() for p in poses)
    seen: set[tuple[int, int, int]] = set()
    at = 0
    while True:
        at = scan.next_free(at, touching)
        if at >= n:
            return None
        key = (xs[at], ys[at], angles[at])
        at += 1
        if key in seen:
            continue
        seen.add(key)
        if budget.judged >= MAX_JUDGED:
            return None
        budget.judged += 1
        place = Place(Colour(colour), *key)
        verdict = state.judge(place, player)
        if not isinstance(verdict, str):
            return place, verdict


def _on_wood(colour: int, x10: Array, y10: Array, a10: Array) -> npt.NDArray[np.bool_]:
    """Whether the bare wood may take each pose, as `rules.on_wood` and balance measure it
    (search.wood_poses): on one board with its centre 1 mm inside it, or resting 6 x 6 mm on
    each board (its balance then left to the judgement). A pose whose centre is 1 mm inside a
    board and that cannot reach the other (the boxes of its footprint) needs no clipping: a
    disc of radius 3 mm about its centre lies in the footprint, a quarter of it on the board."""
    r = np.radians(a10 / 10)
    x, y = x10 / 10, y10 / 10
    h = HALF_LENGTHS[colour]
    ex = h * np.abs(np.cos(r)) + HALF_WIDTH * np.abs(np.sin(r))
    m = SPEC.margin - 1e-9
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = SPEC.boards
    in_a = (x - ax0 >= m) & (ax1 - x >= m) & (y - ay0 >= m) & (ay1 - y >= m)
    in_b = (x - bx0 >= m) & (bx1 - x >= m) & (y - by0 >= m) & (by1 - y >= m)
    ok: npt.NDArray[np.bool_] = (in_a & (x + ex <= bx0)) | (in_b & (x - ex >= ax1))
    todo = np.nonzero(~ok & (x + ex > bx0) & (x - ex < ax1))[0]  # the rest reach both boards
    if len(todo):
        q = quads(x[todo], y[todo], np.cos(r[todo]), np.sin(r[todo]), np.full(len(todo), h))
        area_a, _ = clip(q, np.repeat(box(*SPEC.boards[0])[None], len(todo), axis=0))
        area_b, _ = clip(q, np.repeat(box(*SPEC.boards[1])[None], len(todo), axis=0))
        one = ((area_a > TOL) & (area_b <= TOL) & in_a[todo]) | (
            (area_b > TOL) & (area_a <= TOL) & in_b[todo]
        )
        ok[todo] = one | ((area_a >= REST) & (area_b >= REST))
    return ok


def _judge(
    state: StackBackState, player: int, colour: int, poses: tuple[Array, Array, Array],
    budget: Budget,
) -> tuple[Place, Verdict] | None:  # fmt: skip
    """The first of `poses` the rules allow now (None: none, or the budget ran out)."""
    seen: set[tuple[int, int, int]] = set()
    for x10, y10, a10 in zip(*(p.tolist() for p in poses), strict=True):
        if (x10, y10, a10) in seen:
            continue
        seen.add((x10, y10, a10))
        if budget.judged >= MAX_JUDGED:
            return None
        budget.judged += 1
        place = Place(Colour(colour), x10, y10, a10)
        verdict = state.judge(place, player)
        if not isinstance(verdict, str):
            return place, verdict
    return None


def _wood(
    state: StackBackState, player: int, colour: int, budget: Budget
) -> tuple[Place, Verdict] | None:
    """The first legal wood pose of `colour` the refinement meets (None: none found). The
    intervals are met `COARSE` at a time: the polygon of the whole group (its turn is larger, so
    the pose is shrunk more) holds every legal centre of its intervals, so an empty one proves
    the group empty; otherwise each interval's polygon is cut from it."""
    sticks = list(state.sticks)
    if not sticks:
        return _wood_groups(state, player, colour, budget, [], None)
    sure = _GroupSure(colour, sticks, _CENTRES10[COARSE // 2 :: COARSE], COARSE * _DELTA)
    return _wood_groups(state, player, colour, budget, sticks, sure)


BLOCK = 8
"""Groups of intervals whose sure-touch polygons are made at once (`_GroupSure`)."""


class _GroupSure:
    """Per group of intervals, the centres where its poses surely touch each stick (`_sure`),
    made as the search reaches them, the first group alone, then `BLOCK` groups at a time: a
    search that finds a pose in an early group never builds the polygons of the later ones
    (each row is its group's alone, so the polygons are the same)."""

    def __init__(self, colour: int, sticks: list[Stick], centres: Array, delta: float) -> None:
        self.colour, self.sticks, self.centres, self.delta = colour, sticks, centres, delta
        self.blocks: dict[int, npt.NDArray[np.object_]] = {}

    def __getitem__(self, g: int) -> npt.NDArray[np.object_]:
        # the first group alone (a search that finds a pose finds it there most often), then
        # BLOCK at a time
        start = 0 if g == 0 else 1 + (g - 1) // BLOCK * BLOCK
        block = self.blocks.get(start)
        if block is None:
            centres = self.centres[start : 1 if g == 0 else start + BLOCK]
            block = self.blocks[start] = _sure(self.colour, self.sticks, centres, self.delta)
        out: npt.NDArray[np.object_] = block[g - start]
        return out


def _wood_groups(  # noqa: PLR0917 - the loop of _wood, with what it prepared
    state: StackBackState, player: int, colour: int, budget: Budget,
    sticks: list[Stick], group_sure: _GroupSure | None,
) -> tuple[Place, Verdict] | None:  # fmt: skip
    for g in range(len(_CENTRES10) // COARSE):
        angles = _CENTRES10[g * COARSE : (g + 1) * COARSE]
        outer = _wood_allowed(colour, int(angles[COARSE // 2]), COARSE * _DELTA)
        if group_sure is not None:
            outer = shapely.difference(outer, shapely.union_all(group_sure[g]))
        if outer.is_empty or outer.area <= 0:
            continue
        near: list[Stick] = []
        if group_sure is not None:
            hit = _sat_box(sticks, colour, outer.bounds)
            near = [s for s, h in zip(sticks, hit, strict=True) if h]
        sure = _sure(colour, near, angles, _DELTA) if near else None
        for k, angle in enumerate(angles.tolist()):
            region = shapely.intersection(outer, _wood_allowed(colour, angle, _DELTA))
            if sure is not None:
                region = shapely.difference(region, shapely.union_all(sure[k]))
            if region.is_empty or region.area <= 0:
                continue
            budget.polygons += 1
            x, y = _samples(region, RES)
            x10, y10, p10 = _poses(x, y, angle)
            budget.samples += len(x10)
            ok = _on_wood(colour, x10, y10, p10)
            found = _judge_free(state, player, colour, (x10[ok], y10[ok], p10[ok]), budget)
            if found is not None or budget.judged >= MAX_JUDGED:
                return found
    return None


def _sat_box(
    sticks: list[Stick], colour: int, bounds: tuple[float, float, float, float]
) -> npt.NDArray[np.bool_]:
    """Which sticks a pose of `colour` centred in the box `bounds` may reach (their
    circumscribed circles meet)."""
    x0, y0, x1, y1 = bounds
    reach = math.hypot(HALF_LENGTHS[colour], HALF_WIDTH)
    out = np.zeros(len(sticks), dtype=bool)
    for k, s in enumerate(sticks):
        r = reach + math.hypot(s.half, HALF_WIDTH)
        dx = max(x0 - s.cx, 0.0, s.cx - x1)
        dy = max(y0 - s.cy, 0.0, s.cy - y1)
        out[k] = dx * dx + dy * dy <= r * r
    return out


def _rest_region(
    s: Stick, colour: int, a10: Array, pose: Array, shrunk: Array
) -> npt.NDArray[np.object_]:
    """Per interval, centres where a pose of the interval may rest 6 x 6 mm on `s`: the pose
    (grown for the turn) shrunk by `REST_INSET` meets `s` shrunk by it, and the footprints'
    projections overlap by at least 6 mm along `s`'s axis and along the pose's (an overlap of
    36 mm² inside a 6 mm wide rectangle is at least 6 mm long along it), the latter with the
    slack of the turn (the pose's axis moves by half an interval)."""
    n = len(a10)
    octagon = minkowski(np.repeat(shrunk[None], n, 0), pose)
    h, w = HALF_LENGTHS[colour], HALF_WIDTH
    grow = h * math.sin(_DELTA) + 1e-6
    r = np.radians(a10 / 10)
    ux, uy = np.cos(r), np.sin(r)
    c = np.abs(ux * s.ux + uy * s.uy)
    sn = np.abs(ux * s.uy - uy * s.ux)
    along_s = s.half + (h + grow) * c + (w + grow) * sn - 6.0 + 1e-6
    slack = (h + 2 * s.half + 3 * w) * _DELTA
    along_p = h + s.half * c + w * sn - 6.0 + slack + 1e-6
    big = np.full(n, 1_000.0)
    one = np.ones(n)
    slab_s = Rects(one * s.cx, one * s.cy, one * s.ux, one * s.uy, np.maximum(along_s, 0), big)
    slab_p = Rects(one * s.cx, one * s.cy, ux, uy, np.maximum(along_p, 0), big)
    out: npt.NDArray[np.object_] = shapely.intersection(
        octagon,
        shapely.intersection(
            shapely.polygons(slab_s.corners()), shapely.polygons(slab_p.corners())
        ),
    )
    return out


def _stands_alone(  # noqa: PLR0917 - poses as three columns, and their two supports
    colour: int, x10: Array, y10: Array, a10: Array, a: Stick, b: Stick
) -> npt.NDArray[np.bool_]:
    """Whether each pose on supports `a` and `b` would stand on its own: its centre (it carries
    nothing) 1 mm inside its support polygon, the convex hull of its two contact areas (the
    balance ruling; what the supports bear is left to the judgement)."""
    r = np.radians(a10 / 10)
    x, y = x10 / 10, y10 / 10
    feet = shapely.polygons(
        quads(x, y, np.cos(r), np.sin(r), np.full(len(x), HALF_LENGTHS[colour]))
    )
    sup = _stick_rects([a, b], 0.0).corners()
    contact_a = shapely.intersection(feet, shapely.polygons(sup[0]))
    contact_b = shapely.intersection(feet, shapely.polygons(sup[1]))
    hull = shapely.convex_hull(shapely.union(contact_a, contact_b))
    centre = shapely.points(x, y)
    room = shapely.distance(centre, shapely.boundary(hull))
    ok: npt.NDArray[np.bool_] = shapely.contains(hull, centre) & (room >= SPEC.margin - 1e-6)
    return ok


def _pairs(state: StackBackState, player: int, colour: int) -> Iterator[tuple[int, int]]:
    """Pairs of supports a stick of `colour` may rest on now: same level, at or above the
    player's floor less one, neither of its colour nor carrying it, within its reach."""
    sticks = state.sticks
    floor = state.floor[player]
    group: dict[int, list[int]] = {}
    for i, s in enumerate(sticks):
        if s.level + 1 >= floor and s.colour != colour and not state.carries[i] >> colour & 1:
            group.setdefault(s.level, []).append(i)
    reach = 2 * math.hypot(HALF_LENGTHS[colour], HALF_WIDTH)
    for level in sorted(group):
        members = group[level]
        for n, i in enumerate(members):
            for j in members[n + 1 :]:
                a, b = sticks[i], sticks[j]
                ra, rb = math.hypot(a.half, HALF_WIDTH), math.hypot(b.half, HALF_WIDTH)
                if math.hypot(a.cx - b.cx, a.cy - b.cy) <= ra + rb + reach:
                    yield i, j


def _piles(
    state: StackBackState, player: int, colour: int, budget: Budget
) -> tuple[Place, Verdict] | None:
    """The first legal pile of `colour` the refinement meets (None: none found)."""
    sticks = list(state.sticks)
    levels = np.array([s.level for s in sticks])
    a10 = _CENTRES10
    grow = HALF_LENGTHS[colour] * math.sin(_DELTA) + 1e-6
    pose = _pose_rects(colour, a10, grow, REST_INSET).corners()
    later: list[tuple[Array, Array, Array]] = []
    for i, j in _pairs(state, player, colour):
        sup = _stick_rects([sticks[i], sticks[j]], REST_INSET).corners()
        on_a = _rest_region(sticks[i], colour, a10, pose, sup[0])
        on_b = _rest_region(sticks[j], colour, a10, pose, sup[1])
        full = _stick_rects([sticks[i], sticks[j]], 0.0).corners()
        hull = shapely.convex_hull(shapely.multipoints(full.reshape(8, 2))).buffer(
            -SPEC.margin, join_style="mitre"
        )
        lens = shapely.intersection(shapely.intersection(on_a, on_b), hull)
        live = np.nonzero(~shapely.is_empty(lens) & (shapely.area(lens) > 0))[0]
        if not len(live):
            continue
        others = [k for k in np.nonzero(levels >= sticks[i].level)[0].tolist() if k not in (i, j)]
        x0, y0, x1, y1 = shapely.total_bounds(lens[live])
        reach = math.hypot(HALF_LENGTHS[colour], HALF_WIDTH) + math.hypot(36.0, HALF_WIDTH)
        others = [
            k for k in others
            if x0 - reach <= sticks[k].cx <= x1 + reach and y0 - reach <= sticks[k].cy <= y1 + reach
        ]  # fmt: skip
        near = [sticks[k] for k in others]
        sure = _sure(colour, near, a10[live]) if near else None
        for row, k in enumerate(live.tolist()):
            region = lens[k]
            if sure is not None:
                cut = sure[row][shapely.intersects(sure[row], region)]
                if len(cut):
                    region = shapely.difference(region, shapely.union_all(cut))
            if region.is_empty or region.area <= 0:
                continue
            budget.polygons += 1
            x, y = _samples(region, RES_PILE)
            x10, y10, p10 = _poses(x, y, int(a10[k]), (0,))
            budget.samples += len(x10)
            rest = _overlaps(colour, x10, y10, p10, [sticks[i], sticks[j]])
            ok = (rest >= REST).all(axis=1)
            if near and ok.any():
                x10, y10, p10 = x10[ok], y10[ok], p10[ok]
                scan = _Scan.of(colour, (x10, y10, p10), state.layout, np.array(others))
                ok = ~scan.touching()
            if ok.any():
                x10, y10, p10 = x10[ok], y10[ok], p10[ok]
                ok = _stands_alone(colour, x10, y10, p10, sticks[i], sticks[j])
            order = _spread(int(ok.sum()))
            left = (x10[ok][order], y10[ok][order], p10[ok][order])
            found = _judge(state, player, colour, _rows(left, 0, ROUND), budget)
            if found is not None or budget.judged >= MAX_JUDGED:
                return found
            if len(order) > ROUND:
                later.append(_rows(left, ROUND, len(order)))
    # the rest of every polygon, `ROUND` samples of each in turn: a region wide enough to hold
    # many samples that stand is met before one polygon's samples that fall use up the budget
    for start in range(0, max((len(v[0]) for v in later), default=0), ROUND):
        for rows in later:
            if start < len(rows[0]):
                part = _rows(rows, start, start + ROUND)
                found = _judge(state, player, colour, part, budget)
                if found is not None or budget.judged >= MAX_JUDGED:
                    return found
    return None


def _rows(poses: tuple[Array, Array, Array], lo: int, hi: int) -> tuple[Array, Array, Array]:
    """Samples lo to hi of poses given as three columns."""
    return poses[0][lo:hi], poses[1][lo:hi], poses[2][lo:hi]


def _spread(n: int) -> npt.NDArray[np.intp]:
    """An order of n samples that spreads each prefix over them all: the most interior point
    (the first) first, then the rest by bit-reversed index (0, n/2, n/4, 3n/4, ...)."""
    if n <= 2:
        return np.arange(n)
    bits = max(1, (n - 2).bit_length())
    k = np.arange(1 << bits)
    rev = np.zeros_like(k)
    for b in range(bits):
        rev |= ((k >> b) & 1) << (bits - 1 - b)
    rest = rev[rev < n - 1] + 1
    out: npt.NDArray[np.intp] = np.concatenate(([0], rest))
    return out


_NOTHING: dict[tuple[object, ...], None] = {}
"""(stage, colour, the placed poses, the floor) where a stage found nothing: the same sticks
give the same polygons and samples, so the other player, blocked in turn, meets them again."""
_NOTHING_MAX = 64


def find(
    state: StackBackState, player: int, budget: Budget | None = None
) -> list[tuple[Place, Verdict]]:
    """The first legal pose the free-space search meets for `player` now: the wood in every
    colour of the supply, then piles ([] when every polygon is empty, no sample is legal, or
    `MAX_JUDGED` poses were judged)."""
    budget = budget if budget is not None else Budget()
    supply = state.supply[player]
    poses = tuple(s.pose for s in state.sticks)
    for name, stage in (("wood", _wood), ("piles", _piles)):
        for colour in range(NUM_COLOURS):
            if supply[colour] <= 0:
                continue
            key = (name, colour, poses, state.floor[player] if name == "piles" else 0)
            if key in _NOTHING:
                continue
            found = stage(state, player, colour, budget)
            if found is not None:
                return [found]
            if budget.judged >= MAX_JUDGED:
                return []
            if len(_NOTHING) >= _NOTHING_MAX:
                _NOTHING.pop(next(iter(_NOTHING)))
            _NOTHING[key] = None
    return []
