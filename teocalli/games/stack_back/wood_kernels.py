"""Compiled kernels (numba) for the footprint geometry, the wood search and the free space.

Each kernel does the same floating-point operations in the same order as the Python code it
replaced (no `fastmath`), so verdicts and loads keep every bit; the clipper and the
separating-axis tests they call are geom_kernels.py's (one copy for every kernel module). They
are fused: one call loops over poses and sticks and stops early where the caller only needs to
know whether some stick is touched (tests/games/stack_back/test_sb_wood_kernels.py
compares them with the numpy code they replaced).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from .geom_kernels import WORK, clip, meet, quad, sat_eps

F = TypeVar("F", bound=Callable[..., Any])


def _kernel(f: F) -> F:
    """Compiled with numba, kept on disk (`cache`), no fastmath: the type checker sees `f`."""
    return cast(F, numba.njit(cache=True)(f))


def _inline(f: F) -> F:
    """A helper of the kernels, compiled into each caller (`inline`: a call with array
    arguments costs more than the few comparisons it makes)."""
    return cast(F, numba.njit(cache=True, inline="always")(f))


@_kernel
def clip_quads(subject: np.ndarray, window: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Area (N,) and centroid (N, 2) of subject[i] & window[i], both (N, 4, 2) convex CCW quads."""
    n = subject.shape[0]
    area = np.empty(n)
    cent = np.empty((n, 2))
    work = np.empty(WORK)
    for i in range(n):
        a, gx, gy = clip(subject[i], window[i], work)
        area[i] = a
        cent[i, 0] = gx
        cent[i, 1] = gy
    return area, cent


@_kernel
def quad_rows(  # noqa: PLR0917 - five parallel columns and the half-width
    cx: np.ndarray, cy: np.ndarray, ux: np.ndarray, uy: np.ndarray, h: np.ndarray, w: float
) -> np.ndarray:
    """(N, 4, 2): footprint corners, counter-clockwise (`geom_kernels.quad`, element by
    element: the arithmetic numpy's `geometry.quads` did)."""
    out = np.empty((cx.shape[0], 4, 2))
    for i in range(cx.shape[0]):
        quad(cx[i], cy[i], ux[i], uy[i], h[i], w, out[i])
    return out


@_inline
def _on_board(  # noqa: PLR0917 - a footprint, a board as bounds and as a quad, scratch
    q: np.ndarray, x0: float, y0: float, x1: float, y1: float, window: np.ndarray,
    whole: float, work: np.ndarray,
) -> float:  # fmt: skip
    """The overlap of the footprint `q` (4, 2) with the board (x0, y0, x1, y1; `window` its
    quad): `whole` when the corners' box lies inside the board (1e-6 mm in), 0 when it lies
    apart from it (1e-6 mm out), else clipped (`search.board_areas` documents why)."""
    lx = min(q[0, 0], q[1, 0], q[2, 0], q[3, 0])
    ly = min(q[0, 1], q[1, 1], q[2, 1], q[3, 1])
    hx = max(q[0, 0], q[1, 0], q[2, 0], q[3, 0])
    hy = max(q[0, 1], q[1, 1], q[2, 1], q[3, 1])
    if lx > x0 + 1e-6 and ly > y0 + 1e-6 and hx < x1 - 1e-6 and hy < y1 - 1e-6:
        return whole
    if hx < x0 - 1e-6 or hy < y0 - 1e-6 or lx > x1 + 1e-6 or ly > y1 + 1e-6:
        return 0.0
    return clip(q, window, work)[0]


@_kernel
def board_area(  # noqa: PLR0917 - footprints, a board as bounds and as a quad, its full area
    q: np.ndarray, x0: float, y0: float, x1: float, y1: float, window: np.ndarray, whole: float
) -> np.ndarray:  # fmt: skip
    """The overlap of each footprint `q` (N, 4, 2) with the board (`_on_board`)."""
    out = np.empty(q.shape[0])
    work = np.empty(WORK)
    for i in range(q.shape[0]):
        out[i] = _on_board(q[i], x0, y0, x1, y1, window, whole, work)
    return out


@_kernel
def bare_wood(  # noqa: PLR0917 - the poses, the boards, the thresholds
    x: np.ndarray, y: np.ndarray, ux: np.ndarray, uy: np.ndarray, h: float, w: float,
    boards: np.ndarray, windows: np.ndarray, tol: float, rest: float, need: float,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """For each pose (half-length `h`, half-width `w`) on the two boards (`boards` rows x0,
    y0, x1, y1; `windows` their quads): whether it lies on one board alone (overlap above
    `tol` with it, at most `tol` with the other) with its centre `need` mm or more inside
    it, and whether it rests `rest` mm² or more on both (judged by the caller)."""
    n = x.shape[0]
    ok = np.zeros(n, dtype=np.bool_)
    both = np.zeros(n, dtype=np.bool_)
    q = np.empty((4, 2))
    work = np.empty(WORK)
    whole = 4 * h * w
    for i in range(n):
        quad(x[i], y[i], ux[i], uy[i], h, w, q)
        b = boards[0]
        area_a = _on_board(q, b[0], b[1], b[2], b[3], windows[0], whole, work)
        in_a = min(x[i] - b[0], b[2] - x[i], y[i] - b[1], b[3] - y[i])
        b = boards[1]
        area_b = _on_board(q, b[0], b[1], b[2], b[3], windows[1], whole, work)
        in_b = min(x[i] - b[0], b[2] - x[i], y[i] - b[1], b[3] - y[i])
        ok[i] = (area_a > tol and area_b <= tol and in_a >= need) or (
            area_b > tol and area_a <= tol and in_b >= need
        )
        both[i] = area_a >= rest and area_b >= rest
    return ok, both


@_kernel
def sat_matrix(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: np.ndarray, cy: np.ndarray, ux: np.ndarray, uy: np.ndarray, h: np.ndarray,
    dx: np.ndarray, dy: np.ndarray, vx: np.ndarray, vy: np.ndarray, k: np.ndarray, w: float,
) -> np.ndarray:  # fmt: skip
    """(K, M): whether footprint i of one set and j of the other overlap with positive area
    (`geometry.sat_hits`' arithmetic, element by element)."""
    n, m = cx.shape[0], dx.shape[0]
    out = np.zeros((n, m), dtype=np.bool_)
    for i in range(n):
        for j in range(m):
            out[i, j] = sat_eps(cx[i], cy[i], ux[i], uy[i], h[i], dx[j], dy[j], vx[j], vy[j],
                                 k[j], w)  # fmt: skip
    return out


@_inline
def _touches(  # noqa: PLR0917 - one pose, the sticks, the tolerances, scratch space
    cx: float, cy: float, ux: float, uy: float, h: float, w: float,
    sx: np.ndarray, sy: np.ndarray, sux: np.ndarray, suy: np.ndarray, shalf: np.ndarray,
    squads: np.ndarray, reach: np.ndarray, deep: float, tol: float,
    q: np.ndarray, work: np.ndarray,
) -> bool:  # fmt: skip
    """Whether the pose (half-length `h`, half-width `w`) touches one of the sticks (overlap
    above `tol`). Only sticks whose circumscribed circles meet the pose's (`reach`, per stick)
    are tested; a touch is proved by the footprints shrunk by `deep` still meeting (a shared
    disc of radius `deep`), else by clipping where they meet unshrunk."""
    made = False
    for j in range(sx.shape[0]):
        dx = sx[j] - cx
        dy = sy[j] - cy
        if not dx * dx + dy * dy < reach[j] * reach[j]:
            continue
        k = shalf[j]
        if meet(cx, cy, ux, uy, h - deep, w - deep, sx[j], sy[j], sux[j], suy[j],
                 k - deep, w - deep):  # fmt: skip
            return True
        if meet(cx, cy, ux, uy, h, w, sx[j], sy[j], sux[j], suy[j], k - 0.0, w - 0.0):
            if not made:
                quad(cx, cy, ux, uy, h, w, q)
                made = True
            if clip(q, squads[j], work)[0] > tol:
                return True
    return False


@_kernel
def first_free(  # noqa: PLR0917 - poses, the sticks, where to start and what to mark
    px: np.ndarray, py: np.ndarray, pux: np.ndarray, puy: np.ndarray, h: float, w: float,
    idx: np.ndarray, at: int,
    sx: np.ndarray, sy: np.ndarray, sux: np.ndarray, suy: np.ndarray, shalf: np.ndarray,
    squads: np.ndarray, reach: np.ndarray, deep: float, tol: float, touching: np.ndarray,
) -> int:  # fmt: skip
    """From `at` on, the first position in `idx` whose pose (centre px[idx], axis, half-length
    `h`, half-width `w`) touches none of the sticks (`_touches`); `len(idx)` when none. The
    poses passed over touch a stick: they are marked in `touching`."""
    q = np.empty((4, 2))
    work = np.empty(WORK)
    n = idx.shape[0]
    for a in range(at, n):
        i = idx[a]
        if not _touches(px[i], py[i], pux[i], puy[i], h, w, sx, sy, sux, suy, shalf, squads,
                        reach, deep, tol, q, work):  # fmt: skip
            return a
        touching[a] = True
    return n


@_kernel
def touch_mask(  # noqa: PLR0917 - poses, the sticks, the tolerances
    px: np.ndarray, py: np.ndarray, pux: np.ndarray, puy: np.ndarray, h: float, w: float,
    sx: np.ndarray, sy: np.ndarray, sux: np.ndarray, suy: np.ndarray, shalf: np.ndarray,
    squads: np.ndarray, reach: np.ndarray, deep: float, tol: float,
) -> np.ndarray:  # fmt: skip
    """Per pose, whether it touches one of the sticks (`_touches`)."""
    q = np.empty((4, 2))
    work = np.empty(WORK)
    n = px.shape[0]
    hit = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        hit[i] = _touches(px[i], py[i], pux[i], puy[i], h, w, sx, sy, sux, suy, shalf, squads,
                          reach, deep, tol, q, work)  # fmt: skip
    return hit


@_kernel
def surely_taken(  # noqa: PLR0917 - poses, the new sticks, what to mark
    px: np.ndarray, py: np.ndarray, pux: np.ndarray, puy: np.ndarray, h: float, w: float,
    idx: np.ndarray,
    sx: np.ndarray, sy: np.ndarray, sux: np.ndarray, suy: np.ndarray, shalf: np.ndarray,
    reach: np.ndarray, deep: float,
) -> np.ndarray:  # fmt: skip
    """Per pose of `idx`, whether one of the sticks surely takes it: the footprints shrunk by
    `deep` still meet (tested only where the circumscribed circles meet, `reach` per stick)."""
    n = idx.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for a in range(n):
        i = idx[a]
        cx, cy, ux, uy = px[i], py[i], pux[i], puy[i]
        for j in range(sx.shape[0]):
            dx = sx[j] - cx
            dy = sy[j] - cy
            if not dx * dx + dy * dy < reach[j] * reach[j]:
                continue
            if meet(cx, cy, ux, uy, h - deep, w - deep, sx[j], sy[j], sux[j], suy[j],
                     shalf[j] - deep, w - deep):  # fmt: skip
                out[a] = True
                break
    return out


@_inline
def _deep_at(mask: np.ndarray, x: float, y: float, x0: float, y0: float) -> bool:
    """The raster's mark at the raster point nearest (x, y) (False beyond the raster)."""
    i = np.int64(np.rint(x - x0))
    j = np.int64(np.rint(y - y0))
    if i < 0 or i >= mask.shape[0] or j < 0 or j >= mask.shape[1]:
        return False
    return mask[i, j]


@_kernel
def raster_clear(  # noqa: PLR0917 - poses, the raster, the offsets read
    centre: np.ndarray, along: np.ndarray, px: np.ndarray, py: np.ndarray, pux: np.ndarray,
    puy: np.ndarray, start: int, stop: int, ts: np.ndarray, x0: float, y0: float,
) -> np.ndarray:  # fmt: skip
    """The poses from `start` to `stop` the raster cannot refuse: the centre's raster point not
    marked in `centre`, nor that of any centre-line offset of `ts` (0 skipped) in `along`."""
    keep = np.empty(stop - start, dtype=np.int64)
    n = 0
    for i in range(start, stop):
        cx, cy, ux, uy = px[i], py[i], pux[i], puy[i]
        if _deep_at(centre, cx, cy, x0, y0):
            continue
        ok = True
        for t in ts:
            if t == 0:
                continue
            if _deep_at(along, cx + t * ux, cy + t * uy, x0, y0):
                ok = False
                break
        if ok:
            keep[n] = i
            n += 1
    return keep[:n]


@_kernel
def covered(  # noqa: PLR0917 - one stick, the wood candidates, the tolerances
    cx: float, cy: float, ux: float, uy: float, h: float,
    fx: np.ndarray, fy: np.ndarray, fux: np.ndarray, fuy: np.ndarray, fhalf: np.ndarray,
    fquads: np.ndarray, w: float, deep: float, tol: float,
) -> np.ndarray:  # fmt: skip
    """The candidates (indices, in order) a stick's footprint touches: they overlap with
    positive area and either still meet both shrunk by `deep` or overlap by more than `tol`."""
    q = np.empty((4, 2))
    quad(cx, cy, ux, uy, h, w, q)
    work = np.empty(WORK)
    keep = np.empty(fx.shape[0], dtype=np.int64)
    n = 0
    for j in range(fx.shape[0]):
        if not sat_eps(cx, cy, ux, uy, h, fx[j], fy[j], fux[j], fuy[j], fhalf[j], w):
            continue
        deep_meet = sat_eps(cx, cy, ux, uy, h - deep, fx[j], fy[j], fux[j], fuy[j],
                            fhalf[j] - deep, w - deep)  # fmt: skip
        if not deep_meet and not clip(q, fquads[j], work)[0] > tol:
            continue
        keep[n] = j
        n += 1
    return keep[:n]


@_kernel
def overlap_matrix(  # noqa: PLR0917 - poses and sticks, five columns each
    cx: np.ndarray, cy: np.ndarray, ux: np.ndarray, uy: np.ndarray, h: np.ndarray,
    sx: np.ndarray, sy: np.ndarray, sux: np.ndarray, suy: np.ndarray, shalf: np.ndarray,
    w: float,
) -> np.ndarray:  # fmt: skip
    """(K, M): the exact overlap (mm²) of each pose's footprint with each stick's, clipped only
    where the separating-axis test finds a positive area (0 elsewhere)."""
    n, m = cx.shape[0], sx.shape[0]
    area = np.zeros((n, m))
    squads = np.empty((m, 4, 2))
    for j in range(m):
        quad(sx[j], sy[j], sux[j], suy[j], shalf[j], w, squads[j])
    q = np.empty((4, 2))
    work = np.empty(WORK)
    for i in range(n):
        made = False
        for j in range(m):
            if not sat_eps(cx[i], cy[i], ux[i], uy[i], h[i], sx[j], sy[j], sux[j], suy[j],
                            shalf[j], w):  # fmt: skip
                continue
            if not made:
                quad(cx[i], cy[i], ux[i], uy[i], h[i], w, q)
                made = True
            area[i, j] = clip(q, squads[j], work)[0]
    return area


@_kernel
def stamp(  # noqa: PLR0917 - the two rasters, their origin, the new sticks, the thresholds
    centre: np.ndarray, along: np.ndarray, x0: float, y0: float,
    cx: np.ndarray, cy: np.ndarray, ux: np.ndarray, uy: np.ndarray, half: np.ndarray,
    w: float, deep_centre: float, deep_along: float,
) -> None:  # fmt: skip
    """Mark the raster points (point (i, j) at (i + x0, j + y0)) lying deeper than
    `deep_centre` inside one of the sticks (centres, axes, half-lengths, half-width `w`) in
    `centre`, deeper than `deep_along` in `along`. The depth of a point is min(half - |t|,
    w - |n|) in the stick's frame; only the points of the stick's bounding box are read."""
    nx, ny = centre.shape
    for k in range(cx.shape[0]):
        ex = half[k] * abs(ux[k]) + w * abs(uy[k])
        ey = half[k] * abs(uy[k]) + w * abs(ux[k])
        i0 = int(max(0.0, np.floor(cx[k] - ex - x0)))
        i1 = int(min(nx - 1.0, np.ceil(cx[k] + ex - x0)))
        j0 = int(max(0.0, np.floor(cy[k] - ey - y0)))
        j1 = int(min(ny - 1.0, np.ceil(cy[k] + ey - y0)))
        for i in range(i0, i1 + 1):
            px = i + x0 - cx[k]
            for j in range(j0, j1 + 1):
                py = j + y0 - cy[k]
                t = px * ux[k] + py * uy[k]
                n = -px * uy[k] + py * ux[k]
                depth = min(half[k] - abs(t), w - abs(n))
                if depth > deep_centre:
                    centre[i, j] = True
                if depth > deep_along:
                    along[i, j] = True
