"""Compiled loops for the action ids' mask (ids.py): which lattice poses a stick touches.

The mask judges tens of thousands of lattice poses a game against the placed sticks, a few at a
time per pair of supports: in numpy each such test is a dozen calls whose fixed cost (a few
microseconds) outweighs the work. These kernels run the same tests pose by pose in one compiled
loop (numba, `cache=True`), with the same floating-point operations in the same order as the
numpy code they stand for, so every comparison with a threshold comes out the same:

- the separating-axis tests of `search._sat_flat` (shrunk by 1 mm: the footprints then share a
  disc of radius 1 mm, more than the 3 mm² touch tolerance) and `geometry.sat_hits`, the
  overlap area of two footprints (`geometry.clip`'s arithmetic) and the support polygon: the
  primitives of geom_kernels.py, one copy for every kernel module;
- `ids._may_stand`'s bound on where a new stick's centre may lie between its two supports.

tests/games/stack_back/test_sb_ids_kernels.py compares each with the numpy code on random
footprints and lattice poses.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from .cand_kernels import Scratch, balance_scratch, depth, first_loads, pass_down
from .geom_kernels import (
    CAP,
    MOST,
    WORK,
    W,
    _clip_loop,
    _moments,
    clip,
    hull_edges,
    meet,
    meets_all,
    quad,
    sat_eps,
    touches_any,
)

Array = npt.NDArray[np.float64]

_W = W
_X0, _Y0, _BIN, _XB, _YB = -36.0, -36.0, 12.0, 26, 15
"""The action ids' squares (ids.py: X0_MM, Y0_MM, BIN_MM, X_BINS, Y_BINS)."""
_CA = 3 * 12
"""Colours times angle bins."""


@numba.njit(cache=True, inline="always")
def _touch_sure(  # noqa: PLR0917 - a pose, a stick, their reach
    cx: float, cy: float, ux: float, uy: float, h: float,
    dx: float, dy: float, vx: float, vy: float, k: float, reach: float, deep: float,
) -> int:  # fmt: skip
    """Whether the pose (centre, axis, half-length) touches the stick (the same): 1 when,
    shrunk by `deep`, they still meet (a shared disc: most poses a stick touches lie under it,
    so this comes first), 0 when their centres lie `reach` apart or more (their circumscribed
    circles are apart) or they do not meet by `geometry.sat_hits`, -1 when their overlap's area
    decides (`_rest_sure`, then `_clips_over`). Scalars only: a kernel passing arrays to a
    helper in its loop pays for counting their references at each call (some 4 atomic pairs),
    more than these tests."""
    ex, ey = cx - dx, cy - dy
    if not ex * ex + ey * ey < reach * reach:
        return 0
    if meet(cx, cy, ux, uy, h - deep, _W - deep, dx, dy, vx, vy, k - deep, _W - deep):
        return 1
    if not sat_eps(cx, cy, ux, uy, h, dx, dy, vx, vy, k, _W):
        return 0
    return -1


_SA, _SE = 2.2 + 1e-6, 0.35 + 1e-6
"""Half-length and half-width (mm) of a thin rectangle of 4 x 2.2 x 0.35 = 3.08 mm²: more than
the touch tolerance (3 mm²) by far more than any rounding of a clipped area (`_sliver`)."""
_SLIVER = 4 * 2.2 * 0.35
"""`_sliver`'s rectangle's area: it decides only under a tolerance below it (`wood_first`)."""


@numba.njit(cache=True, inline="always")
def _sliver(  # noqa: PLR0917 - a pose, a stick
    cx: float, cy: float, ux: float, uy: float, h: float,
    dx: float, dy: float, vx: float, vy: float, k: float,
) -> bool:  # fmt: skip
    """Whether the two footprints' overlap surely holds a rectangle of half sizes `_SA` x `_SE`
    along either one's axis (so overlaps by more than `_SLIVER` less its 1e-6 mm of room): the
    one footprint shrunk by it in its own frame meets the other shrunk by the rectangle's
    bounding box in the other's frame (a point of both is a place for the rectangle in both).
    Most overlaps `_touch_sure` leaves open are slivers along near-parallel neighbours, which
    no shared 1 mm disc proves: this decides about 70% of those the wood clipped (each clip
    some 200 ns) with two separating-axis tests."""
    c = abs(ux * vx + uy * vy)
    s = abs(ux * vy - uy * vx)
    along, across = _SA * c + _SE * s, _SA * s + _SE * c
    if across < _W:
        if h > _SA and k > along and meet(cx, cy, ux, uy, h - _SA, _W - _SE, dx, dy, vx, vy,
                                          k - along, _W - across):  # fmt: skip
            return True
        if k > _SA and h > along and meet(dx, dy, vx, vy, k - _SA, _W - _SE, cx, cy, ux, uy,
                                          h - along, _W - across):  # fmt: skip
            return True
    return False


@numba.njit(cache=True)
def _clips_over(  # noqa: PLR0917 - a pose, a stick's footprint, scratch
    cx: float, cy: float, ux: float, uy: float, h: float, squads: Array, s: int, tol: float,
    q: Array, work: Array,
) -> bool:  # fmt: skip
    """Whether the pose overlaps stick s (footprint `squads[s]`) by more than `tol`, by the
    clipped area. Asked only where `_rest_sure` (the stick's row as numbers, `_SURE` from `tol`:
    the clipped area's) is not sure, at each of the touch tests near the tolerance (a sure
    answer costs a fifth of the clipping): a call taking arrays and calling others counts each
    array at each call, so the sure answers make no such call."""
    quad(cx, cy, ux, uy, h, _W, q)
    return bool(clip(q, squads[s], work)[0] > tol)


_STEP = 4.0
"""The lattice's step (search.STEP): a wood bin's poses are centred on the 3 x 3 lattice points
of its square, from its corner to 8 mm beyond, at three angles 5 degrees apart
(tests/games/stack_back/test_sb_mask_wood.py checks every wood pose)."""
_AB = 12
"""Angle bins."""
_X010, _Y010, _BIN10, _STEP10 = -360, -360, 120, 40
"""The squares' corner, side and the lattice's step in tenths of a mm (ids.py's integers)."""


@numba.njit(cache=True)
def wood_first(  # noqa: PLR0917 - the wood poses, the sticks
    first: npt.NDArray[np.int64], code: npt.NDArray[np.uint8], dirs: Array, half: Array,
    start: npt.NDArray[np.int64], radius: Array, sticks: Array, squads: Array, new: int,
    tol: float, deep: float,
) -> None:  # fmt: skip
    """Bring `first` (per bin, its first wood pose no stick touches: poses of bin b run from
    start[b] to start[b + 1], in snap order; -1 if none) from the sticks before `new` to all of
    `sticks` (rows of cx, cy, ux, uy, half; footprints `squads`). A pose is read as its lattice
    point in its bin, one byte (`code`: angle * 9 + x step * 3 + y step, `ids.Wood.code`), its
    footprint rebuilt as the rules build it (x10 / 10; `dirs[angle bin, angle]`, the axes of
    `geometry.axis`; `half` per colour): 126 KB for every pose, which stay in the cache between
    steps, where rows of five floats (5 MB) were mostly read from memory. A new stick only
    takes poses away, so only a bin whose first pose it touches changes: its next poses are
    tried against it, then against the other sticks whose circles reach the bin. The bins read
    for a stick are those whose squares can hold a pose whose circumscribed circle (`radius`
    per colour) meets the stick's and whose bounding box meets the stick's (a pose that touches
    it overlaps it). Most poses a new stick takes lie under it at an angle at which it takes all
    the bin's poses (`meets_all` over the box of the bin's lattice points): those are taken
    without a test each, and a bin whose every angle is taken so ends at once. Each test is on
    scalars (`_touch_sure`): the touch test inlined with its arrays counted their references at
    every pose and stick. An overlap it leaves open is proven by `_sliver` where it can, else
    clipped (`_clips_over`)."""
    q = np.empty((4, 2))
    work = np.empty(WORK)
    axes = np.empty((_AB, 3, 2))  # per angle bin, its three lattice angles' axes
    for ab in range(_AB):
        for j in range(3):
            a = np.radians(ab * 15.0 + 5.0 * j)
            axes[ab, j, 0], axes[ab, j, 1] = np.cos(a), np.sin(a)
    thin = tol < _SLIVER - 1e-3  # `_sliver` proves a touch
    xs, ys = np.empty(_XB * 3), np.empty(_YB * 3)  # the lattice's centres, x10 / 10
    for v in range(_XB * 3):
        xs[v] = (_X010 + v * _STEP10) / 10
    for v in range(_YB * 3):
        ys[v] = (_Y010 + v * _STEP10) / 10
    n = len(sticks)
    others = np.empty(n, dtype=np.int64)
    own = np.empty(n)
    for t in range(n):
        own[t] = (sticks[t, 4] * sticks[t, 4] + _W * _W) ** 0.5
    # per colour and angle bin, the half-extents in x and y of its poses' footprints (the bin's
    # three lattice angles), 1 mm more
    pex, pey = np.empty(_CA), np.empty(_CA)
    for ca in range(_CA):
        r = radius[ca // (_CA // 3)]
        h = (r * r - _W * _W) ** 0.5
        pex[ca] = pey[ca] = 0.0
        for k in range(3):
            c, sn = abs(axes[ca % _AB, k, 0]), abs(axes[ca % _AB, k, 1])
            pex[ca] = max(pex[ca], h * c + _W * sn + 1.0)
            pey[ca] = max(pey[ca], h * sn + _W * c + 1.0)
    for s in range(new, n):
        dx, dy = sticks[s, 0], sticks[s, 1]
        # a pose touching the stick overlaps it, so their bounding boxes meet
        sx = sticks[s, 4] * abs(sticks[s, 2]) + _W * abs(sticks[s, 3])
        sy = sticks[s, 4] * abs(sticks[s, 3]) + _W * abs(sticks[s, 2])
        vx, vy, k = sticks[s, 2], sticks[s, 3], sticks[s, 4]
        for ca in range(_CA):
            rc = radius[ca // (_CA // 3)] + 1e-6
            reach = own[s] + rc
            ex, ey = min(reach, sx + pex[ca]) + 1e-6, min(reach, sy + pey[ca]) + 1e-6
            x0 = min(max(int(np.floor((dx - ex - _X0) / _BIN)), 0), _XB - 1)
            x1 = min(max(int(np.floor((dx + ex - _X0) / _BIN)), 0), _XB - 1)
            y0 = min(max(int(np.floor((dy - ey - _Y0) / _BIN)), 0), _YB - 1)
            y1 = min(max(int(np.floor((dy + ey - _Y0) / _BIN)), 0), _YB - 1)
            ab = ca % _AB
            for xb in range(x0, x1 + 1):
                for yb in range(y0, y1 + 1):
                    b = (ca * _XB + xb) * _YB + yb
                    i = first[b]
                    if i < 0:
                        continue
                    ox = _X0 + xb * _BIN + _STEP - dx  # the bin's lattice points' centre
                    oy = _Y0 + yb * _BIN + _STEP - dy  # from the stick's
                    stop, ph, cover, nn = start[b + 1], half[ca // _AB], -1, -1
                    while i < stop:  # the new stick, then the others near the bin, each pose
                        c = int(code[i])
                        j = c // 9  # its angle in the bin: taken by the stick at once?
                        got = 1 if cover > 0 and (cover >> j) & 1 else 0
                        px, py = xs[xb * 3 + (c // 3) % 3], ys[yb * 3 + c % 3]
                        pux, puy = dirs[ab, j, 0], dirs[ab, j, 1]
                        u = -1
                        while not got and (u < 0 or u < nn):
                            t = s if u < 0 else others[u]
                            got = _touch_sure(px, py, pux, puy, ph, sticks[t, 0], sticks[t, 1],
                                              sticks[t, 2], sticks[t, 3], sticks[t, 4],
                                              own[t] + rc, deep)  # fmt: skip
                            if got < 0:  # near the tolerance: a sliver, else the overlap
                                got = int(thin and _sliver(px, py, pux, puy, ph, sticks[t, 0],
                                                           sticks[t, 1], sticks[t, 2],
                                                           sticks[t, 3], sticks[t, 4]))  # fmt: skip
                                if not got:
                                    sure = _rest_sure(px, py, pux, puy, ph, sticks[t, 0],
                                                      sticks[t, 1], sticks[t, 2], sticks[t, 3],
                                                      sticks[t, 4], tol)  # fmt: skip
                                    got = int(sure > 0 or (sure == 0 and _clips_over(
                                        px, py, pux, puy, ph, squads, t, tol, q,
                                        work)))  # fmt: skip
                            if not got and u < 0 and cover < 0:
                                break  # the bin's first pose is not the new stick's: no change
                            if not got and nn < 0:  # the other sticks whose circles reach the bin
                                nn = 0
                                for t in range(n):
                                    ex, ey = sticks[t, 0] - ox - dx, sticks[t, 1] - oy - dy
                                    lim = own[t] + rc + _STEP * 2**0.5 + 1e-6
                                    if t != s and ex * ex + ey * ey < lim * lim:
                                        others[nn] = t
                                        nn += 1
                            u += 1
                        if not got:
                            break
                        if cover < 0:  # the angles at which the stick takes every pose of the
                            cover = 0  # bin for sure: shrunk by deep, every footprint centred
                            for j in range(3):  # on its lattice points meets the stick's
                                if meets_all(ox + dx, oy + dy, _STEP, _STEP, axes[ab, j, 0],
                                             axes[ab, j, 1], ph - deep, _W - deep, dx, dy, vx,
                                             vy, k - deep, _W - deep, _SURE):  # fmt: skip
                                    cover |= 1 << j
                            if cover == 7:
                                i = stop
                        i += 1
                    first[b] = i if i < stop else -1


# --- judging a pile pose: a compiled balance with a margin, the rules' own code where near -------
UNSURE, LEGAL, REFUSED, TIPS = 0, 1, 2, 3
"""`judge_piles`' answers: the pose is near a threshold (judge it by the rules' own code), it
is legal, it is refused by the balance of the sticks beneath (the loads: it may change when they
do), it is refused by its own support polygon (its centre not the margin inside the hull of its
contacts with its two supports: a fact of the pose and the supports' footprints alone, which
never change, so the verdict is kept for good, `catch_up`). Any verdict from REFUSED on
refuses."""


@numba.njit(cache=True, error_model="numpy")
def judge_piles(  # noqa: PLR0917 - the balance model
    pose: Array, pi: npt.NDArray[np.int64], pj: npt.NDArray[np.int64],
    sticks: Array, quads: Array, level: npt.NDArray[np.int64], sup: npt.NDArray[np.int64],
    cont: Array, poly: Array, npoly: npt.NDArray[np.int64], load: Array,
    tol: float, rest: float, margin: float, delta: float,
) -> npt.NDArray[np.int8]:  # fmt: skip
    """Pile poses (rows of `pose`: cx, cy, ux, uy, half, weight) on the supports pi, pj, judged
    as `rules.piled` then `rules.settle` judge them, in floating point: LEGAL, REFUSED, or
    UNSURE where a quantity lies within `delta` of a threshold the rules compare it with (the
    touch tolerance, a balance margin; the caller then asks the rules). A support's rest is
    compared as the rules compare it, with no band: its area is `geom_kernels.clip`'s, the
    bits of the rules' own clipper (tests/games/stack_back/test_sb_wood_kernels.py,
    test_sb_cand_clip.py), and most poses near that threshold rest exactly 6 mm on a support
    (lattice and sticks meet at whole millimetres): with a band, 129 of the 147 poses a
    dozen random games left to the rules.

    The sticks: rows of `sticks` (cx, cy, ux, uy, half), footprints `quads`, `level`, supports
    `sup` (-1: none), contact centroids `cont` (2 x (x, y), relative to the centre), support
    polygon edges `poly` (nx, ny, c; `npoly` of them), loads `load` (force, moment x, y)."""
    out = np.zeros(len(pi), dtype=np.int8)
    _verdicts(pose, pi, pj, np.full(len(pi), -1, dtype=np.int64), np.zeros(0, dtype=np.int8),
              False, True, sticks, quads, level, sup, cont, poly, npoly, load, tol, rest, margin,
              delta, balance_scratch(len(level)), out)  # fmt: skip
    return out


SKIPPED = -1
"""`_verdicts`'s answer for a pose it did not judge: its bin was marked already."""


@numba.njit(cache=True, error_model="numpy")
def _verdicts(  # noqa: PLR0917 - poses, the balance model, scratch, answers
    pose: Array, pi: npt.NDArray[np.int64], pj: npt.NDArray[np.int64],
    bins: npt.NDArray[np.int64], mark: npt.NDArray[np.int8], rows: bool, others: bool,
    sticks: Array, quads: Array, level: npt.NDArray[np.int64], sup: npt.NDArray[np.int64],
    cont: Array, poly: Array, npoly: npt.NDArray[np.int64], load: Array,
    tol: float, rest: float, margin: float, delta: float, scratch: Scratch,
    out: npt.NDArray[np.int8],
) -> None:  # fmt: skip
    """`judge_piles`' verdicts on poses (rows of `pose`: cx, cy, ux, uy, half, weight) on the
    supports pi, pj, into `out`, in order; a pose whose bin (`bins`, -1: none) `mark` holds
    already is SKIPPED, and a LEGAL pose marks its bin (2), so a walk judges a bin's rows
    only until one is legal (`exist`). `rows`: the poses are pool rows (`_row_poses`: poses the
    pair filters kept, resting 6 x 6 mm on both supports and touching no other stick beyond
    the tolerance), TIPS at once when their contacts cannot reach the margin to an end of
    them (`_reach_along`, 1e-6 mm short of the hull's own bound, so rounding cannot decide;
    three in four of the rows their own polygon refuses). `others`: whether the sticks of the
    supports' level or above other than the supports are tested for a touch; a pool row
    needs none: the pool's filters (`new_pairs`, then `catch_up` for each stick since) found
    no other stick of their level or above overlapping it by more than the tolerance, on the
    rules' own footprints (the lattice's axes are `geometry.axis`'s to the bit) and clipped
    areas, so testing them again (a tenth of the mask's judging) would change no verdict.

    One loop holds the whole judgement: judged by a helper inlined once a pose, the 20
    arrays it took (the model, the scratch) were each given an atomic reference count
    and its release per pose, two fifths of a legal pose's judgement (of a refused one,
    more); here they are the loop's own."""
    q, work, pts, edges, clips, hulls, df, dmx, dmy, inside, sh = scratch
    for r in range(len(pi)):
        b = bins[r]
        if b >= 0 and mark[b] != 0:
            out[r] = SKIPPED
            continue
        cx, cy, ux, uy, half, weight = (pose[r, 0], pose[r, 1], pose[r, 2], pose[r, 3],
                                        pose[r, 4], pose[r, 5])  # fmt: skip
        i, j = pi[r], pj[r]
        v = LEGAL
        while True:  # one pass: each `break` is a verdict
            if rows and _reach_along(quads, i, j, cx, cy, ux, uy, half) < (
                margin - 1e-9 - delta - 1e-6
            ):
                v = TIPS
                break
            lev = level[i]
            quad(cx, cy, ux, uy, half, _W, q)
            gix = giy = gjx = gjy = 0.0
            ei = ej = 0
            crossed = decided = False
            for t in range(len(level) if others else 2):
                s = t if others else i if t == 0 else j
                if level[s] < lev:
                    continue
                # farther apart than half + W and the stick's, the two circumscribed circles
                # do not meet: nor do the footprints (`sat_eps` would say so)
                dx, dy, far = sticks[s, 0] - cx, sticks[s, 1] - cy, half + sticks[s, 4] + 2 * _W
                meets = dx * dx + dy * dy < far * far and sat_eps(
                    cx, cy, ux, uy, half, sticks[s, 0], sticks[s, 1], sticks[s, 2],
                    sticks[s, 3], sticks[s, 4], _W,
                )  # fmt: skip
                if s in (i, j):
                    if not meets:
                        v, decided = UNSURE, True
                        break
                    # a support clipped once, for its area and its part of the support
                    # polygon (i's vertices at pts[0:], j's at pts[MOST:] until both are known)
                    at = 0 if s == i else MOST
                    end = _bands_cross(cx, cy, ux, uy, half, sticks[s, 0], sticks[s, 1],
                                       sticks[s, 2], sticks[s, 3], sticks[s, 4], pts,
                                       at)  # fmt: skip
                    if end > at:  # the bands cross wholly: 36 mm² or more, the rest holds
                        gx, gy = pts[end, 0], pts[end, 1]
                        crossed = True
                    else:  # `clip_both`'s steps, called from here: the helper itself, calling
                        # them, took a reference count of its five arrays at each call
                        mm, most = _clip_loop(q, quads[s], clips)
                        end = _put(clips, mm, pts, at)
                        if most > CAP:
                            area, gx, gy = clip(q, quads[s], work)
                        else:
                            area, gx, gy = _moments(clips, mm, work)
                        if area < rest:  # the rules' own area to the bit: no band needed
                            v, decided = UNSURE, True
                            break
                    if s == i:
                        ei, gix, giy = end, gx - cx, gy - cy
                    else:
                        ej, gjx, gjy = end, gx - cx, gy - cy
                elif meets and clip(q, quads[s], work)[0] > tol - delta:
                    v, decided = UNSURE, True
                    break
            if decided:
                break
            # the new stick's support polygon: the hull of its two contact areas
            for k in range(ej - MOST):
                pts[ei + k, 0], pts[ei + k, 1] = pts[MOST + k, 0], pts[MOST + k, 1]
            m = ei + ej - MOST
            if _short_of(pts, m, cx, cy, ux, uy) < margin - 1e-9 - delta - 1e-7:
                v = TIPS
                break
            if not _deep_in(pts, ei, m, cx, cy, ux, uy) > margin - 1e-9 + delta + 1e-7:
                if crossed:  # the hull from the clipper's own points: its chain is built on
                    # their bits
                    ei = _put(clips, _clip_loop(q, quads[i], clips)[0], pts, 0)
                    ej = _put(clips, _clip_loop(q, quads[j], clips)[0], pts, MOST)
                    for k in range(ej - MOST):
                        pts[ei + k, 0], pts[ei + k, 1] = pts[MOST + k, 0], pts[MOST + k, 1]
                    m = ei + ej - MOST
                d = depth(edges, hull_edges(pts, m, cx, cy, 0.5, edges, hulls), 0.0, 0.0)
                if abs(d - (margin - 1e-9)) < delta:
                    v = UNSURE
                    break
                if d < margin - 1e-9:
                    v = TIPS
                    break
            # its weight passed down (balance.try_add), each stick beneath checked
            first_loads(i, j, cx, cy, weight, gix, giy, gjx, gjy, sticks, df, dmx, dmy, inside,
                        sh)  # fmt: skip
            falls = pass_down(lev + 1, sticks, level, sup, cont, poly, npoly, load,
                              margin - 1e-9, delta, df, dmx, dmy, inside, sh)  # fmt: skip
            v = LEGAL if falls == -1 else UNSURE if falls == -2 else REFUSED
            break
        out[r] = v
        if v == LEGAL and b >= 0:
            mark[b] = 2


_CROSS_SIN = 0.05
"""`_bands_cross` leaves bands nearer parallel than this (sine) to the clipper."""
_CROSS_ROOM = 1e-6
"""mm: `_bands_cross` takes a crossing only with this much room inside both lengths."""


@numba.njit(cache=True, error_model="numpy", inline="always")
def _bands_cross(  # noqa: PLR0917 - a pose, a support, where to write
    cx: float, cy: float, ux: float, uy: float, h: float,
    dx: float, dy: float, vx: float, vy: float, k: float, pts: Array, at: int,
) -> int:  # fmt: skip
    """The contact of a pose with a support when their bands (both `W` half-wide) cross
    wholly, each within the other's length: the parallelogram of the four crossings of their
    sides, written at pts[at:at + 4], its centroid (where the centre lines cross, the
    parallelogram being symmetric about it) at pts[at + 4]; returns at + 4. Its area, (2 W)² /
    |sin|, is 36 mm² or more, so the rest holds. Else (bands near parallel, or a corner of the
    parallelogram within `_CROSS_ROOM` of an end or beyond) returns `at`: the caller clips.
    The points are the clipper's to rounding (the judge's bands, 1e-6, absorb it): most pile
    poses bridge their supports across, and this costs a fraction of a clip."""
    sn = ux * vy - uy * vx
    if abs(sn) < _CROSS_SIN:
        return at
    nx, ny, mx, my = -uy, ux, -vy, vx
    cn, dm = nx * cx + ny * cy, mx * dx + my * dy
    for t in range(5):
        a = 0.0 if t == 4 else (_W if (t + 1) % 4 < 2 else -_W)  # corners t = 0 and 3
        b = 0.0 if t == 4 else (_W if t < 2 else -_W)
        r1, r2 = cn + a, dm + b
        px, py = (r1 * my - r2 * ny) / sn, (nx * r2 - mx * r1) / sn
        if t < 4:
            ex, ey = px - cx, py - cy
            fx, fy = px - dx, py - dy
            if (abs(ex * ux + ey * uy) > h - _CROSS_ROOM
                    or abs(fx * vx + fy * vy) > k - _CROSS_ROOM):  # fmt: skip
                return at
        pts[at + t, 0], pts[at + t, 1] = px, py
    return at + 4


@numba.njit(cache=True, error_model="numpy", inline="always")
def _reach_along(  # noqa: PLR0917 - the supports, the pose
    quads: Array, i: int, j: int, cx: float, cy: float, ux: float, uy: float, half: float
) -> float:  # fmt: skip
    """An upper bound on how far the pose's contacts with supports i and j reach to either end
    of it from its centre (the lesser end), without clipping: a contact lies within the
    support's footprint and the pose's band (|across| <= W), so its extent along the pose is
    within that of their intersection, a convex polygon whose corners are the footprint's
    corners inside the band and its edges' crossings of the band's lines (and within the
    pose's half-length)."""
    hi, lo = -np.inf, np.inf
    for t in range(2):
        s = i if t == 0 else j
        x, y = quads[s, 3, 0] - cx, quads[s, 3, 1] - cy
        au, av = x * ux + y * uy, y * ux - x * uy
        for k in range(4):
            x, y = quads[s, k, 0] - cx, quads[s, k, 1] - cy
            bu, bv = x * ux + y * uy, y * ux - x * uy
            if -_W <= bv <= _W:
                hi, lo = max(hi, bu), min(lo, bu)
            if (av - _W) * (bv - _W) < 0.0:
                u = au + (_W - av) / (bv - av) * (bu - au)
                hi, lo = max(hi, u), min(lo, u)
            if (av + _W) * (bv + _W) < 0.0:
                u = au + (-_W - av) / (bv - av) * (bu - au)
                hi, lo = max(hi, u), min(lo, u)
            au, av = bu, bv
    return min(hi, half, -max(lo, -half))


@numba.njit(cache=True, error_model="numpy")
def _put(clips: Array, m: int, pts: Array, at: int) -> int:
    """The m vertices `_clip_loop` left in clips[0:2, :m] written as points from pts[at] on
    (as `clip_both` writes them); returns at + m."""
    for k in range(m):
        pts[at + k, 0], pts[at + k, 1] = clips[0, k], clips[1, k]
    return at + m


@numba.njit(cache=True, error_model="numpy")
def _row_poses(  # noqa: PLR0917 - pool rows, their pairs, the poses' axes, halves, weights
    rows: npt.NDArray[np.int64], pairs: npt.NDArray[np.int64], key: npt.NDArray[np.int64],
    poses: npt.NDArray[np.int64], bins: npt.NDArray[np.int64], axes: Array, halves: Array,
    weights: Array,
) -> tuple[Array, npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # fmt: skip
    """Pool rows (their pairs `pairs`) as `_verdicts` reads poses: (cx, cy, ux, uy, half,
    weight) built as the rules build them (x10 / 10, `axes[a10]`), their supports, their
    bins."""
    n = len(rows)
    pose = np.empty((n, 6))
    pi = np.empty(n, dtype=np.int64)
    pj = np.empty(n, dtype=np.int64)
    pb = np.empty(n, dtype=np.int64)
    for t in range(n):
        r, p = rows[t], pairs[t]
        c, a10 = poses[r, 0], poses[r, 3]
        pose[t, 0], pose[t, 1] = poses[r, 1] / 10, poses[r, 2] / 10
        pose[t, 2], pose[t, 3] = axes[a10, 0], axes[a10, 1]
        pose[t, 4], pose[t, 5] = halves[c], weights[c]
        pi[t], pj[t], pb[t] = key[p, 2], key[p, 3], bins[r]
    return pose, pi, pj, pb


@numba.njit(cache=True, error_model="numpy", inline="always")
def _short_of(pts: Array, m: int, cx: float, cy: float, ux: float, uy: float) -> float:  # noqa: PLR0917
    """An upper bound on how far (cx, cy) lies inside the hull of pts[:m] (-inf if m is 0):
    the hull lies within the points' extents along (ux, uy) and across it, so a centre inside
    it lies no deeper than its room to each end of those (outside, it lies at no depth). When
    this is short of the margin by more than `judge_piles`' delta and some rounding, the rules
    refuse the pose whatever the hull's edges are to the last bit: `_verdicts` refuses it
    without building the hull (most poses it refuses)."""
    lo_u = lo_v = np.inf
    hi_u = hi_v = -np.inf
    for k in range(m):
        px, py = pts[k, 0] - cx, pts[k, 1] - cy
        a, b = px * ux + py * uy, py * ux - px * uy
        lo_u, hi_u = min(lo_u, a), max(hi_u, a)
        lo_v, hi_v = min(lo_v, b), max(hi_v, b)
    return min(hi_u, -lo_u, hi_v, -lo_v)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _deep_in(pts: Array, ei: int, m: int, cx: float, cy: float, ux: float, uy: float) -> float:  # noqa: PLR0917
    """A lower bound on how far (cx, cy) lies inside the hull of pts[:m] (-inf if none is
    found): the quadrilateral of the two contacts' (pts[:ei], pts[ei:m]) points farthest to
    either side across the stick (ux, uy) lies within the hull, and when it is convex and
    counter-clockwise, the centre's depth in it is its least distance to its four edges. When
    this exceeds the margin by more than `judge_piles`' delta and some rounding, the rules'
    support polygon holds the centre that deep whatever its edges are to the last bit:
    `_verdicts` passes the weight down without building the hull."""
    if ei in (0, m):
        return -np.inf
    alo = ahi = blo = bhi = 0
    for side in range(2):
        a, b = (0, ei) if side == 0 else (ei, m)
        vlo, vhi, klo, khi = np.inf, -np.inf, a, a
        for k in range(a, b):
            v = (pts[k, 1] - cy) * ux - (pts[k, 0] - cx) * uy
            if v < vlo:
                vlo, klo = v, k
            if v > vhi:
                vhi, khi = v, k
        if side == 0:
            alo, ahi = klo, khi
        else:
            blo, bhi = klo, khi
    # the contact on the stick's near side (-u) first, then the other: one order is the
    # counter-clockwise one
    return max(_depth4(pts, alo, blo, bhi, ahi, cx, cy), _depth4(pts, blo, alo, ahi, bhi, cx, cy))


@numba.njit(cache=True, error_model="numpy", inline="always")
def _depth4(pts: Array, p0: int, p1: int, p2: int, p3: int, cx: float, cy: float) -> float:  # noqa: PLR0917
    """How far (cx, cy) lies inside the quadrilateral of points p0..p3 of `pts` (the least
    distance to its edges), -inf unless it is strictly convex and counter-clockwise."""
    out = np.inf
    for e in range(4):
        p = p0 if e == 0 else p1 if e == 1 else p2 if e == 2 else p3
        q = p1 if e == 0 else p2 if e == 1 else p3 if e == 2 else p0
        r = p2 if e == 0 else p3 if e == 1 else p0 if e == 2 else p1
        ex, ey = pts[q, 0] - pts[p, 0], pts[q, 1] - pts[p, 1]
        if not ex * (pts[r, 1] - pts[q, 1]) - ey * (pts[r, 0] - pts[q, 0]) > 0.0:
            return -np.inf
        out = min(out, (ex * (cy - pts[p, 1]) - ey * (cx - pts[p, 0])) / (ex * ex + ey * ey) ** 0.5)
    return out


@numba.njit(cache=True)
def alive(live: npt.NDArray[np.int64], first: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The bins of `live` (ascending) whose `first` still holds a wood pose: a memo's `live`
    brought up to its `first` (sticks only take wood away, so no other bin gains one)."""
    out = np.empty(len(live), dtype=np.int64)
    m = 0
    for b in live:
        if first[b] >= 0:
            out[m] = b
            m += 1
    return out[:m]


@numba.njit(cache=True)
def _marks(
    live: npt.NDArray[np.int64], supply: npt.NDArray[np.int64], per_colour: int,
    candidates: npt.NDArray[np.int64], piles: npt.NDArray[np.int64],
) -> npt.NDArray[np.int8]:  # fmt: skip
    """The mask, a byte per id (`pass` last, 0): the bins of `live` (holding a wood pose,
    ascending, kept along the game by `alive`: some 1,500 on average of the 14,040) in a colour
    of `supply`, the candidates' bins and the pile bins `piles`. A byte array, not a list of
    ids: the adapters' masks copy it whole, and listing the ids in order cost a merge."""
    out = np.zeros(per_colour * len(supply) + 1, dtype=np.int8)
    ends = np.searchsorted(live, np.arange(len(supply) + 1) * per_colour)
    for c in range(len(supply)):
        if supply[c] > 0:
            for t in range(ends[c], ends[c + 1]):
                out[live[t]] = 1
    for b in candidates:
        out[b] = 1
    for b in piles:
        out[b] = 1
    return out


@numba.njit(cache=True, error_model="numpy")
def exist(  # noqa: PLR0917 - the pool, the wood, the candidates, marks, the balance model
    met: npt.NDArray[np.int64], key: npt.NDArray[np.int64], span: npt.NDArray[np.int64],
    taken: npt.NDArray[np.int64], bins: npt.NDArray[np.int64], verdict: npt.NDArray[np.int8],
    poses: npt.NDArray[np.int64], first: npt.NDArray[np.int64],
    live: npt.NDArray[np.int64], supply: npt.NDArray[np.int64],
    candidates: npt.NDArray[np.int64], mark: npt.NDArray[np.int8],
    axes: Array, halves: Array, weights: Array,
    sticks: Array, quads: Array, level: npt.NDArray[np.int64], sup: npt.NDArray[np.int64],
    cont: Array, poly: Array, npoly: npt.NDArray[np.int64], load: Array,
    tol: float, rest: float, margin: float, delta: float,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], int]:  # fmt: skip
    """A step's mask in one call: the bins holding a wood pose (`first`: per bin its first
    wood pose no stick touches; in a colour of `supply`), a candidate (`candidates`: their
    bins, ascending) or a legal pile pose: a row of the pairs `met` that no stick takes and
    that is legal (`verdict[row]` 1, or judged so now: `_verdicts`, the verdict written into
    `verdict`). Only whether such a row exists is sought, and only in the bins holding neither
    a candidate nor a wood pose (elsewhere the bin is in the mask anyway): the known-legal rows
    first (one pass over the rows, most bins keep theirs from step to step), then the
    unjudged ones until each bin has one. Which row a bin plays is `snap_row`'s, when its id
    is played. The rows' poses (colour, x10, y10, a10) are built as the rules build them
    (x10 / 10, `axes[a10]`; `halves`, `weights` per colour).

    Returns (marks, unsure, judged): when rows of bins still undecided at the end were ones
    `_verdicts` is unsure of, no marks and those rows (the caller judges them by the rules,
    writes their verdicts into `verdict` and calls again); else the mask (`_marks`: a byte per
    id) and no unsure row. `judged`: the rows judged. `mark` (zeros, a slot per bin) is left
    zero."""
    per_colour = len(first) // len(supply)
    for b in candidates:
        mark[b] = 1
    total = 0
    for p in met:
        total += span[p, 1] - span[p, 0]
    found = np.empty(total, dtype=np.int64)
    pend = np.empty(total, dtype=np.int64)
    pend_pair = np.empty(total, dtype=np.int64)
    nf = npend = 0
    for p in met:
        for r in range(span[p, 0], span[p, 1]):
            if taken[r] != ALIVE:
                continue
            v = verdict[r]
            if v >= REFUSED:
                continue
            b = bins[r]
            if mark[b] != 0:
                continue
            f = first[b]
            if f >= 0 and supply[b // per_colour] > 0:
                continue
            if v == LEGAL:
                mark[b] = 2
                found[nf] = b
                nf += 1
            else:
                pend[npend], pend_pair[npend] = r, p
                npend += 1
    unsure = np.empty(npend, dtype=np.int64)
    nu = judged = 0
    if npend:  # in order, each bin's rows until one is legal (`_verdicts` marks its bin)
        pose, pi, pj, pb = _row_poses(pend[:npend], pend_pair[:npend], key, poses, bins, axes,
                                      halves, weights)  # fmt: skip
        got = np.empty(npend, dtype=np.int8)
        _verdicts(pose, pi, pj, pb, mark, True, False, sticks, quads, level, sup, cont, poly,
                  npoly, load, tol, rest, margin, delta, balance_scratch(len(level)),
                  got)  # fmt: skip
        for t in range(npend):
            v = got[t]
            if v == SKIPPED:
                continue
            r = pend[t]
            if v == UNSURE:
                unsure[nu] = r
                nu += 1
                continue
            verdict[r] = v
            judged += 1
            if v == LEGAL:
                found[nf] = bins[r]
                nf += 1
    m = 0
    for t in range(nu):  # an unsure row matters only in a bin left undecided
        if mark[bins[unsure[t]]] == 0:
            unsure[m] = unsure[t]
            m += 1
    for b in candidates:
        mark[b] = 0
    for t in range(nf):
        mark[found[t]] = 0
    if m:
        return np.empty(0, dtype=np.int8), unsure[:m], judged
    return _marks(live, supply, per_colour, candidates, found[:nf]), unsure[:0], judged


@numba.njit(cache=True, error_model="numpy")
def snap_row(  # noqa: PLR0917 - a bin, the pool, the balance model
    b: int, limit: int, met: npt.NDArray[np.int64], key: npt.NDArray[np.int64],
    span: npt.NDArray[np.int64], taken: npt.NDArray[np.int64], bins: npt.NDArray[np.int64],
    ranks: npt.NDArray[np.int64], verdict: npt.NDArray[np.int8], poses: npt.NDArray[np.int64],
    axes: Array, halves: Array, weights: Array,
    sticks: Array, quads: Array, level: npt.NDArray[np.int64], sup: npt.NDArray[np.int64],
    cont: Array, poly: Array, npoly: npt.NDArray[np.int64], load: Array,
    tol: float, rest: float, margin: float, delta: float,
) -> tuple[int, int]:  # fmt: skip
    """Bin b's pile snap: its first legal row in snap order (rank, then the order met: the
    pairs `met` in the search's order (colour, level, i, j), each pair's rows in order) among
    the rows no stick takes ranked below `limit` (the rank of the bin's wood pose, or no
    bound), unjudged rows judged on the way (`_verdicts`, verdicts written into `verdict`).
    Returns (row, -1), row -1 when the bin holds none; or (-1, row) when `_verdicts` is
    unsure of the row next in line (the caller judges it by the rules and calls again)."""
    order = np.empty(len(met), dtype=np.int64)
    total = 0
    for t in range(len(met)):
        p = met[t]
        order[t] = ((key[p, 0] * 4096 + key[p, 1]) * 4096 + key[p, 2]) * 4096 + key[p, 3]
        total += span[p, 1] - span[p, 0]
    rows = np.empty(total, dtype=np.int64)
    pairs = np.empty(total, dtype=np.int64)
    n = 0
    for t in np.argsort(order, kind="mergesort"):
        p = met[t]
        for r in range(span[p, 0], span[p, 1]):
            if bins[r] == b and taken[r] == ALIVE and ranks[r] < limit and verdict[r] < REFUSED:
                rows[n], pairs[n] = r, p
                n += 1
    scratch = balance_scratch(len(level))
    one = np.empty(1, dtype=np.int64)
    none, nomark, got = np.full(1, -1, np.int64), np.zeros(0, np.int8), np.empty(1, np.int8)
    while True:
        best, best_k = -1, limit
        for t in range(n):
            r = rows[t]
            if ranks[r] < best_k and verdict[r] < REFUSED:
                best, best_k = t, ranks[r]
        if best < 0:
            return -1, -1
        r, p = rows[best], pairs[best]
        v = verdict[r]
        if v == 0:
            one[0] = r
            pose, pi, pj, _ = _row_poses(one, pairs[best : best + 1], key, poses, bins, axes,
                                         halves, weights)  # fmt: skip
            _verdicts(pose, pi, pj, none, nomark, True, False, sticks, quads, level, sup, cont,
                      poly, npoly, load, tol, rest, margin, delta, scratch, got)  # fmt: skip
            v = got[0]
            if v == UNSURE:
                return -1, r
            verdict[r] = v
        if v == LEGAL:
            return r, -1


@numba.njit(cache=True)
def lattice_rows(
    colour: int, ints: npt.NDArray[np.int64], grid: npt.NDArray[np.int64],
    table: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # fmt: skip
    """`pair_keep`'s poses (x index, y index, angle index) as `ids` keeps them: rows of
    (colour, x10, y10, a10), their bins (`ids._bins`) and snap ranks (`ids._ranks`, rank
    `table`), in integers with Python's floor division (`_lattice_rows_into`)."""
    m = len(ints)
    poses = np.empty((m, 4), dtype=np.int64)
    poses[:, 1:] = ints
    bins = np.empty(m, dtype=np.int64)
    ranks = np.empty(m, dtype=np.int64)
    _lattice_rows_into(colour, poses, bins, ranks, 0, m, grid, table)
    return poses, bins, ranks


@numba.njit(cache=True)
def _lattice_rows_into(  # noqa: PLR0917 - the rows, their colour, the squares
    colour: int, poses: npt.NDArray[np.int64], bins: npt.NDArray[np.int64],
    ranks: npt.NDArray[np.int64], lo: int, hi: int, grid: npt.NDArray[np.int64],
    table: npt.NDArray[np.int64],
) -> None:  # fmt: skip
    """Rows lo to hi - 1 of `lattice_rows`' arrays, from the lattice indices (x, y, angle) in
    columns 1-3 of `poses`. `grid`: the search's steps and the squares (step10, astep10, x0,
    y0, bin10, abin10, x bins, y bins, angle bins), the squares' corner and sides multiples
    of the steps (ids.py), so every quantity is counted in lattice steps: a bin is `per`
    steps, and the rows of a pair, in lattice order (angle, x, y), update the y bin and the
    place in it by counting up a column, without an integer division a row (the divisions
    were three quarters of the rows' cost); any other order is divided afresh."""
    step, astep, b10, ab10 = grid[0], grid[1], grid[4], grid[5]
    xbins, ybins, abins = grid[6], grid[7], grid[8]
    per, per_a = b10 // step, ab10 // astep
    kx0, ky0 = grid[2] // step, grid[3] // step
    xlast, ylast = xbins * per - 1, ybins * per - 1
    size = table.size
    ia_at = ix_at = iy_at = -(1 << 62)
    ab = ai = xb = xi = x_out = yq = yi = 0
    for r in range(lo, hi):
        ix, iy, ia = poses[r, 1], poses[r, 2], poses[r, 3]
        if ia != ia_at:
            ab, ai = ia // per_a, ia % per_a
        if ix != ix_at or ia != ia_at:
            kx = ix - kx0
            xb = min(max(kx // per, 0), xbins - 1)
            xi = kx % per
            x_out = max(0, -kx, kx - xlast)
            iy_at = -(1 << 62)
        ky = iy - ky0
        if 0 <= iy - iy_at <= 4 * per:  # up the column: count on
            yi += iy - iy_at
            while yi >= per:
                yi -= per
                yq += 1
        else:
            yq, yi = ky // per, ky % per
        ia_at, ix_at, iy_at = ia, ix, iy
        poses[r, 0], poses[r, 1], poses[r, 2], poses[r, 3] = (
            colour,
            ix * step,
            iy * step,
            ia * astep,
        )
        yb = min(max(yq, 0), ybins - 1)
        bins[r] = ((colour * abins + ab) * xbins + xb) * ybins + yb
        ranks[r] = table[ai, xi, yi] + size * max(x_out, -ky, ky - ylast)


@numba.njit(cache=True)
def _columns(lay: Array) -> tuple[Array, Array, Array, Array, Array]:
    """The layout's rows (cx, cy, ux, uy, half) as the contiguous columns `touches_any` reads."""
    return (lay[:, 0].copy(), lay[:, 1].copy(), lay[:, 2].copy(), lay[:, 3].copy(),
            lay[:, 4].copy())  # fmt: skip


@numba.njit(cache=True)
def touching_rows(  # noqa: PLR0917 - poses, sticks
    x: Array, y: Array, ux: Array, uy: Array, h: float, reach_p: float,
    rows: npt.NDArray[np.int64], lay: Array, quads: Array, lreach: Array, tol: float, deep: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Which poses (all of half-length h) touch one of the sticks `rows` of the layout `lay`
    (rows of cx, cy, ux, uy, half; footprints `quads`, circumscribed radii `lreach`): `touching`
    on whole arrays."""
    out = np.zeros(len(x), dtype=np.bool_)
    q = np.empty((4, 2))
    work = np.empty(WORK)
    lx, ly, lux, luy, lh = _columns(lay)
    for n in range(len(x)):
        out[n] = touches_any(x[n], y[n], ux[n], uy[n], h, reach_p, rows, lx, ly, lux, luy, lh,
                             quads, lreach, deep, tol, q, work)  # fmt: skip
    return out


ALIVE = np.iinfo(np.int64).max
"""A pool row no stick takes (`catch_up`: else the index of the first stick that takes it)."""


@numba.njit(cache=True)
def cones(stamps: npt.NDArray[np.int64], sup: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per stick, the newest of its stamp (`stamps`) and those of every stick beneath it (its
    supports `sup`, -1: none, lie before it)."""
    out = stamps.copy()
    for k in range(len(out)):
        for t in (sup[k, 0], sup[k, 1]):
            if t >= 0 and out[t] > out[k]:
                out[k] = out[t]
    return out


@numba.njit(cache=True)
def pairs_due(  # noqa: PLR0917 - the pairs in reach, the sticks, the player, the pool's index
    reach: npt.NDArray[np.int64], colour: npt.NDArray[np.int64], level: npt.NDArray[np.int64],
    carries: npt.NDArray[np.int64], floor: int, supply: npt.NDArray[np.int64],
    index: npt.NDArray[np.int64], dead: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # fmt: skip
    """The pairs the search would try now, of the pairs in reach (rows of `reach`: colour,
    level, i, j): a colour in the supply, differing from both sticks' and carried by neither,
    their level at or above the floor less one, not dead. Returns (met, new): the pool's ids of
    those met before (`index[i, j, colour]`), and the rows of `reach` of those never met."""
    met = np.empty(len(reach), dtype=np.int64)
    new = np.empty(len(reach), dtype=np.int64)
    nm = nn = 0
    for r in range(len(reach)):
        c, i, j = reach[r, 0], reach[r, 2], reach[r, 3]
        if supply[c] <= 0 or dead[i, j, c]:
            continue
        ok = True
        for s in (i, j):
            if level[s] + 1 < floor or colour[s] == c or (carries[s] >> c) & 1:
                ok = False
        if not ok:
            continue
        p = index[i, j, c]
        if p < 0:
            new[nn] = r
            nn += 1
        else:
            met[nm] = p
            nm += 1
    return met[:nm], new[:nn]


@numba.njit(cache=True)
def _box_left(  # noqa: PLR0917 - a pair's rows, their half-length, its box
    lo: int, hi: int, h: float, frame: Array, taken: npt.NDArray[np.int64], box: Array, p: int
) -> None:
    """box[p] (x0, x1, y0, y1): the bounding box of the footprints (half-length h) of rows lo to
    hi - 1 that no stick took (empty: x0 > x1)."""
    x0 = y0 = np.inf
    x1 = y1 = -np.inf
    for r in range(lo, hi):
        if taken[r] == ALIVE:
            x, y, ux, uy = frame[r, 0], frame[r, 1], abs(frame[r, 2]), abs(frame[r, 3])
            ex, ey = h * ux + _W * uy, h * uy + _W * ux
            x0, x1 = min(x0, x - ex), max(x1, x + ex)
            y0, y1 = min(y0, y - ey), max(y1, y + ey)
    box[p, 0], box[p, 1], box[p, 2], box[p, 3] = x0, x1, y0, y1


@numba.njit(cache=True)
def catch_up(  # noqa: PLR0917 - the pool's pairs and rows, the sticks, the stamps
    met: npt.NDArray[np.int64], key: npt.NDArray[np.int64], span: npt.NDArray[np.int64],
    count: npt.NDArray[np.int64], stamp: npt.NDArray[np.int64], box: Array, halves: Array,
    frame: Array, taken: npt.NDArray[np.int64], verdict: npt.NDArray[np.int8],
    levels: npt.NDArray[np.int64], lay: Array, quads: Array, lreach: Array,
    cones: npt.NDArray[np.int64], tol: float, deep: float,
) -> None:  # fmt: skip
    """Bring the pool's pairs `met` (rows of `key`: colour, level, i, j; their rows span[p, 0]
    to span[p, 1]) up to all the sticks: only the sticks from count[p] on, of the pair's level
    or above, are tested against its rows left (a new stick only takes poses away), and a row
    taken gets the index of the first stick that takes it (`taken`, else ALIVE). A pose
    overlaps both its supports, so a stick farther from either than the pose's circle can reach
    across, beyond both circles, touches none of the pair's poses: skipped; so is a stick whose
    bounding box misses the box of the pair's rows left (`box[p]`, kept here: found from the
    rows when NaN, found again whenever the rows are tried; empty when none is left). Each row
    is tried as `wood_first` tries a pose (`_touch_sure`, `_rest_sure`, `_clips_over`), on
    scalars: the compiled `touches_any` inlined here counted references to its nine arrays at
    every row and stick (3.4 times as slow). Then a pair whose supports' cone stamp (`cones`:
    max over i, j) changed forgets its verdicts."""
    q = np.empty((4, 2))
    work = np.empty(WORK)
    n = len(levels)
    rows = np.empty(n, dtype=np.int64)
    top = np.empty(n + 1, dtype=np.int64)  # the highest level from k on
    top[n] = -1
    for k in range(n - 1, -1, -1):
        top[k] = max(top[k + 1], levels[k])
    for p in met:
        lev, i, j = key[p, 1], key[p, 2], key[p, 3]
        lo, hi = span[p, 0], span[p, 1]
        since = count[p]
        h = halves[key[p, 0]]
        if since < n and top[since] >= lev and lo < hi:
            reach_p = (h * h + _W * _W) ** 0.5
            if np.isnan(box[p, 0]):
                _box_left(lo, hi, h, frame, taken, box, p)
            m = 0
            for k in range(since, n):
                if levels[k] < lev:
                    continue
                near = True
                for b in (i, j):
                    far = lreach[k] + 2 * reach_p + lreach[b] + 1e-6
                    ex, ey = lay[k, 0] - lay[b, 0], lay[k, 1] - lay[b, 1]
                    if ex * ex + ey * ey >= far * far:
                        near = False
                # a stick touching a pose overlaps it: their bounding boxes meet
                ex = lay[k, 4] * abs(lay[k, 2]) + _W * abs(lay[k, 3]) + 1e-6
                ey = lay[k, 4] * abs(lay[k, 3]) + _W * abs(lay[k, 2]) + 1e-6
                if (near and lay[k, 0] - ex < box[p, 1] and lay[k, 0] + ex > box[p, 0]
                        and lay[k, 1] - ey < box[p, 3] and lay[k, 1] + ey > box[p, 2]):  # fmt: skip
                    rows[m] = k
                    m += 1
            for r in range(lo, hi if m else lo):
                if taken[r] != ALIVE:
                    continue
                x, y, ux, uy = frame[r, 0], frame[r, 1], frame[r, 2], frame[r, 3]
                for t in range(m):  # the first stick that takes it
                    k = rows[t]
                    far = reach_p + lreach[k] + 1e-6
                    got = _touch_sure(x, y, ux, uy, h, lay[k, 0], lay[k, 1], lay[k, 2],
                                      lay[k, 3], lay[k, 4], far, deep)  # fmt: skip
                    if got < 0:  # near the tolerance: sure by the bounds, else clipped
                        sure = _rest_sure(x, y, ux, uy, h, lay[k, 0], lay[k, 1], lay[k, 2],
                                          lay[k, 3], lay[k, 4], tol)  # fmt: skip
                        got = int(sure > 0 or (sure == 0 and _clips_over(
                            x, y, ux, uy, h, quads, k, tol, q, work)))  # fmt: skip
                    if got > 0:
                        taken[r] = k
                        break
            if m:
                _box_left(lo, hi, h, frame, taken, box, p)
        count[p] = max(since, n)
        cone = max(cones[i], cones[j])
        if stamp[p] != cone:
            stamp[p] = cone
            for r in range(lo, hi):
                if verdict[r] != TIPS:
                    verdict[r] = 0


@numba.njit(cache=True)
def _slabs(  # noqa: PLR0917 - a pose's axis and half-length, the supports, the filters
    cu: float, su: float, h: float, sup: Array, inset: float, rest: float, out: Array
) -> bool:
    """Per support and axis of the separating-axis test (the pose's axis and its normal, the
    support's and its normal), the slab |axis . (support - pose)| < bound holding every pose
    of the axis (cu, su) that may rest `rest` mm² on the support: into out[s, t] as (axis x,
    axis y, bound). Two bounds, the tighter taken: the test of `meet` with both footprints
    shrunk by `inset` (as `pair_keep` calls it), and the rest's. Along an axis the overlap
    spans at most the footprints' overlap along it (the bound of `meet` unshrunk, less the
    offset), across it at most 2 W, so that span must reach rest / 2 W (`_box_short`'s
    boxes); across a footprint's normal the other footprint's part within its band (which
    holds the overlap) is at most the band's width in the other's projection, whose density
    is at most min(2 half / |cos|, 2 W / |sin|) (`_band_area`'s trapezoid), times it.
    Returns whether every rest bound lies 1e-3 mm or more inside the shrunk test's (with the
    sizes of the game, always, by 0.1 mm at least): then a centre within the slabs (and
    `_overlap_span`'s 1e-6 of widening) surely passes `meet` with both footprints shrunk."""
    hh, ww = h - inset, _W - inset
    need = rest - _SURE
    inside = True
    for s in range(2):
        vx, vy, k = sup[s, 2], sup[s, 3], sup[s, 4]
        kk = k - inset
        c = abs(cu * vx + su * vy)
        sn = abs(cu * vy - su * vx)
        along = need / (2 * _W)
        for t in range(4):
            if t == 0:  # the support's centre along the pose's axis
                ax, ay = cu, su
                shrunk, rests = hh + kk * c + ww * sn, h + k * c + _W * sn - along
            elif t == 1:  # the support's centre across the pose's axis
                ax, ay = -su, cu
                band = need * max(c / (2 * k), sn / (2 * _W))
                shrunk, rests = ww + kk * sn + ww * c, _W + k * sn + _W * c - band
            elif t == 2:  # the pose's centre along the support's axis
                ax, ay = vx, vy
                shrunk, rests = kk + hh * c + ww * sn, k + h * c + _W * sn - along
            else:  # the pose's centre across the support's axis
                ax, ay = -vy, vx
                band = need * max(c / (2 * h), sn / (2 * _W))
                shrunk, rests = ww + hh * sn + ww * c, _W + h * sn + _W * c - band
            inside = inside and rests <= shrunk - 1e-3
            out[s, t, 0], out[s, t, 1], out[s, t, 2] = ax, ay, min(shrunk, rests) + 1e-6
    return inside


@numba.njit(cache=True)
def _slab_box(sup: Array, slabs: Array) -> tuple[float, float, float, float]:
    """The bounding box (x lo, x hi, y lo, y hi) of the centres within every slab of `_slabs`
    (lo above hi: none): the slabs across the pose's axis and along it (t 0 and 1) of both
    supports share their axes, so they meet in one rectangle in the pose's frame, whose box is
    much smaller than the two supports' boxes at a slant; each support's two slabs of its own
    frame (t 2 and 3) cross at right angles, in a rectangle about its centre."""
    ux, uy, nx, ny = slabs[0, 0, 0], slabs[0, 0, 1], slabs[0, 1, 0], slabs[0, 1, 1]
    u0 = n0 = -np.inf
    u1 = n1 = np.inf
    for s in range(2):
        a, b = sup[s, 0] * ux + sup[s, 1] * uy, sup[s, 0] * nx + sup[s, 1] * ny
        u0, u1 = max(u0, a - slabs[s, 0, 2]), min(u1, a + slabs[s, 0, 2])
        n0, n1 = max(n0, b - slabs[s, 1, 2]), min(n1, b + slabs[s, 1, 2])
    if u0 > u1 or n0 > n1:
        return 1.0, 0.0, 1.0, 0.0
    lo_x = min(u0 * ux, u1 * ux) + min(n0 * nx, n1 * nx)
    hi_x = max(u0 * ux, u1 * ux) + max(n0 * nx, n1 * nx)
    lo_y = min(u0 * uy, u1 * uy) + min(n0 * ny, n1 * ny)
    hi_y = max(u0 * uy, u1 * uy) + max(n0 * ny, n1 * ny)
    for s in range(2):
        b0, b1 = slabs[s, 2, 2], slabs[s, 3, 2]
        rx = b0 * abs(slabs[s, 2, 0]) + b1 * abs(slabs[s, 3, 0])
        ry = b0 * abs(slabs[s, 2, 1]) + b1 * abs(slabs[s, 3, 1])
        lo_x, hi_x = max(lo_x, sup[s, 0] - rx), min(hi_x, sup[s, 0] + rx)
        lo_y, hi_y = max(lo_y, sup[s, 1] - ry), min(hi_y, sup[s, 1] + ry)
    return lo_x, hi_x, lo_y, hi_y


@numba.njit(cache=True)
def _pose_rect(sup: Array, slabs: Array, out: Array) -> None:
    """out[4:8]: the range (u0, u1, n0, n1) of the centres within the slabs across and along
    the pose's axis of both supports (`_slab_box`'s rectangle), along that axis and across it,
    widened by `_WIDEN` (the poses tried lie within 1e-6 of the slabs: `_overlap_span`)."""
    cu, su = slabs[0, 0, 0], slabs[0, 0, 1]
    u0 = n0 = -np.inf
    u1 = n1 = np.inf
    for s in range(2):
        pu = sup[s, 0] * cu + sup[s, 1] * su
        pn = sup[s, 1] * cu - sup[s, 0] * su
        u0, u1 = max(u0, pu - slabs[s, 0, 2]), min(u1, pu + slabs[s, 0, 2])
        n0, n1 = max(n0, pn - slabs[s, 1, 2]), min(n1, pn + slabs[s, 1, 2])
    out[4], out[5], out[6], out[7] = u0 - _WIDEN, u1 + _WIDEN, n0 - _WIDEN, n1 + _WIDEN


_WIDEN = 1e-5
"""mm: how far beyond the slabs' rectangle `_pose_rect` takes it: the poses tried lie at most
1e-6 (and the rounding) outside the slabs (`_overlap_span` widens their runs by that)."""


@numba.njit(cache=True)
def _overlap_span(x: float, sup: Array, slabs: Array, lo: float, hi: float) -> tuple[float, float]:
    """The centres (x, y) with y in [lo, hi] within every slab of `_slabs` (a superset of the
    poses that meet both supports shrunk and may rest on them: the exact tests follow), as an
    interval of y widened by 1e-6."""
    for s in range(2):
        sx, sy = sup[s, 0], sup[s, 1]
        for t in range(4):
            ax, ay, bound = slabs[s, t, 0], slabs[s, t, 1], slabs[s, t, 2]
            base = ax * (sx - x) + ay * sy  # |base - ay * y| < bound
            if abs(ay) < 1e-9:
                if abs(ax * (sx - x)) >= bound:
                    return 1.0, 0.0
                continue
            y0, y1 = (base - bound) / ay, (base + bound) / ay
            if y0 > y1:
                y0, y1 = y1, y0
            lo, hi = max(lo, y0 - 1e-6), min(hi, y1 + 1e-6)
    return lo, hi


@numba.njit(cache=True)
def _may_stand(  # noqa: PLR0917 - a pose, the supports
    x: float, y: float, cu: float, su: float, sup: Array, margin: float
) -> bool:
    """Whether a new stick centred at (x, y) along (cu, su) may stand on the supports (rows of
    `sup`): its centre `margin` inside their extent along its axis (a new stick carries
    nothing, so its centre lies 1 mm inside its support polygon)."""
    lo, hi = np.inf, -np.inf
    for s in range(2):
        d = (sup[s, 0] - x) * cu + (sup[s, 1] - y) * su
        rr = sup[s, 4] * abs(sup[s, 2] * cu + sup[s, 3] * su) + _W * abs(
            sup[s, 2] * su - sup[s, 3] * cu
        )
        lo, hi = min(lo, d - rr), max(hi, d + rr)
    return lo <= -margin and hi >= margin


@numba.njit(cache=True)
def _stand_span(  # noqa: PLR0917 - a line of centres, the axis, the supports, the range
    x: float, cu: float, su: float, sup: Array, margin: float, lo: float, hi: float
) -> tuple[float, float, float, float]:
    """[lo, hi] narrowed to the y of the centres (x, y) that may stand (`pair_keep`'s test: the
    centre `margin` inside the supports' extent along the axis), widened by 1e-6 (the exact
    test follows), and the y where they surely may (narrowed by 1e-6: at least 1e-9 mm from
    the test's thresholds, far above the rounding; the exact test is skipped there). Along
    the axis a support's offset d_s = A_s - y su is linear in y, so "some d_s - r_s <=
    -margin" and "some d_s + r_s >= margin" are each a half-line of y."""
    if abs(su) < 1e-3:  # nearly along x: the offsets hardly move with y
        return lo, hi, np.inf, -np.inf
    low, high = np.inf, -np.inf  # the bounds on y su: y su >= low, y su <= high
    for s in range(2):
        a = (sup[s, 0] - x) * cu + sup[s, 1] * su
        rr = sup[s, 4] * abs(sup[s, 2] * cu + sup[s, 3] * su) + _W * abs(
            sup[s, 2] * su - sup[s, 3] * cu
        )
        low = min(low, a - rr + margin)
        high = max(high, a + rr - margin)
    if su > 0:
        a, b = low / su, high / su
    else:
        a, b = high / su, low / su
    return max(lo, a - 1e-6), min(hi, b + 1e-6), a + 1e-6, b - 1e-6


_SURE = 1e-6
"""mm or mm²: a margin far above the rounding of `clip`'s area (about 1e-12), so a verdict
`_rest_sure` gives with it is the one the clipped area would give."""


@numba.njit(cache=True)
def _span(c: float, r: float, lo: float, hi: float) -> float:
    """The length of [c - r, c + r] within [lo, hi] (0 if they are apart)."""
    return max(min(c + r, hi) - max(c - r, lo), 0.0)


@numba.njit(cache=True)
def _ramp2(x: float) -> float:
    """max(x, 0)² / 2: the area under a unit ramp up to x."""
    return 0.5 * x * x if x > 0.0 else 0.0


_FLAT = 0.05
"""|sin| or |cos| below which `_band_area` does not answer: its closed form divides by both."""


@numba.njit(cache=True)
def _band_area(e: float, sn: float, cs: float, k: float) -> float:
    """The area of {(s, w): |w| <= W, |s| <= k, |e + s sn + w cs| <= W}: a footprint (length
    2 k along s, 2 W across) within another's band (2 W wide, crossing at sin sn, cos cs),
    which holds their overlap; infinity (no bound) when |sn| or |cs| is below `_FLAT`.

    In closed form: with a = |sn|, b = |cs| (the footprint is symmetric), the footprint's area
    where a s + b w <= t is the box function of s convolved with that of w, summed up to t:
    (R(t + ak + bW) - R(t + ak - bW) - R(t - ak + bW) + R(t - ak - bW)) / (a b), R = `_ramp2`;
    the band is that at W - e less that at -W - e. Its rounding (terms of some 10³ mm², divided
    by a b >= `_FLAT`²) stays far below `_SURE`."""
    a, b = abs(sn), abs(cs)
    if a < _FLAT or b < _FLAT:
        return np.inf
    p, q = a * k, b * _W
    total = 0.0
    for t, sign in ((_W - e, 1.0), (-_W - e, -1.0)):
        total += sign * (_ramp2(t + p + q) - _ramp2(t + p - q) - _ramp2(t - p + q)
                         + _ramp2(t - p - q))  # fmt: skip
    return total / (a * b)


@numba.njit(cache=True)
def _box_short(  # noqa: PLR0917 - a pose, a support
    x: float, y: float, cu: float, su: float, h: float, sx: float, sy: float, vx: float,
    vy: float, k: float, rest: float,
) -> bool:  # fmt: skip
    """Whether the overlap of the pose (centre x, y, axis cu, su, half-length h) and the
    support (a row: cx, cy, ux, uy, half) has a bounding box, in either's frame, smaller than
    `rest` less `_SURE` (it cannot rest there): `_rest_sure`'s cheapest refusal, tried on both
    supports before the costlier tests. The support as numbers, not a row of an array: a call
    taking an array counted it (an atomic add and its release) at each call."""
    dx, dy = sx - x, sy - y
    ac, as_ = abs(cu * vx + su * vy), abs(cu * vy - su * vx)
    # the support's frame: the pose's extent along v and across it, within the support's
    pv, pn = -(dx * vx + dy * vy), -(dy * vx - dx * vy)
    box_s = _span(pv, h * ac + _W * as_, -k, k) * _span(pn, h * as_ + _W * ac, -_W, _W)
    # the pose's frame: the support's extent along u and across it, within the pose's
    du, dn = dx * cu + dy * su, dy * cu - dx * su
    box_p = _span(du, k * ac + _W * as_, -h, h) * _span(dn, k * as_ + _W * ac, -_W, _W)
    return min(box_s, box_p) < rest - _SURE


@numba.njit(cache=True)
def _rest_past_box(  # noqa: PLR0917 - a pose, a support
    x: float, y: float, cu: float, su: float, h: float, sx: float, sy: float, vx: float,
    vy: float, k: float, rest: float,
) -> int:  # fmt: skip
    """`_rest_sure` for a pose whose overlap boxes with the support `_box_short` let through."""
    sin = cu * vy - su * vx
    ends = 0
    if abs(sin) >= 0.1 and rest <= 4 * _W * _W - _SURE:
        ends = _crossing(x, y, cu, su, h, sx, sy, vx, vy, k, cu * vx + su * vy, sin)
    return _rest_by_ends(x, y, cu, su, h, sx, sy, vx, vy, k, rest, ends)


@numba.njit(cache=True)
def _rest_by_ends(  # noqa: PLR0917 - a pose, a support, where their bands cross
    x: float, y: float, cu: float, su: float, h: float, sx: float, sy: float, vx: float,
    vy: float, k: float, rest: float, ends: int,
) -> int:  # fmt: skip
    """`_rest_past_box` once `_crossing`'s answer `ends` is known (or fewer of its bits: 0 when
    |sin| < 0.1, where the crossing is not tried): 3 accepts; within one length only, the
    other's band area decides where sure; else the band areas refuse where sure, and accept
    where their sum less the bands' parallelogram is sure (it bounds the overlap from below:
    the clip it saves is some 60% of those the new pairs made)."""
    if ends == 3:
        return 1  # the overlap is the whole parallelogram: both band areas hold it
    dx, dy = sx - x, sy - y
    cos = cu * vx + su * vy
    sin = cu * vy - su * vx
    dn = dy * cu - dx * su
    # the pose's part within the support's band, and the support's within the pose's (-1:
    # not yet computed); the parallelogram within the support's length: the overlap is the
    # pose's part within the support's band; within the pose's length, the support's within
    # the pose's
    pose_in = sup_in = -1.0
    if ends & 2:
        pose_in = _band_area(-(dy * vx - dx * vy), -sin, cos, h)
        if rest + _SURE <= pose_in < np.inf:
            return 1
    elif ends & 1:
        sup_in = _band_area(dn, sin, cos, k)
        if rest + _SURE <= sup_in < np.inf:
            return 1
    if pose_in < 0.0:
        pose_in = _band_area(-(dy * vx - dx * vy), -sin, cos, h)
    if pose_in < rest - _SURE:
        return -1  # the pose's part within the support's band is too little
    if sup_in < 0.0:
        sup_in = _band_area(dn, sin, cos, k)
    if sup_in < rest - _SURE:
        return -1
    # both parts lie in the bands' parallelogram ((2 W)² / |sin|) and meet in the overlap, so
    # the overlap is at least their sum less the parallelogram (exact where the ends of the
    # two sticks cut off parts of it apart; no bound within `_FLAT` of parallel or square)
    if sup_in < np.inf and pose_in + sup_in - 4 * _W * _W / abs(sin) >= rest + _SURE:
        return 1
    return 0


@numba.njit(cache=True)
def _overlap_bound(  # noqa: PLR0917 - a pose, a stick
    x: float, y: float, cu: float, su: float, h: float, sx: float, sy: float, vx: float,
    vy: float, k: float,
) -> float:  # fmt: skip
    """An upper bound on the overlap area of the pose and the stick (centre sx, sy, axis vx, vy,
    half-length k): the lesser of either's part within the other's band (`_band_area`)."""
    dx, dy = sx - x, sy - y
    cos = cu * vx + su * vy
    sin = cu * vy - su * vx
    return min(_band_area(-(dy * vx - dx * vy), -sin, cos, h),
               _band_area(dy * cu - dx * su, sin, cos, k))  # fmt: skip


@numba.njit(cache=True)
def _rest_sure(  # noqa: PLR0917 - a pose, a support
    x: float, y: float, cu: float, su: float, h: float, sx: float, sy: float, vx: float,
    vy: float, k: float, rest: float,
) -> int:  # fmt: skip
    """Whether the pose (centre x, y, axis cu, su, half-length h) rests at least `rest` mm² on
    the support (a row: cx, cy, ux, uy, half), decided without clipping where it is sure: 1 when
    the two bands (each 2 W wide) cross wholly within both lengths (the overlap is then their
    parallelogram, (2 W)² / |sin| >= (2 W)² mm² > rest), or within one's length only and the
    other's part within the first's band (`_band_area`: then the overlap itself) is at least
    `rest` and `_SURE`; -1 when the overlap's bounding box in either frame (`_box_short`), or
    either footprint's part within the other's band (`_band_area`), is smaller than `rest`
    less `_SURE`, 0 otherwise (clip it). `pair_keep` tries the boxes of both supports first,
    then `_rest_past_box` for each."""
    if _box_short(x, y, cu, su, h, sx, sy, vx, vy, k, rest):
        return -1
    return _rest_past_box(x, y, cu, su, h, sx, sy, vx, vy, k, rest)


@numba.njit(cache=True)
def _crossing(  # noqa: PLR0917 - a pose, a support, their angle
    x: float, y: float, cu: float, su: float, h: float, sx: float, sy: float, vx: float,
    vy: float, k: float, cos: float, sin: float,
) -> int:  # fmt: skip
    """Where the two bands (each 2 W wide) cross, `_SURE` inside: 1 if wholly within the
    pose's length, 2 if within the support's, 3 both (0 neither). The crossing's corners
    X = t u + a n (n = u turned a quarter), a = +-W across the pose's axis, (X - d) . m = b =
    +-W across the support's (m = v turned a quarter): t (u . m) + a (n . m) - d . m = b, with
    u . m = -sin, n . m = cos."""
    dx, dy = sx - x, sy - y
    dm = dy * vx - dx * vy
    out = 3
    for a in (-_W, _W):
        for b in (-_W, _W):
            t = (a * cos - b - dm) / sin
            along_s = (t * cu - a * su - dx) * vx + (t * su + a * cu - dy) * vy
            if not abs(t) <= h - _SURE:
                out &= 2
            if not abs(along_s) <= k - _SURE:
                out &= 1
    return out


_ROOM = 1e-9
"""mm: how far inside `_cross_frame`'s bounds a pose must lie, far above the rounding of its
few products (about 1e-13), so that the bands surely cross as `_crossing` requires."""


@numba.njit(cache=True)
def _cross_frame(  # noqa: PLR0917 - a pose's axis and half-length, the supports
    cu: float, su: float, h: float, sup: Array, rest: float, out: Array
) -> None:
    """Per support, the bounds within which a pose of the axis (cu, su) crosses it as
    `_crossing` accepts (`_SURE` inside both lengths, 3), so that it rests on it for sure: two
    offsets of the pose, each linear in its centre, out[s] = (vx, vy, r, B, lo, hi, zlo, zhi).
    With d, u, v, m, t as `_crossing` names them (d the support's centre less the pose's,
    sin, cos their angle, r = cos / sin): the corners' t = (a cos - b - d . m) / sin lie in
    +-(h - `_SURE`) iff d . m lies in +-((h - `_SURE`) |sin| - W |cos| - W) (lo, hi); their
    offsets along v are a / sin - b r - z, z = r (d . m) + d . v, so they lie in
    +-(k - `_SURE`) iff z lies in +-(k - `_SURE` - W (1 + |cos|) / |sin|) (zlo, zhi); along a
    column (x fixed) d . m falls by y vx and z by y B, B = r vx + vy. Both bounds are taken
    `_ROOM` inside; an empty range where `_rest_past_box` does not accept crossings."""
    for s in range(2):
        vx, vy, k = sup[s, 2], sup[s, 3], sup[s, 4]
        cos = cu * vx + su * vy
        sin = cu * vy - su * vx
        out[s, 0], out[s, 1] = vx, vy
        if abs(sin) < 0.1 or rest > 4 * _W * _W - _SURE:
            out[s, 2], out[s, 3], out[s, 4], out[s, 5], out[s, 6], out[s, 7] = (
                0.0, 0.0, 1.0, -1.0, 1.0, -1.0,
            )  # fmt: skip
            continue
        r = cos / sin
        across = (h - _SURE) * abs(sin) - _W * abs(cos) - _W - _ROOM
        along = k - _SURE - _W * (1 + abs(cos)) / abs(sin) - _ROOM
        out[s, 2], out[s, 3] = r, r * vx + vy
        out[s, 4], out[s, 5], out[s, 6], out[s, 7] = -across, across, -along, along


@numba.njit(cache=True)
def _ends(x: float, y: float, sup: Array, frame: Array, s: int) -> int:
    """`_crossing`'s answer for the pose centred at (x, y) and the support s, as
    `_cross_frame` bounds it (`_ROOM` inside: a bit it finds, `_crossing` finds)."""
    sx, sy = sup[s, 0] - x, sup[s, 1]
    vx, vy, r, b = frame[s, 0], frame[s, 1], frame[s, 2], frame[s, 3]
    dm0 = sy * vx - sx * vy
    dm = dm0 - y * vx
    z = (r * dm0 + sx * vx + sy * vy) - y * b
    return (frame[s, 4] <= dm <= frame[s, 5]) + 2 * (frame[s, 6] <= z <= frame[s, 7])


@numba.njit(cache=True)
def _touch_frame(  # noqa: PLR0917 - a pose's axis and half-length, the sticks, the box
    cu: float, su: float, h: float, rows: npt.NDArray[np.int64], lay: Array, deep: float,
    box: Array, out: Array, kept: npt.NDArray[np.int64],
) -> int:  # fmt: skip
    """Per stick of `rows` (layout rows of cx, cy, ux, uy, half) and axis of `meet`'s
    separating-axis test (the pose's axis and normal, the stick's), for poses of the axis
    (cu, su): out[n, t] = (A, B, deep bound, bound), the axis (A, B), the bound within which
    the footprints both shrunk by `deep` still overlap along it (less `_ROOM`), and the one
    beyond which they do not meet unshrunk (plus `_ROOM`). The axes' offsets are linear in the
    pose's centre, so a column reads them at a few products a stick (`_touches_column`). Only
    the sticks that some pose centred in `box` (x lo, x hi, y lo, y hi) may meet are kept
    (into `kept`, their count returned): an offset's range over the box is its range over
    the box's corners. A `box` of 8 also holds the range of the centres along the pose's axis
    and across it (u0, u1, n0, n1: the slabs' rectangle, `_pose_rect`, tighter than its box
    at a slant), which bounds the offsets along those two axes as well (2.6 sticks kept a
    touch test along 12 deals instead of 3.4)."""
    hd, wd = h - deep, _W - deep
    rect = len(box) >= 8
    m = 0
    for n in range(len(rows)):
        r = rows[n]
        sx, sy, vx, vy, k = lay[r, 0], lay[r, 1], lay[r, 2], lay[r, 3], lay[r, 4]
        kd = k - deep
        c = abs(cu * vx + su * vy)
        sn = abs(cu * vy - su * vx)
        apart = False
        for t in range(4):
            if t == 0:
                ax, ay, bd, bu = cu, su, hd + kd * c + wd * sn, h + k * c + _W * sn
            elif t == 1:
                ax, ay, bd, bu = -su, cu, wd + kd * sn + wd * c, _W + k * sn + _W * c
            elif t == 2:
                ax, ay, bd, bu = vx, vy, kd + hd * c + wd * sn, k + h * c + _W * sn
            else:
                ax, ay, bd, bu = -vy, vx, wd + hd * sn + wd * c, _W + h * sn + _W * c
            # the offset (s - p) . axis over the box: p . axis from its corners
            lo = ax * (box[0] if ax > 0 else box[1]) + ay * (box[2] if ay > 0 else box[3])
            hi = ax * (box[1] if ax > 0 else box[0]) + ay * (box[3] if ay > 0 else box[2])
            if rect and t < 2:  # p . axis is u along the pose's axis, n across it
                lo, hi = max(lo, box[4 + 2 * t]), min(hi, box[5 + 2 * t])
            at = sx * ax + sy * ay
            if at - lo <= -(bu + _ROOM) or at - hi >= bu + _ROOM:
                apart = True
                break
            out[m, t, 0], out[m, t, 1] = ax, ay
            out[m, t, 2], out[m, t, 3] = bd - _ROOM, bu + _ROOM
        if not apart:
            kept[m] = r
            m += 1
    return m


@numba.njit(cache=True)
def _column_base(  # noqa: PLR0917 - a column, a stick's centre and frame, where to write
    x: float, sx: float, sy: float, tf: Array, n: int, base: Array, b: int
) -> None:
    """base[b, t]: the offset along axis t of the n-th stick of `_touch_frame` (centre sx,
    sy) from a pose of the column x at y = 0 (`_stick_touch` reads it)."""
    for t in range(4):
        base[b, t] = (sx - x) * tf[n, t, 0] + sy * tf[n, t, 1]


@numba.njit(cache=True)
def _stick_touch(y: float, base: Array, b: int, tf: Array, n: int) -> int:
    """Whether a pose of a column (centre y) touches the n-th stick of `_touch_frame` (frame
    tf[n], offsets base[b] at y = 0): 1 when within every deep bound (the footprints shrunk
    by `deep` share a disc: an overlap above the tolerance), 0 when past some bound (they do
    not meet), -1 when unsure. Each bound holds `_ROOM` beyond the rounding, so a sure answer
    is `touches_any`'s."""
    inside = True
    for t in range(4):
        off = abs(base[b, t] - y * tf[n, t, 1])
        if off >= tf[n, t, 3]:
            return 0
        if off >= tf[n, t, 2]:
            inside = False
    return 1 if inside else -1


@numba.njit(cache=True)
def _touches_column(  # noqa: PLR0917 - a pose of a column, the sticks' frames, the unsure
    y: float, base: Array, tf: Array, count: int, rows: npt.NDArray[np.int64],
    unsure: npt.NDArray[np.int64],
) -> int:  # fmt: skip
    """Whether a pose of a column (centre y; base[n, t]: the offsets of the n-th stick of
    `_touch_frame` along axis t at y = 0, tf[n, t] its frame, rows[n] its layout row) touches
    one of the `count` sticks (`_stick_touch`): n + 1 when surely the n-th (the first found),
    0 when surely none, -k when unsure of k sticks, whose rows it writes into `unsure`
    (`touches_any` decides on them alone: the others surely miss). A touch is any stick's,
    whatever the order."""
    k = 0
    for n in range(count):
        got = _stick_touch(y, base, n, tf, n)
        if got > 0:
            return n + 1
        if got < 0:
            unsure[k] = rows[n]
            k += 1
    return -k


@numba.njit(cache=True)
def pair_keep(  # noqa: PLR0917 - a pair, its colour, the sticks
    sup: Array, squads: Array, h: float, cos: Array, sin: Array, step: float,
    rows: npt.NDArray[np.int64], lay: Array, quads: Array, lreach: Array,
    margin: float, tol: float, deep: float, rest: float, inset: float,
) -> tuple[npt.NDArray[np.int64], Array]:  # fmt: skip
    """The lattice poses (centres on multiples of `step` mm, the angles of `cos`, `sin`) of
    half-length h that `ids` keeps for two supports (rows of `sup`: cx, cy, ux, uy, half;
    footprints `squads`): whose centre may stand (`may_stand`), that touch none of the sticks
    `rows` of the layout (`touching_rows`) and rest at least `rest` mm² on both (clipped only
    where both footprints shrunk by `inset` still meet: `search.REST_INSET`): `_keep_into`
    into arrays of its own. Returns their (x index, y index, angle index) and (x, y, ux, uy),
    in lattice order."""
    scratch = keep_scratch(len(lay))
    cols = _columns(lay)
    cap = 256
    while True:
        ints = np.empty((cap, 4), dtype=np.int64)
        flts = np.empty((cap, 4))
        m = _keep_into(sup, squads, h, cos, sin, step, rows, lay, cols, quads, lreach, margin,
                       tol, deep, rest, inset, ints, flts, 0, scratch)  # fmt: skip
        if m >= 0:
            return ints[:m, 1:], flts[:m]
        cap *= 4


@numba.njit(cache=True)
def keep_scratch(
    n: int,
) -> tuple[
    Array, Array, npt.NDArray[np.int64], Array, npt.NDArray[np.int64], Array, Array, Array,
    Array, Array, npt.NDArray[np.int64],
]:  # fmt: skip
    """`_keep_into`'s scratch for a layout of n sticks, made once for every pair of a call."""
    return (np.empty((4, 2)), np.empty(WORK), np.empty(n, dtype=np.int64), np.empty((2, 4, 3)),
            np.empty(n, dtype=np.int64), np.empty((2, 8)), np.empty(8), np.empty((n, 4, 4)),
            np.empty((n, 4)), np.empty((1, 4)), np.empty(n, dtype=np.int64))  # fmt: skip


@numba.njit(cache=True)
def _apart(sup: Array, squads: Array) -> float:
    """The distance between the two supports' footprints (rows of `sup`: cx, cy, ux, uy,
    half; corners `squads`), 0 where they meet: where some axis of the separating-axis test
    parts them, the least distance from a corner of one to a side of the other."""
    parted = False
    for a in range(4):
        s = a // 2
        ax, ay = (sup[s, 2], sup[s, 3]) if a % 2 == 0 else (-sup[s, 3], sup[s, 2])
        gap = abs(ax * (sup[1, 0] - sup[0, 0]) + ay * (sup[1, 1] - sup[0, 1]))
        for t in range(2):
            gap -= sup[t, 4] * abs(sup[t, 2] * ax + sup[t, 3] * ay) + _W * abs(
                sup[t, 2] * ay - sup[t, 3] * ax
            )
        if gap > 0.0:
            parted = True
    if not parted:
        return 0.0
    out = np.inf
    for s in range(2):
        for c in range(4):
            px, py = squads[s, c, 0], squads[s, c, 1]
            for e in range(4):
                ax, ay = squads[1 - s, e, 0], squads[1 - s, e, 1]
                bx, by = squads[1 - s, (e + 1) % 4, 0] - ax, squads[1 - s, (e + 1) % 4, 1] - ay
                t = min(max(((px - ax) * bx + (py - ay) * by) / (bx * bx + by * by), 0.0), 1.0)
                dx, dy = px - ax - t * bx, py - ay - t * by
                out = min(out, dx * dx + dy * dy)
    return out**0.5


@numba.njit(cache=True)
def _too_far(sup: Array, squads: Array, h: float, rest: float) -> bool:
    """Whether no stick of half-length h can rest `rest` mm² on both supports (rows of `sup`,
    footprints `squads`): its overlap with each lies within its 2 W of width, so spans
    rest / 2 W along its axis at least, and two such spans within its length 2 h lie at most
    2 h - rest / W apart along it and 2 W across; supports farther apart (`_apart`, with
    1e-6 mm of room) hold no such pose."""
    along = max(2 * h - rest / _W, 0.0)
    return _apart(sup, squads) > (along * along + 4 * _W * _W) ** 0.5 + 1e-6


@numba.njit(cache=True)
def _keep_into(  # noqa: PLR0917 - a pair, its colour, the sticks, where to write, scratch
    sup: Array, squads: Array, h: float, cos: Array, sin: Array, step: float,
    rows: npt.NDArray[np.int64], lay: Array, cols: tuple[Array, Array, Array, Array, Array],
    quads: Array, lreach: Array, margin: float, tol: float, deep: float, rest: float,
    inset: float, ints: npt.NDArray[np.int64], flts: Array, m0: int,
    scratch: tuple[
        Array, Array, npt.NDArray[np.int64], Array, npt.NDArray[np.int64], Array, Array,
        Array, Array, Array, npt.NDArray[np.int64],
    ],
) -> int:  # fmt: skip
    """`pair_keep`'s poses written from row m0 on, (x index, y index, angle index) into
    columns 1-3 of `ints` and (x, y, ux, uy) into `flts` (a pool's own rows: `new_pairs`);
    returns the row after the last, or -1 when the arrays have no room for them.
    The poses tried are those within the slabs every pose resting on both supports lies in
    (`_slabs`: per angle, the columns of their box, `_slab_box`, and per column the run of y
    within them, `_overlap_span`), a few of `search.pair_poses`'s; the crossings (`_ends`)
    and the touches (`_touches_column`) are read from offsets linear along a column, each
    sure answer `_ROOM` or `_SURE` from its threshold, so the poses kept are those the full
    walk keeps (tests/games/stack_back/test_sb_mask_pairs.py). `cols`: the layout's columns
    (`_columns`); `scratch`: `keep_scratch`."""
    cap = len(ints)
    m = m0
    if _too_far(sup, squads, h, rest):
        return m  # most pairs that keep none, whatever the other sticks: no angle tried
    q, work, near, slabs, box_rows, frame, box, tf, base, hot_base, unsure = scratch
    reach_p = (h * h + _W * _W) ** 0.5
    # a pose meets both supports, so a stick farther from either than the pose's circle can
    # reach across (2 reach_p) and beyond both circles' radii touches none of the pair's poses
    nn = 0
    for n in range(len(rows)):
        r = rows[n]
        ok = True
        for s in range(2):
            rs = (sup[s, 4] * sup[s, 4] + _W * _W) ** 0.5
            far = lreach[r] + 2 * reach_p + rs + 1e-6
            ex, ey = lay[r, 0] - sup[s, 0], lay[r, 1] - sup[s, 1]
            if ex * ex + ey * ey >= far * far:
                ok = False
        if ok:
            near[nn] = r
            nn += 1
    rows = near[:nn]
    # the supports' footprints as views made once, their rows as numbers: a view made at each
    # call of a helper that is not inlined (`clip`) costs an atomic count of its references
    # each way (12.5% of a profile's samples of the new pairs, 5% left after)
    quad0, quad1 = squads[0], squads[1]
    s0 = (sup[0, 0], sup[0, 1], sup[0, 2], sup[0, 3], sup[0, 4])
    s1 = (sup[1, 0], sup[1, 1], sup[1, 2], sup[1, 3], sup[1, 4])
    lx, ly, lux, luy, lh = cols
    for a in range(len(cos)):
        cu, su = cos[a], sin[a]
        shrunk_meet = _slabs(cu, su, h, sup, inset, rest, slabs)
        lo_x, hi_x, lo_y, hi_y = _slab_box(sup, slabs)
        ix0, ix1 = int(np.ceil(lo_x / step)), int(np.floor(hi_x / step))
        if ix0 > ix1 or np.ceil(lo_y / step) > np.floor(hi_y / step):
            continue  # no lattice centre in the box
        # the angle's frames are set up at its first pose that needs them (most angles of a
        # pair that keeps nothing have no centre that may stand)
        crossed = framed = False
        nb = 0
        hot = -1  # the stick that surely touched the angle's last pose refused by a touch
        for ix in range(ix0, ix1 + 1):
            x = ix * step
            ylo, yhi = _overlap_span(x, sup, slabs, lo_y, hi_y)
            ylo, yhi, stands_lo, stands_hi = _stand_span(x, cu, su, sup, margin, ylo, yhi)
            based = hot_at = False
            for iy in range(int(np.ceil(ylo / step)), int(np.floor(yhi / step)) + 1):
                y = iy * step
                # may stand: the centre `margin` inside the supports' extent along the axis
                if not stands_lo <= y <= stands_hi and not _may_stand(x, y, cu, su, sup, margin):
                    continue
                if hot >= 0:  # its neighbours mostly touch the same stick: refused at once
                    if not hot_at:
                        _column_base(x, lx[box_rows[hot]], ly[box_rows[hot]], tf, hot,
                                     hot_base, 0)  # fmt: skip
                        hot_at = True
                    if _stick_touch(y, hot_base, 0, tf, hot) > 0:
                        continue
                if not crossed:
                    _cross_frame(cu, su, h, sup, rest, frame)
                    crossed = True
                # crossing a support wholly (as `_crossing` accepts, with room) rests on it,
                # and the crossing's centre lies inside both footprints shrunk by `inset`
                e0, e1 = _ends(x, y, sup, frame, 0), _ends(x, y, sup, frame, 1)
                c0, c1 = e0 == 3, e1 == 3
                if not (c0 and c1) and not shrunk_meet:
                    ok = True  # resting needs the footprints shrunk by `inset` to meet
                    for s in range(2):
                        if not meet(x, y, cu, su, h - inset, _W - inset, sup[s, 0], sup[s, 1],
                                    sup[s, 2], sup[s, 3], sup[s, 4] - inset,
                                    _W - inset):  # fmt: skip
                            ok = False
                            break
                    if not ok:
                        continue
                # rests on both (clipped only where `_rest_sure` is not sure; its boxes first
                # where the bands cross within neither length, as they are cheap; within one,
                # one band area decides), touching none of the sticks `rows`
                if (e0 == 0 and _box_short(x, y, cu, su, h, *s0, rest)) or (
                    e1 == 0 and _box_short(x, y, cu, su, h, *s1, rest)
                ):
                    continue
                sure0 = 1 if c0 else _rest_by_ends(x, y, cu, su, h, *s0, rest, e0)
                if sure0 < 0:
                    continue
                sure1 = 1 if c1 else _rest_by_ends(x, y, cu, su, h, *s1, rest, e1)
                if sure1 < 0:
                    continue
                if not framed:  # the sticks whose circle reaches a pose centred in the box
                    box[0], box[1], box[2], box[3] = lo_x, hi_x, lo_y, hi_y
                    _pose_rect(sup, slabs, box)
                    nb = _touch_frame(cu, su, h, rows, lay, deep, box, tf, box_rows)
                    framed = True
                if not based:  # the sticks' offsets at y = 0, once a column
                    for n in range(nb):
                        _column_base(x, lx[box_rows[n]], ly[box_rows[n]], tf, n, base, n)
                    based = True
                touched = _touches_column(y, base, tf, nb, box_rows, unsure)
                if touched > 0:
                    if hot != touched - 1:
                        hot, hot_at = touched - 1, False
                    continue
                if touched < 0:  # the unsure sticks that may overlap it by more than `tol`
                    # each decided by `_rest_sure`'s bounds where sure, else the clipped area
                    # (`_clips_over`): `touches_any`'s verdict, which clipped every such stick
                    hit = False
                    for t in range(-touched):
                        r = unsure[t]
                        most = _overlap_bound(x, y, cu, su, h, lx[r], ly[r], lux[r], luy[r], lh[r])
                        if most > tol - _SURE:
                            sure = _rest_sure(x, y, cu, su, h, lx[r], ly[r], lux[r], luy[r],
                                              lh[r], tol)  # fmt: skip
                            if sure > 0 or (sure == 0 and _clips_over(x, y, cu, su, h, quads, r,
                                                                      tol, q, work)):  # fmt: skip
                                hit = True
                                break
                    if hit:
                        continue
                if sure0 == 0 or sure1 == 0:
                    quad(x, y, cu, su, h, _W, q)
                    if sure0 == 0 and not clip(q, quad0, work)[0] >= rest:
                        continue
                    if sure1 == 0 and not clip(q, quad1, work)[0] >= rest:
                        continue
                if m == cap:
                    return -1
                ints[m, 1], ints[m, 2], ints[m, 3] = ix, iy, a
                flts[m, 0], flts[m, 1], flts[m, 2], flts[m, 3] = x, y, cu, su
                m += 1
    return m


@numba.njit(cache=True)
def new_pairs(  # noqa: PLR0917 - the new pairs, the sticks, the lattice, the filters, the pool
    keys: npt.NDArray[np.int64], levels: npt.NDArray[np.int64], lay: Array, quads: Array,
    lreach: Array, halves: Array, cos: Array, sin: Array, step: float, margin: float,
    tol: float, deep: float, rest: float, inset: float, grid: npt.NDArray[np.int64],
    table: npt.NDArray[np.int64],
    key: npt.NDArray[np.int64], span: npt.NDArray[np.int64], count: npt.NDArray[np.int64],
    created: npt.NDArray[np.int64], stamp: npt.NDArray[np.int64], box: Array,
    index: npt.NDArray[np.int64], p0: int, poses: npt.NDArray[np.int64], frame: Array,
    bins: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64], verdict: npt.NDArray[np.int8],
    r0: int,
) -> tuple[int, int]:  # fmt: skip
    """Pairs met for the first time (rows of `keys`: colour, level, i, j), in one call (a
    call from Python per pair cost about a third as much again as its poses): each pair's
    `pair_keep` against every other stick of its level or above, written straight into a
    pool's arrays (id_pool.Pool: per pair its key, span, counts at len(levels) sticks, stamp
    -1 and index entry, from id p0 on; their rows from row r0 on, as `lattice_rows`, verdicts
    0; `taken` is ALIVE there already). Returned arrays were copied twice more (into one
    array per call, then into the pool), some 15% of the call. Returns (the pairs written,
    the row after their rows): fewer than `keys` when the row arrays have no room for the
    next pair's rows (the caller grows them and calls again with the rest)."""
    k, n = len(keys), len(levels)
    others = np.empty(n, dtype=np.int64)
    sup = np.empty((2, 5))
    squads = np.empty((2, 4, 2))
    scratch = keep_scratch(n)
    cols = _columns(lay)
    r = r0
    for e in range(k):
        c, lev, i, j = keys[e, 0], keys[e, 1], keys[e, 2], keys[e, 3]
        no = 0
        for t in range(n):
            if levels[t] >= lev and t not in (i, j):
                others[no] = t
                no += 1
        sup[0], sup[1] = lay[i], lay[j]
        squads[0], squads[1] = quads[i], quads[j]
        end = _keep_into(sup, squads, halves[c], cos, sin, step, others[:no], lay, cols, quads,
                         lreach, margin, tol, deep, rest, inset, poses, frame, r,
                         scratch)  # fmt: skip
        if end < 0:
            return e, r
        _lattice_rows_into(c, poses, bins, ranks, r, end, grid, table)  # as ids keeps them
        verdict[r:end] = 0
        p = p0 + e
        key[p, 0], key[p, 1], key[p, 2], key[p, 3] = c, lev, i, j
        span[p, 0], span[p, 1] = r, end
        count[p] = created[p] = n
        stamp[p] = -1
        box[p, 0] = box[p, 1] = box[p, 2] = box[p, 3] = np.nan
        index[i, j, c] = p
        r = end
    return k, r


@numba.njit(cache=True)
def reaching(  # noqa: PLR0917 - the sticks, the new ones, the colours' reach
    cx: Array, cy: Array, radii: Array, levels: npt.NDArray[np.int64], start: int,
    reach: Array,
) -> npt.NDArray[np.int64]:  # fmt: skip
    """The pairs of sticks of one level that a stick of some colour could overlap both
    (`search._reach`: the centres at most both circumscribed radii and the colour's `reach`
    apart), with j each of the sticks from `start` on: rows (colour, level, i, j), i before j,
    by j, colour, then i."""
    n = len(levels)
    out = np.empty((max(n - start, 0) * len(reach) * max(n, 1), 4), dtype=np.int64)
    m = 0
    for k in range(start, n):
        for c in range(len(reach)):
            for t in range(k):
                if levels[t] != levels[k]:
                    continue
                apart = np.hypot(cx[k] - cx[t], cy[k] - cy[t])
                if apart <= radii[t] + radii[k] + reach[c]:
                    out[m, 0], out[m, 1], out[m, 2], out[m, 3] = c, levels[k], t, k
                    m += 1
    return out[:m]
