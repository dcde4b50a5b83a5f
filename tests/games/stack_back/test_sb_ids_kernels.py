"""The mask's compiled kernels (id_kernels.py) against the numpy code they stand for.

Each kernel must give exactly what the numpy code gives (the same arithmetic in the same order):
the same verdicts at the touch and rest thresholds, on random footprints crowded enough that many
overlaps fall near the thresholds (the clipper they call is `geometry.clip`'s,
geom_kernels.clip, tested bit for bit in test_sb_wood_kernels.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from teocalli.games.stack_back import Colour, Place, id_kernels, search
from teocalli.games.stack_back import cand_kernels as ck
from teocalli.games.stack_back import geom_kernels as gk
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, SPEC
from teocalli.games.stack_back.geometry import clip, quads
from teocalli.games.stack_back.rules import REST, TOL, Layout, base

from .pair_reference import rests_of


def _footprints(rng: np.random.Generator, n: int, spread: float) -> tuple[np.ndarray, ...]:
    cx, cy = rng.uniform(0, spread, n), rng.uniform(0, spread, n)
    a = rng.uniform(0, math.pi, n)
    h = rng.choice(np.array(HALF_LENGTHS), n)
    return cx, cy, np.cos(a), np.sin(a), h


def _sticks(rng: np.random.Generator, n: int) -> list:
    """Sticks on the lattice of the rules (tenths), near one another."""
    out = []
    for _ in range(n):
        place = Place(
            Colour(int(rng.integers(3))),
            int(rng.integers(400, 900)),
            int(rng.integers(300, 700)),
            int(rng.integers(1800)),
        )
        out.append(base(place, 0))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_touching_rows_agrees_with_search(seed: int) -> None:
    """`touching_rows` against `search._touching` on the lattice poses of pairs of random
    sticks, against the other sticks."""
    rng = np.random.default_rng(seed)
    sticks = _sticks(rng, 14)
    layout = Layout.empty()
    for s in sticks:
        layout = layout.with_stick(s)
    lay = np.stack((layout.cx, layout.cy, layout.ux, layout.uy, layout.half), axis=1)
    checked = touched = 0
    for a, b in ((0, 1), (2, 3), (4, 5), (6, 7)):
        for colour in range(3):
            pp = search.pair_poses(sticks[a], sticks[b], colour)
            if not len(pp.x):
                continue
            keep = np.arange(len(pp.x))
            rows = np.arange(8, 14)
            want = search._touching(pp, keep, layout, rows)
            h = float(pp.hh[0])
            got = id_kernels.touching_rows(
                pp.x, pp.y, pp.ux, pp.uy, h, math.hypot(h, HALF_WIDTH), rows, lay, layout.quads,
                np.hypot(layout.half, HALF_WIDTH), TOL, search.DEEP,
            )  # fmt: skip
            assert np.array_equal(got, want)
            checked += len(keep)
            touched += int(want.sum())
    assert checked > 1000 and 0 < touched < checked


def _may_stand(pp: search.PairPoses, a: object, b: object) -> np.ndarray:
    """The bound in numpy: the centre at least the margin inside the supports' extent along the
    pose's axis (a new stick's centre lies 1 mm inside its support polygon)."""
    lo = np.full(len(pp.x), np.inf)
    hi = np.full(len(pp.x), -np.inf)
    for s in (a, b):
        d = (s.cx - pp.x) * pp.ux + (s.cy - pp.y) * pp.uy  # type: ignore[attr-defined]
        r = s.half * np.abs(s.ux * pp.ux + s.uy * pp.uy)  # type: ignore[attr-defined]
        r = r + HALF_WIDTH * np.abs(s.ux * pp.uy - s.uy * pp.ux)  # type: ignore[attr-defined]
        lo, hi = np.minimum(lo, d - r), np.maximum(hi, d + r)
    m = SPEC.margin - 1e-6
    out: np.ndarray = (lo <= -m) & (hi >= m)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_pair_keep_is_the_search_poses_filtered(seed: int) -> None:
    """`pair_keep` generates a pair's lattice poses itself: the same poses (and the same floats)
    as `search.pair_poses` keeps through the three filters above."""
    rng = np.random.default_rng(10 + seed)
    sticks = _sticks(rng, 12)
    layout = Layout.empty()
    for s in sticks:
        layout = layout.with_stick(s)
    rows = np.stack((layout.cx, layout.cy, layout.ux, layout.uy, layout.half), axis=1)
    reach = np.hypot(layout.half, HALF_WIDTH)
    cos = np.cos(np.radians(np.array(search.ANGLES, dtype=np.float64)))
    sin = np.sin(np.radians(np.array(search.ANGLES, dtype=np.float64)))
    kept = 0
    for a, b in ((0, 1), (2, 3), (4, 5), (6, 7)):
        others = np.arange(8, 12)
        for colour in range(3):
            pp = search.pair_poses(sticks[a], sticks[b], colour)
            keep = np.arange(len(pp.x))
            if len(keep):
                keep = keep[_may_stand(pp, sticks[a], sticks[b])]
                keep = keep[~search._touching(pp, keep, layout, others)]
                keep = rests_of(pp, keep)
            ints, frame = id_kernels.pair_keep(
                rows[[a, b]], layout.quads[[a, b]], HALF_LENGTHS[colour], cos, sin, 4.0, others,
                rows, layout.quads, reach, SPEC.margin - 1e-6, TOL, search.DEEP, REST,
                search.REST_INSET,
            )  # fmt: skip
            got = sorted(zip((ints[:, 0] * 40).tolist(), (ints[:, 1] * 40).tolist(),
                             (ints[:, 2] * 50).tolist(), strict=True))  # fmt: skip
            want = sorted(zip(pp.x10[keep].tolist(), pp.y10[keep].tolist(),
                              pp.a10[keep].tolist(), strict=True))  # fmt: skip
            assert got == want
            order = np.lexsort((pp.y10[keep], pp.x10[keep], pp.a10[keep]))
            mine = np.lexsort((ints[:, 1], ints[:, 0], ints[:, 2]))
            theirs = np.stack((pp.x, pp.y, pp.ux, pp.uy), axis=1)[keep][order]
            assert np.array_equal(frame[mine], theirs)
            kept += len(keep)
    assert kept > 10


def test_wood_first_is_the_first_wood_pose_no_stick_touches() -> None:
    """`wood_first`, brought up a stick at a time and several at once, against each bin's first
    wood pose that the touch test written with the numpy code (`geometry.sat_hits`, the shrunk
    test, then clipping) finds touching none of the sticks."""
    from teocalli.games.stack_back import ids
    from teocalli.games.stack_back.geometry import sat_hits

    w = ids.wood()
    wcx, wcy, wux, wuy, whalf = (w.rows[:, k].copy() for k in range(5))
    rng = np.random.default_rng(7)
    sticks = _sticks(rng, 8)
    covered = np.zeros(len(wcx), dtype=bool)
    for s in sticks:
        one = (np.array([s.cx]), np.array([s.cy]), np.array([s.ux]), np.array([s.uy]),
               np.array([s.half]))  # fmt: skip
        hit = np.nonzero(sat_hits(wcx, wcy, wux, wuy, whalf, *one)[:, 0])[0]
        k = len(hit)
        sure = search._sat_flat(wcx[hit], wcy[hit], wux[hit], wuy[hit], whalf[hit] - 1.0,
                                HALF_WIDTH - 1.0, *(np.repeat(v, k) for v in one), 1.0)  # fmt: skip
        maybe = hit[~sure]
        area, _ = clip(quads(wcx[maybe], wcy[maybe], wux[maybe], wuy[maybe], whalf[maybe]),
                       np.repeat(quads(*one), len(maybe), axis=0))  # fmt: skip
        assert 0 < np.count_nonzero(area > TOL) < len(maybe)
        covered[hit[sure]] = True
        covered[maybe[area > TOL]] = True
    want = np.full(len(w.start) - 1, -1)
    for b in range(len(want)):
        free = np.nonzero(~covered[w.start[b] : w.start[b + 1]])[0]
        if len(free):
            want[b] = w.start[b] + free[0]
    layout = Layout.empty()
    for s in sticks:
        layout = layout.with_stick(s)
    rows = np.stack((layout.cx, layout.cy, layout.ux, layout.uy, layout.half), axis=1)
    fresh = np.where(w.start[:-1] < w.start[1:], w.start[:-1], -1).astype(np.int64)
    for steps in ((8,), (1, 2, 3, 4, 5, 6, 7, 8), (3, 8)):
        first, done = fresh.copy(), 0
        for upto in steps:
            id_kernels.wood_first(first, w.code, w.dirs, ids._HALF, w.start, ids._RADII,
                                  rows[:upto], layout.quads[:upto], done, TOL, 1.0)  # fmt: skip
            done = upto
        assert np.array_equal(first, want)
    assert np.count_nonzero(want != fresh) > 500


def test_cones_are_the_newest_stamp_beneath_each_stick() -> None:
    """`id_kernels.cones` (what `ids._cone_stamps` hands the pool) against the recursion
    written over the sticks' own supports, at every step of a seeded random game that piles
    sticks."""
    import teocalli
    from teocalli.core import Rng
    from teocalli.games.stack_back import StackBackState, ids

    state = teocalli.load("stack-back").new_state(3)
    assert isinstance(state, StackBackState)
    rng = Rng(3)
    piled = 0
    while not state.is_terminal():
        want: list[int] = []
        for k, stick in enumerate(state.sticks):
            want.append(max([state._stamps[k], *(want[t] for t in stick.supports)]))
            piled += bool(stick.supports)
        assert ids._cone_stamps(state).tolist() == want
        player = state.current_player()
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    assert piled > 10


def _plain_judge(  # noqa: PLR0917 - a pose, its supports, the balance model
    pose: np.ndarray, i: int, j: int, model: tuple, tol: float, rest: float, margin: float,
    delta: float,
) -> int:  # fmt: skip
    """`judge_piles`' verdict on one pose written plainly from the primitives: every stick of
    the supports' level and above tested by `sat_eps`, clipped where it meets; the supports
    clipped again for the support polygon, its hull always built; the loads passed down."""
    sticks, quads_, level, sup, cont, poly, npoly, load = model
    cx, cy, ux, uy, half, weight = pose.tolist()
    q = np.empty((4, 2))
    gk.quad(cx, cy, ux, uy, half, gk.W, q)
    work = np.empty(gk.WORK)
    g = {}
    for s in range(len(level)):
        if level[s] < level[i]:
            continue
        meets = gk.sat_eps(cx, cy, ux, uy, half, *sticks[s].tolist(), gk.W)
        if s in (i, j):
            area, gx, gy = gk.clip(q, quads_[s], work)
            if not meets or area < rest:
                return id_kernels.UNSURE
            g[s] = (gx - cx, gy - cy)
        elif meets and gk.clip(q, quads_[s], work)[0] > tol - delta:
            return id_kernels.UNSURE
    _, _, pts, edges, clips, hulls, df, dmx, dmy, inside, sh = ck.balance_scratch(len(level))
    m = gk.clip_into(q, quads_[j], pts, gk.clip_into(q, quads_[i], pts, 0, clips), clips)
    d = ck.depth(edges, gk.hull_edges(pts, m, cx, cy, 0.5, edges, hulls), 0.0, 0.0)
    if abs(d - (margin - 1e-9)) < delta:
        return id_kernels.UNSURE
    if d < margin - 1e-9:
        return id_kernels.TIPS  # its own support polygon: whatever the loads
    ck.first_loads(i, j, cx, cy, weight, *g[i], *g[j], sticks, df, dmx, dmy, inside, sh)
    falls = ck.pass_down(level[i] + 1, sticks, level, sup, cont, poly, npoly, load, margin - 1e-9,
                      delta, df, dmx, dmy, inside, sh)  # fmt: skip
    return id_kernels.LEGAL if falls == -1 else id_kernels.UNSURE if falls == -2 else 2  # loads


@pytest.mark.parametrize("delta", [1e-6, 0.05])
def test_judge_piles_is_the_plain_judge(delta: float) -> None:
    """`judge_piles` (each support clipped once, sticks beyond the circumscribed circles passed,
    a pose refused before its hull is built when its contacts' extents leave its centre short of
    the margin) against `_plain_judge`, every pile pose of every pair the mask meets at every
    fourth step of a seeded random game: the same answers, UNSURE included (with a wide `delta`,
    many poses lie near a threshold)."""
    import teocalli
    from teocalli.core import Rng
    from teocalli.games.stack_back import StackBackState, ids

    state = teocalli.load("stack-back").new_state(6)
    assert isinstance(state, StackBackState)
    rng = Rng(6)
    seen = np.zeros(4, dtype=np.int64)
    while not state.is_terminal():
        player = state.current_player()
        if len(state.history) % 4 == 0 and state.sticks:
            memo = ids._Memo.empty().to(state)
            pairs = ids._pile_pairs(state, player, memo)
            rows = np.array([r for p in pairs for r in p.poses.tolist()], dtype=np.int64)
            held = np.array([p.supports for p in pairs for _ in p.poses], dtype=np.int64)
            if len(rows):
                pose = np.empty((len(rows), 6))
                pose[:, 0], pose[:, 1] = rows[:, 1] / 10, rows[:, 2] / 10
                pose[:, 2:4] = ids._axes()[rows[:, 3]]
                pose[:, 4], pose[:, 5] = ids._HALF[rows[:, 0]], ids._WEIGHT[rows[:, 0]]
                sticks, level, load = ids._scene(state)
                model = (sticks, state.layout.quads, level, memo.sup, memo.cont, memo.poly,
                         memo.npoly, load)  # fmt: skip
                got = id_kernels.judge_piles(pose, held[:, 0], held[:, 1], *model, TOL, REST,
                                             SPEC.margin, delta)  # fmt: skip
                want = [
                    _plain_judge(pose[r], int(i), int(j), model, TOL, REST, SPEC.margin, delta)
                    for r, (i, j) in enumerate(held.tolist())
                ]
                assert got.tolist() == want, len(state.history)
                seen += np.bincount(got, minlength=4)
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    # UNSURE is rare with the kernel's own band (the rest has none), common with a wide one
    assert seen[1:].min() > 20 and seen[0] > (20 if delta > 0.01 else 0), seen


def test_the_judges_bounds_hold_the_hulls_depth() -> None:
    """`_short_of` (the contacts' extents along and across the stick) never says less than the
    depth of a centre inside the hull of the two contacts, and `_deep_in` (the quadrilateral of
    their points farthest across), when positive, never more: random poses on two random
    supports, each
    contact clipped as the judge clips it, the hull built by `hull_edges`."""
    rng = np.random.default_rng(11)
    short = deep = 0
    pts, clips = np.empty((2 * gk.MOST, 2)), np.empty((5, gk.MOST))
    edges, hulls = np.empty((2 * gk.MOST, 3)), np.empty((3, 2 * gk.MOST, 2))
    for _ in range(4000):
        cx, cy, ux, uy, h = (v[0] for v in _footprints(rng, 1, 10.0))
        q = np.empty((4, 2))
        gk.quad(cx, cy, ux, uy, h, gk.W, q)
        ei = m = 0
        for side in (-1.0, 1.0):  # two supports anywhere along the pose, often on one side
            t = rng.uniform(-1.0, 1.0) * h
            a = rng.uniform(0, math.pi)
            win = np.empty((4, 2))
            gk.quad(cx + t * ux, cy + t * uy, math.cos(a), math.sin(a), 30.0, gk.W, win)
            m = gk.clip_into(q, win, pts, m, clips)
            ei = m if side < 0 else ei
        d = ck.depth(edges, gk.hull_edges(pts.copy(), m, cx, cy, 0.5, edges, hulls), 0.0, 0.0)
        above = id_kernels._short_of(pts, m, cx, cy, ux, uy)
        below = id_kernels._deep_in(pts, ei, m, cx, cy, ux, uy)
        # (a centre outside the hull, at no depth, is refused by either)
        assert d <= 0 or d <= above + 1e-9, (d, above)
        assert below <= 0 or below <= d + 1e-9, (d, below)
        short += above < SPEC.margin
        deep += below > SPEC.margin
    assert short > 100 and deep > 100, (short, deep)


def test_bands_crossing_wholly_give_the_clippers_contact() -> None:
    """`_bands_cross` (a pose's contact with a support when their bands cross wholly, found
    without clipping) gives the clipper's points, as a set, and centroid to rounding, and an
    area of 36 mm² or more; where the bands do not cross wholly it declines (the judge clips)."""
    rng = np.random.default_rng(5)
    taken = declined = 0
    for _ in range(4000):
        cx, cy = rng.uniform(0, 40, 2)
        a, b = rng.uniform(0, math.pi, 2)
        h, k = rng.choice([18.0, 27.0, 36.0], 2)
        dx, dy = cx + rng.uniform(-20, 20), cy + rng.uniform(-20, 20)
        ux, uy, vx, vy = math.cos(a), math.sin(a), math.cos(b), math.sin(b)
        pts = np.zeros((2 * gk.MOST, 2))
        end = id_kernels._bands_cross(cx, cy, ux, uy, h, dx, dy, vx, vy, k, pts, 0)
        q, win = np.empty((4, 2)), np.empty((4, 2))
        gk.quad(cx, cy, ux, uy, h, gk.W, q)
        gk.quad(dx, dy, vx, vy, k, gk.W, win)
        ref = np.zeros((2 * gk.MOST, 2))
        m, area, gx, gy = gk.clip_both(q, win, ref, 0, np.empty((5, gk.MOST)), np.empty(gk.WORK))
        if end == 0:
            declined += 1
            continue
        taken += 1
        assert end == 4 and area >= 36.0 - 1e-9
        mine = sorted(map(tuple, np.round(pts[:4], 9).tolist()))
        theirs = sorted(set(map(tuple, np.round(ref[:m], 9).tolist())))
        assert mine == theirs
        assert abs(pts[4, 0] - gx) < 1e-9 and abs(pts[4, 1] - gy) < 1e-9
    assert taken > 500 and declined > 500, (taken, declined)
