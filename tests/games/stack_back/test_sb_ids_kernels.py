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
