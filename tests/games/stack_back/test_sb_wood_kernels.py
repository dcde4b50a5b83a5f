"""The compiled kernels (wood_kernels.py) give the bits of the numpy code they replaced.

The references below are that numpy code, kept here only as the slow, obviously-correct side
of the comparison: the clipper on whole arrays (numpy's pairwise sums of 12 slots) and the
separating-axis test on whole matrices."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from teocalli.games.stack_back.geometry import EPS, box, clip, quads, sat_hits

Array = npt.NDArray[np.float64]
CAP = 12


def clip_reference(subject: Array, window: Array) -> tuple[Array, Array]:
    """Sutherland-Hodgman on whole arrays, each row's polygon in the first `count` of 12 slots
    (the engine's clipper before the kernel)."""
    n = len(subject)
    px = np.zeros((n, CAP))
    py = np.zeros((n, CAP))
    px[:, :4] = subject[:, :, 0]
    py[:, :4] = subject[:, :, 1]
    count = np.full(n, 4)
    slots = np.arange(CAP)[None, :]
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
        valid = np.stack((keep, crosses), axis=2).reshape(n, 2 * CAP)
        dest = np.cumsum(valid, axis=1) - 1
        r, c = np.nonzero(valid & (dest < CAP))
        d, k, odd = dest[r, c], c >> 1, (c & 1).astype(bool)
        ox, oy = px, py
        px, py = np.zeros((n, CAP)), np.zeros((n, CAP))
        px[r, d] = np.where(odd, ix[r, k], ox[r, k])
        py[r, d] = np.where(odd, iy[r, k], oy[r, k])
        count = np.minimum(valid.sum(axis=1), CAP)
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


def sat_reference(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array, w: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """The separating-axis test on whole matrices (the engine's before the kernel)."""
    ddx = dx[None, :] - cx[:, None]
    ddy = dy[None, :] - cy[:, None]
    c = np.abs(ux[:, None] * vx[None, :] + uy[:, None] * vy[None, :])
    s = np.abs(ux[:, None] * vy[None, :] - uy[:, None] * vx[None, :])
    hk, hh = k[None, :], h[:, None]
    on_u = np.abs(ddx * ux[:, None] + ddy * uy[:, None]) < hh + hk * c + w * s - EPS
    on_v = np.abs(-ddx * uy[:, None] + ddy * ux[:, None]) < w + hk * s + w * c - EPS
    on_p = np.abs(ddx * vx[None, :] + ddy * vy[None, :]) < hk + hh * c + w * s - EPS
    on_q = np.abs(-ddx * vy[None, :] + ddy * vx[None, :]) < w + hh * s + w * c - EPS
    out: npt.NDArray[np.bool_] = on_u & on_v & on_p & on_q
    return out


def _columns(rng: np.random.Generator, n: int) -> tuple[Array, ...]:
    """Footprints as the engine meets them: centres on 0.1 mm, angles mostly on 5 degrees."""
    x = np.round(rng.uniform(0, 60, n) * 10) / 10
    y = np.round(rng.uniform(0, 60, n) * 10) / 10
    deg = np.where(rng.random(n) < 0.7, rng.integers(0, 36, n) * 5.0, rng.uniform(0, 180, n))
    a = np.radians(deg)
    return x, y, np.cos(a), np.sin(a), rng.choice([18.0, 27.0, 36.0], n)


def _bits(a: Array) -> npt.NDArray[np.int64]:
    return np.ascontiguousarray(a).view(np.int64)


def test_clip_gives_the_bits_of_the_numpy_clipper() -> None:
    """Areas and centroids bit for bit, on overlaps, misses, identical footprints, footprints
    edge to edge and boards; one pair and empty batches too."""
    rng = np.random.default_rng(17)
    qa, qb = quads(*_columns(rng, 3000)), quads(*_columns(rng, 3000))
    qb[:300] = qa[:300]  # identical footprints
    qb[300:600] = qa[300:600] + np.array([6.0, 0.0])  # edge to edge, or overlapping exactly
    qb[600:900] = box(0.0, 0.0, 50.0, 50.0)
    area, cent = clip(qa, qb)
    ref_area, ref_cent = clip_reference(qa, qb)
    assert (ref_area > 0).sum() > 500  # many overlaps, not only misses
    assert (ref_area == 0).sum() > 500
    assert np.array_equal(_bits(area), _bits(ref_area))
    assert np.array_equal(_bits(cent), _bits(ref_cent))
    one_area, one_cent = clip(qa[5:6], qb[5:6])
    assert _bits(one_area)[0] == _bits(ref_area)[5]
    assert np.array_equal(_bits(one_cent[0]), _bits(ref_cent[5]))
    empty_area, empty_cent = clip(qa[:0], qb[:0])
    assert empty_area.shape == (0,) and empty_cent.shape == (0, 2)


def test_sat_hits_gives_the_verdicts_of_the_numpy_test() -> None:
    """The same matrix, shrunk or not, with pairs on the edge of touching among them."""
    rng = np.random.default_rng(3)
    a, b = _columns(rng, 200), _columns(rng, 150)
    b = (np.concatenate((b[0], a[0][:50] + 6.0)), np.concatenate((b[1], a[1][:50])),
         *(np.concatenate((c, d[:50])) for c, d in zip(b[2:], a[2:], strict=True)))  # fmt: skip
    for w, shrink in ((3.0, 0.0), (2.0, 1.0)):
        got = sat_hits(*a[:4], a[4] - shrink, *b[:4], b[4] - shrink, w)
        want = sat_reference(*a[:4], a[4] - shrink, *b[:4], b[4] - shrink, w)
        assert want.sum() > 1000 and (~want).sum() > 1000
        assert np.array_equal(got, want)
