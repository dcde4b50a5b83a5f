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
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array,
) -> Mask:  # fmt: skip
    """(K, M): whether footprint i of one set and j of the other overlap with positive area."""
    w = HALF_WIDTH
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


def clip(subject: Array, window: Array) -> tuple[Array, Array]:
    """Area (N,) and centroid (N, 2) of subject[i] & window[i], both (N, 4, 2) convex CCW quads."""
    n = len(subject)
    poly = np.zeros((n, _CAP, 2))
    poly[:, :4] = subject
    count = np.full(n, 4)
    slots = np.arange(_CAP)[None, :]
    rows = np.arange(n)[:, None]
    for e in range(4):
        a = window[:, e]
        b = window[:, (e + 1) % 4]
        ex = (b - a)[:, None, :]
        side = ex[..., 0] * (poly[..., 1] - a[:, None, 1]) - ex[..., 1] * (
            poly[..., 0] - a[:, None, 0]
        )
        real = slots < count[:, None]
        nxt = np.where(slots + 1 < count[:, None], slots + 1, 0)
        side_n = side[rows, nxt]
        inside = side >= -EPS
        keep = real & inside
        crosses = real & (inside != (side_n >= -EPS))
        denom = np.where(crosses, side - side_n, 1.0)
        t = np.where(crosses, side / denom, 0.0)
        inter = poly + t[..., None] * (poly[rows, nxt] - poly)
        out = np.stack((poly, inter), axis=2).reshape(n, 2 * _CAP, 2)
        valid = np.stack((keep, crosses), axis=2).reshape(n, 2 * _CAP)
        order = np.argsort(~valid, axis=1, kind="stable")[:, :_CAP]
        poly = out[rows, order]
        count = np.minimum(valid.sum(axis=1), _CAP)
    real = slots < count[:, None]
    nxt = np.where(slots + 1 < count[:, None], slots + 1, 0)
    px, py = poly[..., 0], poly[..., 1]
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
