"""The compiled kernels (wood_kernels.py) give the bits of the numpy code they replaced.

The references below are that numpy code, kept here only as the slow, obviously-correct side
of the comparison: the clipper on whole arrays (numpy's pairwise sums of 12 slots) and the
separating-axis test on whole matrices."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import search
from teocalli.games.stack_back.candidates import wood_lattice
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, NUM_COLOURS, SPEC
from teocalli.games.stack_back.geom_kernels import EPS
from teocalli.games.stack_back.geometry import (
    DEEP,
    box,
    clip,
    quads,
    sat_hits,
)
from teocalli.games.stack_back.rules import TOL, Layout
from teocalli.games.stack_back.state import StackBackState
from teocalli.games.stack_back.wood_kernels import (
    covered,
    first_free,
    overlap_matrix,
    raster_clear,
    surely_taken,
)

Array = npt.NDArray[np.float64]
CAP = 12


def clip_reference(subject: Array, window: Array) -> tuple[Array, Array]:
    """Sutherland-Hodgman on whole arrays, each row's polygon in the first `count` of 12 slots
    (the engine's clipper before the kernel)."""
    n = len(subject)
    px = np.zeros((n, CAP))
    py = np.zeros((n, CAP))
    px[:, :4] = subject[:, :, 0]
    py[:, :4] = subject[:, :, 1]
    count = np.full(n, 4)
    slots = np.arange(CAP)[None, :]
    rows = np.arange(n)[:, None]
    wx, wy = window[:, :, 0], window[:, :, 1]
    for e in range(4):
        ax, ay = wx[:, e : e + 1], wy[:, e : e + 1]
        f = (e + 1) % 4
        ex0, ex1 = wx[:, f : f + 1] - ax, wy[:, f : f + 1] - ay
        side = ex0 * (py - ay) - ex1 * (px - ax)
        real = slots < count[:, None]
        nxt = np.where(slots + 1 < count[:, None], slots + 1, 0)
        side_n = side[rows, nxt]
        inside = side >= -EPS
        keep = real & inside
        crosses = real & (inside != (side_n >= -EPS))
        t = np.where(crosses, side / np.where(crosses, side - side_n, 1.0), 0.0)
        qx, qy = px[rows, nxt], py[rows, nxt]
        ix = px + t * (qx - px)
        iy = py + t * (qy - py)
        valid = np.stack((keep, crosses), axis=2).reshape(n, 2 * CAP)
        dest = np.cumsum(valid, axis=1) - 1
        r, c = np.nonzero(valid & (dest < CAP))
        d, k, odd = dest[r, c], c >> 1, (c & 1).astype(bool)
        ox, oy = px, py
        px, py = np.zeros((n, CAP)), np.zeros((n, CAP))
        px[r, d] = np.where(odd, ix[r, k], ox[r, k])
        py[r, d] = np.where(odd, iy[r, k], oy[r, k])
        count = np.minimum(valid.sum(axis=1), CAP)
    real = slots < count[:, None]
    nxt = np.where(slots + 1 < count[:, None], slots + 1, 0)
    qx, qy = px[rows, nxt], py[rows, nxt]
    cr = np.where(real, px * qy - qx * py, 0.0)
    area2 = cr.sum(axis=1)
    safe = np.where(np.abs(area2) > EPS, area2, 1.0)
    gx = ((px + qx) * cr).sum(axis=1) / (3 * safe)
    gy = ((py + qy) * cr).sum(axis=1) / (3 * safe)
    area = np.maximum(area2 / 2, 0.0)
    return area, np.stack((gx, gy), axis=1)


def sat_reference(  # noqa: PLR0917 - two sets of footprints, five parallel columns each
    cx: Array, cy: Array, ux: Array, uy: Array, h: Array,
    dx: Array, dy: Array, vx: Array, vy: Array, k: Array, w: float,
) -> npt.NDArray[np.bool_]:  # fmt: skip
    """The separating-axis test on whole matrices (the engine's before the kernel)."""
    ddx = dx[None, :] - cx[:, None]
    ddy = dy[None, :] - cy[:, None]
    c = np.abs(ux[:, None] * vx[None, :] + uy[:, None] * vy[None, :])
    s = np.abs(ux[:, None] * vy[None, :] - uy[:, None] * vx[None, :])
    hk, hh = k[None, :], h[:, None]
    on_u = np.abs(ddx * ux[:, None] + ddy * uy[:, None]) < hh + hk * c + w * s - EPS
    on_v = np.abs(-ddx * uy[:, None] + ddy * ux[:, None]) < w + hk * s + w * c - EPS
    on_p = np.abs(ddx * vx[None, :] + ddy * vy[None, :]) < hk + hh * c + w * s - EPS
    on_q = np.abs(-ddx * vy[None, :] + ddy * vx[None, :]) < w + hh * s + w * c - EPS
    out: npt.NDArray[np.bool_] = on_u & on_v & on_p & on_q
    return out


def _columns(rng: np.random.Generator, n: int) -> tuple[Array, ...]:
    """Footprints as the engine meets them: centres on 0.1 mm, angles mostly on 5 degrees."""
    x = np.round(rng.uniform(0, 60, n) * 10) / 10
    y = np.round(rng.uniform(0, 60, n) * 10) / 10
    deg = np.where(rng.random(n) < 0.7, rng.integers(0, 36, n) * 5.0, rng.uniform(0, 180, n))
    a = np.radians(deg)
    return x, y, np.cos(a), np.sin(a), rng.choice([18.0, 27.0, 36.0], n)


def _bits(a: Array) -> npt.NDArray[np.int64]:
    return np.ascontiguousarray(a).view(np.int64)


def test_clip_gives_the_bits_of_the_numpy_clipper() -> None:
    """Areas and centroids bit for bit, on overlaps, misses, identical footprints, footprints
    edge to edge and boards; one pair and empty batches too."""
    rng = np.random.default_rng(17)
    qa, qb = quads(*_columns(rng, 3000)), quads(*_columns(rng, 3000))
    qb[:300] = qa[:300]  # identical footprints
    qb[300:600] = qa[300:600] + np.array([6.0, 0.0])  # edge to edge, or overlapping exactly
    qb[600:900] = box(0.0, 0.0, 50.0, 50.0)
    area, cent = clip(qa, qb)
    ref_area, ref_cent = clip_reference(qa, qb)
    assert (ref_area > 0).sum() > 500  # many overlaps, not only misses
    assert (ref_area == 0).sum() > 500
    assert np.array_equal(_bits(area), _bits(ref_area))
    assert np.array_equal(_bits(cent), _bits(ref_cent))
    one_area, one_cent = clip(qa[5:6], qb[5:6])
    assert _bits(one_area)[0] == _bits(ref_area)[5]
    assert np.array_equal(_bits(one_cent[0]), _bits(ref_cent[5]))
    empty_area, empty_cent = clip(qa[:0], qb[:0])
    assert empty_area.shape == (0,) and empty_cent.shape == (0, 2)


def test_sat_hits_gives_the_verdicts_of_the_numpy_test() -> None:
    """The same matrix, shrunk or not, with pairs on the edge of touching among them."""
    rng = np.random.default_rng(3)
    a, b = _columns(rng, 200), _columns(rng, 150)
    b = (np.concatenate((b[0], a[0][:50] + 6.0)), np.concatenate((b[1], a[1][:50])),
         *(np.concatenate((c, d[:50])) for c, d in zip(b[2:], a[2:], strict=True)))  # fmt: skip
    for w, shrink in ((3.0, 0.0), (2.0, 1.0)):
        got = sat_hits(*a[:4], a[4] - shrink, *b[:4], b[4] - shrink, w)
        want = sat_reference(*a[:4], a[4] - shrink, *b[:4], b[4] - shrink, w)
        assert want.sum() > 1000 and (~want).sum() > 1000
        assert np.array_equal(got, want)


def _mid_game(seed: int, steps: int) -> StackBackState:
    """A seeded random game after `steps` placements or passes (its sticks on both boards and
    piled)."""
    game = teocalli.load("stack-back")
    state = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert isinstance(state, StackBackState)
    return state


def _touch_reference(  # noqa: PLR0917 - poses as columns, the sticks
    cx: Array, cy: Array, ux: Array, uy: Array, h: float, layout: Layout
) -> npt.NDArray[np.bool_]:
    """(K, M): whether pose i touches stick j (overlap above the tolerance), clipping every
    pair with the numpy clipper."""
    n, m = len(cx), len(layout.cx)
    q = quads(cx, cy, ux, uy, np.full(n, h))
    area, _ = clip_reference(np.repeat(q, m, axis=0), np.tile(layout.quads, (n, 1, 1)))
    out: npt.NDArray[np.bool_] = area.reshape(n, m) > TOL
    return out


@pytest.mark.parametrize("colour", range(NUM_COLOURS))
def test_first_free_passes_over_exactly_the_poses_that_touch_a_stick(colour: int) -> None:
    """Scanned to the end from each free pose on, the kernel stops at exactly the poses that
    touch no stick and marks exactly the others, as clipping every pose against every stick."""
    state = _mid_game(4, 14)
    layout = state.layout
    wp = search.wood_poses(colour)
    h = HALF_LENGTHS[colour]
    idx = np.arange(0, len(wp.cx), 7)
    want = _touch_reference(wp.cx[idx], wp.cy[idx], wp.ux[idx], wp.uy[idx], h, layout).any(axis=1)
    assert want.sum() > 100 and (~want).sum() > 100
    reach = math.hypot(h, HALF_WIDTH) + np.hypot(layout.half, HALF_WIDTH) + 1e-6
    touching = np.zeros(len(idx), dtype=bool)
    stops, at = [], 0
    while True:
        at = first_free(wp.cx, wp.cy, wp.ux, wp.uy, h, HALF_WIDTH, idx, at, layout.cx, layout.cy,
                        layout.ux, layout.uy, layout.half, layout.quads, reach, DEEP, TOL,
                        touching)  # fmt: skip
        if at >= len(idx):
            break
        stops.append(at)
        at += 1
    assert stops == np.nonzero(~want)[0].tolist()
    assert np.array_equal(touching, want)


@pytest.mark.parametrize("colour", range(NUM_COLOURS))
def test_surely_taken_only_where_the_shrunk_footprints_meet(colour: int) -> None:
    """The kernel's sure touches are those of the footprints shrunk by 1 mm (a separating-axis
    test on whole matrices), and each overlaps by more than the tolerance."""
    state = _mid_game(9, 14)
    layout = state.layout
    wp = search.wood_poses(colour)
    h = HALF_LENGTHS[colour]
    idx = np.arange(len(wp.cx))
    reach = math.hypot(h, HALF_WIDTH) + np.hypot(layout.half, HALF_WIDTH) + 1e-6
    got = surely_taken(wp.cx, wp.cy, wp.ux, wp.uy, h, HALF_WIDTH, idx, layout.cx, layout.cy,
                       layout.ux, layout.uy, layout.half, reach, DEEP)  # fmt: skip
    w = HALF_WIDTH - DEEP
    ddx = layout.cx[None, :] - wp.cx[:, None]
    ddy = layout.cy[None, :] - wp.cy[:, None]
    ux, uy, vx, vy = wp.ux[:, None], wp.uy[:, None], layout.ux[None, :], layout.uy[None, :]
    c, s = np.abs(ux * vx + uy * vy), np.abs(ux * vy - uy * vx)
    a, b = h - DEEP, layout.half[None, :] - DEEP
    meet = np.abs(ddx * ux + ddy * uy) < a + b * c + w * s
    meet &= np.abs(-ddx * uy + ddy * ux) < w + b * s + w * c
    meet &= np.abs(ddx * vx + ddy * vy) < b + a * c + w * s
    meet &= np.abs(-ddx * vy + ddy * vx) < w + a * s + w * c
    want = meet.any(axis=1)
    assert want.sum() > 100 and (~want).sum() > 100
    assert np.array_equal(got, want)
    sel = np.nonzero(got)[0][::10]
    touched = _touch_reference(wp.cx[sel], wp.cy[sel], wp.ux[sel], wp.uy[sel], h, layout)
    assert touched.any(axis=1).all()


def test_raster_clear_keeps_what_the_raster_read_by_numpy_keeps() -> None:
    """The raster filter: the centre's raster point not marked more than 1 mm deep, nor any
    centre-line sample's more than 1 mm with the raster's slack; the same poses as reading the
    marks with numpy."""
    state = _mid_game(2, 14)
    depths = state.depths
    x0, y0 = SPEC.region[0] - search.PAD, SPEC.region[1] - search.PAD
    for colour in range(NUM_COLOURS):
        wp = search.wood_poses(colour)
        reach = HALF_LENGTHS[colour] - search.DEEP
        ts = np.linspace(-reach, reach, search.SAMPLES)
        got = raster_clear(depths.centre, depths.along, wp.cx, wp.cy, wp.ux, wp.uy, 10,
                           len(wp.cx) - 10, ts, x0, y0)  # fmt: skip

        def deep(mask: npt.NDArray[np.bool_], x: Array, y: Array) -> npt.NDArray[np.bool_]:
            i, j = np.rint(x - x0).astype(np.int64), np.rint(y - y0).astype(np.int64)
            on = (i >= 0) & (i < mask.shape[0]) & (j >= 0) & (j < mask.shape[1])
            out = np.zeros(len(x), dtype=bool)
            out[on] = mask[i[on], j[on]]
            return out

        ok = ~deep(depths.centre, wp.cx, wp.cy)
        for t in ts[ts != 0]:
            ok &= ~deep(depths.along, wp.cx + t * wp.ux, wp.cy + t * wp.uy)
        ok[:10] = ok[len(ok) - 10 :] = False
        assert 100 < len(got) < len(wp.cx) - 100
        assert got.tolist() == np.nonzero(ok)[0].tolist()


def test_covered_names_the_wood_candidates_a_stick_touches() -> None:
    """Each stick of a seeded game against every wood candidate: the kernel's list is the
    candidates whose clipped overlap exceeds the tolerance."""
    state = _mid_game(6, 14)
    wood = wood_lattice()
    f = wood.feet
    checked = 0
    for stick in state.sticks:
        got = covered(stick.cx, stick.cy, stick.ux, stick.uy, stick.half, f.cx, f.cy, f.ux, f.uy,
                      f.half, wood.quads, HALF_WIDTH, DEEP, TOL)  # fmt: skip
        one = quads(*(np.array([v]) for v in (stick.cx, stick.cy, stick.ux, stick.uy, stick.half)))
        area, _ = clip_reference(np.repeat(one, len(f.cx), axis=0), wood.quads)
        assert got.tolist() == np.nonzero(area > TOL)[0].tolist()
        checked += len(got)
    assert checked > 50


def test_overlap_matrix_clips_where_the_footprints_overlap() -> None:
    """The free space's sample overlaps: the numpy clipper's bits wherever the kernel clipped,
    and no overlap to speak of where it did not."""
    rng = np.random.default_rng(8)
    a, b = _columns(rng, 300), _columns(rng, 40)
    got = overlap_matrix(*a, *b, HALF_WIDTH)
    qa, qb = quads(*a), quads(*b)
    area, _ = clip_reference(np.repeat(qa, 40, axis=0), np.tile(qb, (300, 1, 1)))
    area = area.reshape(300, 40)
    clipped = got > 0
    assert clipped.sum() > 500
    assert np.array_equal(_bits(got[clipped]), _bits(area[clipped]))
    assert (area[~clipped] < 1e-6).all()


def test_the_depth_raster_is_the_numpy_stamps() -> None:
    """The raster of a seeded game's sticks (the points more than 1 mm, and more than 1 mm plus
    the slack, inside some stick) is what stamping each stick's depth with numpy gives, stamped
    all at once or a few sticks at a time (as states bring it up to date)."""
    state = _mid_game(5, 30)
    sticks, layout = state.sticks, state.layout
    depths = search.Depths.empty().with_sticks(sticks, layout)
    stepwise = search.Depths.empty()
    for n in (3, 4, 11, len(sticks)):
        stepwise = stepwise.with_sticks(sticks[:n], layout)
    grid = np.zeros(depths.centre.shape)
    x0, y0 = SPEC.region[0] - search.PAD, SPEC.region[1] - search.PAD
    px = np.arange(grid.shape[0])[:, None] + x0
    py = np.arange(grid.shape[1])[None, :] + y0
    for s in sticks:
        dx, dy = px - s.cx, py - s.cy
        depth = np.minimum(
            s.half - np.abs(dx * s.ux + dy * s.uy), HALF_WIDTH - np.abs(-dx * s.uy + dy * s.ux)
        )
        grid = np.maximum(grid, depth)
    centre = grid > search.DEEP + 1e-9
    along = grid > search.DEEP + search.SLACK
    assert 1000 < along.sum() < centre.sum() < grid.size // 2
    for got in (depths, stepwise):
        assert got.count == len(sticks)
        assert np.array_equal(got.centre, centre) and np.array_equal(got.along, along)
