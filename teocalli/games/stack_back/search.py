"""The search behind "can place nothing" (docs/games/stack-back.md, "Blocked players").

Poses are continuous, so whether any pose at all is legal is decided on a documented lattice:
centres on multiples of `STEP` (4 mm) in x and y, angles on multiples of `ASTEP` (5 degrees), in
every colour of the player's supply. Every pose of that lattice that could be legal is judged
exactly (by the same rules as `apply`), so the search is complete for any legal pose with a
little room around it: if every pose within 2 mm in x and in y and 2.5 degrees of some pose is
legal, that box holds a lattice pose, and the search finds it (or another). The filters that
skip lattice poses before judging are exact in the refusing direction (they only skip poses the
rules would refuse):

- On the wood (level 0): per colour, the lattice poses the bare boards take (overhanging ones
  included) are computed once;
  then a pose is skipped when a point of its centre line at least 1 mm from its ends lies more
  than 1 mm deep inside a placed stick (the two footprints then share a disc of radius 1 mm, more
  than the 3 mm² touch tolerance). The depths come from a 1 mm raster of every stick's depth
  (`Depths`), read at the nearest raster point with the raster's 0.71 mm of slack. Survivors are
  judged in full, in lattice order.
- Piled (level k >= 1): for every two sticks of one level (at or above the player's floor less
  one) close enough for some colour to bridge, and every colour the player holds that may rest on
  both, the lattice poses whose footprint's bounding box meets both supports' (per angle, in
  lattice order) are kept when their footprints, also shrunk by 0.2 mm, meet both supports, when
  they touch no other stick of level k-1 or higher (clipped exactly where the footprints shrunk
  by 1 mm do not already meet), and when both overlaps reach 6 x 6 mm; then judged in full
  (colours, carries, the level rule, balance), in lattice order. These filters run in one
  compiled call per new pair (`search_kernels.fresh_keep`: per angle and lattice column, the
  range of y meeting both supports and the ranges surely touching another stick are solved, and
  only the poses left get the exact tests, each stopping at its first refusal). A pose that
  falls under its own weight (its support polygon alone) is passed over by a compiled scan
  (`search_kernels.first_standing`) before the full judgement.

`find` returns, per colour, the first legal wood pose and the first legal pile it meets (the
candidate list then holds them); an empty result means no pose of the lattice is legal: a pass.
A colour found to have no wood pose stays without one for the rest of the game (placing sticks
only takes wood away), which the state remembers (`no_wood`); for the same reason the wood poses
before the first legal one found stay refused, so the next search starts there (`wood_from`).
Likewise a pair of supports and a colour left with no pose once the other sticks are taken away
(before the full judgement) stays so, as sticks only come: `dead_pairs`. A pair's poses are
never listed by the search: the walk keeps their indices in `pair_poses`' list, and the few kept
are computed alone (`pair_subset`). What a search rules
out is kept on the state for the next (`Left`): the wood poses read so far (lazily, a segment at a
time) less those found touching a stick, and per pair and colour the poses left; the next search
tests only the sticks placed since. None of these caches or filters changes which poses are
judged legal, nor the order they are met in.

tests/games/stack_back/test_pass_search.py checks the search against an exhaustive one on a
1 mm / 1 degree lattice written independently, on sampled blocked positions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from . import free_space, pile_kernels, search_kernels
from .actions import A10, Colour, Place, lattice_index
from .balance import EPS as BALANCE_EPS
from .balance import Stick, stands
from .candidates import _AXES
from .components import HALF_LENGTHS, HALF_WIDTH, LENGTHS, NUM_COLOURS, SPEC
from .geometry import Array, Mask, box, quads
from .rules import REST, TOL, Layout, Verdict, on_wood, piled, settle
from .support import _HALF as EDGE_POWER
from .wood_kernels import bare_wood, board_area, first_free, raster_clear, stamp, surely_taken

if TYPE_CHECKING:
    from .state import StackBackState

STEP = 4
"""mm between lattice centres."""
NEED = SPEC.margin - BALANCE_EPS
"""The least depth of a new stick's centre in its support polygon that lets it stand with no load
(`balance.stands`)."""
ASTEP = 5
"""Degrees between lattice angles."""
ANGLES = tuple(range(0, 180, ASTEP))
DEEP = 1.0
"""A centre-line point this deep (mm) inside a placed stick, at least this far from the ends of
the pose, makes the two footprints share more than the touch tolerance (pi > 3 mm²)."""
SLACK = math.sqrt(0.5)
"""How far a point may lie from its nearest raster point (mm): depth is 1-Lipschitz."""
REST_INSET = 0.2
"""mm: a convex overlap of 36 mm² within a footprint (perimeter at most 2 x (72 + 6) = 156 mm)
holds a disc of radius at least area / perimeter = 0.23 mm, so both shrunk by 0.2 mm still meet."""
SAMPLES = 9
"""Centre-line points tested per wood pose by the raster filter."""
PAD = 40
"""mm of raster beyond the boards on each side."""


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
    """The lattice poses of `colour` that lie legally on the bare boards, exactly as `on_wood`
    and balance judge them: on one board (it may overhang its edges) with its centre at least
    `SPEC.margin` inside the board, or crossing the gap resting 6 x 6 mm on each board and
    balanced on its support polygon (those judged one by one by `on_wood` and `stands`). A
    legal pose's centre lies inside its support polygon, so within the boards and the gap."""
    x0, y0, x1, y1 = SPEC.region
    h = HALF_LENGTHS[colour]
    xs = np.arange(math.ceil(x0 / STEP) * STEP, x1 + 1e-9, STEP)
    ys = np.arange(math.ceil(y0 / STEP) * STEP, y1 + 1e-9, STEP)
    ang = np.array(ANGLES, dtype=np.float64)
    ga, gx, gy = np.meshgrid(ang, xs, ys, indexing="ij")
    a, x, y = ga.ravel(), gx.ravel(), gy.ravel()
    ux, uy = np.cos(np.radians(a)), np.sin(np.radians(a))
    boards = np.array(SPEC.boards, dtype=np.float64)
    windows = np.stack([box(*b) for b in SPEC.boards])
    # on one board: the support polygon is the footprint (centre 3 mm inside) and the board
    ok, both = bare_wood(x, y, ux, uy, h, HALF_WIDTH, boards, windows, TOL, REST,
                         SPEC.margin - 1e-9)  # fmt: skip
    for k in np.nonzero(both)[0].tolist():
        place = Place(Colour(colour), round(x[k] * 10), round(y[k] * 10), round(a[k] * 10))
        stick = on_wood(place, 0)
        ok[k] = isinstance(stick, Stick) and stands(stick, stick.weight, 0j)
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


def board_areas(q: Array, board: tuple[float, float, float, float], h: float) -> Array:
    """The overlap (mm²) of each footprint `q` (half-length `h`) with `board`, for the
    comparisons with TOL and REST: only footprints crossing the board's edges are clipped; one
    whose box lies inside the board lies whole on it (4 h w, at least 108 mm², far above REST),
    one whose box lies apart from it not at all (0)."""
    x0, y0, x1, y1 = map(float, board)
    out: Array = board_area(q, x0, y0, x1, y1, box(*board), 4 * h * HALF_WIDTH)
    return out


@dataclass(frozen=True, slots=True)
class Depths:
    """Where a 1 mm raster lies deep inside the placed sticks: `centre` marks the raster points
    more than `DEEP` mm (plus 1e-9) inside some stick, `along` those more than `DEEP + SLACK` mm
    inside: the two thresholds the wood filter reads (`wood_kernels.raster_clear`). Two boolean
    rasters of 57,000 points (the depths themselves are never read), so a new state copies them
    in microseconds and states share them safely (replaced, never changed)."""

    centre: Mask
    along: Mask
    count: int

    @staticmethod
    def empty() -> Depths:
        x0, y0, x1, y1 = SPEC.region
        shape = (int(x1 - x0) + 2 * PAD + 1, int(y1 - y0) + 2 * PAD + 1)
        return Depths(np.zeros(shape, dtype=np.bool_), np.zeros(shape, dtype=np.bool_), 0)

    def with_sticks(self, sticks: Sequence[Stick], layout: Layout) -> Depths:
        """The raster with the sticks placed since (`layout` holds their footprints)."""
        n = len(sticks)
        if self.count >= n:
            return self
        centre, along = self.centre.copy(), self.along.copy()
        x0, y0 = SPEC.region[0] - PAD, SPEC.region[1] - PAD
        rows = slice(self.count, n)
        stamp(centre, along, x0, y0, layout.cx[rows], layout.cy[rows], layout.ux[rows],
              layout.uy[rows], layout.half[rows], HALF_WIDTH, DEEP + 1e-9,
              DEEP + SLACK)  # fmt: skip
        return Depths(centre, along, n)


def _wood_survivors(
    colour: int, depths: Depths, start: int = 0, stop: int | None = None
) -> npt.NDArray[np.intp]:
    """Indices (from `start` to `stop`) into `wood_poses(colour)` the raster cannot refuse
    (compiled: `wood_kernels.raster_clear`)."""
    wp = wood_poses(colour)
    stop = len(wp.cx) if stop is None else stop
    reach = HALF_LENGTHS[colour] - DEEP
    ts = np.linspace(-reach, reach, SAMPLES)
    x0, y0 = SPEC.region[0] - PAD, SPEC.region[1] - PAD
    out: npt.NDArray[np.intp] = raster_clear(
        depths.centre, depths.along, wp.cx, wp.cy, wp.ux, wp.uy, start, stop, ts, x0, y0
    )
    return out


def _judge_all(
    state: StackBackState, player: int, poses: Sequence[Place]
) -> tuple[Place, Verdict] | None:
    """The first of `poses` the rules allow `player` now, judged in full."""
    for place in poses:
        verdict = state.judge(place, player)
        if not isinstance(verdict, str):
            return place, verdict
    return None


SEGMENT = 2048
"""Wood poses read on the raster at once, in lattice order, beyond those already read."""


@dataclass(frozen=True, slots=True)
class Left:
    """What the lattice search has ruled out, kept along a game (replaced, never changed, so
    clones share it). Per colour, `(count, idx, upto)`: of the wood poses (indices into
    `wood_poses`, lattice order) before `upto`, those outside `idx` touch one of the first
    `count` sticks (`idx` is a superset of the free ones: the exact test still runs on it); the
    poses from `upto` on are not read yet. Per (support, support, colour), `(count, idx)`:
    exactly the pair's poses (indices into `pair_poses`) that meet and rest on both supports and
    touch no other stick of their level or above among the first `count`. Sticks only come and
    never move, so a new stick only takes poses away: each call tests the new sticks alone."""

    wood: tuple[tuple[int, npt.NDArray[np.intp], int] | None, ...]
    piles: dict[tuple[int, int, int], tuple[int, npt.NDArray[np.intp]]]

    @staticmethod
    def empty() -> Left:
        return Left((None,) * NUM_COLOURS, {})


def _reaches(radius: float, layout: Layout, rows: npt.NDArray[np.intp]) -> Array:
    """Per stick of `rows`, how far a footprint's centre (circumscribed circle `radius`) may lie
    from it and still meet it: footprints farther apart never do."""
    out: Array = radius + np.hypot(layout.half[rows], HALF_WIDTH) + 1e-6
    return out


def _wood_left(state: StackBackState, colour: int) -> tuple[npt.NDArray[np.intp], int]:
    """The wood poses of `colour` read so far (indices into `wood_poses(colour)`, from
    `wood_from` on) that no stick surely takes, and where the unread ones start. Each call tests
    the sticks new since the last alone (a footprint shrunk by 1 mm still meeting the pose's
    shrunk by 1 mm: a disc of radius 1 mm in both, more than the 3 mm² tolerance; compiled:
    `wood_kernels.surely_taken`)."""
    wp = wood_poses(colour)
    n = len(state.sticks)
    start = state.wood_from[colour]
    known = state._left.wood[colour]
    if known is None:
        return np.zeros(0, dtype=np.intp), start
    count, idx, upto = known
    idx = idx[int(np.searchsorted(idx, start)) :]
    if count < n and len(idx):
        layout = state.layout
        rows = np.arange(count, n)
        h = HALF_LENGTHS[colour]
        reach = _reaches(math.hypot(h, HALF_WIDTH), layout, rows)
        gone = surely_taken(
            wp.cx, wp.cy, wp.ux, wp.uy, h, HALF_WIDTH, idx, layout.cx[rows], layout.cy[rows],
            layout.ux[rows], layout.uy[rows], layout.half[rows], reach, DEEP,
        )  # fmt: skip
        idx = idx[~gone]
    return idx, max(upto, start)


def find_wood(state: StackBackState, player: int, colour: int) -> tuple[Place, Verdict] | None:
    """The first lattice pose of `colour` on the wood legal now (None: there is none): the
    poses read before (`_wood_left`), then the unread ones, read on the raster a segment at a
    time; in lattice order, the next pose touching no stick (exactly: the rules' tolerance;
    compiled, `wood_kernels.first_free`) is judged, until one is legal."""
    wp = wood_poses(colour)
    idx, upto = _wood_left(state, colour)
    layout = state.layout
    h = HALF_LENGTHS[colour]
    reach = _reaches(math.hypot(h, HALF_WIDTH), layout, np.arange(len(layout.cx)))
    sticks = (layout.cx, layout.cy, layout.ux, layout.uy, layout.half, layout.quads, reach)
    kept: list[npt.NDArray[np.intp]] = []  # the poses read, less those found touching a stick
    found = None
    segment = SEGMENT
    c = Colour(colour)
    while found is None:
        touching = np.zeros(len(idx), dtype=bool)
        at = 0
        while True:
            at = first_free(wp.cx, wp.cy, wp.ux, wp.uy, h, HALF_WIDTH, idx, at, *sticks, DEEP,
                            TOL, touching)  # fmt: skip
            if at >= len(idx):
                break
            k = int(idx[at])
            place = Place(c, int(wp.x10[k]), int(wp.y10[k]), int(wp.a10[k]))
            verdict = state.judge(place, player)
            if not isinstance(verdict, str):
                found = place, verdict
                # the wood poses before it are refused now, so for the rest of the game
                if k > state.wood_from[colour]:
                    wood_from = state.wood_from
                    state.wood_from = (*wood_from[:colour], k, *wood_from[colour + 1 :])
                break
            at += 1
        kept.append(idx[~touching])
        if found is None and upto < len(wp.cx):  # read the next poses on the raster
            stop = min(len(wp.cx), upto + segment)
            idx = _wood_survivors(colour, state.depths, upto, stop)
            upto, segment = stop, 2 * segment
        elif found is None:
            break
    left = state._left
    read = np.concatenate(kept) if kept else np.zeros(0, dtype=np.intp)
    record = (len(state.sticks), read, upto)
    state._left = Left((*left.wood[:colour], record, *left.wood[colour + 1 :]), left.piles)
    return found


def _reach(a: Stick, b: Stick, colour: int) -> bool:
    """Whether a stick of `colour` could overlap both (a bound: never refuses a bridge)."""
    ra = math.hypot(a.half, HALF_WIDTH)
    rb = math.hypot(b.half, HALF_WIDTH)
    rc = math.hypot(LENGTHS[colour], SPEC.width)
    return math.hypot(b.cx - a.cx, b.cy - a.cy) <= ra + rb + rc


def _sat_flat(  # noqa: PLR0917 - footprints against sticks, pair by pair
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array, w: float,
    dx: Array, dy: Array, vx: Array, vy: Array, half: Array, shrink: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """`_sat` for pairs given as parallel arrays (footprint i against stick i): the same
    arithmetic element by element, so the same verdicts."""
    k = half - shrink
    v = HALF_WIDTH - shrink
    ddx = dx - cx
    ddy = dy - cy
    c = np.abs(ux * vx + uy * vy)
    s = np.abs(ux * vy - uy * vx)
    on_u = np.abs(ddx * ux + ddy * uy) < h + k * c + v * s
    on_v = np.abs(-ddx * uy + ddy * ux) < w + k * s + v * c
    on_p = np.abs(ddx * vx + ddy * vy) < k + h * c + w * s
    on_q = np.abs(-ddx * vy + ddy * vx) < v + h * s + w * c
    out: npt.NDArray[np.bool_] = on_u & on_v & on_p & on_q
    return out


_ANGLES_F = np.array(ANGLES, dtype=np.float64)
_ABS_COS = np.array([abs(math.cos(math.radians(t))) for t in ANGLES])
_ABS_SIN = np.array([abs(math.sin(math.radians(t))) for t in ANGLES])
_COS = np.cos(np.radians(_ANGLES_F))
_SIN = np.sin(np.radians(_ANGLES_F))
_A10 = np.rint(_ANGLES_F * 10).astype(np.int64)


@dataclass(frozen=True, slots=True)
class PairPoses:
    """For two supports and a colour: the lattice poses whose footprints' bounding boxes meet
    both supports' (a function of the two poses alone), in lattice order (angle, x, y)."""

    x: Array
    y: Array
    ux: Array
    uy: Array
    hh: Array
    x10: npt.NDArray[np.int64]
    y10: npt.NDArray[np.int64]
    a10: npt.NDArray[np.int64]
    quads: Array
    """The two supports' footprints."""


_PAIR_MEMO: dict[tuple[Place, Place, int], PairPoses] = {}
_PAIR_MEMO_MAX = 1_000
"""Pairs kept (each some tens of kB); a game meets about 60, mostly again within its game."""


def pair_poses(a: Stick, b: Stick, colour: int) -> PairPoses:
    """`PairPoses` of `a` and `b` (kept per two poses and a colour: pure geometry), built in one
    compiled call (`pile_kernels.pair_lattice`); the axes are numpy's cos and sin of the
    angles in radians, read from a table of the 36 lattice angles."""
    key = (a.pose, b.pose, colour)
    known = _PAIR_MEMO.get(key)
    if known is not None:
        return known
    if len(_PAIR_MEMO) >= _PAIR_MEMO_MAX:
        _PAIR_MEMO.clear()
    h = HALF_LENGTHS[colour]
    sup = np.array([[s.cx, s.cy, s.ux, s.uy, s.half] for s in (a, b)])
    x, y, which, x10, y10 = pile_kernels.pair_lattice(sup, h, _ABS_COS, _ABS_SIN, float(STEP))
    feet = quads(sup[:, 0], sup[:, 1], sup[:, 2], sup[:, 3], sup[:, 4])
    out = PairPoses(x, y, _COS[which], _SIN[which], np.full(len(x), h), x10, y10, _A10[which], feet)
    _PAIR_MEMO[key] = out
    return out


def pair_subset(a: Stick, b: Stick, colour: int, keep: npt.NDArray[np.intp]) -> PairPoses:
    """The poses `keep` (indices into `pair_poses(a, b, colour)`, ascending) alone, with the
    numbers `pair_poses` gives them, computed without listing the pair's lattice
    (`search_kernels.lattice_at`): the search reads only the few poses a pair keeps."""
    h = HALF_LENGTHS[colour]
    sup = np.array([[s.cx, s.cy, s.ux, s.uy, s.half] for s in (a, b)])
    x, y, which, x10, y10 = search_kernels.lattice_at(
        sup, h, _ABS_COS, _ABS_SIN, float(STEP), keep.astype(np.int64)
    )
    feet = quads(sup[:, 0], sup[:, 1], sup[:, 2], sup[:, 3], sup[:, 4])
    hh = np.full(len(x), h)
    return PairPoses(x, y, _COS[which], _SIN[which], hh, x10, y10, _A10[which], feet)


def _radii(layout: Layout) -> Array:
    """Each placed stick's circumscribed radius (as `_touching` always computed it)."""
    out: Array = np.hypot(layout.half, HALF_WIDTH)
    return out


def _touching(
    pp: PairPoses, keep: npt.NDArray[np.intp], layout: Layout, rows: npt.NDArray[np.intp]
) -> npt.NDArray[np.bool_]:
    """Which of the poses `keep` touch one of the sticks `rows` (overlap above the tolerance):
    footprints farther apart than their circumscribed circles reach never meet; footprints
    shrunk by 1 mm that still meet share a disc of radius 1 (more than 3 mm²); those that meet
    only unshrunk are clipped (pile_kernels.touching, one compiled call)."""
    if not len(keep) or not len(rows):
        return np.zeros(len(keep), dtype=bool)
    h = float(pp.hh[0])
    out: npt.NDArray[np.bool_] = pile_kernels.touching(
        pp.x, pp.y, pp.ux, pp.uy, h, math.hypot(h, HALF_WIDTH), keep.astype(np.int64),
        rows.astype(np.int64), layout.cx, layout.cy, layout.ux, layout.uy, layout.half,
        layout.quads, _radii(layout), DEEP, TOL,
    )  # fmt: skip
    return out


def find_pile(state: StackBackState, player: int, colour: int) -> tuple[Place, Verdict] | None:
    """The first lattice pose of `colour` that piles legally now (None: there is none)."""
    st = state.layout.statics
    carries = np.array(state.carries, dtype=np.int64)
    ok = (st.level + 1 >= state.floor[player]) & (st.colour != colour)
    ok &= (carries >> colour) & 1 == 0
    by_level: dict[int, list[int]] = {}
    for i, level in zip(np.nonzero(ok)[0].tolist(), st.level[ok].tolist(), strict=True):
        by_level.setdefault(level, []).append(i)
    dead = state.dead_pairs
    died: list[tuple[int, int, int]] = []
    left = dict(state._left.piles)
    try:
        return _find_pile(state, player, colour, by_level, dead, died, left)
    finally:
        if died:
            state.dead_pairs = dead | frozenset(died)
        state._left = Left(state._left.wood, left)


def _find_pile(  # noqa: PLR0917 - the loop of find_pile, with what it prepared
    state: StackBackState, player: int, colour: int, by_level: dict[int, list[int]],
    dead: frozenset[tuple[int, int, int]], died: list[tuple[int, int, int]],
    left: dict[tuple[int, int, int], tuple[int, npt.NDArray[np.intp]]],
) -> tuple[Place, Verdict] | None:  # fmt: skip
    sticks = state.sticks
    n = len(sticks)
    pairs = {level: _reaching(sticks, group, colour, dead) for level, group in by_level.items()}
    if not any(pairs.values()):
        return None
    layout = state.layout
    levels = np.array(layout.levels, dtype=np.int64)
    c = Colour(colour)
    for level in sorted(pairs):
        others_all = np.nonzero(levels >= level)[0]
        for i, j in pairs[level]:
            known = left.get((i, j, colour))
            if known is not None:  # kept: only the sticks placed since can take poses away
                count, keep = known
                if count < n and len(keep):
                    new = others_all[others_all >= count]
                    pp = pair_subset(sticks[i], sticks[j], colour, keep)
                    keep = keep[~_touching(pp, np.arange(len(keep)), layout, new)]
                left[i, j, colour] = (n, keep)
            else:
                others = others_all[(others_all != i) & (others_all != j)]
                keep = _fresh_keep(colour, i, j, layout, others)
                left[i, j, colour] = (n, keep)
            if not len(keep):  # other sticks only come, so the pair stays without a pose
                died.append((i, j, colour))
                continue
            pp = pair_subset(sticks[i], sticks[j], colour, keep)
            found = _judge_piles(state, player, c, pp, np.arange(len(keep)), (i, j))
            if found is not None:
                return found
    return None


def _judge_piles(  # noqa: PLR0917 - a pair's poses left, with what judges them
    state: StackBackState, player: int, colour: Colour, pp: PairPoses,
    keep: npt.NDArray[np.intp], pair: tuple[int, int],
) -> tuple[Place, Verdict] | None:  # fmt: skip
    """The first of the poses `keep` the rules allow `player` now (who holds `colour`), judged
    as `state.judge` judges it, with the pose's footprint as the judge builds it (x10 / 10, the
    axis of `geometry.axis`). Each touches no stick of its supports' level or above but the
    two supports (the filters before), so its level is theirs plus one and it rests on exactly
    them. Most (784 of 940 in 12 random games) fall under their own weight, which depends on
    the three footprints alone: a compiled scan (`search_kernels.first_standing`, the support
    polygon of `rules.piled` and the test of `balance.stands`) passes over them, and only a
    pose that stands is judged in full (its overlaps clipped, `piled`, the level rule and
    balance with the loads), in lattice order."""
    if not len(keep):
        return None
    i, j = pair
    layout, sticks, carries = state.layout, state.sticks, state.carries
    x10, y10, a10 = pp.x10[keep], pp.y10[keep], pp.a10[keep]
    x, y = x10 / 10, y10 / 10
    ux, uy = _AXES[0][a10 // A10], _AXES[1][a10 // A10]
    h = HALF_LENGTHS[colour]
    windows = layout.quads[[i, j]]
    floor = state.floor[player]
    both = np.array(pair, dtype=np.int64)
    at = 0
    while True:
        at = search_kernels.first_standing(x, y, ux, uy, h, at, windows, EDGE_POWER, NEED)
        if at >= len(keep):
            return None
        k = slice(at, at + 1)
        got = pile_kernels.touch_values(
            x[k], y[k], ux[k], uy[k], np.full(1, h), np.zeros(2, dtype=np.int64), both,
            layout.quads,
        ).tolist()  # fmt: skip
        place = Place(colour, int(x10[at]), int(y10[at]), int(a10[at]))
        (ai, gxi, gyi), (aj, gxj, gyj) = got
        touched = [(i, ai, gxi, gyi), (j, aj, gxj, gyj)]
        stick = piled(place, player, touched, sticks, carries)
        if not isinstance(stick, str) and stick.level >= floor:
            verdict = settle(stick, sticks, state.force, state.moment)
            if not isinstance(verdict, str):
                return place, verdict
        at += 1


def _fresh_keep(
    colour: int, i: int, j: int, layout: Layout, others: npt.NDArray[np.intp]
) -> npt.NDArray[np.intp]:
    """The poses of `pair_poses` (indices; a pair's first visit) of `colour` on the supports
    `i` and `j` that meet both (also shrunk by `REST_INSET`), touch none of the sticks
    `others` and rest at least 6 x 6 mm on both: every filter in one compiled call that walks
    the pair's lattice without listing it (`search_kernels.fresh_keep`), so that a pair found
    without a pose, 9 in 10, never builds its `PairPoses`."""
    h = HALF_LENGTHS[colour]
    sup = np.array(
        [[layout.cx[k], layout.cy[k], layout.ux[k], layout.uy[k], layout.half[k]] for k in (i, j)]
    )
    out: npt.NDArray[np.intp] = search_kernels.fresh_keep(
        sup, h, _ABS_COS, _ABS_SIN, _COS, _SIN, float(STEP), REST_INSET,
        others.astype(np.int64), layout.cx, layout.cy, layout.ux, layout.uy, layout.half,
        layout.quads, _radii(layout), math.hypot(h, HALF_WIDTH), i, j, DEEP, TOL, REST,
    )  # fmt: skip
    return out


def _reaching(
    sticks: Sequence[Stick],
    group: list[int],
    colour: int,
    dead: frozenset[tuple[int, int, int]] = frozenset(),
) -> list[tuple[int, int]]:
    """The pairs (i before j in `group`) that `_reach` lets through and `dead` does not hold
    (as (i, j, colour)), in that order: `_reach`'s arithmetic, each stick's radius and the
    colour's computed once."""
    radius = [math.hypot(sticks[i].half, HALF_WIDTH) for i in group]
    rc = math.hypot(LENGTHS[colour], SPEC.width)
    out = []
    for k, i in enumerate(group):
        a, ra = sticks[i], radius[k]
        for m in range(k + 1, len(group)):
            j = group[m]
            if (i, j, colour) in dead:
                continue
            b = sticks[j]
            if math.hypot(b.cx - a.cx, b.cy - a.cy) <= ra + radius[m] + rc:
                out.append((i, j))
    return out


def find(state: StackBackState, player: int) -> list[tuple[Place, Verdict]]:
    """Per colour in `player`'s supply: the first legal wood pose and the first legal pile of
    the lattice (in that order); when no lattice pose is legal, the first pose the free-space
    search finds (free_space.py); [] when neither finds one: a pass."""
    out = find_lattice(state, player)
    if not out:  # no lattice pose: follow the free space itself (free_space.py)
        out = free_space.find(state, player)
    return out


def find_lattice(state: StackBackState, player: int) -> list[tuple[Place, Verdict]]:
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


def order_key(place: Place) -> int:
    """Where a pose the search found sorts among the candidates: its pose key on the 2 mm /
    5 degree lattice, or after every lattice pose (the free-space search's poses, in the order
    found)."""
    key = lattice_index(place.colour, place.x10, place.y10, place.a10)
    return OFF_LATTICE if key is None else key


OFF_LATTICE = 1 << 62
"""The sort key of a pose off the lattice (a stable sort keeps the search's order)."""
