"""Compiled loops of the pass search's pile stage (docs/games/stack-back.md, "Compiled pass
search").

A new pair of supports is met about 550 times in 12 random games and 9 in 10 of them keep no
pose: the work is proving them empty. `fresh_keep` walks the pair's lattice poses (the same poses,
in the same order, as `pile_kernels.pair_lattice` lists them) without listing them: per angle and
lattice column it solves the separating-axis conditions for the column's y range where a pose
could meet both supports (shrunk by the rest inset), and the y ranges where a pose surely
touches another stick (both shrunk by 1 mm and still meeting), and tests exactly only the
lattice poses left, with the very tests of the pose-by-pose filters (the tests' reference,
tests/games/stack_back/pair_reference.py: same arithmetic, same verdicts). The ranges are
bounds with 1e-6 mm of room on the safe side: a range where a pose could meet is widened, one
where it surely touches is narrowed, so no pose is kept or dropped that the exact tests would not
keep or drop.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from . import geom_kernels
from .components import HALF_WIDTH
from .geom_kernels import WORK, clip, quad, touches_any
from .pile_kernels import angle_grid, support_edges

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

W = HALF_WIDTH
ROOM = 1e-6
"""mm of room given to the solved ranges (the exact tests' rounding is some 1e-13 mm)."""
FAR = 1e9
"""Beyond any lattice coordinate: the end of a range with no bound on that side."""


@numba.njit(cache=True, inline="always")
def _conditions(  # noqa: PLR0917 - a pose's axis and half sizes, a stick, the room, where to
    ux: float, uy: float, h: float, w: float,
    dx: float, dy: float, vx: float, vy: float, k: float, v: float, room: float, out: Array,
) -> None:  # fmt: skip
    """The separating-axis conditions of `pile_kernels._sat` for a footprint centred at (x, y)
    (axis u, half sizes h, w) and a stick (centre d, axis v, half sizes k, v), as conditions
    |P + Q x + B y| < R on the centre, written in `out` (4, 4) as (P, Q, 1 / B, R + room): with
    ddx = dx - x and ddy = dy - y, each axis's projection is linear in x and y. 1 / B is 0 for
    a condition on x alone (|B| tiny: B y is far below the room for any lattice y)."""
    c = abs(ux * vx + uy * vy)
    s = abs(ux * vy - uy * vx)
    _write(out[0], dx * ux + dy * uy, -ux, -uy, h + k * c + v * s + room)
    _write(out[1], -dx * uy + dy * ux, uy, -ux, w + k * s + v * c + room)
    _write(out[2], dx * vx + dy * vy, -vx, -vy, k + h * c + w * s + room)
    _write(out[3], -dx * vy + dy * vx, vy, -vx, v + h * s + w * c + room)


@numba.njit(cache=True, inline="always")
def _write(out: Array, p: float, q: float, b: float, r: float) -> None:
    out[0] = p
    out[1] = q
    out[2] = 1.0 / b if abs(b) >= 1e-12 else 0.0
    out[3] = r


@numba.njit(cache=True, inline="always")
def _solve(cond: Array, x: float, lo: float, hi: float) -> tuple[float, float]:
    """[lo, hi] narrowed to the y where the four conditions `cond` hold on the column x (an
    empty range has lo > hi)."""
    for t in range(4):
        r = cond[t, 3]
        if r <= 0.0:
            return 1.0, -1.0
        a = cond[t, 0] + cond[t, 1] * x
        ib = cond[t, 2]
        if ib == 0.0:
            if not abs(a) < r:
                return 1.0, -1.0
            continue
        y0 = (-r - a) * ib
        y1 = (r - a) * ib
        if y0 > y1:
            y0, y1 = y1, y0
        lo = max(lo, y0)
        hi = min(hi, y1)
        if lo > hi:
            return lo, hi
    return lo, hi


@numba.njit(cache=True)
def fresh_keep(  # noqa: PLR0917 - every filter of a new pair
    sup: Array, h: float, abs_cos: Array, abs_sin: Array, cos: Array, sin: Array, step: float,
    inset: float, rows: Ints, sx: Array, sy: Array, sux: Array, suy: Array, sh: Array,
    sq: Array, reach: Array, reach0: float, a: int, b: int, deep: float, tol: float,
    rest: float,
) -> Ints:  # fmt: skip
    """The pose-by-pose filters on `pile_kernels.pair_lattice(sup, h, abs_cos, abs_sin, step)`
    (the poses' axes `cos[k]`, `sin[k]` at angle k), without listing the lattice: the indices
    (into that list) of the poses that meet both supports (`sup` rows: cx, cy, ux, uy, half),
    also shrunk by `inset`, touch none of the sticks `rows` and rest at least `rest` mm² on
    the supports' quads sq[a], sq[b]."""
    na = len(abs_cos)
    out = np.empty(64, dtype=np.int64)
    n = 0
    base = np.int64(0)
    # the sticks near the pair: a pose meeting a support has its centre within the two
    # circumscribed radii (at most half + W each) of the support's centre, so within the box of
    # centres below; a stick farther from that box than its radius and the pose's meets none
    bx0, by0, bx1, by1 = -np.inf, -np.inf, np.inf, np.inf
    for s in range(2):
        far = reach0 + sup[s, 4] + W
        bx0 = max(bx0, sup[s, 0] - far)
        bx1 = min(bx1, sup[s, 0] + far)
        by0 = max(by0, sup[s, 1] - far)
        by1 = min(by1, sup[s, 1] + far)
    near = np.empty(len(rows), dtype=np.int64)
    count = 0
    for r in rows:
        ex = max(bx0 - sx[r], 0.0, sx[r] - bx1)
        ey = max(by0 - sy[r], 0.0, sy[r] - by1)
        lim = reach0 + reach[r] + 1e-6
        if ex * ex + ey * ey < lim * lim + 1e-6:
            near[count] = r
            count += 1
    near = near[:count]
    cut_lo = np.empty(count)
    cut_hi = np.empty(count)
    # per angle, the near sticks reaching its columns and their sure-touch conditions: |P + Q x
    # + B y| < R for the four axes, as (P, Q, 1 / B, R) (B = 0: the condition on x alone)
    use = np.empty(count, dtype=np.int64)
    coef = np.empty((count, 4, 4))
    meet = np.empty((2, 4, 4))
    jlo = np.empty(64, dtype=np.int64)
    jhi = np.empty(64, dtype=np.int64)
    q = np.empty((4, 2))
    work = np.empty(WORK)
    hd, wd = h - deep, W - deep
    for k in range(na):
        # the bounds of pile_kernels.pair_lattice
        ix0, iy0, nx, ny = angle_grid(sup, h, abs_cos[k], abs_sin[k], step)
        first = base  # the angle's first pose in the list
        base += nx * ny
        if nx == 0 or ny == 0:
            continue
        pux, puy = cos[k], sin[k]
        if nx > len(jlo):
            jlo = np.empty(2 * nx, dtype=np.int64)
            jhi = np.empty(2 * nx, dtype=np.int64)
        # first the rows of each column where a pose could meet both supports shrunk by the
        # inset (widened), and the box of those poses
        for s in range(2):
            _conditions(pux, puy, h - inset, W - inset, sup[s, 0], sup[s, 1], sup[s, 2],
                        sup[s, 3], sup[s, 4] - inset, W - inset, ROOM, meet[s])  # fmt: skip
        bx0, bx1, by0, by1 = np.inf, -np.inf, np.inf, -np.inf
        for i in range(nx):
            x = (ix0 + i) * step
            lo, hi = _solve(meet[0], x, -FAR, FAR)
            if lo <= hi:
                lo, hi = _solve(meet[1], x, lo, hi)
            jlo[i], jhi[i] = 1, 0
            if lo > hi:
                continue
            j0 = max(0.0, np.ceil(lo / step) - iy0)
            j1 = min(ny - 1.0, np.floor(hi / step) - iy0)
            if j0 > j1:
                continue
            jlo[i], jhi[i] = np.int64(j0), np.int64(j1)
            bx0, bx1 = min(bx0, x), max(bx1, x)
            by0, by1 = min(by0, (iy0 + j0) * step), max(by1, (iy0 + j1) * step)
        if bx0 > bx1:
            continue
        # the near sticks whose circumscribed circle reaches a pose of that box
        m = 0
        for r in near:
            ex = max(bx0 - sx[r], 0.0, sx[r] - bx1)
            ey = max(by0 - sy[r], 0.0, sy[r] - by1)
            lim = reach0 + reach[r] + 1e-6
            if ex * ex + ey * ey >= lim * lim:
                continue
            use[m] = r
            _conditions(pux, puy, hd, wd, sx[r], sy[r], sux[r], suy[r], sh[r] - deep, wd,
                        -ROOM, coef[m])  # fmt: skip
            m += 1
        for i in range(nx):
            if jlo[i] > jhi[i]:
                continue
            x = (ix0 + i) * step
            j0, j1 = jlo[i], jhi[i]
            # the y where a pose surely touches a near stick (narrowed), of the sticks whose
            # circumscribed circle reaches a pose of the column's range
            ylo = (iy0 + j0) * step
            yhi = (iy0 + j1) * step
            cuts = 0
            whole = False
            for u in range(m):
                r = use[u]
                ex = sx[r] - x
                ey = max(ylo - sy[r], 0.0, sy[r] - yhi)
                lim = reach0 + reach[r]
                if ex * ex + ey * ey >= lim * lim:
                    continue
                c0, c1 = _solve(coef[u], x, -FAR, FAR)
                if c0 < ylo and yhi < c1:  # one stick surely touches every pose of the column
                    whole = True
                    break
                if c0 < c1:
                    cut_lo[cuts] = c0
                    cut_hi[cuts] = c1
                    cuts += 1
            if whole:
                continue
            for jj in range(np.int64(j0), np.int64(j1) + 1):
                y = (iy0 + jj) * step
                cut = False
                for c in range(cuts):
                    if cut_lo[c] < y < cut_hi[c]:
                        cut = True
                        break
                if cut:
                    continue
                # the exact tests of pile_kernels.pair_keep
                ok = True
                for shrink in (0.0, inset):
                    for s in range(2):
                        if not geom_kernels.meet(x, y, pux, puy, h - shrink, W - shrink,
                                                 sup[s, 0], sup[s, 1], sup[s, 2], sup[s, 3],
                                                 sup[s, 4] - shrink, W - shrink):  # fmt: skip
                            ok = False
                            break
                    if not ok:
                        break
                if not ok:
                    continue
                if touches_any(x, y, pux, puy, h, reach0, near, sx, sy, sux, suy, sh, sq,
                               reach, deep, tol, q, work):  # fmt: skip
                    continue
                quad(x, y, pux, puy, h, W, q)
                if clip(q, sq[a], work)[0] >= rest and clip(q, sq[b], work)[0] >= rest:
                    if n == len(out):
                        grown = np.empty(2 * n, dtype=np.int64)
                        grown[:n] = out
                        out = grown
                    out[n] = first + i * ny + jj
                    n += 1
    return out[:n]


@numba.njit(cache=True)
def lattice_at(  # noqa: PLR0917 - pair_lattice's arguments and the poses wanted
    sup: Array, h: float, abs_cos: Array, abs_sin: Array, step: float, idx: Ints
) -> tuple[Array, Array, Ints, Ints, Ints]:
    """The poses `idx` (ascending indices into `pile_kernels.pair_lattice(sup, h, abs_cos,
    abs_sin, step)`'s list) as it gives them (x, y, angle index, x10, y10), without listing the
    others: its arithmetic, angle block by angle block."""
    m = len(idx)
    x = np.empty(m)
    y = np.empty(m)
    which = np.empty(m, dtype=np.int64)
    x10 = np.empty(m, dtype=np.int64)
    y10 = np.empty(m, dtype=np.int64)
    t = 0
    base = np.int64(0)
    for k in range(len(abs_cos)):
        if t >= m:
            break
        ix0, iy0, nx, ny = angle_grid(sup, h, abs_cos[k], abs_sin[k], step)
        end = base + nx * ny
        while t < m and idx[t] < end:
            off = idx[t] - base
            i = off // ny
            j = off - i * ny
            x[t] = (ix0 + i) * step
            y[t] = (iy0 + j) * step
            which[t] = k
            x10[t] = np.int64(np.rint(x[t] * 10))
            y10[t] = np.int64(np.rint(y[t] * 10))
            t += 1
        base = end
    return x, y, which, x10, y10


@numba.njit(cache=True)
def first_standing(  # noqa: PLR0917 - the poses, where to start, the supports, the threshold
    px: Array, py: Array, pux: Array, puy: Array, h: float, at: int, windows: Array,
    power: float, need: float,
) -> int:  # fmt: skip
    """From `at` on, the first pose (centres, axes, half-length `h`) that stands on its own
    weight on the two supports' footprints `windows` (2, 4, 2): its support polygon
    (`pile_kernels.support_edges`, the very call of `support.support`, `power` its 0.5) holds
    its centre `need` mm or more inside, as `balance.stands` asks of a new stick with no load
    (its depth is then the least edge offset); len(px) when none does."""
    feet = np.empty((4, 2))
    for k in range(at, len(px)):
        quad(px[k], py[k], pux[k], puy[k], h, W, feet)
        edges = support_edges(feet, windows, px[k], py[k], power)
        if len(edges) and edges[:, 2].min() >= need:
            return k
    return len(px)
