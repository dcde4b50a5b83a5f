"""Compiled loops for sticks piled on sticks (docs/games/stack-back.md, "Compiled piles").

The pile filters of the pass search (search.py) and the touch table of the piled candidates
(piles.py) are short loops over a few hundred poses and a few dozen sticks. Written with numpy
they cost dozens of calls of a few microseconds each per pair of supports; here each is one
compiled call that loops over poses and sticks and stops testing a pose at its first refusal.

Every test does the floating-point operations of the numpy code it replaces, in the same order
(no `fastmath`, no fused multiply-add), so the verdicts are the same bit for bit:
- `_sat`: the separating-axis test of `search._sat` (footprints shrunk by `shrink`), and
  `_sat_eps` that of `geometry.sat_pairs` (the `EPS` margin, one half-width for both);
- `clip_one`: `geometry.clip` (Sutherland-Hodgman against the window's four edges, the
  area and centroid summed over 12 slots as numpy's pairwise summation adds them).
tests/games/stack_back/test_sb_pile_kernels.py compares each with the numpy code.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from .components import HALF_WIDTH
from .wood_kernels import EPS

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

W = HALF_WIDTH
CAP = 12
"""Vertices a clipped polygon may hold (as `geometry._CAP`)."""


@numba.njit(cache=True)
def _sat(  # noqa: PLR0917 - one footprint against one stick, as scalars
    cx: float, cy: float, ux: float, uy: float, h: float, w: float,
    dx: float, dy: float, vx: float, vy: float, half: float, shrink: float,
) -> bool:  # fmt: skip
    """Whether footprint (cx, cy, ux, uy, h, w) meets the stick shrunk by `shrink` mm."""
    k = half - shrink
    v = W - shrink
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
    return abs(-ddx * vy + ddy * vx) < v + h * s + w * c


@numba.njit(cache=True)
def _sat_eps(  # noqa: PLR0917 - two footprints as scalars
    cx: float, cy: float, ux: float, uy: float, h: float,
    dx: float, dy: float, vx: float, vy: float, k: float, w: float,
) -> bool:  # fmt: skip
    """`geometry.sat_pairs` for one pair: overlap with positive area (both `w` half-wide)."""
    ddx = dx - cx
    ddy = dy - cy
    c = abs(ux * vx + uy * vy)
    s = abs(ux * vy - uy * vx)
    if not abs(ddx * ux + ddy * uy) < h + k * c + w * s - EPS:
        return False
    if not abs(-ddx * uy + ddy * ux) < w + k * s + w * c - EPS:
        return False
    if not abs(ddx * vx + ddy * vy) < k + h * c + w * s - EPS:
        return False
    return abs(-ddx * vy + ddy * vx) < w + h * s + w * c - EPS


@numba.njit(cache=True)
def _quad(cx: float, cy: float, ux: float, uy: float, h: float, out: Array) -> None:  # noqa: PLR0917
    """`geometry.quads` for one footprint, into `out` (4, 2)."""
    ax = ux * h
    ay = uy * h
    bx = -uy * W
    by = ux * W
    out[0, 0] = cx + ax + bx
    out[0, 1] = cy + ay + by
    out[1, 0] = cx - ax + bx
    out[1, 1] = cy - ay + by
    out[2, 0] = cx - ax - bx
    out[2, 1] = cy - ay - by
    out[3, 0] = cx + ax - bx
    out[3, 1] = cy + ay - by


@numba.njit(cache=True)
def _sum12(v: Array) -> float:
    """numpy's sum of 12 doubles (as `geometry._sum12`)."""
    res = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
    res += v[8]
    res += v[9]
    res += v[10]
    res += v[11]
    return res


@numba.njit(cache=True)
def clip_one(subject: Array, window: Array) -> tuple[float, float, float]:
    """(area, centroid x, y) of two convex CCW quads (4, 2): `geometry.clip`'s arithmetic."""
    px = np.empty(2 * CAP)
    py = np.empty(2 * CAP)
    ox = np.empty(2 * CAP)
    oy = np.empty(2 * CAP)
    sides = np.empty(2 * CAP)
    for k in range(4):
        px[k] = subject[k, 0]
        py[k] = subject[k, 1]
    m = 4
    for e in range(4):
        if m == 0:
            break
        ax = window[e, 0]
        ay = window[e, 1]
        bx = window[(e + 1) & 3, 0]
        by = window[(e + 1) & 3, 1]
        ex0 = bx - ax
        ex1 = by - ay
        for k in range(m):
            sides[k] = ex0 * (py[k] - ay) - ex1 * (px[k] - ax)
        n = 0
        for k in range(m):
            s = sides[k]
            nk = k + 1 if k + 1 < m else 0
            inside = s >= -EPS
            if inside:
                ox[n] = px[k]
                oy[n] = py[k]
                n += 1
            if inside != (sides[nk] >= -EPS):
                t = s / (s - sides[nk])
                x = px[k]
                y = py[k]
                ox[n] = x + t * (px[nk] - x)
                oy[n] = y + t * (py[nk] - y)
                n += 1
        m = min(n, CAP)
        for k in range(m):
            px[k] = ox[k]
            py[k] = oy[k]
    cr = np.zeros(CAP)
    sx = np.zeros(CAP)
    sy = np.zeros(CAP)
    for k in range(m):
        x = px[k]
        y = py[k]
        nk = k + 1 if k + 1 < m else 0
        qx = px[nk]
        qy = py[nk]
        c = x * qy - qx * y
        cr[k] = c
        sx[k] = (x + qx) * c
        sy[k] = (y + qy) * c
    area2 = _sum12(cr)
    safe = area2 if abs(area2) > EPS else 1.0
    half = area2 / 2
    if half < 0.0:  # noqa: PLR1730 - as Python's max(half, 0.0), which keeps -0.0
        half = 0.0
    return half, _sum12(sx) / (3 * safe), _sum12(sy) / (3 * safe)


@numba.njit(cache=True)
def clip_many(subject: Array, window: Array) -> tuple[Array, Array]:
    """`geometry.clip` over (N, 4, 2) quads: areas (N,) and centroids (N, 2)."""
    n = len(subject)
    area = np.empty(n)
    cent = np.empty((n, 2))
    for i in range(n):
        a, gx, gy = clip_one(subject[i], window[i])
        area[i] = a
        cent[i, 0] = gx
        cent[i, 1] = gy
    return area, cent


@numba.njit(cache=True)
def _touches_any(  # noqa: PLR0917 - one pose against some sticks
    x: float, y: float, ux: float, uy: float, h: float, reach0: float,
    rows: Ints, sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sq: Array,
    reach: Array, deep: float, tol: float, quad: Array,
) -> bool:  # fmt: skip
    """Whether the pose touches one of the sticks `rows` (overlap above `tol`): as
    `search._touching` (circumscribed circles, then shrunk by `deep`, then clipped)."""
    filled = False
    for r in rows:
        dx = sx[r] - x
        dy = sy[r] - y
        lim = reach0 + reach[r] + 1e-6
        if not dx * dx + dy * dy < lim * lim:
            continue
        if _sat(x, y, ux, uy, h - deep, W - deep, sx[r], sy[r], sux[r], suy[r], sh[r], deep):
            return True
        if _sat(x, y, ux, uy, h, W, sx[r], sy[r], sux[r], suy[r], sh[r], 0.0):
            if not filled:
                _quad(x, y, ux, uy, h, quad)
                filled = True
            if clip_one(quad, sq[r])[0] > tol:
                return True
    return False


@numba.njit(cache=True)
def touching(  # noqa: PLR0917 - a pair's poses against some sticks
    px: Array, py: Array, pux: Array, puy: Array, h: float, reach0: float, keep: Ints,
    rows: Ints, sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sq: Array,
    reach: Array, deep: float, tol: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """For each pose of `keep`, whether it touches one of the sticks `rows`."""
    out = np.zeros(len(keep), dtype=np.bool_)
    quad = np.empty((4, 2))
    for k in range(len(keep)):
        m = keep[k]
        out[k] = _touches_any(px[m], py[m], pux[m], puy[m], h, reach0, rows, sx, sy, sux,
                              suy, sh, sq, reach, deep, tol, quad)  # fmt: skip
    return out


@numba.njit(cache=True)
def rests(  # noqa: PLR0917 - a pair's poses on its two supports
    px: Array, py: Array, pux: Array, puy: Array, h: float, keep: Ints, sq: Array, rest: float
) -> Ints:  # fmt: skip
    """Those of `keep` whose overlap with each support's quad (sq[0], sq[1]) is at least
    `rest` (mm²)."""
    out = np.empty(len(keep), dtype=np.int64)
    n = 0
    quad = np.empty((4, 2))
    for k in range(len(keep)):
        m = keep[k]
        _quad(px[m], py[m], pux[m], puy[m], h, quad)
        if clip_one(quad, sq[0])[0] >= rest and clip_one(quad, sq[1])[0] >= rest:
            out[n] = m
            n += 1
    return out[:n]


@numba.njit(cache=True)
def pair_keep(  # noqa: PLR0917 - every filter of a new pair, pose by pose
    px: Array, py: Array, pux: Array, puy: Array, h: float, sup: Array, inset: float,
    rows: Ints, sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sq: Array,
    reach: Array, reach0: float, a: int, b: int, deep: float, tol: float, rest: float,
) -> Ints:  # fmt: skip
    """The poses of a pair of supports `a`, `b` that pass every filter of `search._find_pile`
    for a new pair, in order: the footprint, as is and shrunk by `inset`, meets both supports
    (`sup` rows: cx, cy, ux, uy, half); it touches none of the sticks `rows`; it rests at least
    `rest` mm² on both supports' quads (sq[a], sq[b]). Each pose stops at its first refusal;
    the sticks whose circumscribed circle reaches no pose's are left out first."""
    out = np.empty(len(px), dtype=np.int64)
    if not len(px):
        return out
    x0, x1, y0, y1 = px.min(), px.max(), py.min(), py.max()
    near = np.empty(len(rows), dtype=np.int64)
    count = 0
    for r in rows:  # a stick farther from the poses' box than both radii never meets one
        dx = max(x0 - sx[r], 0.0, sx[r] - x1)
        dy = max(y0 - sy[r], 0.0, sy[r] - y1)
        lim = reach0 + reach[r] + 1e-6
        if dx * dx + dy * dy < lim * lim + 1e-6:
            near[count] = r
            count += 1
    near = near[:count]
    n = 0
    quad = np.empty((4, 2))
    for m in range(len(px)):
        x, y, ux, uy = px[m], py[m], pux[m], puy[m]
        ok = True
        for shrink in (0.0, inset):  # the cheapest test first: most poses miss a support
            for s in range(2):
                if not _sat(x, y, ux, uy, h - shrink, W - shrink, sup[s, 0], sup[s, 1],
                            sup[s, 2], sup[s, 3], sup[s, 4], shrink):  # fmt: skip
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            continue
        if _touches_any(x, y, ux, uy, h, reach0, near, sx, sy, sux, suy, sh, sq, reach, deep,
                        tol, quad):  # fmt: skip
            continue
        _quad(x, y, ux, uy, h, quad)
        if clip_one(quad, sq[a])[0] >= rest and clip_one(quad, sq[b])[0] >= rest:
            out[n] = m
            n += 1
    return out[:n]


@numba.njit(cache=True)
def touch_table(  # noqa: PLR0917 - footprints against sticks
    fx: Array, fy: Array, fux: Array, fuy: Array, fh: Array, fr: Array,
    sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sr: Array, sq: Array,
    deep: float, tol: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """(K, M): whether footprint i touches stick j (overlap above `tol`), as
    `rules.touch_matrix` finds it: circumscribed circles (radii `fr`, `sr`) that meet, then
    `sat_pairs`, then shrunk by `deep` and still meeting, else clipped."""
    out = np.zeros((len(fx), len(sx)), dtype=np.bool_)
    quad = np.empty((4, 2))
    for i in range(len(fx)):
        x, y, ux, uy, h = fx[i], fy[i], fux[i], fuy[i], fh[i]
        filled = False
        for j in range(len(sx)):
            r = fr[i] + sr[j]
            dx = sx[j] - x
            dy = sy[j] - y
            if not dx * dx + dy * dy < r * r + 1e-6:
                continue
            if not _sat_eps(x, y, ux, uy, h, sx[j], sy[j], sux[j], suy[j], sh[j], W):
                continue
            if _sat_eps(x, y, ux, uy, h - deep, sx[j], sy[j], sux[j], suy[j], sh[j] - deep,
                        W - deep):  # fmt: skip
                out[i, j] = True
                continue
            if not filled:
                _quad(x, y, ux, uy, h, quad)
                filled = True
            out[i, j] = clip_one(quad, sq[j])[0] > tol
    return out


@numba.njit(cache=True)
def touch_values(  # noqa: PLR0917 - the touches of some footprints
    fx: Array, fy: Array, fux: Array, fuy: Array, fh: Array, ci: Ints, sj: Ints, sq: Array
) -> Array:  # fmt: skip
    """(K, 3): area and centroid of footprint ci[k] over stick sj[k] (quads `sq`)."""
    out = np.empty((len(ci), 3))
    quad = np.empty((4, 2))
    for k in range(len(ci)):
        i = ci[k]
        _quad(fx[i], fy[i], fux[i], fuy[i], fh[i], quad)
        a, gx, gy = clip_one(quad, sq[sj[k]])
        out[k, 0] = a
        out[k, 1] = gx
        out[k, 2] = gy
    return out


@numba.njit(cache=True)
def pair_lattice(
    sup: Array, h: float, abs_cos: Array, abs_sin: Array, step: float
) -> tuple[Array, Array, Ints, Ints, Ints]:
    """The lattice centres (x, y, angle index, x10, y10) whose footprint's bounding box (half-
    length `h`, angle k: |cos|, |sin| `abs_cos[k]`, `abs_sin[k]`) meets both supports' boxes
    (`sup` rows: cx, cy, ux, uy, half), angle by angle, then x, then y: `search._pair_poses`'
    arithmetic (bounds, then whole multiples of `step`)."""
    na = len(abs_cos)
    ix0 = np.empty(na)
    iy0 = np.empty(na)
    nx = np.zeros(na, dtype=np.int64)
    ny = np.zeros(na, dtype=np.int64)
    total = 0
    for k in range(na):
        ex = h * abs_cos[k] + W * abs_sin[k]
        ey = h * abs_sin[k] + W * abs_cos[k]
        lo_x, hi_x, lo_y, hi_y = -np.inf, np.inf, -np.inf, np.inf
        for s in range(2):
            cx, cy, ux, uy, half = sup[s, 0], sup[s, 1], sup[s, 2], sup[s, 3], sup[s, 4]
            sx = half * abs(ux) + W * abs(uy)
            sy = half * abs(uy) + W * abs(ux)
            lo_x = max(lo_x, cx - sx - ex)
            hi_x = min(hi_x, cx + sx + ex)
            lo_y = max(lo_y, cy - sy - ey)
            hi_y = min(hi_y, cy + sy + ey)
        ix0[k] = np.ceil(lo_x / step)
        iy0[k] = np.ceil(lo_y / step)
        cx_ = np.floor(hi_x / step) - ix0[k] + 1
        cy_ = np.floor(hi_y / step) - iy0[k] + 1
        if lo_x <= hi_x and cx_ > 0:
            nx[k] = np.int64(cx_)
        if lo_y <= hi_y and cy_ > 0:
            ny[k] = np.int64(cy_)
        total += nx[k] * ny[k]
    x = np.empty(total)
    y = np.empty(total)
    which = np.empty(total, dtype=np.int64)
    x10 = np.empty(total, dtype=np.int64)
    y10 = np.empty(total, dtype=np.int64)
    t = 0
    for k in range(na):
        for i in range(nx[k]):
            for j in range(ny[k]):
                x[t] = (ix0[k] + i) * step
                y[t] = (iy0[k] + j) * step
                which[t] = k
                x10[t] = np.int64(np.rint(x[t] * 10))
                y10[t] = np.int64(np.rint(y[t] * 10))
                t += 1
    return x, y, which, x10, y10


_MOST = 64
"""Vertices a quad clipped by a quad may hold at most (each of 4 edges at most doubles them)."""


@numba.njit(cache=True)
def _clip_into(subject: Array, window: Array, out: Array, at: int) -> int:
    """Clip the convex CCW quad `subject` by the convex CCW quad `window` (`support.py`'s
    order of operations), writing the vertices to out[at:]; returns the new end."""
    px = np.empty(_MOST)  # each clip at most doubles the vertices (4 x 2^4), however flat
    py = np.empty(_MOST)
    ox = np.empty(_MOST)
    oy = np.empty(_MOST)
    sides = np.empty(_MOST)
    for k in range(4):
        px[k] = subject[k, 0]
        py[k] = subject[k, 1]
    m = 4
    for e in range(4):
        if m == 0:
            break
        ax, ay = window[e, 0], window[e, 1]
        bx, by = window[(e + 1) % 4, 0], window[(e + 1) % 4, 1]
        ex, ey = bx - ax, by - ay
        for k in range(m):
            sides[k] = ex * (py[k] - ay) - ey * (px[k] - ax)
        n = 0
        for k in range(m):
            nk = (k + 1) % m
            sp, sq = sides[k], sides[nk]
            if sp >= -EPS:
                ox[n] = px[k]
                oy[n] = py[k]
                n += 1
            if (sp >= -EPS) != (sq >= -EPS):
                t = sp / (sp - sq)
                ox[n] = px[k] + t * (px[nk] - px[k])
                oy[n] = py[k] + t * (py[nk] - py[k])
                n += 1
        m = n
        for k in range(m):
            px[k] = ox[k]
            py[k] = oy[k]
    for k in range(m):
        out[at + k, 0] = px[k]
        out[at + k, 1] = py[k]
    return at + m


@numba.njit(cache=True)
def _before(ax: float, ay: float, bx: float, by: float) -> bool:
    """(ax, ay) < (bx, by) as Python compares tuples."""
    return ax < bx or (ax == bx and ay < by)


@numba.njit(cache=True)
def _chain(pts: Array, n: int, forward: bool, out: Array) -> int:
    """Andrew's monotone chain over the sorted points (reversed unless `forward`), into `out`;
    returns its length."""
    m = 0
    for k in range(n):
        i = k if forward else n - 1 - k
        x, y = pts[i, 0], pts[i, 1]
        while m >= 2:
            ox, oy = out[m - 2, 0], out[m - 2, 1]
            ax, ay = out[m - 1, 0], out[m - 1, 1]
            if (ax - ox) * (y - oy) - (ay - oy) * (x - ox) > EPS:
                break
            m -= 1
        out[m, 0] = x
        out[m, 1] = y
        m += 1
    return m


@numba.njit(cache=True)
def support_edges(subject: Array, windows: Array, cx: float, cy: float, power: float) -> Array:
    """The support polygon of the footprint `subject` (4, 2) resting on `windows` (K, 4, 2):
    the convex hull of its overlaps with each, as edges (outward unit normal, offset) relative
    to (cx, cy); none if it has no area. `support.py` documents the model; the arithmetic is
    its Python's of before (Sutherland-Hodgman, the points sorted as tuples without repeats,
    Andrew's monotone chain, lengths as `** 0.5`). `power` is 0.5, passed at run time: with a
    constant exponent the compiler takes a square root, which differs from C's `pow(x, 0.5)`
    (Python's `** 0.5`) in the last bit about once in 2,000 lengths."""
    pts = np.empty((_MOST * len(windows), 2))
    n = 0
    for w in range(len(windows)):
        n = _clip_into(subject, windows[w], pts, n)
    for k in range(1, n):  # insertion sort, as tuples compare
        x, y = pts[k, 0], pts[k, 1]
        j = k - 1
        while j >= 0 and _before(x, y, pts[j, 0], pts[j, 1]):
            pts[j + 1, 0] = pts[j, 0]
            pts[j + 1, 1] = pts[j, 1]
            j -= 1
        pts[j + 1, 0] = x
        pts[j + 1, 1] = y
    u = 0
    for k in range(n):  # without repeats (a set keeps one of equal points)
        if u and pts[k, 0] == pts[u - 1, 0] and pts[k, 1] == pts[u - 1, 1]:
            continue
        pts[u, 0] = pts[k, 0]
        pts[u, 1] = pts[k, 1]
        u += 1
    edges = np.empty((0, 3))
    if u < 3:
        return edges
    lower = np.empty((u, 2))
    upper = np.empty((u, 2))
    nl = _chain(pts, u, True, lower)
    nu = _chain(pts, u, False, upper)
    hull = np.empty((nl + nu - 2, 2))
    hull[: nl - 1] = lower[: nl - 1]
    hull[nl - 1 :] = upper[: nu - 1]
    h = len(hull)
    if h < 3:
        return edges
    out = np.empty((h, 3))
    e = 0
    for k in range(h):
        ax, ay = hull[k, 0], hull[k, 1]
        bx, by = hull[(k + 1) % h, 0], hull[(k + 1) % h, 1]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** power
        if length < 1e-7:
            continue
        nx, ny = dy / length, -dx / length
        out[e, 0] = nx
        out[e, 1] = ny
        out[e, 2] = nx * (ax - cx) + ny * (ay - cy)
        e += 1
    return out[:e] if e >= 3 else edges


@numba.njit(cache=True)
def pick_bridges(  # noqa: PLR0917 - the kept table's rows and what the player may use
    row_i: Ints, row_j: Ints, row_level: Ints, row_gap: Array, row_colour: Ints, row_slot: Ints,
    index: Ints, touched: npt.NDArray[np.bool_], levels: Ints, refuses: Ints,
    allowed: npt.NDArray[np.bool_], floor: int, limit: float,
) -> tuple[Ints, Ints]:  # fmt: skip
    """The bridges `piles.Piles.moves` judges: the poses (slots, in pose index order) of the
    rows the player may use (colour held and allowed on both supports, the pair at or above
    the floor less one and within `limit`) that touch exactly two sticks of the highest level
    they touch, that level plus one at or above the floor; and how many sticks each touches."""
    use = np.zeros(len(index), dtype=np.bool_)
    for r in range(len(row_slot)):
        c = row_colour[r]
        if not allowed[c] or row_level[r] + 1 < floor or not row_gap[r] <= limit:
            continue
        if ((refuses[row_i[r]] | refuses[row_j[r]]) >> c) & 1:
            continue
        use[row_slot[r]] = True
    slots = np.nonzero(use)[0]
    slots = slots[np.argsort(index[slots])]  # one slot per pose index: any sort is stable
    return two_at_top(touched, slots, levels, floor)


@numba.njit(cache=True)
def two_at_top(
    touched: npt.NDArray[np.bool_], slots: Ints, levels: Ints, floor: int
) -> tuple[Ints, Ints]:
    """Those of `slots` (rows of `touched`, which sticks each pose touches) that touch exactly
    two sticks of the highest level they touch, that level plus one at or above the floor (any
    other `piled` refuses, or the level rule), in order; and how many sticks each touches."""
    picked = np.empty(len(slots), dtype=np.int64)
    counts = np.empty(len(slots), dtype=np.int64)
    n = 0
    for s in slots:
        top, at_top, total = -1, 0, 0
        for k in range(touched.shape[1]):
            if touched[s, k]:
                total += 1
                if levels[k] > top:
                    top, at_top = levels[k], 1
                elif levels[k] == top:
                    at_top += 1
        if top >= 0 and at_top == 2 and top + 1 >= floor:
            picked[n] = s
            counts[n] = total
            n += 1
    return picked[:n], counts[:n]
