"""Support polygons, seen from above: contact areas, their convex hull, depth inside it.

The balance model (balance.py) asks one question of geometry: how far inside the convex hull of a
stick's contact areas does a point lie. The contact areas are convex (the overlap of two
footprints, or of a footprint and a board), so each is clipped exactly (Sutherland-Hodgman), the
hull of all their corners taken (Andrew's monotone chain) and kept as its edges' outward unit
normals and offsets, relative to the stick's centre: the depth of a point p is then
min_k (c_k - n_k . p), positive inside, the distance to the nearest edge (a lower bound on the
distance outside, negative). The clips, the hull and the edges run in one compiled call
(pile_kernels.py): about 5 us a pile, against 12 us in Python (most of it now the conversions).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import pile_kernels
from .components import HALF_WIDTH

Point = tuple[float, float]
Edge = tuple[float, float, float]
"""(nx, ny, c): outward unit normal and offset; a point p lies c - n . p inside the edge."""
_HALF = 0.5
"""The exponent of an edge's length, passed to the kernel at run time (`support_edges`)."""


def corners(cx: float, cy: float, ux: float, uy: float, half: float) -> list[Point]:
    """A footprint's corners, counter-clockwise (as geometry.quads)."""
    ax, ay = ux * half, uy * half
    bx, by = -uy * HALF_WIDTH, ux * HALF_WIDTH
    return [
        (cx + ax + bx, cy + ay + by),
        (cx - ax + bx, cy - ay + by),
        (cx - ax - bx, cy - ay - by),
        (cx + ax - bx, cy + ay - by),
    ]


def rectangle(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    """An axis-aligned rectangle, counter-clockwise."""
    return [(x1, y1), (x0, y1), (x0, y0), (x1, y0)]


def support(
    feet: Sequence[Point], windows: Sequence[Sequence[Point]], cx: float, cy: float
) -> tuple[Edge, ...]:
    """The support polygon of a footprint `feet` resting on `windows` (the supports' footprints,
    or the boards), as edges relative to the stick's centre (cx, cy): () if it has no area. One
    compiled call (`pile_kernels.support_edges`): clips, hull and edges."""
    out = pile_kernels.support_edges(np.array(feet), np.array(windows), cx, cy, _HALF)
    return tuple(map(tuple, out.tolist()))


def depth(polygon: Sequence[Edge], px: float, py: float) -> float:
    """How far (mm) the point (px, py), relative to the centre, lies inside; < 0 outside."""
    if not polygon:
        return float("-inf")
    return min(c - nx * px - ny * py for nx, ny, c in polygon)
