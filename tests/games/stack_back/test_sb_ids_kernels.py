"""The mask's compiled kernels (id_kernels.py) against the numpy code they stand for.

Each kernel must give exactly what the numpy code gives (the same arithmetic in the same order):
the clipped areas bit for bit, and so the same verdicts at the touch and rest thresholds, on
random footprints crowded enough that many overlaps fall near the thresholds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from teocalli.games.stack_back import Colour, Place, id_kernels, search
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, SPEC
from teocalli.games.stack_back.geometry import clip_arrays, clip_pair, quads
from teocalli.games.stack_back.rules import REST, TOL, Layout, base


def _footprints(rng: np.random.Generator, n: int, spread: float) -> tuple[np.ndarray, ...]:
    cx, cy = rng.uniform(0, spread, n), rng.uniform(0, spread, n)
    a = rng.uniform(0, math.pi, n)
    h = rng.choice(np.array(HALF_LENGTHS), n)
    return cx, cy, np.cos(a), np.sin(a), h


def test_clip_area_is_clip_pairs_area_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    sub = quads(*_footprints(rng, 3000, 40.0))
    win = quads(*_footprints(rng, 3000, 40.0))
    want, _ = clip_arrays(sub, win)
    got = np.array([id_kernels.clip_area(sub[i], win[i]) for i in range(len(sub))])
    assert np.count_nonzero(want > 0) > 1000  # most overlap
    assert np.array_equal(got, want)
    for i in range(0, 3000, 97):  # and clip_pair, the scalar reference, gives the same
        assert clip_pair(sub[i].tolist(), win[i].tolist())[0] == got[i]


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
def test_pair_filters_agree_with_search(seed: int) -> None:
    """`touching` and `rests` against `search._touching` and `search._rests`, and `may_stand`
    against the bound written out here, on the lattice poses of pairs of random sticks."""
    rng = np.random.default_rng(seed)
    sticks = _sticks(rng, 14)
    layout = Layout.empty()
    for s in sticks:
        layout = layout.with_stick(s)
    checked = touched = rested = stood = 0
    for a, b in ((0, 1), (2, 3), (4, 5), (6, 7)):
        for colour in range(3):
            pp = search.pair_poses(sticks[a], sticks[b], colour)
            if not len(pp.x):
                continue
            keep = np.arange(len(pp.x))
            rows = np.arange(8, 14)
            sup = np.array([[s.cx, s.cy, s.ux, s.uy, s.half] for s in (sticks[a], sticks[b])])

            want = search._touching(pp, keep, layout, rows)
            got = id_kernels.touching(
                pp.x, pp.y, pp.ux, pp.uy, float(pp.hh[0]), math.hypot(pp.hh[0], HALF_WIDTH),
                keep, layout.cx[rows], layout.cy[rows], layout.ux[rows], layout.uy[rows],
                layout.half[rows], layout.quads[rows], np.hypot(layout.half[rows], HALF_WIDTH),
                TOL, search.DEEP,
            )  # fmt: skip
            assert np.array_equal(got, want)
            rest = id_kernels.rests(pp.x, pp.y, pp.ux, pp.uy, float(pp.hh[0]), keep, pp.quads, sup,
                                    REST)  # fmt: skip
            assert np.array_equal(keep[rest], search._rests(pp, keep))
            stand = id_kernels.may_stand(pp.x, pp.y, pp.ux, pp.uy, keep, sup,
                                         SPEC.margin - 1e-6)  # fmt: skip
            assert np.array_equal(stand, _may_stand(pp, sticks[a], sticks[b]))
            checked += len(keep)
            touched += int(want.sum())
            rested += int(rest.sum())
            stood += int(stand.sum())
    assert checked > 1000 and 0 < touched < checked and 0 < rested < checked
    assert 0 < stood < checked


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
                keep = search._rests(pp, keep)
            ints, frame = id_kernels.pair_keep(
                rows[[a, b]], layout.quads[[a, b]], HALF_LENGTHS[colour], cos, sin, 4.0, others,
                rows, layout.quads, reach, SPEC.margin - 1e-6, TOL, search.DEEP, REST,
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


def test_covers_are_the_wood_poses_a_stick_touches() -> None:
    """`covers` against the touch test written with the numpy code (`geometry.sat_hits`, the
    shrunk test, then clipping), on the wood poses of every colour near random sticks."""
    from teocalli.games.stack_back import ids
    from teocalli.games.stack_back.geometry import clip, sat_hits

    w = ids.wood()
    rng = np.random.default_rng(7)
    total = 0
    for s in _sticks(rng, 6):
        one = (np.array([s.cx]), np.array([s.cy]), np.array([s.ux]), np.array([s.uy]),
               np.array([s.half]))  # fmt: skip
        near = np.nonzero((np.abs(w.cx - s.cx) < 80) & (np.abs(w.cy - s.cy) < 80))[0]
        hit = near[
            sat_hits(w.cx[near], w.cy[near], w.ux[near], w.uy[near], w.half[near], *one)[:, 0]
        ]
        k = len(hit)
        sure = search._sat_flat(w.cx[hit], w.cy[hit], w.ux[hit], w.uy[hit], w.half[hit] - 1.0,
                                HALF_WIDTH - 1.0, *(np.repeat(v, k) for v in one), 1.0)  # fmt: skip
        maybe = hit[~sure]
        area, _ = clip(quads(w.cx[maybe], w.cy[maybe], w.ux[maybe], w.uy[maybe], w.half[maybe]),
                       np.repeat(quads(*one), len(maybe), axis=0))  # fmt: skip
        want = np.sort(np.concatenate((hit[sure], maybe[area > TOL])))
        got = id_kernels.covers(w.cx, w.cy, w.ux, w.uy, w.half, w.start, ids._RADII,
                                np.array([s.cx, s.cy, s.ux, s.uy, s.half]), quads(*one)[0], TOL,
                                1.0)  # fmt: skip
        assert np.array_equal(np.sort(got), want)
        assert 0 < np.count_nonzero(area > TOL) < len(maybe)
        total += len(want)
    assert total > 1000
