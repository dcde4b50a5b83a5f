"""The wood's first free poses (`id_kernels.wood_first`) and the shortcuts it takes.

`wood_first` takes a bin's poses a whole angle at a time where a new stick surely takes all of
them (`geom_kernels.meets_all` over the box of the bin's lattice points), and decides an
overlap near the touch threshold by `_rest_sure` before clipping: both rest on facts checked
here (every wood pose lies on its bin's lattice points, at one of the three axes the kernel
computes; `meets_all` says yes only where `meet` says yes at every centre of the box), and the
whole kernel is compared with a plain reference (each pose against every stick by
`touching_rows`, the clipper's verdict) over the sticks of seeded random games.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, id_kernels, ids, search
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH
from teocalli.games.stack_back.geom_kernels import meet, meets_all
from teocalli.games.stack_back.geometry import clip, quads
from teocalli.games.stack_back.rules import TOL


def test_wood_poses_lie_on_their_bins_lattice_points() -> None:
    """Every wood pose's centre lies in the box of its bin's lattice points (the square's
    corner to 2 `_STEP` beyond, each way) and its axis is one of its angle bin's three lattice
    axes as `wood_first` computes them, to 1e-12."""
    w = ids.wood()
    rest = w.bins % (ids.X_BINS * ids.Y_BINS)
    corner_x = id_kernels._X0 + (rest // ids.Y_BINS) * id_kernels._BIN
    corner_y = id_kernels._Y0 + (rest % ids.Y_BINS) * id_kernels._BIN
    for off in (w.rows[:, 0] - corner_x, w.rows[:, 1] - corner_y):
        assert off.min() >= 0.0
        assert off.max() <= 2 * id_kernels._STEP
    ab = (w.bins // (ids.X_BINS * ids.Y_BINS)) % id_kernels._AB
    angles = ab[:, None] * 15.0 + 5.0 * np.arange(3)[None, :]
    ux, uy = np.cos(np.radians(angles)), np.sin(np.radians(angles))
    gap = np.abs(ux - w.rows[:, 2:3]) + np.abs(uy - w.rows[:, 3:4])
    assert (gap.min(axis=1) < 1e-12).all()
    assert search.STEP == id_kernels._STEP


def test_wood_codes_rebuild_the_rows_bit_for_bit() -> None:
    """`wood_first` reads a pose as one byte, its lattice point in its bin (`ids.Wood.code`),
    and rebuilds its footprint: x10 / 10 from the bin's corner and the code's steps, the axis
    from `dirs`, the half-length from the colour. Every wood pose's row, bit for bit."""
    w = ids.wood()
    assert (id_kernels._X010, id_kernels._Y010) == (ids._X010, ids._Y010)
    assert (id_kernels._BIN10, id_kernels._STEP10) == (ids._BIN10, ids._STEP10)
    rest = w.bins % (ids.X_BINS * ids.Y_BINS)
    ab = (w.bins // (ids.X_BINS * ids.Y_BINS)) % id_kernels._AB
    c = w.code.astype(np.int64)
    assert c.max() < 27
    x10 = id_kernels._X010 + ((rest // ids.Y_BINS) * 3 + (c // 3) % 3) * id_kernels._STEP10
    y10 = id_kernels._Y010 + ((rest % ids.Y_BINS) * 3 + c % 3) * id_kernels._STEP10
    assert np.array_equal(x10 / 10, w.rows[:, 0])
    assert np.array_equal(y10 / 10, w.rows[:, 1])
    assert np.array_equal(w.dirs[ab, c // 9], w.rows[:, 2:4])
    assert np.array_equal(ids._HALF[w.colour], w.rows[:, 4])


def test_sliver_proves_only_overlaps_above_the_tolerance() -> None:
    """Where `_sliver` says the footprints' overlap holds its thin rectangle, the clipped area
    (`geometry.clip`, the rules' arithmetic) is at least that rectangle's, above the touch
    tolerance. Pairs drawn mostly near-parallel, offset across by about a width, so that it
    says yes and no often and many areas lie near the tolerance (with a rectangle of 1.6 x 0.35
    mm it says yes to an overlap of 2.3 mm²)."""
    rng = np.random.default_rng(11)
    m = 6000
    h, k = rng.choice(np.array(HALF_LENGTHS), m), rng.choice(np.array(HALF_LENGTHS), m)
    a = rng.uniform(0, math.pi, m)
    b = a + np.where(rng.random(m) < 0.7, rng.normal(0, 0.05, m), rng.uniform(0, math.pi, m))
    ends = h + k - rng.uniform(0, 8, m)  # half the pairs overlapping near their ends
    along = np.where(rng.random(m) < 0.5, rng.uniform(-1, 1, m) * (h + k), ends)
    along *= rng.choice([-1.0, 1.0], m)
    across = rng.uniform(4.5, 6.1, m) * rng.choice([-1.0, 1.0], m)
    ux, uy, vx, vy = np.cos(a), np.sin(a), np.cos(b), np.sin(b)
    dx, dy = along * ux - across * uy, along * uy + across * ux
    zero = np.zeros(m)
    area, _ = clip(quads(zero, zero, ux, uy, h), quads(dx, dy, vx, vy, k))
    said = [id_kernels._sliver(0.0, 0.0, ux[i], uy[i], h[i], dx[i], dy[i], vx[i], vy[i], k[i])
            for i in range(m)]  # fmt: skip
    yes = np.array(said, dtype=bool)
    assert (area[yes] > id_kernels._SLIVER - 1e-5).all()
    assert id_kernels._SLIVER - 1e-3 > TOL
    assert yes.sum() > 1000
    assert ((area > TOL) & ~yes).sum() > 300  # left to the clip
    assert ((area > TOL) & (area < 2 * id_kernels._SLIVER) & yes).sum() > 50  # near it


def test_meets_all_holds_at_every_centre_of_its_box() -> None:
    """Where `meets_all` says the box's footprints all meet the stick, `meet` says so at the
    box's corners and at random centres within it; boxes are drawn near the stick's edges so
    that both answers come often."""
    rng = np.random.default_rng(5)
    said = 0
    for _ in range(4000):
        h, k = rng.choice(np.array(HALF_LENGTHS), 2) - 1.0
        a, b = rng.uniform(0, math.pi, 2)
        ux, uy, vx, vy = math.cos(a), math.sin(a), math.cos(b), math.sin(b)
        mx, my = rng.uniform(-40, 40, 2)
        e = 4.0
        w = HALF_WIDTH - 1.0
        if not meets_all(mx, my, e, e, ux, uy, h, w, 0.0, 0.0, vx, vy, k, w, 1e-6):
            continue
        said += 1
        pts = np.concatenate((
            np.array([[mx - e, my - e], [mx + e, my - e], [mx - e, my + e], [mx + e, my + e]]),
            np.stack((mx + rng.uniform(-e, e, 8), my + rng.uniform(-e, e, 8)), axis=1),
        ))  # fmt: skip
        for x, y in pts:
            assert meet(x, y, ux, uy, h, w, 0.0, 0.0, vx, vy, k, w)
    assert 200 < said < 3800


def _reference_first(sticks: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Per bin, its first wood pose that no stick touches (`touching_rows`: the circles, the
    shrunk footprints, then the clipped area; no `_rest_sure`), -1 if none."""
    w = ids.wood()
    lreach = np.hypot(sticks[:, 4], HALF_WIDTH)
    every = np.arange(len(sticks), dtype=np.int64)
    touched = np.zeros(len(w.rows), dtype=bool)
    for colour, h in enumerate(HALF_LENGTHS):
        mine = np.nonzero(w.colour == colour)[0]
        cols = [w.rows[mine, c].copy() for c in range(4)]
        reach = math.hypot(h, HALF_WIDTH)
        touched[mine] = id_kernels.touching_rows(*cols, h, reach, every, sticks, quads, lreach,
                                                 TOL, search.DEEP)  # fmt: skip
    out = np.full(len(w.start) - 1, -1, dtype=np.int64)
    for b in range(len(out)):
        free = np.nonzero(~touched[w.start[b] : w.start[b + 1]])[0]
        if len(free):
            out[b] = w.start[b] + free[0]
    return out


@pytest.mark.parametrize("seed", [4, 9])
def test_wood_first_follows_a_game_stick_by_stick(seed: int) -> None:
    """`wood_first` brought up a stick at a time along a seeded random game (and in two leaps)
    equals the reference at every step; the bins it empties and moves on are many."""
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    while not state.is_terminal() and len(state.sticks) < 40:
        player = state.current_player()
        acts = state.legal_actions(player)
        state.apply(acts[rng.randrange(len(acts))], player)
    rows, quads_, _ = ids._sticks(state)
    n = len(rows)
    w = ids.wood()
    fresh = ids._Memo.empty().first
    first = fresh.copy()
    for upto in range(1, n + 1):
        id_kernels.wood_first(first, w.code, w.dirs, ids._HALF, w.start, ids._RADII, rows[:upto],
                              quads_[:upto], upto - 1, TOL, search.DEEP)  # fmt: skip
        if upto % 8 == 0 or upto == n:
            assert np.array_equal(first, _reference_first(rows[:upto], quads_[:upto])), upto
    leaps = fresh.copy()
    for lo, hi in ((0, n // 2), (n // 2, n)):
        id_kernels.wood_first(leaps, w.code, w.dirs, ids._HALF, w.start, ids._RADII, rows[:hi],
                              quads_[:hi], lo, TOL, search.DEEP)  # fmt: skip
    assert np.array_equal(leaps, first)
    assert np.count_nonzero(first == -1) > np.count_nonzero(fresh == -1) + 500
    assert np.count_nonzero((first != fresh) & (first >= 0)) > 50
