"""Compiled loops for the action ids' mask (ids.py): which lattice poses a stick touches.

The mask judges tens of thousands of lattice poses a game against the placed sticks, a few at a
time per pair of supports: in numpy each such test is a dozen calls whose fixed cost (a few
microseconds) outweighs the work. These kernels run the same tests pose by pose in one compiled
loop (numba, `cache=True`), with the same floating-point operations in the same order as the
numpy code they stand for, so every comparison with a threshold comes out the same:

- the separating-axis tests of `search._sat_flat` (shrunk by 1 mm: the footprints then share a
  disc of radius 1 mm, more than the 3 mm² touch tolerance) and `geometry.sat_hits`;
- the overlap area of two footprints, `geometry.clip_pair`'s arithmetic (Sutherland-Hodgman on
  the window's four edges, at most `_CAP` vertices, the area summed as numpy sums 12 slots);
- `ids._may_stand`'s bound on where a new stick's centre may lie between its two supports.

tests/games/stack_back/test_sb_ids_kernels.py compares each with the numpy code on random
footprints and lattice poses.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from .components import HALF_WIDTH

Array = npt.NDArray[np.float64]

_EPS = 1e-9
"""geometry.EPS: the clipping's and the separating-axis test's slack."""
_CAP = 12
"""geometry._CAP: vertices a clipped polygon may hold."""
_W = HALF_WIDTH


@numba.njit(cache=True)
def _corners(cx: float, cy: float, ux: float, uy: float, h: float, out: Array) -> None:  # noqa: PLR0917
    """A footprint's corners into out (4, 2), as `geometry.quads` computes them."""
    ax, ay = ux * h, uy * h
    bx, by = -uy * _W, ux * _W
    out[0, 0], out[0, 1] = cx + ax + bx, cy + ay + by
    out[1, 0], out[1, 1] = cx - ax + bx, cy - ay + by
    out[2, 0], out[2, 1] = cx - ax - bx, cy - ay - by
    out[3, 0], out[3, 1] = cx + ax - bx, cy + ay - by


@numba.njit(cache=True)
def clip_area(sub: Array, win: Array) -> float:
    """The overlap area of two convex CCW quads (4, 2): `geometry.clip_pair`'s area, bit for
    bit (the same operations in the same order)."""
    px = np.zeros(_CAP + 2 * _CAP)
    py = np.zeros(_CAP + 2 * _CAP)
    qx = np.zeros(2 * _CAP)
    qy = np.zeros(2 * _CAP)
    sides = np.zeros(_CAP)
    m = 4
    for k in range(4):
        px[k], py[k] = sub[k, 0], sub[k, 1]
    for e in range(4):
        if m == 0:
            break
        ax, ay = win[e, 0], win[e, 1]
        bx, by = win[(e + 1) & 3, 0], win[(e + 1) & 3, 1]
        ex0, ex1 = bx - ax, by - ay
        for k in range(m):
            sides[k] = ex0 * (py[k] - ay) - ex1 * (px[k] - ax)
        n = 0
        for k in range(m):
            s = sides[k]
            nk = k + 1 if k + 1 < m else 0
            inside = s >= -_EPS
            if inside:
                qx[n], qy[n] = px[k], py[k]
                n += 1
            if inside != (sides[nk] >= -_EPS):
                t = s / (s - sides[nk])
                x, y = px[k], py[k]
                qx[n], qy[n] = x + t * (px[nk] - x), y + t * (py[nk] - y)
                n += 1
        m = min(n, _CAP)
        for k in range(m):
            px[k], py[k] = qx[k], qy[k]
    cr = np.zeros(_CAP)
    for k in range(m):
        x, y = px[k], py[k]
        nk = k + 1 if k + 1 < m else 0
        cr[k] = x * py[nk] - px[nk] * y
    area2 = ((cr[0] + cr[1]) + (cr[2] + cr[3])) + ((cr[4] + cr[5]) + (cr[6] + cr[7]))
    area2 += cr[8]
    area2 += cr[9]
    area2 += cr[10]
    area2 += cr[11]
    return max(area2 / 2, 0.0)


@numba.njit(cache=True)
def _sat(  # noqa: PLR0917 - two footprints, five numbers each, and the shrink
    cx: float, cy: float, ux: float, uy: float, h: float, w: float,
    dx: float, dy: float, vx: float, vy: float, half: float, shrink: float,
) -> bool:  # fmt: skip
    """`search._sat_flat` for one pair: footprint (h, w) against a stick shrunk by `shrink`."""
    k = half - shrink
    v = _W - shrink
    ddx = dx - cx
    ddy = dy - cy
    c = abs(ux * vx + uy * vy)
    s = abs(ux * vy - uy * vx)
    if not abs(ddx * ux + ddy * uy) < h + k * c + v * s:
        return False
    if not abs(-ddx * uy + ddy * ux) < w + k * s + v * c:
        return False
    if not abs(ddx * vx + ddy * vy) < k + h * c + w * s:
        return False
    return bool(abs(-ddx * vy + ddy * vx) < v + h * s + w * c)


@numba.njit(cache=True)
def _sat_eps(  # noqa: PLR0917 - two footprints, five numbers each
    cx: float, cy: float, ux: float, uy: float, h: float,
    dx: float, dy: float, vx: float, vy: float, k: float,
) -> bool:  # fmt: skip
    """`geometry.sat_hits` for one pair (both the sticks' own half-width)."""
    w = _W
    ddx = dx - cx
    ddy = dy - cy
    c = abs(ux * vx + uy * vy)
    s = abs(ux * vy - uy * vx)
    if not abs(ddx * ux + ddy * uy) < h + k * c + w * s - _EPS:
        return False
    if not abs(-ddx * uy + ddy * ux) < w + k * s + w * c - _EPS:
        return False
    if not abs(ddx * vx + ddy * vy) < k + h * c + w * s - _EPS:
        return False
    return bool(abs(-ddx * vy + ddy * vx) < w + h * s + w * c - _EPS)


@numba.njit(cache=True)
def touching(  # noqa: PLR0917 - poses, sticks, their footprints
    x: Array, y: Array, ux: Array, uy: Array, h: float, reach_p: float,
    idx: npt.NDArray[np.int64],
    sx: Array, sy: Array, sux: Array, suy: Array, shalf: Array, squads: Array, sreach: Array,
    tol: float, deep: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Which poses `idx` (all of half-length h) touch one of the sticks (overlap above `tol`):
    `search._touching`, pose by pose. Farther apart than their circumscribed circles reach
    (`reach_p + sreach`) they never meet; shrunk by `deep` and still meeting they touch; meeting
    only unshrunk they are clipped."""
    out = np.zeros(len(idx), dtype=np.bool_)
    q = np.empty((4, 2))
    for n in range(len(idx)):
        i = idx[n]
        px, py, pux, puy = x[i], y[i], ux[i], uy[i]
        built = False
        for r in range(len(sx)):
            reach = reach_p + sreach[r] + 1e-6
            ddx, ddy = sx[r] - px, sy[r] - py
            if not ddx * ddx + ddy * ddy < reach * reach:
                continue
            dx, dy, vx, vy, k = sx[r], sy[r], sux[r], suy[r], shalf[r]
            if _sat(px, py, pux, puy, h - deep, _W - deep, dx, dy, vx, vy, k, deep):
                out[n] = True
                break
            if _sat(px, py, pux, puy, h, _W, dx, dy, vx, vy, k, 0.0):
                if not built:
                    _corners(px, py, pux, puy, h, q)
                    built = True
                if clip_area(q, squads[r]) > tol:
                    out[n] = True
                    break
    return out


@numba.njit(cache=True)
def rests(  # noqa: PLR0917 - poses, the two supports' footprints
    x: Array, y: Array, ux: Array, uy: Array, h: float, idx: npt.NDArray[np.int64],
    quads: Array, rest: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Which poses `idx` overlap both footprints `quads` (2, 4, 2) by at least `rest` mm²
    (`search._rests`)."""
    out = np.zeros(len(idx), dtype=np.bool_)
    q = np.empty((4, 2))
    for n in range(len(idx)):
        i = idx[n]
        _corners(x[i], y[i], ux[i], uy[i], h, q)
        out[n] = clip_area(q, quads[0]) >= rest and clip_area(q, quads[1]) >= rest
    return out


@numba.njit(cache=True)
def may_stand(  # noqa: PLR0917 - poses and the two supports
    x: Array, y: Array, ux: Array, uy: Array, idx: npt.NDArray[np.int64],
    sup: Array, margin: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """`ids._may_stand`: whether each pose's centre lies `margin` inside the two supports'
    (rows of `sup`: cx, cy, ux, uy, half) extent along its axis."""
    out = np.zeros(len(idx), dtype=np.bool_)
    for n in range(len(idx)):
        i = idx[n]
        lo, hi = np.inf, -np.inf
        for r in range(2):
            cx, cy, sux, suy, half = sup[r, 0], sup[r, 1], sup[r, 2], sup[r, 3], sup[r, 4]
            d = (cx - x[i]) * ux[i] + (cy - y[i]) * uy[i]
            rr = half * abs(sux * ux[i] + suy * uy[i]) + _W * abs(sux * uy[i] - suy * ux[i])
            lo, hi = min(lo, d - rr), max(hi, d + rr)
        out[n] = lo <= -margin and hi >= margin
    return out


@numba.njit(cache=True)
def covers(  # noqa: PLR0917 - wood poses, one stick
    cx: Array, cy: Array, ux: Array, uy: Array, half: Array, reach: float,
    stick: Array, squad: Array, tol: float, deep: float,
) -> npt.NDArray[np.int64]:  # fmt: skip
    """The wood poses the stick (cx, cy, ux, uy, half) touches, in order: those whose centres lie
    within `reach` of its own in x and y and that meet it by `geometry.sat_hits`, then shrunk by
    `deep` still meet it, or else overlap it by more than `tol` (`ids._covers`)."""
    out = np.empty(len(cx), dtype=np.int64)
    q = np.empty((4, 2))
    dx, dy, vx, vy, k = stick[0], stick[1], stick[2], stick[3], stick[4]
    m = 0
    for i in range(len(cx)):
        if not (abs(cx[i] - dx) < reach and abs(cy[i] - dy) < reach):
            continue
        if not _sat_eps(cx[i], cy[i], ux[i], uy[i], half[i], dx, dy, vx, vy, k):
            continue
        hit = _sat(cx[i], cy[i], ux[i], uy[i], half[i] - deep, _W - deep, dx, dy, vx, vy, k, deep)
        if not hit:
            _corners(cx[i], cy[i], ux[i], uy[i], half[i], q)
            hit = clip_area(q, squad) > tol
        if hit:
            out[m] = i
            m += 1
    return out[:m]


@numba.njit(cache=True)
def first_free(
    covered: npt.NDArray[np.bool_], start: npt.NDArray[np.int64], bins: npt.NDArray[np.int64],
    first: npt.NDArray[np.int64],
) -> None:  # fmt: skip
    """For each bin of `bins`, set `first[bin]` to its first pose not `covered` (poses of bin b
    are start[b] to start[b + 1], in snap order), or -1."""
    for b in bins:
        k = first[b]
        if k < 0 or not covered[k]:
            continue
        stop = start[b + 1]
        while k < stop and covered[k]:
            k += 1
        first[b] = k if k < stop else -1


@numba.njit(cache=True)
def walk(
    bins: npt.NDArray[np.int64], verdict: npt.NDArray[np.int8]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # fmt: skip
    """Rows sorted by bin then snap order, with what is known of each (0 unknown, 1 legal,
    2 refused): per bin, its first legal row if no unknown row comes before it (the snap), else
    its first unknown row (to judge). Returns (snaps, unknown), row indices."""
    snaps = np.empty(len(bins), dtype=np.int64)
    unknown = np.empty(len(bins), dtype=np.int64)
    ns = nu = 0
    n = 0
    while n < len(bins):
        b = bins[n]
        done = False
        while n < len(bins) and bins[n] == b:
            if not done:
                v = verdict[n]
                if v == 1:
                    snaps[ns] = n
                    ns += 1
                    done = True
                elif v == 0:
                    unknown[nu] = n
                    nu += 1
                    done = True
            n += 1
    return snaps[:ns], unknown[:nu]
