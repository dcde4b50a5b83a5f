"""The mask's shortcuts in id_kernels.py against the exact computation they skip.

`_rest_sure` decides whether a pose rests at least `REST` mm² on a support without clipping
where it is sure (a sure refusal by the overlap's bounding box, a sure acceptance where the two
bands cross wholly within both lengths, or where the band areas bound the overlap from below):
where it answers, the answer must be the clipped area's
verdict (`geom_kernels.clip` on the footprints as the layout and `pair_keep` build them).
`catch_up` must take exactly the rows `touching_rows` finds, pair by pair.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from teocalli.games.stack_back import id_kernels
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH
from teocalli.games.stack_back.geom_kernels import WORK, clip, quad
from teocalli.games.stack_back.geometry import quads
from teocalli.games.stack_back.rules import REST, TOL


def _random_sticks(
    rng: np.random.Generator, n: int, xs: tuple[float, float], ys: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...], np.ndarray, np.ndarray, np.ndarray]:
    """n sticks of random colours and angles centred in the box xs x ys: their angles, rows
    (cx, cy, ux, uy, half), the rows' columns, footprints, circumscribed radii and indices."""
    ang = rng.uniform(0, math.pi, n)
    lay = np.stack((rng.uniform(*xs, n), rng.uniform(*ys, n), np.cos(ang), np.sin(ang),
                    rng.choice(np.array(HALF_LENGTHS), n)), axis=1)  # fmt: skip
    cols = tuple(lay[:, c].copy() for c in range(5))
    rows = np.arange(n, dtype=np.int64)
    return ang, lay, cols, quads(*cols), np.hypot(lay[:, 4], HALF_WIDTH), rows


def _support_and_pose(
    rng: np.random.Generator, slant: float
) -> tuple[float, float, np.ndarray, float, float]:
    """A support of random colour and angle a centred at (100, 50): a, its half-length k, its
    row (cx, cy, ux, uy, half); and a pose's angle b at least `slant` off the support's either
    way, and its half-length h."""
    a = rng.uniform(0, math.pi)
    k = float(rng.choice(np.array(HALF_LENGTHS)))
    sup = np.array([100.0, 50.0, math.cos(a), math.sin(a), k])
    b = a + rng.uniform(slant, math.pi - slant)
    return a, k, sup, b, float(rng.choice(np.array(HALF_LENGTHS)))


def _clipped(pose: tuple[float, ...], sup: np.ndarray) -> float:
    """The overlap area as `pair_keep` clips it."""
    q = np.empty((4, 2))
    quad(*pose, HALF_WIDTH, q)
    squad = quads(*(np.array([v]) for v in sup))[0]
    area: float = clip(q, squad, np.empty(WORK))[0]
    return area


def _check_rest_sure(pose: tuple[float, ...], sup: np.ndarray, counts: dict[int, int]) -> None:
    """`_rest_sure`'s answer at `pose` (counted in `counts`): when sure, the clipped rest's."""
    sure = id_kernels._rest_sure(*pose, *sup, REST)
    counts[sure] += 1
    if sure:
        assert (sure > 0) == (_clipped(pose, sup) >= REST), (pose, sup, sure)


@pytest.mark.parametrize("seed", range(3))
def test_rest_sure_agrees_with_the_clipped_area(seed: int) -> None:
    """Random poses around a support, many crossing it near its ends or at a slant (overlaps
    near 36 mm²): every sure answer is the clipped area's verdict, and both kinds of sure
    answer, and unsure ones, occur."""
    rng = np.random.default_rng(seed)
    counts = {-1: 0, 0: 0, 1: 0}
    for _ in range(4000):
        a, k, sup, b, h = _support_and_pose(rng, 0.05)
        along = rng.uniform(-k - 4, k + 4)
        x = 100.0 + along * math.cos(a) + rng.uniform(-8, 8)
        y = 50.0 + along * math.sin(a) + rng.uniform(-8, 8)
        pose = (x, y, math.cos(b), math.sin(b), h)
        _check_rest_sure(pose, sup, counts)
    assert counts[-1] > 200 and counts[1] > 200 and counts[0] > 100, counts


@pytest.mark.parametrize("seed", range(2))
def test_the_bands_parallelogram_bounds_the_rest_from_below(seed: int) -> None:
    """`_rest_by_ends`' last acceptance: each footprint's part within the other's band
    (`_band_area`) lies in the bands' parallelogram, (2 W)² / |sin|, and the two parts meet in
    the overlap, so the overlap is at least their sum less the parallelogram. Random poses
    crossing a support near both sticks' ends (where the bands cross within neither length):
    the bound never exceeds the clipped area, it is exact where the ends cut off parts of the
    parallelogram apart, and `_rest_sure` accepts wherever it reaches `REST` with room, as
    the clipped area does."""
    rng = np.random.default_rng(seed + 10)
    decided = exact = 0
    for _ in range(4000):
        a, k, sup, b, h = _support_and_pose(rng, 0.06)
        along = (k - rng.uniform(-3, 6)) * rng.choice(np.array([-1.0, 1.0]))
        cu, su = math.cos(b), math.sin(b)
        back = (h - rng.uniform(-3, 6)) * rng.choice(np.array([-1.0, 1.0]))
        x = 100.0 + along * math.cos(a) - back * cu + rng.uniform(-1, 1)
        y = 50.0 + along * math.sin(a) - back * su + rng.uniform(-1, 1)
        dx, dy, vx, vy = sup[0] - x, sup[1] - y, sup[2], sup[3]
        cos, sin = cu * vx + su * vy, cu * vy - su * vx
        pose_in = id_kernels._band_area(-(dy * vx - dx * vy), -sin, cos, h)
        sup_in = id_kernels._band_area(dy * cu - dx * su, sin, cos, k)
        if pose_in == math.inf:
            continue
        low = pose_in + sup_in - 4 * HALF_WIDTH**2 / abs(sin)
        area = _clipped((x, y, cu, su, h), sup)
        assert low <= area + 1e-9, (x, y, cu, su, h, sup, low, area)
        exact += abs(low - area) < 1e-9 and area > 0
        if low >= REST + id_kernels._SURE:
            decided += 1
            assert area >= REST
            assert id_kernels._rest_sure(x, y, cu, su, h, *sup, REST) == 1
    assert decided > 300 and exact > 300, (decided, exact)


def test_band_area_is_the_clipped_area_of_the_footprint_within_the_band() -> None:
    """`_band_area`'s closed form against clipping the footprint (2 k by 2 W, centred at the
    origin along x) by the band (2 W wide, normal (sn, cs), offset -e; a long rectangle), at
    random offsets and slants: equal within 1e-9 mm², and no bound (infinity) when nearly
    parallel or perpendicular."""
    rng = np.random.default_rng(5)
    met = 0
    for _ in range(3000):
        k = float(rng.choice(np.array(HALF_LENGTHS)))
        t = rng.uniform(0, 2 * math.pi)
        sn, cs = math.sin(t), math.cos(t)
        e = rng.uniform(-k - 8, k + 8)
        got = id_kernels._band_area(e, sn, cs, k)
        if min(abs(sn), abs(cs)) < id_kernels._FLAT:
            assert got == math.inf
            continue
        q, band = np.empty((4, 2)), np.empty((4, 2))
        quad(0.0, 0.0, 1.0, 0.0, k, HALF_WIDTH, q)
        quad(-e * sn, -e * cs, -cs, sn, 1000.0, HALF_WIDTH, band)
        want = clip(q, band, np.empty(WORK))[0]
        assert abs(got - want) < 1e-9, (e, sn, cs, k, got, want)
        met += want > 0
    assert met > 1000


def test_rest_sure_at_a_right_angle_crossing() -> None:
    """A yellow crossing a green at its middle at a right angle overlaps exactly 36 mm² (6 x 6):
    sure to rest; slid off so that 5 mm of the green's width lies under it: sure not to."""
    green = np.array([50.0, 50.0, 1.0, 0.0, HALF_LENGTHS[2]])
    h = HALF_LENGTHS[0]
    assert id_kernels._rest_sure(50.0, 50.0, 0.0, 1.0, h, *green, REST) == 1
    assert id_kernels._rest_sure(50.0, 50.0 + h + 2.0, 0.0, 1.0, h, *green, REST) == -1
    edge = 50.0 + HALF_LENGTHS[2] + HALF_WIDTH - 5.0  # 5 mm of the yellow's width on the green
    assert _clipped((edge, 50.0, 0.0, 1.0, h), green) < REST
    assert id_kernels._rest_sure(edge, 50.0, 0.0, 1.0, h, *green, REST) == -1


def test_catch_up_takes_the_rows_touching_rows_finds() -> None:
    """Poses of three pairs (each overlapping both its supports, as a pair's poses do) in one
    pool against random sticks, each pair from its own count and level on: `catch_up` takes
    exactly the rows `touching_rows` finds touching the pair's sticks (it skips the sticks too
    far from the supports to touch any of their poses), records for each the first stick that
    takes it (what a fork gives back), leaves the rows taken before alone, and forgets a pair's
    verdicts only when its supports' cone stamp changed."""
    rng = np.random.default_rng(7)
    n = 16
    a = rng.uniform(0, math.pi, n)
    lay = np.stack((rng.uniform(0, 160, n), rng.uniform(0, 100, n), np.cos(a), np.sin(a),
                    rng.choice(np.array(HALF_LENGTHS), n)), axis=1)  # fmt: skip
    squads = quads(lay[:, 0], lay[:, 1], lay[:, 2], lay[:, 3], lay[:, 4])
    lreach = np.hypot(lay[:, 4], HALF_WIDTH)
    levels = rng.integers(0, 3, n).astype(np.int64)
    frames, keys, since = [], [], []
    expected, first = [], []
    for colour, start, level in ((0, 3, 0), (1, 6, 1), (2, 0, 2)):
        h = HALF_LENGTHS[colour]
        i, j = min(range(n), key=lambda k: math.dist(lay[k, :2], lay[colour, :2]) or 1e9), colour
        mid = (lay[i, :2] + lay[j, :2]) / 2
        poses = []
        while len(poses) < 200:
            b = rng.uniform(0, math.pi)
            x, y = mid + rng.uniform(-30, 30, 2)
            pose = (x, y, math.cos(b), math.sin(b), h)
            if _clipped(pose, lay[i]) > 0 and _clipped(pose, lay[j]) > 0:
                poses.append(pose[:4])
        frame = np.array(poses)
        cols = [frame[:, c].copy() for c in range(4)]
        rows = np.array([k for k in range(start, n) if levels[k] >= level], dtype=np.int64)
        expected.append(id_kernels.touching_rows(
            *cols, h, math.hypot(h, HALF_WIDTH), rows, lay, squads, lreach, TOL, 0.5,
        ))  # fmt: skip
        each = [id_kernels.touching_rows(*cols, h, math.hypot(h, HALF_WIDTH), rows[t : t + 1],
                                         lay, squads, lreach, TOL, 0.5)
                for t in range(len(rows))]  # fmt: skip
        first.append([next((int(rows[t]) for t in range(len(rows)) if each[t][r]), -1)
                      for r in range(len(frame))])  # fmt: skip
        frames.append(frame)
        keys.append((colour, level, i, j))
        since.append(start)
    span = np.array([[0, 200], [200, 400], [400, 600]], dtype=np.int64)
    taken = np.full(600, id_kernels.ALIVE, dtype=np.int64)
    taken[5] = 2  # taken before (by stick 2): left as it is
    verdict = np.ones(600, dtype=np.int8)
    cones = np.arange(n, dtype=np.int64)
    key = np.array(keys, dtype=np.int64)
    stamp = np.array([max(cones[k[2]], cones[k[3]]) for k in keys], dtype=np.int64)
    stamp[1] = -1  # pair 1's verdicts are from an older stamp
    count = np.array(since, dtype=np.int64)
    id_kernels.catch_up(
        np.arange(3, dtype=np.int64), key, span, count, stamp, np.full((3, 4), np.nan),
        np.array(HALF_LENGTHS), np.concatenate(frames), taken, verdict, levels, lay, squads,
        lreach, cones, TOL, 0.5,
    )  # fmt: skip
    want = np.concatenate(expected)
    want_first = np.concatenate(first)
    assert taken[5] == 2
    got = taken != id_kernels.ALIVE
    got[5] = want[5]
    assert np.array_equal(got, want)
    assert 0 < want.sum() < len(want)
    hit = np.nonzero(want)[0]
    hit = hit[hit != 5]
    assert np.array_equal(taken[hit], want_first[hit])
    assert count.tolist() == [n, n, n]
    assert stamp[1] == max(cones[keys[1][2]], cones[keys[1][3]])
    assert verdict[200:400].tolist() == [0] * 200
    assert verdict[:200].all() and verdict[400:].all()


def test_lattice_rows_are_the_ids_bins_and_ranks() -> None:
    """`lattice_rows` against `ids._bins` and `ids._ranks` (numpy) on lattice indices inside the
    squares, on their edges and far beyond them on every side (the outermost bins' ranks)."""
    from teocalli.games.stack_back import ids

    rng = np.random.default_rng(3)
    ints = np.stack((rng.integers(-60, 120, 3000), rng.integers(-60, 80, 3000),
                     rng.integers(0, 36, 3000)), axis=1).astype(np.int64)  # fmt: skip
    for colour in range(3):
        poses, bins, ranks = id_kernels.lattice_rows(colour, ints, ids._GRID, ids._rank_table())
        x10, y10 = ints[:, 0] * ids._STEP10, ints[:, 1] * ids._STEP10
        a10 = ints[:, 2] * ids._ASTEP10
        assert poses.tolist() == np.stack((np.full(3000, colour), x10, y10, a10), axis=1).tolist()
        assert np.array_equal(bins, ids._bins(colour, x10, y10, a10))
        assert np.array_equal(ranks, ids._ranks(x10, y10, a10))
    assert ranks.max() > ids._rank_table().size  # some poses beyond the squares


def test_rest_sure_where_one_end_lies_on_the_support() -> None:
    """Poses whose end lies on the support (or the support's end on the pose): the bands cross
    within one length only, and `_rest_sure` may accept from that one's part within the other's
    band (the overlap itself): every sure answer is the clipped area's verdict, and such
    acceptances occur, as do refusals and unsure answers."""
    rng = np.random.default_rng(11)
    counts = {-1: 0, 0: 0, 1: 0}
    for _ in range(4000):
        a = rng.uniform(0, math.pi)
        k = float(rng.choice(np.array(HALF_LENGTHS)))
        sup = np.array([100.0, 50.0, math.cos(a), math.sin(a), k])
        b = a + rng.uniform(0.15, math.pi - 0.15)
        h = float(rng.choice(np.array(HALF_LENGTHS)))
        along = rng.uniform(-k, k)  # a point of the support's axis, and the pose's end near it
        end = h + rng.uniform(-6, 4)
        x = 100.0 + along * math.cos(a) + end * math.cos(b)
        y = 50.0 + along * math.sin(a) + end * math.sin(b)
        pose = (x, y, math.cos(b), math.sin(b), h)
        cos = math.cos(b) * math.cos(a) + math.sin(b) * math.sin(a)
        sin = math.cos(b) * math.sin(a) - math.sin(b) * math.cos(a)
        if id_kernels._crossing(*pose, *sup, cos, sin) == 3:
            continue
        _check_rest_sure(pose, sup, counts)
    assert min(counts.values()) > 200, counts


def test_cross_frame_is_crossing_in_closed_form() -> None:
    """`_cross_frame`'s bounds (two offsets linear in the pose's centre, per pose axis and
    support) against `_crossing` pose by pose, on random poses around two supports: each
    length `_ends` finds the bands crossing within, `_crossing` finds too; each `_crossing`
    finds 1e-6 mm deeper inside, so does `_ends`."""
    rng = np.random.default_rng(3)
    found = [0, 0, 0, 0]
    frame = np.empty((2, 8))
    for _ in range(200):
        sup = np.empty((2, 5))
        for s in range(2):
            a = rng.uniform(0, math.pi)
            sup[s] = (rng.uniform(80, 120), rng.uniform(30, 70), math.cos(a), math.sin(a),
                      rng.choice(np.array(HALF_LENGTHS)))  # fmt: skip
        b = rng.uniform(0, math.pi)
        cu, su = math.cos(b), math.sin(b)
        h = float(rng.choice(np.array(HALF_LENGTHS)))
        id_kernels._cross_frame(cu, su, h, sup, REST, frame)
        for _ in range(100):
            x, y = rng.uniform(60, 140), rng.uniform(10, 90)
            for s in range(2):
                vx, vy = sup[s, 2], sup[s, 3]
                cos, sin = cu * vx + su * vy, cu * vy - su * vx
                got = id_kernels._ends(x, y, sup, frame, s)
                found[got] += 1
                if abs(sin) < 0.1:
                    assert got == 0
                    continue
                want = id_kernels._crossing(x, y, cu, su, h, *sup[s], cos, sin)
                assert got & want == got, (x, y, cu, su, h, sup[s])
                deeper = sup[s].copy()  # a little deeper inside both lengths
                deeper[4] -= 2e-6
                deep = id_kernels._crossing(x, y, cu, su, h - 2e-6, *deeper, cos, sin)
                assert got & deep == deep, (x, y, cu, su, h, sup[s])
    assert min(found) > 1000, found


def test_touches_column_is_touches_any_where_it_answers() -> None:
    """`_touch_frame` and `_touches_column` (the separating-axis offsets linear in a column's
    y) against `touches_any` on random poses among random sticks: a sure touch is a touch, a
    sure miss a miss, and most poses get a sure answer of each kind."""
    from teocalli.games.stack_back.geom_kernels import touches_any
    from teocalli.games.stack_back.search import DEEP

    rng = np.random.default_rng(4)
    counts = {-1: 0, 0: 0, 1: 0}
    tf, base = np.empty((6, 4, 4)), np.empty((6, 4))
    q, work = np.empty((4, 2)), np.empty(WORK)
    for _ in range(300):
        n = 6
        ang, lay, cols, feet, reach, rows = _random_sticks(rng, n, (60, 140), (10, 90))
        b = ang[0] if rng.random() < 0.5 else rng.uniform(0, math.pi)  # half along a stick
        cu, su = math.cos(b), math.sin(b)
        h = float(rng.choice(np.array(HALF_LENGTHS)))
        x = float(rng.uniform(60, 140))
        box = np.array([x, x, 10.0, 90.0])  # the column's centres
        kept, unsure = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        m = id_kernels._touch_frame(cu, su, h, rows, lay, DEEP, box, tf, kept)
        for k in range(m):
            id_kernels._column_base(x, lay[kept[k], 0], lay[kept[k], 1], tf, k, base, k)
        for y in rng.uniform(10, 90, 20):
            got = id_kernels._touches_column(y, base, tf, m, kept, unsure)
            counts[max(min(got, 1), -1)] += 1
            want = touches_any(x, y, cu, su, h, math.hypot(h, HALF_WIDTH), rows, *cols, feet,
                               reach, DEEP, TOL, q, work)  # fmt: skip
            if got >= 0:
                assert bool(got) == want, (x, y, cu, su, h, lay)
            else:  # the sticks it is unsure of decide alone
                some = touches_any(x, y, cu, su, h, math.hypot(h, HALF_WIDTH), unsure[:-got],
                                   *cols, feet, reach, DEEP, TOL, q, work)  # fmt: skip
                assert some == want, (x, y, cu, su, h, lay)
            if got > 0:  # the stick it names touches the pose by itself
                one = kept[got - 1 : got]
                assert touches_any(x, y, cu, su, h, math.hypot(h, HALF_WIDTH), one, *cols,
                                   feet, reach, DEEP, TOL, q, work)  # fmt: skip
    assert counts[1] > 1000 and counts[0] > 500 and counts[-1] < counts[1] / 2, counts


def _random_pair(rng: np.random.Generator, spread: float) -> np.ndarray:
    """Two supports (rows of cx, cy, ux, uy, half) at random angles and lengths, their centres
    within `spread` mm of (100, 50) each way."""
    ang = rng.uniform(0, math.pi, 2)
    return np.stack((rng.uniform(100 - spread, 100 + spread, 2),
                     rng.uniform(50 - spread, 50 + spread, 2), np.cos(ang), np.sin(ang),
                     rng.choice(np.array(HALF_LENGTHS), 2)), axis=1)  # fmt: skip


def test_stand_span_bounds_the_centres_that_may_stand() -> None:
    """`_stand_span` on random pairs of supports and columns: a centre outside its span may not
    stand, one inside its sure span may (the exact test is skipped there), and the sure spans
    hold most of the centres that may stand."""
    rng = np.random.default_rng(7)
    margin = 1.0 - 1e-6
    counts = {"outside": 0, "sure": 0, "exact": 0}
    for _ in range(2000):
        sup = _random_pair(rng, 20.0)
        b = rng.uniform(0, math.pi)
        cu, su = math.cos(b), math.sin(b)
        x = float(rng.uniform(60, 140))
        lo, hi, sure_lo, sure_hi = id_kernels._stand_span(x, cu, su, sup, margin, 0.0, 100.0)
        ys = np.concatenate((rng.uniform(0, 100, 20), [sure_lo, sure_hi, lo, hi]))
        for y in ys[(ys >= 0) & (ys <= 100)]:
            stands = id_kernels._may_stand(x, float(y), cu, su, sup, margin)
            if not lo <= y <= hi:
                counts["outside"] += 1
                assert not stands, (x, y, cu, su, sup)
            elif sure_lo <= y <= sure_hi:
                counts["sure"] += 1
                assert stands, (x, y, cu, su, sup)
            else:
                counts["exact"] += int(stands)
    assert counts["outside"] > 1000 and counts["sure"] > 10 * max(counts["exact"], 100), counts


def test_slabs_imply_the_shrunk_meet() -> None:
    """`_slabs` says whether its slabs lie within the shrunk separating-axis test's: with the
    game's sticks they always do, and then every centre within the slabs (give or take
    `_overlap_span`'s 1e-6) passes `meet` with both footprints shrunk, as `pair_keep` assumes
    when it skips that test."""
    from teocalli.games.stack_back.geom_kernels import meet
    from teocalli.games.stack_back.search import REST_INSET

    rng = np.random.default_rng(11)
    slabs = np.empty((2, 4, 3))
    w = HALF_WIDTH - REST_INSET
    tried = 0
    for _ in range(3000):
        sup = _random_pair(rng, 10.0)
        b = rng.uniform(0, math.pi)
        cu, su = math.cos(b), math.sin(b)
        h = float(rng.choice(np.array(HALF_LENGTHS)))
        assert id_kernels._slabs(cu, su, h, sup, REST_INSET, REST, slabs)
        lo_x, hi_x, lo_y, hi_y = id_kernels._slab_box(sup, slabs)
        if lo_x > hi_x:
            continue
        for x in rng.uniform(lo_x, hi_x, 4):
            lo, hi = id_kernels._overlap_span(float(x), sup, slabs, lo_y, hi_y)
            for y in (lo, hi, (lo + hi) / 2) if lo <= hi else ():
                tried += 1
                for s in range(2):
                    shrunk = meet(x, y, cu, su, h - REST_INSET, w, sup[s, 0], sup[s, 1],
                                  sup[s, 2], sup[s, 3], sup[s, 4] - REST_INSET, w)  # fmt: skip
                    assert shrunk, (x, y, cu, su, h, sup)
    assert tried > 3000, tried


def test_slab_box_holds_every_centre_within_the_slabs() -> None:
    """`_slab_box` (the pose frame's slabs of both supports met in one rectangle, each support's
    own frame in another) on random pairs and angles: every random centre within all eight
    slabs of `_slabs` lies in the box, and the box is much smaller than the supports' boxes
    met one by one (what it replaced) for some angles."""
    from teocalli.games.stack_back.search import REST_INSET

    rng = np.random.default_rng(12)
    slabs = np.empty((2, 4, 3))
    inside = tighter = 0
    for _ in range(1500):
        sup = _random_pair(rng, 10.0)
        b = rng.uniform(0, math.pi)
        h = float(rng.choice(np.array(HALF_LENGTHS)))
        id_kernels._slabs(math.cos(b), math.sin(b), h, sup, REST_INSET, REST, slabs)
        lo_x, hi_x, lo_y, hi_y = id_kernels._slab_box(sup, slabs)
        loose = [-math.inf, math.inf, -math.inf, math.inf]  # each support's box, one by one
        for s in range(2):
            for t in (0, 2):
                rx = slabs[s, t, 2] * abs(slabs[s, t, 0]) + slabs[s, t + 1, 2] * abs(
                    slabs[s, t + 1, 0]
                )
                ry = slabs[s, t, 2] * abs(slabs[s, t, 1]) + slabs[s, t + 1, 2] * abs(
                    slabs[s, t + 1, 1]
                )
                loose = [max(loose[0], sup[s, 0] - rx), min(loose[1], sup[s, 0] + rx),
                         max(loose[2], sup[s, 1] - ry), min(loose[3], sup[s, 1] + ry)]  # fmt: skip
        if lo_x <= hi_x and (hi_x - lo_x) * (hi_y - lo_y) < 0.8 * (loose[1] - loose[0]) * (
            loose[3] - loose[2]
        ):
            tighter += 1
        for x, y in rng.uniform(60, 140, (200, 2)):
            off = np.abs(slabs[:, :, 0] * (sup[:, 0:1] - x) + slabs[:, :, 1] * (sup[:, 1:2] - y))
            if np.all(off < slabs[:, :, 2]):
                inside += 1
                assert lo_x <= x <= hi_x and lo_y <= y <= hi_y, (x, y, sup, b, h)
    assert inside > 5000 and tighter > 100, (inside, tighter)


def test_overlap_bound_holds_the_clipped_overlap() -> None:
    """`_overlap_bound` (the lesser band area) on random poses near random sticks: never below
    the clipped overlap (`pair_keep` takes a stick whose bound is under the touch tolerance
    as not touching), and under the tolerance for many poses that do overlap the stick."""
    rng = np.random.default_rng(13)
    grazing = 0
    for _ in range(6000):
        a, b = rng.uniform(0, math.pi, 2)
        k, h = (float(v) for v in rng.choice(np.array(HALF_LENGTHS), 2))
        stick = np.array([100.0, 50.0, math.cos(a), math.sin(a), k])
        along, across = rng.uniform(-k - 6, k + 6), rng.uniform(-12, 12)
        x = 100.0 + along * math.cos(a) - across * math.sin(a)
        y = 50.0 + along * math.sin(a) + across * math.cos(a)
        bound = id_kernels._overlap_bound(x, y, math.cos(b), math.sin(b), h, *stick)
        area = _clipped((x, y, math.cos(b), math.sin(b), h), stick)
        assert area <= bound + 1e-9, (x, y, b, h, stick, area, bound)
        grazing += area > 0 and bound <= TOL - 1e-6
    assert grazing > 100, grazing


def test_touch_frame_drops_only_sticks_the_rectangle_misses() -> None:
    """`_touch_frame` given the slabs' rectangle as well as its box (`pair_keep` passes both,
    `_pose_rect`): a stick it leaves out touches no pose centred in the rectangle (random
    centres, and its corners, at random angles among random sticks), and the rectangle leaves
    out sticks the box alone keeps."""
    from teocalli.games.stack_back.geom_kernels import touches_any
    from teocalli.games.stack_back.search import DEEP

    rng = np.random.default_rng(14)
    n = 8
    tf = np.empty((n, 4, 4))
    q, work = np.empty((4, 2)), np.empty(WORK)
    tried = fewer = 0
    for _ in range(400):
        _, lay, cols, feet, reach, rows = _random_sticks(rng, n, (50, 150), (0, 100))
        b = rng.uniform(0, math.pi)
        cu, su = math.cos(b), math.sin(b)
        h = float(rng.choice(np.array(HALF_LENGTHS)))
        uc = 100 * cu + 50 * su + rng.uniform(-20, 20)  # a rectangle in the pose's frame
        nc = 50 * cu - 100 * su + rng.uniform(-20, 20)
        u0, n0 = uc - rng.uniform(0, 15), nc - rng.uniform(0, 6)
        u1, n1 = uc + rng.uniform(0, 15), nc + rng.uniform(0, 6)
        corners = [(u * cu - v * su, u * su + v * cu) for u in (u0, u1) for v in (n0, n1)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        box = np.array([min(xs), max(xs), min(ys), max(ys), u0, u1, n0, n1])
        kept = np.empty(n, dtype=np.int64)
        m = id_kernels._touch_frame(cu, su, h, rows, lay, DEEP, box, tf, kept)
        m_box = id_kernels._touch_frame(cu, su, h, rows, lay, DEEP, box[:4].copy(), tf, kept)
        fewer += m < m_box
        m = id_kernels._touch_frame(cu, su, h, rows, lay, DEEP, box, tf, kept)
        left = np.setdiff1d(rows, kept[:m])
        if not len(left):
            continue
        uv = rng.uniform(0, 1, (40, 2))
        centres = corners + [(u * cu - v * su, u * su + v * cu)
                             for u, v in zip(u0 + (u1 - u0) * uv[:, 0], n0 + (n1 - n0) * uv[:, 1],
                                             strict=True)]  # fmt: skip
        for x, y in centres:
            tried += 1
            hit = touches_any(x, y, cu, su, h, math.hypot(h, HALF_WIDTH), left, *cols, feet,
                              reach, DEEP, TOL, q, work)  # fmt: skip
            assert not hit, (x, y, cu, su, h, lay, box)
    assert tried > 3000 and fewer > 20, (tried, fewer)
