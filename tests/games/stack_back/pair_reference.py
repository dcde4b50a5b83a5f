"""Test-only references for the pass search's pair walk: the filters of a new pair of supports
written pose by pose over the listed lattice (as the engine judged them before
`search_kernels.fresh_keep` walked the lattice without listing it). Compiled, so that the tests
can run them over every pair of many positions; the tests compare the engine's walk with them,
and them with exhaustive clipping."""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from teocalli.games.stack_back.geom_kernels import WORK, W, clip, meet, quad, touches_any
from teocalli.games.stack_back.search import REST, PairPoses

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@numba.njit
def rests(  # noqa: PLR0917 - a pair's poses on its two supports
    px: Array, py: Array, pux: Array, puy: Array, h: float, keep: Ints, sq: Array, rest: float
) -> Ints:  # fmt: skip
    """Those of `keep` whose overlap with each support's quad (sq[0], sq[1]) is at least
    `rest` (mm²)."""
    out = np.empty(len(keep), dtype=np.int64)
    n = 0
    q = np.empty((4, 2))
    work = np.empty(WORK)
    for k in range(len(keep)):
        m = keep[k]
        quad(px[m], py[m], pux[m], puy[m], h, W, q)
        if clip(q, sq[0], work)[0] >= rest and clip(q, sq[1], work)[0] >= rest:
            out[n] = m
            n += 1
    return out[:n]


@numba.njit
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
    q = np.empty((4, 2))
    work = np.empty(WORK)
    for m in range(len(px)):
        x, y, ux, uy = px[m], py[m], pux[m], puy[m]
        ok = True
        for shrink in (0.0, inset):  # the cheapest test first: most poses miss a support
            for s in range(2):
                if not meet(x, y, ux, uy, h - shrink, W - shrink, sup[s, 0], sup[s, 1],
                            sup[s, 2], sup[s, 3], sup[s, 4] - shrink, W - shrink):  # fmt: skip
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            continue
        if touches_any(x, y, ux, uy, h, reach0, near, sx, sy, sux, suy, sh, sq, reach, deep,
                       tol, q, work):  # fmt: skip
            continue
        quad(x, y, ux, uy, h, W, q)
        if clip(q, sq[a], work)[0] >= rest and clip(q, sq[b], work)[0] >= rest:
            out[n] = m
            n += 1
    return out[:n]


def rests_of(pp: PairPoses, keep: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Those of `keep` resting at least `search.REST` mm² on both supports of the pair."""
    if not len(keep):
        return keep
    out: npt.NDArray[np.intp] = rests(
        pp.x, pp.y, pp.ux, pp.uy, float(pp.hh[0]), keep.astype(np.int64), pp.quads, REST
    )
    return out
