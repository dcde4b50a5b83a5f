"""Compiled loops for sticks piled on sticks (docs/games/stack-back.md, "Compiled piles").

The pile filters of the pass search (search.py) and the touch table of the piled candidates
(piles.py) are short loops over a few hundred poses and a few dozen sticks. Written with numpy
they cost dozens of calls of a few microseconds each per pair of supports; here each is one
compiled call that loops over poses and sticks and stops testing a pose at its first refusal.

Every test does the floating-point operations of the numpy code it replaces, in the same order
(no `fastmath`, no fused multiply-add), so the verdicts are the same bit for bit; the primitives
(the clipper, the separating-axis tests, the touch test of one pose) are geom_kernels.py's.
tests/games/stack_back/test_sb_pile_kernels.py compares each with the numpy code.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from .geom_kernels import (
    MOST,
    WORK,
    W,
    clip,
    clip_into,
    hull_edges,
    quad,
    sat_eps,
    touches_any,
)

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@numba.njit(cache=True)
def touching(  # noqa: PLR0917 - a pair's poses against some sticks
    px: Array, py: Array, pux: Array, puy: Array, h: float, reach0: float, keep: Ints,
    rows: Ints, sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sq: Array,
    reach: Array, deep: float, tol: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """For each pose of `keep`, whether it touches one of the sticks `rows` (`touches_any`,
    called only for a pose whose circumscribed circle meets some stick's: its first test)."""
    out = np.zeros(len(keep), dtype=np.bool_)
    q = np.empty((4, 2))
    work = np.empty(WORK)
    for k in range(len(keep)):
        m = keep[k]
        near = False
        for r in rows:
            dx = sx[r] - px[m]
            dy = sy[r] - py[m]
            lim = reach0 + reach[r] + 1e-6
            if dx * dx + dy * dy < lim * lim:
                near = True
                break
        if not near:
            continue
        out[k] = touches_any(px[m], py[m], pux[m], puy[m], h, reach0, rows, sx, sy, sux, suy,
                             sh, sq, reach, deep, tol, q, work)  # fmt: skip
    return out


@numba.njit(cache=True, inline="always")
def _touches(  # noqa: PLR0917 - a footprint against a stick, scratch space
    x: float, y: float, ux: float, uy: float, h: float, fr: float,
    sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sr: Array, sq: Array, j: int,
    deep: float, tol: float, q: Array, work: Array, filled: bool,
) -> tuple[bool, bool]:  # fmt: skip
    """Whether a footprint (circumscribed radius `fr`) touches stick `j` (radius `sr[j]`,
    quad `sq[j]`), overlap above `tol`: circumscribed circles that meet, then the
    separating-axis test, then shrunk by `deep` and still meeting, else clipped; and whether
    `q` holds the footprint's corners (`filled`: it did already)."""
    r = fr + sr[j]
    dx = sx[j] - x
    dy = sy[j] - y
    if not dx * dx + dy * dy < r * r + 1e-6:
        return False, filled
    if not sat_eps(x, y, ux, uy, h, sx[j], sy[j], sux[j], suy[j], sh[j], W):
        return False, filled
    if sat_eps(x, y, ux, uy, h - deep, sx[j], sy[j], sux[j], suy[j], sh[j] - deep, W - deep):
        return True, filled
    if not filled:
        quad(x, y, ux, uy, h, W, q)
    return clip(q, sq[j], work)[0] > tol, True


@numba.njit(cache=True)
def touch_table(  # noqa: PLR0917 - footprints against sticks
    fx: Array, fy: Array, fux: Array, fuy: Array, fh: Array, fr: Array,
    sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sr: Array, sq: Array,
    deep: float, tol: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """(K, M): whether footprint i touches stick j (overlap above `tol`, `_touches`)."""
    out = np.zeros((len(fx), len(sx)), dtype=np.bool_)
    q = np.empty((4, 2))
    work = np.empty(WORK)
    for i in range(len(fx)):
        filled = False
        for j in range(len(sx)):
            out[i, j], filled = _touches(fx[i], fy[i], fux[i], fuy[i], fh[i], fr[i], sx, sy,
                                         sux, suy, sh, sr, sq, j, deep, tol, q, work,
                                         filled)  # fmt: skip
    return out


@numba.njit(cache=True)
def grow_table(  # noqa: PLR0917 - the kept table's storage, the new rows, the sticks
    pose: Array, index: Ints, touched: npt.NDArray[np.bool_], count: int, start: int,
    rows: Ints, gap: Array, used: int, new_i: Ints, new_j: Ints, new_level: Ints,
    new_colour: Ints, new_index: Ints, new_gap: Array,
    sx: Array, sy: Array, sux: Array, suy: Array, sh: Array, sr: Array, sq: Array,
    axes: Array, halves: Array, reaches: Array, cells: Ints, deep: float, tol: float,
) -> tuple[int, int]:  # fmt: skip
    """`piles.Piles.with_sticks` in one call, writing into the table's storage past what is in
    use: the kept poses (`count` of them; `pose` rows cx, cy, ux, uy, half, radius; `index`
    their dense indices) against the sticks from `start` on (`touched` columns); the new rows
    (i, j, level, colour, pose index, gap: `new_i` to `new_gap`) appended after the `used` rows of
    `rows` (i, j, level, colour, slot) and `gap`, each with the slot of its pose: a kept one,
    else one of the new poses, which get slots in index order, their footprints as
    `candidates.Bridge.of` makes them (x10 / 10 and y10 / 10, the axis of its angle, the
    colour's half-length) and their touches of every stick. Returns the poses and rows then
    in use."""
    q = np.empty((4, 2))
    work = np.empty(WORK)
    total = len(sx)
    for p in range(count):
        filled = False
        for k in range(start, total):
            touched[p, k], filled = _touches(pose[p, 0], pose[p, 1], pose[p, 2], pose[p, 3],
                                             pose[p, 4], pose[p, 5], sx, sy, sux, suy, sh, sr,
                                             sq, k, deep, tol, q, work, filled)  # fmt: skip
    m = len(new_index)
    slot = np.full(m, -1, dtype=np.int64)
    fresh = np.empty(m, dtype=np.int64)
    nf = 0
    for r in range(m):
        want = new_index[r]
        for p in range(count):
            if index[p] == want:
                slot[r] = p
                break
        if slot[r] < 0:
            fresh[nf] = want
            nf += 1
    fresh = np.unique(fresh[:nf])
    xy10, nx, ny, na = cells[0], cells[2], cells[3], cells[4]
    for f in range(len(fresh)):
        p = count + f
        k = fresh[f]
        rest, yi = k // ny, k % ny
        rest, xi = rest // nx, rest % nx
        colour, ai = rest // na, rest % na
        index[p] = k
        pose[p, 0] = (xi * xy10) / 10
        pose[p, 1] = (yi * xy10) / 10
        pose[p, 2] = axes[ai, 0]
        pose[p, 3] = axes[ai, 1]
        pose[p, 4] = halves[colour]
        pose[p, 5] = reaches[colour]
        filled = False
        for j in range(total):
            touched[p, j], filled = _touches(pose[p, 0], pose[p, 1], pose[p, 2], pose[p, 3],
                                             pose[p, 4], pose[p, 5], sx, sy, sux, suy, sh, sr,
                                             sq, j, deep, tol, q, work, filled)  # fmt: skip
    for r in range(m):
        if slot[r] < 0:
            slot[r] = count + np.searchsorted(fresh, new_index[r])
        rows[used + r, 0] = new_i[r]
        rows[used + r, 1] = new_j[r]
        rows[used + r, 2] = new_level[r]
        rows[used + r, 3] = new_colour[r]
        rows[used + r, 4] = slot[r]
        gap[used + r] = new_gap[r]
    return count + len(fresh), used + m


@numba.njit(cache=True)
def touch_values(  # noqa: PLR0917 - the touches of some footprints
    fx: Array, fy: Array, fux: Array, fuy: Array, fh: Array, ci: Ints, sj: Ints, sq: Array
) -> Array:  # fmt: skip
    """(K, 3): area and centroid of footprint ci[k] over stick sj[k] (quads `sq`)."""
    out = np.empty((len(ci), 3))
    q = np.empty((4, 2))
    work = np.empty(WORK)
    for k in range(len(ci)):
        i = ci[k]
        quad(fx[i], fy[i], fux[i], fuy[i], fh[i], W, q)
        a, gx, gy = clip(q, sq[sj[k]], work)
        out[k, 0] = a
        out[k, 1] = gx
        out[k, 2] = gy
    return out


@numba.njit(cache=True)
def box_bounds(sup: Array, h: float, c: float, s: float) -> tuple[float, float, float, float]:
    """(lo x, hi x, lo y, hi y): where the centre of a footprint of half-length `h` at an angle
    of |cos| `c`, |sin| `s` may lie for its bounding box to meet both supports' boxes (`sup`
    rows: cx, cy, ux, uy, half)."""
    ex = h * c + W * s
    ey = h * s + W * c
    lo_x, hi_x, lo_y, hi_y = -np.inf, np.inf, -np.inf, np.inf
    for k in range(2):
        cx, cy, ux, uy, half = sup[k, 0], sup[k, 1], sup[k, 2], sup[k, 3], sup[k, 4]
        sx = half * abs(ux) + W * abs(uy)
        sy = half * abs(uy) + W * abs(ux)
        lo_x = max(lo_x, cx - sx - ex)
        hi_x = min(hi_x, cx + sx + ex)
        lo_y = max(lo_y, cy - sy - ey)
        hi_y = min(hi_y, cy + sy + ey)
    return lo_x, hi_x, lo_y, hi_y


@numba.njit(cache=True, inline="always")
def angle_grid(
    sup: Array, h: float, c: float, s: float, step: float
) -> tuple[float, float, np.int64, np.int64]:
    """(first x step, first y step, columns, rows): the lattice of multiples of `step` inside
    `box_bounds` at one angle; every pair lattice (here, the pass search's walk, its subsets)
    counts its poses with this one arithmetic, so their indices agree."""
    lo_x, hi_x, lo_y, hi_y = box_bounds(sup, h, c, s)
    ix0 = np.ceil(lo_x / step)
    iy0 = np.ceil(lo_y / step)
    cx_ = np.floor(hi_x / step) - ix0 + 1
    cy_ = np.floor(hi_y / step) - iy0 + 1
    nx = np.int64(cx_) if lo_x <= hi_x and cx_ > 0 else np.int64(0)
    ny = np.int64(cy_) if lo_y <= hi_y and cy_ > 0 else np.int64(0)
    return ix0, iy0, nx, ny


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
        ix0[k], iy0[k], nx[k], ny[k] = angle_grid(sup, h, abs_cos[k], abs_sin[k], step)
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


@numba.njit(cache=True)
def support_edges(subject: Array, windows: Array, cx: float, cy: float, power: float) -> Array:
    """The support polygon of the footprint `subject` (4, 2) resting on `windows` (K, 4, 2):
    the convex hull of its overlaps with each, as edges (outward unit normal, offset) relative
    to (cx, cy); none if it has no area. `support.py` documents the model; the arithmetic is
    its Python's of before (`geom_kernels.clip_into`, then `geom_kernels.hull_edges`; `power`
    is 0.5, passed at run time, as that function says)."""
    pts = np.empty((MOST * len(windows), 2))
    scratch = np.empty((5, MOST))
    n = 0
    for w in range(len(windows)):
        n = clip_into(subject, windows[w], pts, n, scratch)
    out = np.empty((max(n, 1), 3))
    return out[: hull_edges(pts, n, cx, cy, power, out, np.empty((3, max(n, 1), 2)))]


@numba.njit(cache=True)
def pick_bridges(  # noqa: PLR0917 - the kept table's rows and what the player may use
    rows: Ints, gaps: Array, index: Ints, touched: npt.NDArray[np.bool_], levels: Ints,
    refuses: Ints, allowed: npt.NDArray[np.bool_], floor: int, limit: float,
) -> tuple[Ints, Ints]:  # fmt: skip
    """The bridges `piles.Piles.moves` judges: the poses (slots, in pose index order) of the
    rows (i, j, level, colour, slot; the pair's gap) the player may use (colour held and
    allowed on both supports, the pair at or above the floor less one and within `limit`) that
    touch exactly two sticks of the highest level they touch, that level plus one at or above
    the floor; and how many sticks each touches (`touched`: a row per pose, a column per
    stick, the first `len(levels)` read)."""
    use = np.zeros(len(index), dtype=np.bool_)
    for r in range(len(rows)):
        c = rows[r, 3]
        if not allowed[c] or rows[r, 2] + 1 < floor or not gaps[r] <= limit:
            continue
        if ((refuses[rows[r, 0]] | refuses[rows[r, 1]]) >> c) & 1:
            continue
        use[rows[r, 4]] = True
    slots = np.empty(len(index), dtype=np.int64)
    n = 0
    for k in range(len(index)):
        if use[k]:
            slots[n] = k
            n += 1
    slots = slots[:n]
    for gap in (701, 301, 132, 57, 23, 10, 4, 1):  # by pose index (one slot each): shell sort
        for i in range(gap, n):
            v = slots[i]
            j = i
            while j >= gap and index[slots[j - gap]] > index[v]:
                slots[j] = slots[j - gap]
                j -= gap
            slots[j] = v
    return two_at_top(touched, slots, levels, floor)


@numba.njit(cache=True)
def two_at_top(
    touched: npt.NDArray[np.bool_], slots: Ints, levels: Ints, floor: int
) -> tuple[Ints, Ints]:
    """Those of `slots` (rows of `touched`, which sticks each pose touches: its first
    `len(levels)` columns) that touch exactly two sticks of the highest level they touch, that
    level plus one at or above the floor (any other `piled` refuses, or the level rule), in
    order; and how many sticks each touches."""
    picked = np.empty(len(slots), dtype=np.int64)
    counts = np.empty(len(slots), dtype=np.int64)
    n = 0
    for s in slots:
        top, at_top, total = -1, 0, 0
        for k in range(len(levels)):
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
