"""A new pair's first visit (`id_kernels.pair_keep`) against the full walk, on every pair the
mask could meet at positions of seeded random games.

`pair_keep` tries only the lattice columns and runs of y within slabs that every pose resting
on both supports lies in (`_slabs`, `_slab_box`), so it never sees most of the lattice; the full
walk here lists every lattice pose whose bounding box meets both supports' (`search.pair_poses`)
and passes each through the filters one by one, clipping every rest (pair_reference.py). The
two must keep the same poses with the same floats, on pairs that keep poses and on the many
that keep none (the slabs' refusals must be sound).
"""

from __future__ import annotations

import numpy as np
import pytest

from teocalli.games.stack_back import id_kernels, ids, search
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, SPEC
from teocalli.games.stack_back.rules import REST, TOL
from teocalli.games.stack_back.state import StackBackState

from .pair_reference import rests_of
from .sampled import random_positions


def _full_walk(state: StackBackState, colour: int, i: int, j: int, others: np.ndarray) -> list:
    """The poses (x10, y10, a10, x, y, ux, uy) of the pair's whole box lattice that may stand,
    touch none of `others` and rest on both supports, sorted."""
    a, b = state.sticks[i], state.sticks[j]
    pp = search.pair_poses(a, b, colour)
    keep = np.arange(len(pp.x))
    if len(keep):
        lo = np.full(len(pp.x), np.inf)
        hi = np.full(len(pp.x), -np.inf)
        for s in (a, b):
            d = (s.cx - pp.x) * pp.ux + (s.cy - pp.y) * pp.uy
            r = s.half * np.abs(s.ux * pp.ux + s.uy * pp.uy)
            r = r + HALF_WIDTH * np.abs(s.ux * pp.uy - s.uy * pp.ux)
            lo, hi = np.minimum(lo, d - r), np.maximum(hi, d + r)
        m = SPEC.margin - 1e-6
        keep = keep[(lo <= -m) & (hi >= m)]
        keep = keep[~search._touching(pp, keep, state.layout, others)]
        keep = rests_of(pp, keep)
    return sorted(
        (int(pp.x10[k]), int(pp.y10[k]), int(pp.a10[k]), pp.x[k], pp.y[k], pp.ux[k], pp.uy[k])
        for k in keep
    )


def _pair_keep(state: StackBackState, colour: int, i: int, j: int, others: np.ndarray) -> list:
    """`id_kernels.pair_keep`'s poses as `_full_walk` lists them."""
    rows, quads_, reach = ids._sticks(state)
    ints, frame = id_kernels.pair_keep(
        rows[[i, j]], quads_[[i, j]], HALF_LENGTHS[colour], ids._COS, ids._SIN,
        float(search.STEP), others, rows, quads_, reach, SPEC.margin - 1e-6, TOL, search.DEEP,
        REST, search.REST_INSET,
    )  # fmt: skip
    step10, astep10 = 10 * search.STEP, 10 * search.ASTEP
    return sorted(
        (int(p[0]) * step10, int(p[1]) * step10, int(p[2]) * astep10, *map(float, f))
        for p, f in zip(ints, frame, strict=True)
    )


@pytest.mark.parametrize("seeds", [(0, 5), (11, 17)])
def test_pair_keep_keeps_what_the_full_walk_keeps(seeds: tuple[int, int]) -> None:
    """Every pair of same-level sticks within a colour's reach, every colour, at every third
    position of two random games: the same poses, bit for bit."""
    pairs = kept = empty = 0
    for state in random_positions(seeds, 3, lambda state: len(state.sticks) > 2):
        lay = state.layout
        levels = np.asarray(lay.levels, dtype=np.int64)
        reaching = id_kernels.reaching(
            lay.cx, lay.cy, np.hypot(lay.half, HALF_WIDTH), levels, 0, ids._PILE_REACH_A
        )
        for colour, level, i, j in reaching.tolist():
            others = np.array(
                [t for t in range(len(levels)) if levels[t] >= level and t not in (i, j)],
                dtype=np.int64,
            )
            want = _full_walk(state, colour, i, j, others)
            assert _pair_keep(state, colour, i, j, others) == want, (colour, i, j)
            pairs += 1
            kept += len(want)
            empty += not want
    assert pairs > 10_000 and 5_000 < empty < pairs - 2_000 and kept > 100_000


@pytest.mark.parametrize("seeds", [(2, 7), (21, 23)])
def test_supports_too_far_apart_hold_no_pose(seeds: tuple[int, int]) -> None:
    """`pair_keep` refuses a pair whole, before any angle, when its supports lie too far apart
    for a stick of the colour to rest on both (`id_kernels._too_far`): every pair it refuses,
    at every third position of two random games, keeps no pose in the full walk even with no
    other stick on the table; and it refuses many (most of the pairs that keep none)."""
    refused = 0
    none = np.zeros(0, dtype=np.int64)
    for state in random_positions(seeds, 3, lambda state: len(state.sticks) > 2):
        lay = state.layout
        rows, quads_, _ = ids._sticks(state)
        levels = np.asarray(lay.levels, dtype=np.int64)
        reaching = id_kernels.reaching(
            lay.cx, lay.cy, np.hypot(lay.half, HALF_WIDTH), levels, 0, ids._PILE_REACH_A
        )
        for colour, _, i, j in reaching.tolist():
            if id_kernels._too_far(rows[[i, j]], quads_[[i, j]], HALF_LENGTHS[colour], REST):
                refused += 1
                assert _full_walk(state, colour, i, j, none) == [], (colour, i, j)
    assert refused > 2_000, refused
