"""The compiled footprint primitives every kernel module calls (numba, `@njit(cache=True)`).

One copy of each: the clipper, the separating-axis tests, a footprint's corners, the support
polygon's clip and hull, and the touch test of one pose against some sticks. wood_kernels.py (the
wood search, free space, `geometry`), pile_kernels.py (piles, touches, support polygons) and
id_kernels.py (the action ids' mask) call them; numba inlines nothing across modules it cannot
see, but an njit function calling another compiles them together.

Each does the floating-point operations of the numpy or Python code it stands for, in the same
order, with no `fastmath` (no fused multiply-add), so verdicts, areas, centroids and loads keep
every bit: the clipper adds its 12 slots as numpy's pairwise summation did, the separating-axis
tests evaluate the same expressions left to right (tests/games/stack_back/
test_sb_wood_kernels.py compares them with numpy references written in the test).

Every kernel here and in cand_kernels.py is compiled with `error_model="numpy"`: no division
of theirs is by zero (each divisor is a difference of opposite sides, a clamped area, a length
of at least 1e-7, a positive load or a constant), so the only change is that numba adds no
zero test and no `ZeroDivisionError` path after each division; the same bits otherwise. Those
raising paths kept numba's pruner from removing the atomic reference counts of the array
arguments of a function called inside a loop (`_pair` per pair of sticks, `first_loads` per
bridge): 5-10% of `cand_kernels.pile_candidates`' time (docs/games/stack-back.md, "Compiled
piled candidates").
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from .components import HALF_WIDTH

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

EPS = 1e-9
"""The clipper's and the separating-axis test's slack (mm, mm²)."""
CAP = 12
"""Vertices a clipped overlap may hold (4 + 4 clips, with room for duplicates)."""
W = HALF_WIDTH
WORK = (8, 2 * CAP)
"""The shape of `clip`'s scratch array (a caller allocates one per call and passes it on)."""
MOST = 64
"""Vertices a quad clipped by a quad may hold at most in `clip_into` (each of 4 edges at most
doubles them, however flat)."""


@numba.njit(cache=True, error_model="numpy")
def sum12(w: Array, row: int) -> float:
    """numpy's sum of the 12 doubles w[row, :12] (pairwise summation: eight partial sums, then
    the rest)."""
    res = ((w[row, 0] + w[row, 1]) + (w[row, 2] + w[row, 3])) + (
        (w[row, 4] + w[row, 5]) + (w[row, 6] + w[row, 7])
    )
    res += w[row, 8]
    res += w[row, 9]
    res += w[row, 10]
    res += w[row, 11]
    return res


@numba.njit(cache=True, error_model="numpy")
def clip(sub: Array, win: Array, w: Array) -> tuple[float, float, float]:
    """(area, centroid x, y) of two convex CCW quads (4, 2): Sutherland-Hodgman against the
    window's four edges, at most `CAP` vertices, summed as numpy summed 12 slots (`w`: a
    scratch array of shape `WORK`, rows: x, y, next x, next y, sides, cross products, their x
    and y moments; indexed in place, as views of it would cost more than the clipping)."""
    m = 4
    for k in range(4):
        w[0, k] = sub[k, 0]
        w[1, k] = sub[k, 1]
    for e in range(4):
        if m == 0:
            break
        ax = win[e, 0]
        ay = win[e, 1]
        f = (e + 1) & 3
        ex0 = win[f, 0] - ax
        ex1 = win[f, 1] - ay
        for k in range(m):
            w[4, k] = ex0 * (w[1, k] - ay) - ex1 * (w[0, k] - ax)
        n = 0
        for k in range(m):
            s = w[4, k]
            nk = k + 1 if k + 1 < m else 0
            inside = s >= -EPS
            if inside:
                w[2, n] = w[0, k]
                w[3, n] = w[1, k]
                n += 1
            if inside != (w[4, nk] >= -EPS):
                t = s / (s - w[4, nk])
                x = w[0, k]
                y = w[1, k]
                w[2, n] = x + t * (w[0, nk] - x)
                w[3, n] = y + t * (w[1, nk] - y)
                n += 1
        m = min(n, CAP)
        for k in range(m):
            w[0, k] = w[2, k]
            w[1, k] = w[3, k]
    return _moments(w, m, w)


@numba.njit(cache=True, error_model="numpy")
def _moments(v: Array, m: int, w: Array) -> tuple[float, float, float]:
    """(area, centroid x, y) of the polygon v[0, :m], v[1, :m] (at most `CAP` vertices), as
    `clip` sums them (w: its scratch, rows 5 to 7 written)."""
    for k in range(m, CAP):
        w[5, k] = 0.0
        w[6, k] = 0.0
        w[7, k] = 0.0
    for k in range(m):
        x = v[0, k]
        y = v[1, k]
        nk = k + 1 if k + 1 < m else 0
        x1 = v[0, nk]
        y1 = v[1, nk]
        c = x * y1 - x1 * y
        w[5, k] = c
        w[6, k] = (x + x1) * c
        w[7, k] = (y + y1) * c
    area2 = sum12(w, 5)
    safe = area2 if abs(area2) > EPS else 1.0
    half = area2 / 2
    if half < 0.0:  # noqa: PLR1730 - as Python's max(half, 0.0), which keeps -0.0
        half = 0.0
    return half, sum12(w, 6) / (3 * safe), sum12(w, 7) / (3 * safe)


@numba.njit(cache=True, error_model="numpy")
def quad(  # noqa: PLR0917 - a footprint and where to write it
    cx: float, cy: float, ux: float, uy: float, h: float, w: float, out: Array
) -> None:
    """A footprint's corners, counter-clockwise (`geometry.quads`' arithmetic), into `out`."""
    ax = ux * h
    ay = uy * h
    bx = -uy * w
    by = ux * w
    out[0, 0] = cx + ax + bx
    out[0, 1] = cy + ay + by
    out[1, 0] = cx - ax + bx
    out[1, 1] = cy - ay + by
    out[2, 0] = cx - ax - bx
    out[2, 1] = cy - ay - by
    out[3, 0] = cx + ax - bx
    out[3, 1] = cy + ay - by


@numba.njit(cache=True, error_model="numpy")
def sat_eps(  # noqa: PLR0917 - two footprints
    cx: float, cy: float, ux: float, uy: float, h: float,
    dx: float, dy: float, vx: float, vy: float, k: float, w: float,
) -> bool:  # fmt: skip
    """Whether two footprints (both `w` half-wide) overlap with positive area: the separating
    axis test with `EPS` of room, as `geometry.sat_hits` writes it."""
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


@numba.njit(cache=True, error_model="numpy")
def meet(  # noqa: PLR0917 - two footprints, each with its own half-width
    cx: float, cy: float, ux: float, uy: float, h: float, w: float,
    dx: float, dy: float, vx: float, vy: float, k: float, v: float,
) -> bool:  # fmt: skip
    """Whether footprint (h, w) meets footprint (k, v): the separating-axis test with no room,
    as `search._sat` writes it (a stick shrunk by s is (half - s, W - s); shrunk footprints that
    meet share a disc)."""
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


@numba.njit(cache=True, error_model="numpy")
def touches_any(  # noqa: PLR0917 - one pose against some sticks, scratch space
    x: float, y: float, ux: float, uy: float, h: float, reach0: float,
    rows: Ints, sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sq: Array,
    reach: Array, deep: float, tol: float, q: Array, work: Array,
) -> bool:  # fmt: skip
    """Whether the pose (half-length `h`, circumscribed radius `reach0`) touches one of the
    sticks `rows` (overlap above `tol`), as `search._touching` finds it: their circumscribed
    circles meet (radii `reach`, 1e-6 mm of room), then both shrunk by `deep` still meet (a
    shared disc), else clipped where they meet unshrunk. `q` (4, 2) and `work` are scratch."""
    filled = False
    for r in rows:
        dx = sx[r] - x
        dy = sy[r] - y
        lim = reach0 + reach[r] + 1e-6
        if not dx * dx + dy * dy < lim * lim:
            continue
        if meet(x, y, ux, uy, h - deep, W - deep, sx[r], sy[r], sux[r], suy[r], sh[r] - deep,
                W - deep):  # fmt: skip
            return True
        if meet(x, y, ux, uy, h, W, sx[r], sy[r], sux[r], suy[r], sh[r] - 0.0, W - 0.0):
            if not filled:
                quad(x, y, ux, uy, h, W, q)
                filled = True
            if clip(q, sq[r], work)[0] > tol:
                return True
    return False


@numba.njit(cache=True, error_model="numpy")
def clip_into(sub: Array, win: Array, out: Array, at: int, scratch: Array) -> int:
    """Clip the convex CCW quad `sub` by the convex CCW quad `win` (`support.py`'s order of
    operations, no cap on the vertices), writing the vertices to out[at:]; returns the new end.
    `out` needs room for `MOST` more; `scratch` is (5, `MOST`)."""
    m, _ = _clip_loop(sub, win, scratch)
    for k in range(m):
        out[at + k, 0] = scratch[0, k]
        out[at + k, 1] = scratch[1, k]
    return at + m


@numba.njit(cache=True, error_model="numpy")
def clip_both(  # noqa: PLR0917 - two quads, where to write, scratch
    sub: Array, win: Array, out: Array, at: int, scratch: Array, w: Array
) -> tuple[int, float, float, float]:
    """`clip_into(sub, win, out, at, scratch)` and `clip(sub, win, w)` from one clipping: the
    two clip alike but that `clip` keeps at most `CAP` vertices after each edge; where no edge
    left more, the vertices are the same and the area is summed from them; else (never seen
    with a quad: each edge adds at most one vertex or two within `EPS`) `clip` clips again."""
    m, most = _clip_loop(sub, win, scratch)
    for k in range(m):
        out[at + k, 0] = scratch[0, k]
        out[at + k, 1] = scratch[1, k]
    if most > CAP:
        area, gx, gy = clip(sub, win, w)
    else:
        area, gx, gy = _moments(scratch, m, w)
    return at + m, area, gx, gy


@numba.njit(cache=True, error_model="numpy")
def _clip_loop(sub: Array, win: Array, scratch: Array) -> tuple[int, int]:
    """Sutherland-Hodgman of `clip_into`, no cap: the vertices in scratch[0, :m],
    scratch[1, :m]; returns m and the most vertices any edge left. Rows of `scratch`: x, y,
    next x, next y, sides (indexed in place, not through an alias or views: each costs an
    atomic reference count per call)."""
    most = 4
    for k in range(4):
        scratch[0, k] = sub[k, 0]
        scratch[1, k] = sub[k, 1]
    m = 4
    e = 0
    while e < 4 and m > 0:  # (one exit: a `break` kept the reference counts)
        ax, ay = win[e, 0], win[e, 1]
        bx, by = win[(e + 1) & 3, 0], win[(e + 1) & 3, 1]
        ex, ey = bx - ax, by - ay
        for k in range(m):
            scratch[4, k] = ex * (scratch[1, k] - ay) - ey * (scratch[0, k] - ax)
        n = 0
        for k in range(m):
            nk = k + 1 if k + 1 < m else 0
            sp, sq = scratch[4, k], scratch[4, nk]
            if sp >= -EPS:
                scratch[2, n] = scratch[0, k]
                scratch[3, n] = scratch[1, k]
                n += 1
            if (sp >= -EPS) != (sq >= -EPS):
                t = sp / (sp - sq)
                scratch[2, n] = scratch[0, k] + t * (scratch[0, nk] - scratch[0, k])
                scratch[3, n] = scratch[1, k] + t * (scratch[1, nk] - scratch[1, k])
                n += 1
        m = n
        most = max(most, m)
        for k in range(m):
            scratch[0, k] = scratch[2, k]
            scratch[1, k] = scratch[3, k]
        e += 1
    return m, most


@numba.njit(cache=True, error_model="numpy")
def _before(ax: float, ay: float, bx: float, by: float) -> bool:
    """(ax, ay) < (bx, by) as Python compares tuples."""
    return ax < bx or (ax == bx and ay < by)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _chain(pts: Array, n: int, forward: bool, scratch: Array, row: int) -> int:
    """Andrew's monotone chain over the sorted points (reversed unless `forward`), into
    scratch[row]; returns its length. Inlined and indexed in place (no views, no call that
    may raise): `hull_edges` then keeps no reference counts of its arrays."""
    m = 0
    for k in range(n):
        i = k if forward else n - 1 - k
        x, y = pts[i, 0], pts[i, 1]
        while m >= 2:
            ox, oy = scratch[row, m - 2, 0], scratch[row, m - 2, 1]
            ax, ay = scratch[row, m - 1, 0], scratch[row, m - 1, 1]
            if (ax - ox) * (y - oy) - (ay - oy) * (x - ox) > EPS:
                break
            m -= 1
        scratch[row, m, 0] = x
        scratch[row, m, 1] = y
        m += 1
    return m


@numba.njit(cache=True, error_model="numpy")
def hull_edges(  # noqa: PLR0917 - the points, the centre, the exponent, where to write
    pts: Array, n: int, cx: float, cy: float, power: float, out: Array, scratch: Array
) -> int:
    """The convex hull of pts[:n] (reordered in place) as edges into `out` (rows: outward unit
    normal x, y, offset relative to (cx, cy)); returns their count, 0 if the hull has no area.
    `support.py`'s arithmetic of before: the points sorted as tuples without repeats, Andrew's
    monotone chain, lengths as `** power` (`power` is 0.5, passed at run time: with a constant
    exponent the compiler takes a square root, which differs from C's `pow(x, 0.5)`, Python's
    `** 0.5`, in the last bit about once in 2,000 lengths). `out` needs n rows, `scratch` is
    (3, n, 2) or larger: the lower chain, the upper, the hull. One exit."""
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
    nl = _chain(pts, u, True, scratch, 0)  # (fewer than 3 points: chains of at most 2)
    nu = _chain(pts, u, False, scratch, 1)
    h = nl + nu - 2
    for k in range(h if h >= 3 else 0):  # the lower chain, then the upper, without last points
        row, at = (0, k) if k < nl - 1 else (1, k - nl + 1)
        scratch[2, k, 0] = scratch[row, at, 0]
        scratch[2, k, 1] = scratch[row, at, 1]
    e = 0
    for k in range(h if h >= 3 else 0):
        ax, ay = scratch[2, k, 0], scratch[2, k, 1]
        nk = k + 1 if k + 1 < h else 0
        bx, by = scratch[2, nk, 0], scratch[2, nk, 1]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** power
        if length < 1e-7:
            continue
        nx, ny = dy / length, -dx / length
        out[e, 0] = nx
        out[e, 1] = ny
        out[e, 2] = nx * (ax - cx) + ny * (ay - cy)
        e += 1
    return e if e >= 3 else 0


# --- sb-mask11c: the wood's poses taken a bin at a time ------------------------------------------
@numba.njit(cache=True, error_model="numpy")
def meets_all(  # noqa: PLR0917 - a box of centres at one angle, a footprint, the room
    mx: float, my: float, ex: float, ey: float, ux: float, uy: float, h: float, w: float,
    dx: float, dy: float, vx: float, vy: float, k: float, v: float, room: float,
) -> bool:  # fmt: skip
    """Whether every footprint (h, w) along (ux, uy) centred in the box (mx, my) +- (ex, ey)
    meets footprint (k, v) by `meet` with `room` to spare on each of its four axes. Each of
    `meet`'s conditions bounds the centre's projection on an axis by a bound of the two angles
    only, so it holds over the box when it holds at the box's farthest corner: one test for
    all the box's centres. With `room` far above rounding (1e-6 mm), `meet` says yes for each
    of them whatever its own rounding."""
    ddx = dx - mx
    ddy = dy - my
    c = abs(ux * vx + uy * vy)
    s = abs(ux * vy - uy * vx)
    if not abs(ddx * ux + ddy * uy) + ex * abs(ux) + ey * abs(uy) < h + k * c + v * s - room:
        return False
    if not abs(-ddx * uy + ddy * ux) + ex * abs(uy) + ey * abs(ux) < w + k * s + v * c - room:
        return False
    if not abs(ddx * vx + ddy * vy) + ex * abs(vx) + ey * abs(vy) < k + h * c + w * s - room:
        return False
    return abs(-ddx * vy + ddy * vx) + ex * abs(vy) + ey * abs(vx) < v + h * s + w * c - room
