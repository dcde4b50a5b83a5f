"""Footprints seen from above, vectorised with numpy: which sticks overlap, by how much, where.

A footprint is an oriented rectangle: centre (cx, cy), unit axis (ux, uy), half-length h and the
half-width of the section. Two steps, both over whole arrays at once:
- `sat_hits`: the separating-axis test, which pairs overlap with a positive area (cheap, exact);
- `clip`: Sutherland-Hodgman clipping of convex quads, giving each overlap's area and centroid.

`clip_shapely` computes the same with shapely (GEOS). benchmarks/bench_stack_back.py measures both
on the same pairs: numpy is 2-3x faster from a few hundred pairs a call (move generation), shapely
about 1.5x faster at ten (one pose against its neighbours); generation dominates, so the engine
uses numpy throughout and the tests check that the two agree.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .components import HALF_WIDTH

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

EPS = 1e-9
_CAP = 12  # vertices a clipped polygon may hold (4 + 4 clips, with room for duplicates)


def axis(a10: int) -> tuple[float, float]:
    """The unit vector of an angle in tenths of a degree."""
    r = math.radians(a10 / 10)
    return math.cos(r), math.sin(r)


def quads(cx: Array, cy: Array, ux: Array, uy: Array, h: Array) -> Array:
    """Footprint corners, counter-clockwise, shape (N, 4, 2)."""
    w = HALF_WIDTH
    ax, ay = ux * h, uy * h  # half the long side
    bx, by = -uy * w, ux * w  # half the short side
    out = np.empty((len(cx), 4, 2))
    out[:, 0, 0], out[:, 0, 1] = cx + ax + bx, cy + ay + by
    out[:, 1, 0], out[:, 1, 1] = cx - ax + bx, cy - ay + by
    out[:, 2, 0], out[:, 2, 1] = cx - ax - bx, cy - ay - by
    out[:, 3, 0], out[:, 3, 1] = cx + ax - bx, cy + ay - by
    return out


def box(x0: float, y0: float, x1: float, y1: float) -> Array:
    """An axis-aligned rectangle as a (4, 2) counter-clockwise quad."""
    return np.array([[x1, y1], [x0, y1], [x0, y0], [x1, y0]], dtype=np.float64)


def sat_hits(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array, w: float = HALF_WIDTH,
) -> Mask:  # fmt: skip
    """(K, M): whether footprint i of one set and j of the other overlap with positive area
    (both `w` half-wide: the sticks' own half-width unless shrunk)."""
    ddx = dx[None, :] - cx[:, None]
    ddy = dy[None, :] - cy[:, None]
    c = np.abs(ux[:, None] * vx[None, :] + uy[:, None] * vy[None, :])
    s = np.abs(ux[:, None] * vy[None, :] - uy[:, None] * vx[None, :])
    hk, hh = k[None, :], h[:, None]
    on_u = np.abs(ddx * ux[:, None] + ddy * uy[:, None]) < hh + hk * c + w * s - EPS
    on_v = np.abs(-ddx * uy[:, None] + ddy * ux[:, None]) < w + hk * s + w * c - EPS
    on_p = np.abs(ddx * vx[None, :] + ddy * vy[None, :]) < hk + hh * c + w * s - EPS
    on_q = np.abs(-ddx * vy[None, :] + ddy * vx[None, :]) < w + hh * s + w * c - EPS
    hits: Mask = on_u & on_v & on_p & on_q
    return hits


def sat_pairs(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array, w: float = HALF_WIDTH,
) -> Mask:  # fmt: skip
    """`sat_hits` for pairs given as parallel arrays (footprint i against footprint i): the same
    arithmetic element by element, so the same verdicts."""
    ddx = dx - cx
    ddy = dy - cy
    c = np.abs(ux * vx + uy * vy)
    s = np.abs(ux * vy - uy * vx)
    on_u = np.abs(ddx * ux + ddy * uy) < h + k * c + w * s - EPS
    on_v = np.abs(-ddx * uy + ddy * ux) < w + k * s + w * c - EPS
    on_p = np.abs(ddx * vx + ddy * vy) < k + h * c + w * s - EPS
    on_q = np.abs(-ddx * vy + ddy * vx) < w + h * s + w * c - EPS
    hits: Mask = on_u & on_v & on_p & on_q
    return hits


def near_pairs(  # noqa: PLR0917 - two sets of centres and half-lengths
    cx: Array, cy: Array, h: Array, dx: Array, dy: Array, k: Array
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The pairs (i, j) of two sets of footprints whose circumscribed circles meet: only they
    may overlap (a bound with room to spare: it never drops a pair that overlaps)."""
    r = np.hypot(h, HALF_WIDTH)[:, None] + np.hypot(k, HALF_WIDTH)[None, :]
    d2 = (dx[None, :] - cx[:, None]) ** 2 + (dy[None, :] - cy[:, None]) ** 2
    ci, sj = np.nonzero(d2 < r * r + 1e-6)
    return ci, sj


DEEP = 1.0
"""mm: footprints that still meet when both are shrunk by this on every side share a disc of
this radius, pi mm² (more than the touch tolerance, `rules.TOL`): they touch without clipping."""


def deep_hits(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array,
) -> Mask:  # fmt: skip
    """(K, M): whether footprints i and j, both shrunk by `DEEP` mm on every side, still meet."""
    return sat_hits(cx, cy, ux, uy, h - DEEP, dx, dy, vx, vy, k - DEEP, HALF_WIDTH - DEEP)


SMALL = 32
"""Below this many pairs `clip` works pair by pair in Python floats (about 10 us a pair), above
it on whole arrays (a fixed cost of about 250 us a call, then about 4 us a pair)."""


def clip(subject: Array, window: Array) -> tuple[Array, Array]:
    """Area (N,) and centroid (N, 2) of subject[i] & window[i], both (N, 4, 2) convex CCW quads.

    Both ways do the same floating-point operations in the same order (the sums as numpy's
    pairwise summation adds 12 slots), so they give bit for bit the same numbers, which the
    touch and rest thresholds and the loads rely on (tests/games/stack_back/test_sb_geometry.py
    compares them with `clip_arrays`)."""
    n = len(subject)
    if n >= SMALL:
        return clip_arrays(subject, window)
    area = np.empty(n)
    cent = np.empty((n, 2))
    for i, (sub, win) in enumerate(zip(subject.tolist(), window.tolist(), strict=True)):
        area[i], cent[i, 0], cent[i, 1] = clip_pair(sub, win)
    return area, cent


def _sum12(v: list[float]) -> float:
    """numpy's sum of 12 doubles (pairwise summation: eight partial sums, then the rest)."""
    res = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
    res += v[8]
    res += v[9]
    res += v[10]
    res += v[11]
    return res


def clip_pair(subject: list[list[float]], window: list[list[float]]) -> tuple[float, float, float]:
    """(area, centroid x, y) of one pair of convex CCW quads: `clip_arrays`' arithmetic."""
    poly = [(p[0], p[1]) for p in subject]
    for e in range(4):
        if not poly:
            break
        ax, ay = window[e]
        bx, by = window[(e + 1) & 3]
        ex0, ex1 = bx - ax, by - ay
        m = len(poly)
        sides = [ex0 * (y - ay) - ex1 * (x - ax) for x, y in poly]
        out: list[tuple[float, float]] = []
        for k in range(m):
            s = sides[k]
            nk = k + 1 if k + 1 < m else 0
            inside = s >= -EPS
            if inside:
                out.append(poly[k])
            if inside != (sides[nk] >= -EPS):
                t = s / (s - sides[nk])
                x, y = poly[k]
                qx, qy = poly[nk]
                out.append((x + t * (qx - x), y + t * (qy - y)))
        poly = out[:_CAP]
    m = len(poly)
    cr = [0.0] * _CAP
    sx = [0.0] * _CAP
    sy = [0.0] * _CAP
    for k in range(m):
        x, y = poly[k]
        qx, qy = poly[k + 1 if k + 1 < m else 0]
        c = x * qy - qx * y
        cr[k] = c
        sx[k] = (x + qx) * c
        sy[k] = (y + qy) * c
    area2 = _sum12(cr)
    safe = area2 if abs(area2) > EPS else 1.0
    return max(area2 / 2, 0.0), _sum12(sx) / (3 * safe), _sum12(sy) / (3 * safe)


def clip_arrays(subject: Array, window: Array) -> tuple[Array, Array]:
    """`clip` over whole arrays: Sutherland-Hodgman against each window edge in turn, each row's
    polygon kept in the first `count` of `_CAP` slots (compacted by a running count)."""
    n = len(subject)
    px = np.zeros((n, _CAP))
    py = np.zeros((n, _CAP))
    px[:, :4] = subject[:, :, 0]
    py[:, :4] = subject[:, :, 1]
    count = np.full(n, 4)
    slots = np.arange(_CAP)[None, :]
    rows = np.arange(n)[:, None]
    wx, wy = window[:, :, 0], window[:, :, 1]
    for e in range(4):
        ax, ay = wx[:, e : e + 1], wy[:, e : e + 1]
        f = (e + 1) % 4
        ex0, ex1 = wx[:, f : f + 1] - ax, wy[:, f : f + 1] - ay
        side = ex0 * (py - ay) - ex1 * (px - ax)
        real = slots < count[:, None]
        nxt = np.where(slots + 1 < count[:, None], slots + 1, 0)
        side_n = side[rows, nxt]
        inside = side >= -EPS
        keep = real & inside
        crosses = real & (inside != (side_n >= -EPS))
        t = np.where(crosses, side / np.where(crosses, side - side_n, 1.0), 0.0)
        qx, qy = px[rows, nxt], py[rows, nxt]
        ix = px + t * (qx - px)
        iy = py + t * (qy - py)
        valid = np.stack((keep, crosses), axis=2).reshape(n, 2 * _CAP)
        dest = np.cumsum(valid, axis=1) - 1
        r, c = np.nonzero(valid & (dest < _CAP))
        d, k, odd = dest[r, c], c >> 1, (c & 1).astype(bool)
        ox, oy = px, py
        px, py = np.zeros((n, _CAP)), np.zeros((n, _CAP))
        px[r, d] = np.where(odd, ix[r, k], ox[r, k])  # a crossing's point, or the kept vertex
        py[r, d] = np.where(odd, iy[r, k], oy[r, k])
        count = np.minimum(valid.sum(axis=1), _CAP)
    real = slots < count[:, None]
    nxt = np.where(slots + 1 < count[:, None], slots + 1, 0)
    qx, qy = px[rows, nxt], py[rows, nxt]
    cr = np.where(real, px * qy - qx * py, 0.0)
    area2 = cr.sum(axis=1)
    safe = np.where(np.abs(area2) > EPS, area2, 1.0)
    gx = ((px + qx) * cr).sum(axis=1) / (3 * safe)
    gy = ((py + qy) * cr).sum(axis=1) / (3 * safe)
    area = np.maximum(area2 / 2, 0.0)
    return area, np.stack((gx, gy), axis=1)


def clip_shapely(subject: Array, window: Array) -> tuple[Array, Array]:
    """The same as `clip`, computed by shapely (kept for the measurement and the tests)."""
    import shapely

    a = shapely.polygons(subject)
    b = shapely.polygons(window)
    inter = shapely.intersection(a, b)
    area = np.asarray(shapely.area(inter), dtype=np.float64)
    cent = shapely.centroid(inter)
    xy = np.zeros((len(area), 2))
    full = ~shapely.is_empty(cent)
    xy[full] = shapely.get_coordinates(cent[full])
    return area, xy
