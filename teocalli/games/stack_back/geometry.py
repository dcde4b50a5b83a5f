"""Footprints seen from above, over whole arrays: which sticks overlap, by how much, where.

A footprint is an oriented rectangle: centre (cx, cy), unit axis (ux, uy), half-length h and the
half-width of the section. Two steps, both over whole arrays at once:
- `sat_hits`: the separating-axis test, which pairs overlap with a positive area (cheap, exact);
- `clip`: Sutherland-Hodgman clipping of convex quads, giving each overlap's area and centroid.

Both run as compiled loops (wood_kernels.py, numba): numpy's fixed cost per call dominated on
the few to few hundred pairs a call of the engine. `clip_shapely` computes the same with shapely
(GEOS), kept for the measurement (benchmarks/bench_stack_back.py) and the tests.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .components import HALF_WIDTH
from .wood_kernels import clip_quads, quad_rows, sat_matrix

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


def axis(a10: int) -> tuple[float, float]:
    """The unit vector of an angle in tenths of a degree."""
    r = math.radians(a10 / 10)
    return math.cos(r), math.sin(r)


def quads(cx: Array, cy: Array, ux: Array, uy: Array, h: Array) -> Array:
    """Footprint corners, counter-clockwise, shape (N, 4, 2) (compiled:
    `wood_kernels.quad_rows`)."""
    c = _columns
    out: Array = quad_rows(c(cx), c(cy), c(ux), c(uy), c(h), HALF_WIDTH)
    return out


def _columns(a: Array) -> Array:
    """A column as the kernels take it: contiguous doubles (one compiled version per layout)."""
    out: Array = np.ascontiguousarray(a, dtype=np.float64)
    return out


def box(x0: float, y0: float, x1: float, y1: float) -> Array:
    """An axis-aligned rectangle as a (4, 2) counter-clockwise quad."""
    return np.array([[x1, y1], [x0, y1], [x0, y0], [x1, y0]], dtype=np.float64)


def sat_hits(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array, w: float = HALF_WIDTH,
) -> Mask:  # fmt: skip
    """(K, M): whether footprint i of one set and j of the other overlap with positive area
    (both `w` half-wide: the sticks' own half-width unless shrunk; compiled:
    `wood_kernels.sat_matrix`)."""
    c = _columns
    hits: Mask = sat_matrix(c(cx), c(cy), c(ux), c(uy), c(h), c(dx), c(dy), c(vx), c(vy), c(k), w)
    return hits


DEEP = 1.0
"""mm: footprints that still meet when both are shrunk by this on every side share a disc of
this radius, pi mm² (more than the touch tolerance, `rules.TOL`): they touch without clipping."""


def deep_hits(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array,
) -> Mask:  # fmt: skip
    """(K, M): whether footprints i and j, both shrunk by `DEEP` mm on every side, still meet."""
    return sat_hits(cx, cy, ux, uy, h - DEEP, dx, dy, vx, vy, k - DEEP, HALF_WIDTH - DEEP)


def clip(subject: Array, window: Array) -> tuple[Array, Array]:
    """Area (N,) and centroid (N, 2) of subject[i] & window[i], both (N, 4, 2) convex CCW quads:
    Sutherland-Hodgman against each window edge in turn, compiled (`wood_kernels.clip_quads`;
    its sums add 12 slots as numpy's pairwise summation does, the bits the touch and rest
    thresholds and the loads were measured with)."""
    area, cent = clip_quads(_columns(subject), _columns(window))
    return area, cent


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
