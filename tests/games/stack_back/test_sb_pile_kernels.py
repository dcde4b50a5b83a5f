"""The compiled pile kernels (pile_kernels.py) decide exactly as the code they replace or the
rules' own definitions (the clipper they call is `geometry.clip`'s, geom_kernels.clip, tested
in test_sb_wood_kernels.py): the touch table and its values as the judge's `rules.touches`, the
support polygon as the Python it replaced, and a new pair's filters (`search._fresh_keep`) keep
exactly the poses an exhaustive test keeps: those resting 6 x 6 mm on both supports and
overlapping no other stick of their level or above by more than the tolerance, clipped pair by
pair in Python; a pair's lattice poses (`search.pair_poses`) are those of the numpy code it
replaced."""

from __future__ import annotations

import math

import numpy as np
import pytest

from teocalli.games.stack_back import search
from teocalli.games.stack_back.actions import Colour, Place
from teocalli.games.stack_back.balance import Stick
from teocalli.games.stack_back.candidates import Bridge, pile_poses, touch_table, touch_values
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, NUM_COLOURS
from teocalli.games.stack_back.geometry import clip, deep_hits, quads
from teocalli.games.stack_back.rules import REST, TOL, Footprints, touches
from teocalli.games.stack_back.state import StackBackState
from teocalli.games.stack_back.support import support

from .pair_reference import rests_of
from .sampled import random_positions


def _random_feet(rng: np.random.Generator, n: int, span: float) -> Bridge:
    """`n` footprints of the three lengths, anywhere in a `span` mm square, any angle (a few
    axis-aligned and on whole millimetres, where edges meet exactly)."""
    a = rng.uniform(0, np.pi, n)
    a[: n // 4] = rng.integers(0, 4, n // 4) * (np.pi / 2)
    x, y = rng.uniform(0, span, n), rng.uniform(0, span, n)
    x[: n // 4], y[: n // 4] = np.rint(x[: n // 4]), np.rint(y[: n // 4])
    half = rng.choice([18.0, 27.0, 36.0], n)
    return Bridge(np.arange(n, dtype=np.int64), x, y, np.cos(a), np.sin(a), half)


def _positions() -> list[StackBackState]:
    """Positions of seeded random games with sticks piled two levels high or more."""
    return random_positions((3, 8), 9, lambda state: any(s.level >= 1 for s in state.sticks))


@pytest.fixture(scope="module")
def positions() -> list[StackBackState]:
    return _positions()


def test_the_touch_table_and_values_are_the_rules_touches(positions: list[StackBackState]) -> None:
    """`candidates.touch_table` and `touch_values` give what the judge's `rules.touches` gives
    (the separating-axis test, then every overlap clipped): the same touches, the same floats."""
    rng = np.random.default_rng(11)
    border = 0
    for state in positions:
        layout = state.layout
        bridges = pile_poses(state.sticks, state.carries, [1, 1, 1], 0, layout)
        loose = _random_feet(rng, 400, 300.0)
        for feet in (bridges, loose):
            want = touches(layout, Footprints(feet.cx, feet.cy, feet.ux, feet.uy, feet.half))
            table = np.zeros((len(feet.cx), len(layout.cx)), dtype=bool)
            for k, row in enumerate(want):
                table[k, [t[0] for t in row]] = True
            start = len(layout.cx) // 3
            assert np.array_equal(touch_table(feet, layout, start), table[:, start:])
            full = touch_table(feet, layout)
            rows = np.nonzero(full.any(axis=1))[0]
            assert touch_values(feet, layout, rows, full[rows]) == [want[r] for r in rows]
            deep = deep_hits(feet.cx, feet.cy, feet.ux, feet.uy, feet.half, layout.cx,
                             layout.cy, layout.ux, layout.uy, layout.half)  # fmt: skip
            border += int((table & ~deep).sum())  # touches found by clipping alone
    assert border > 20


def clip_pair(a: list[list[float]], b: list[list[float]]) -> tuple[float, float, float]:
    """One pair through the engine's clipper: (area, centroid x, y)."""
    area, cent = clip(np.array([a]), np.array([b]))
    return float(area[0]), float(cent[0, 0]), float(cent[0, 1])


def _touches(q: list[list[float]], others: list[list[list[float]]]) -> bool:
    return any(clip_pair(q, o)[0] > TOL for o in others)


def test_a_new_pairs_poses_are_those_the_exhaustive_test_keeps(
    positions: list[StackBackState],
) -> None:
    pairs = kept = refused = 0
    for state in positions[::2]:
        sticks, layout = state.sticks, state.layout
        levels = np.array(layout.levels)
        radius = np.hypot(layout.half, HALF_WIDTH)
        for colour in range(NUM_COLOURS):
            for level in sorted({s.level for s in sticks}):
                group = [k for k, s in enumerate(sticks) if s.level == level]
                for i, j in search._reaching(sticks, group, colour)[:4]:
                    pp = search.pair_poses(sticks[i], sticks[j], colour)
                    others = np.nonzero((levels >= level) & (np.arange(len(sticks)) != i))[0]
                    others = others[others != j]
                    got = search._fresh_keep(colour, i, j, layout, others).tolist()
                    qs = quads(pp.x, pp.y, pp.ux, pp.uy, pp.hh).tolist()
                    sa, sb = layout.quads[i].tolist(), layout.quads[j].tolist()
                    rests = [
                        m
                        for m, q in enumerate(qs)
                        if clip_pair(q, sa)[0] >= REST and clip_pair(q, sb)[0] >= REST
                    ]
                    want = []
                    for m in rests:
                        r = math.hypot(pp.hh[m], HALF_WIDTH)
                        d = np.hypot(layout.cx[others] - pp.x[m], layout.cy[others] - pp.y[m])
                        near = others[d < r + radius[others]]  # farther apart: no overlap
                        if not _touches(qs[m], [layout.quads[o].tolist() for o in near]):
                            want.append(m)
                    assert got == want, (len(sticks), i, j, colour)
                    assert rests_of(pp, np.arange(len(qs))).tolist() == rests
                    hits = search._touching(pp, np.array(rests, dtype=np.intp), layout, others)
                    assert [m for m, h in zip(rests, hits, strict=True) if not h] == want
                    pairs += 1
                    kept += len(want)
                    refused += len(rests) - len(want)
    assert pairs > 20 and kept > 50 and refused > 50


def _lattice_numpy(a: Stick, b: Stick, colour: int) -> list[np.ndarray]:
    """A pair's lattice poses as the numpy code before the kernel found them: per angle, the
    centres on the 4 mm lattice whose footprint's box meets both supports' boxes."""
    h, step = HALF_LENGTHS[colour], search.STEP
    ang = np.array(search.ANGLES, dtype=np.float64)
    c = np.array([abs(math.cos(math.radians(t))) for t in search.ANGLES])
    s = np.array([abs(math.sin(math.radians(t))) for t in search.ANGLES])
    ex, ey = h * c + HALF_WIDTH * s, h * s + HALF_WIDTH * c
    lo_x, hi_x = np.full(len(ang), -math.inf), np.full(len(ang), math.inf)
    lo_y, hi_y = lo_x.copy(), hi_x.copy()
    for t in (a, b):
        sx = t.half * abs(t.ux) + HALF_WIDTH * abs(t.uy)
        sy = t.half * abs(t.uy) + HALF_WIDTH * abs(t.ux)
        lo_x, hi_x = np.maximum(lo_x, t.cx - sx - ex), np.minimum(hi_x, t.cx + sx + ex)
        lo_y, hi_y = np.maximum(lo_y, t.cy - sy - ey), np.minimum(hi_y, t.cy + sy + ey)
    rows = []
    for k in range(len(ang)):
        if lo_x[k] > hi_x[k] or lo_y[k] > hi_y[k]:
            continue
        for i in range(math.ceil(lo_x[k] / step), math.floor(hi_x[k] / step) + 1):
            for j in range(math.ceil(lo_y[k] / step), math.floor(hi_y[k] / step) + 1):
                rows.append((i * step, j * step, ang[k]))
    x, y, a_ = (np.array([r[n] for r in rows], dtype=np.float64) for n in range(3))
    rad = np.radians(a_)
    return [x, y, np.cos(rad), np.sin(rad), np.rint(x * 10), np.rint(y * 10), np.rint(a_ * 10)]


def test_a_pairs_lattice_poses_are_the_numpy_ones(positions: list[StackBackState]) -> None:
    pairs = 0
    for state in positions[1::2]:
        sticks = state.sticks
        for colour in range(NUM_COLOURS):
            group = list(range(len(sticks)))
            for i, j in search._reaching(sticks, group, colour)[:30]:
                search._PAIR_MEMO.clear()
                pp = search.pair_poses(sticks[i], sticks[j], colour)
                got = [pp.x, pp.y, pp.ux, pp.uy, pp.x10, pp.y10, pp.a10]
                want = _lattice_numpy(sticks[i], sticks[j], colour)
                assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
                pairs += len(pp.x) > 0
    assert pairs > 100


Point = tuple[float, float]


def _clip_python(subject: list[Point], window: list[Point]) -> list[Point]:
    """Sutherland-Hodgman in Python floats (support.py's code before the kernel)."""
    poly = list(subject)
    for e in range(len(window)):
        if not poly:
            break
        (ax, ay), (bx, by) = window[e], window[(e + 1) % len(window)]
        ex, ey = bx - ax, by - ay
        sides = [ex * (py - ay) - ey * (px - ax) for px, py in poly]
        out: list[Point] = []
        for k, p in enumerate(poly):
            q = poly[(k + 1) % len(poly)]
            sp, sq = sides[k], sides[(k + 1) % len(poly)]
            if sp >= -1e-9:
                out.append(p)
            if (sp >= -1e-9) != (sq >= -1e-9):
                t = sp / (sp - sq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        poly = out
    return poly


def _support_python(
    feet: list[Point], windows: list[list[Point]], cx: float, cy: float
) -> tuple[tuple[float, float, float], ...]:
    """The support polygon's edges as support.py computed them in Python before the kernel."""
    pts = sorted({p for w in windows for p in _clip_python(feet, w)})
    if len(pts) < 3:
        return ()

    def chain(seq: list[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2:
                (ox, oy), (ax, ay) = out[-2], out[-1]
                if (ax - ox) * (p[1] - oy) - (ay - oy) * (p[0] - ox) > 1e-9:
                    break
                out.pop()
            out.append(p)
        return out

    hull = chain(pts)[:-1] + chain(pts[::-1])[:-1]
    edges = []
    for k in range(len(hull)):
        (ax, ay), (bx, by) = hull[k], hull[(k + 1) % len(hull)]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        if length < 1e-7:
            continue
        nx, ny = dy / length, -dx / length
        edges.append((nx, ny, nx * (ax - cx) + ny * (ay - cy)))
    return tuple(edges) if len(edges) >= 3 and len(hull) >= 3 else ()


def test_the_compiled_support_polygon_is_the_python_one() -> None:
    rng = np.random.default_rng(5)
    feet = _random_feet(rng, 3000, 60.0)
    q = quads(feet.cx, feet.cy, feet.ux, feet.uy, feet.half).tolist()
    board = [(100.0, 50.0), (0.0, 50.0), (0.0, 0.0), (100.0, 0.0)]
    shapes = {0: 0, 3: 0, 4: 0}
    for k in range(0, 3000, 3):
        windows = [q[k + 1], q[k + 2]] if k % 2 else [board, q[k + 1]]
        cx, cy = float(feet.cx[k]), float(feet.cy[k])
        got = support(q[k], windows, cx, cy)
        want = _support_python(
            [tuple(p) for p in q[k]], [[tuple(p) for p in w] for w in windows], cx, cy
        )
        assert got == want, k
        shapes[min(len(want), 4)] += 1
    assert min(shapes.values()) > 50  # no polygon, triangles and larger ones all met


def test_the_pile_stage_judges_its_poses_as_the_state_does(
    positions: list[StackBackState],
) -> None:
    """`search._judge_piles` (the supports' overlaps clipped at once, then `piled` and balance)
    finds the same first legal pose, with the same placement, as `state.judge` pose by pose,
    from every fourth pose of each pair's poses on."""
    judged = legal = 0
    for state in positions[::2]:
        sticks, layout = state.sticks, state.layout
        levels = np.array(layout.levels)
        for player in (0, 1):
            for colour in range(NUM_COLOURS):
                if state.supply[player][colour] <= 0:  # the search asks for colours held only
                    continue
                group = [k for k, s in enumerate(sticks) if s.colour != colour]
                for i, j in search._reaching(sticks, group, colour)[:40]:
                    if sticks[i].level != sticks[j].level:
                        continue
                    pp = search.pair_poses(sticks[i], sticks[j], colour)
                    others = np.nonzero(levels >= sticks[i].level)[0]
                    others = others[(others != i) & (others != j)]
                    keep = search._fresh_keep(colour, i, j, layout, others)
                    poses = [
                        Place(Colour(colour), int(pp.x10[m]), int(pp.y10[m]), int(pp.a10[m]))
                        for m in keep.tolist()
                    ]
                    for start in range(0, len(keep), 4):
                        got = search._judge_piles(
                            state, player, Colour(colour), pp, keep[start:], (i, j)
                        )
                        want = search._judge_all(state, player, poses[start:])
                        assert (got is None) == (want is None)
                        if got is not None and want is not None:
                            assert got[0] == want[0] and got[1].stick == want[1].stick
                            assert got[1].deltas == want[1].deltas
                            legal += 1
                        judged += 1
    assert judged > 100 and legal > 20
