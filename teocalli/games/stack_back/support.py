"""Support polygons, seen from above: contact areas, their convex hull, depth inside it.

The balance model (balance.py) asks one question of geometry: how far inside the convex hull of a
stick's contact areas does a point lie. The contact areas are convex (the overlap of two
footprints, or of a footprint and a board), so each is clipped exactly (Sutherland-Hodgman), the
hull of all their corners taken (Andrew's monotone chain) and kept as its edges' outward unit
normals and offsets, relative to the stick's centre: the depth of a point p is then
min_k (c_k - n_k . p), positive inside, the distance to the nearest edge (a lower bound on the
distance outside, negative). Scalar Python: a judgement needs two clips and one hull of about
eight points, cheaper so than numpy's per-call overhead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .components import HALF_WIDTH

Point = tuple[float, float]
Edge = tuple[float, float, float]
"""(nx, ny, c): outward unit normal and offset; a point p lies c - n . p inside the edge."""

EPS = 1e-9


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


def clip(subject: Sequence[Point], window: Sequence[Point]) -> list[Point]:
    """The intersection of two convex counter-clockwise polygons (empty if they do not meet)."""
    poly = list(subject)
    n = len(window)
    for e in range(n):
        if not poly:
            break
        (ax, ay), (bx, by) = window[e], window[(e + 1) % n]
        ex, ey = bx - ax, by - ay
        sides = [ex * (py - ay) - ey * (px - ax) for px, py in poly]
        out: list[Point] = []
        for k, p in enumerate(poly):
            q = poly[(k + 1) % len(poly)]
            sp, sq = sides[k], sides[(k + 1) % len(poly)]
            if sp >= -EPS:
                out.append(p)
            if (sp >= -EPS) != (sq >= -EPS):
                t = sp / (sp - sq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        poly = out
    return poly


def hull(points: Iterable[Point]) -> list[Point]:
    """The convex hull, counter-clockwise, without collinear or repeated points."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def chain(seq: list[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2:
                (ox, oy), (ax, ay) = out[-2], out[-1]
                if (ax - ox) * (p[1] - oy) - (ay - oy) * (p[0] - ox) > EPS:
                    break
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(pts[::-1])
    return lower[:-1] + upper[:-1]


def edges(polygon: Sequence[Point], cx: float, cy: float) -> tuple[Edge, ...]:
    """A convex counter-clockwise polygon's edges, relative to (cx, cy); () if it has no area."""
    out: list[Edge] = []
    n = len(polygon)
    if n < 3:
        return ()
    for k in range(n):
        (ax, ay), (bx, by) = polygon[k], polygon[(k + 1) % n]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        if length < 1e-7:
            continue
        nx, ny = dy / length, -dx / length
        out.append((nx, ny, nx * (ax - cx) + ny * (ay - cy)))
    return tuple(out) if len(out) >= 3 else ()


def support(areas: Iterable[Sequence[Point]], cx: float, cy: float) -> tuple[Edge, ...]:
    """The support polygon of contact areas, as edges relative to the stick's centre (cx, cy)."""
    return edges(hull(p for area in areas for p in area), cx, cy)


def depth(polygon: Sequence[Edge], px: float, py: float) -> float:
    """How far (mm) the point (px, py), relative to the centre, lies inside; < 0 outside."""
    if not polygon:
        return float("-inf")
    return min(c - nx * px - ny * py for nx, ny, c in polygon)
