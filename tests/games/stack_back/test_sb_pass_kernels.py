"""The pass search's compiled kernels (search_kernels.py) decide as the code they stand for.

The pair walk keeps exactly the poses that listing the pair's lattice and filtering every pose
keeps (`pile_kernels.pair_lattice`, then pair_reference.py's `pair_keep`, the filters pose by
pose): same indices, same order, on every pair of
supports of one level in positions of seeded random games, for every colour. The scan for a
pose standing on its own weight passes over exactly the poses the rules' support polygon and
balance test let fall."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

import teocalli
from teocalli.games.stack_back import pile_kernels, search, search_kernels
from teocalli.games.stack_back.actions import A10, pose
from teocalli.games.stack_back.balance import EPS as BALANCE_EPS
from teocalli.games.stack_back.balance import Stick
from teocalli.games.stack_back.candidates import _AXES
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, NUM_COLOURS, SPEC
from teocalli.games.stack_back.geometry import axis
from teocalli.games.stack_back.rules import Layout
from teocalli.games.stack_back.state import StackBackState
from teocalli.games.stack_back.support import corners, depth, support

from .pair_reference import pair_keep
from .sampled import random_positions

YELLOW, GREEN = 0, 2


def _positions(seed: int, every: int) -> list[StackBackState]:
    """Every `every`-th position of a seeded random game."""
    return random_positions((seed,), every)


def _reachable(sticks: Sequence[Stick]) -> Iterator[tuple[int, int, int]]:
    """Every pair of supports on one level (i < j), with each colour that can span it."""
    for i in range(len(sticks)):
        for j in range(i + 1, len(sticks)):
            if sticks[i].level != sticks[j].level:
                continue
            for colour in range(NUM_COLOURS):
                if search._reach(sticks[i], sticks[j], colour):
                    yield i, j, colour


def _args(
    layout: Layout, colour: int, i: int, j: int
) -> tuple[npt.NDArray[np.float64], float, npt.NDArray[np.int64], float]:
    sup = np.array(
        [[layout.cx[k], layout.cy[k], layout.ux[k], layout.uy[k], layout.half[k]] for k in (i, j)]
    )
    levels = np.array(layout.levels)
    others = np.nonzero(levels >= levels[i])[0]
    others = others[(others != i) & (others != j)].astype(np.int64)
    h = HALF_LENGTHS[colour]
    return sup, h, others, math.hypot(h, HALF_WIDTH)


def _listed(layout: Layout, colour: int, i: int, j: int) -> list[int]:
    """The reference: list the pair's lattice, then filter every pose."""
    sup, h, others, reach0 = _args(layout, colour, i, j)
    x, y, which, _, _ = pile_kernels.pair_lattice(
        sup, h, search._ABS_COS, search._ABS_SIN, float(search.STEP)
    )
    kept = pair_keep(
        x, y, search._COS[which], search._SIN[which], h, sup, search.REST_INSET, others,
        layout.cx, layout.cy, layout.ux, layout.uy, layout.half, layout.quads,
        search._radii(layout), reach0, i, j, search.DEEP, search.TOL, search.REST,
    )  # fmt: skip
    out: list[int] = kept.tolist()
    return out


def _walked(layout: Layout, colour: int, i: int, j: int) -> list[int]:
    sup, h, others, reach0 = _args(layout, colour, i, j)
    kept = search_kernels.fresh_keep(
        sup, h, search._ABS_COS, search._ABS_SIN, search._COS, search._SIN, float(search.STEP),
        search.REST_INSET, others, layout.cx, layout.cy, layout.ux, layout.uy, layout.half,
        layout.quads, search._radii(layout), reach0, i, j, search.DEEP, search.TOL, search.REST,
    )  # fmt: skip
    out: list[int] = kept.tolist()
    return out


def test_the_walk_keeps_what_listing_the_lattice_keeps() -> None:
    pairs = kept_pairs = kept_poses = 0
    for seed in (2, 9):
        for state in _positions(seed, 12):
            layout = state.layout
            sticks = state.sticks
            for i, j, colour in _reachable(sticks):
                want = _listed(layout, colour, i, j)
                assert _walked(layout, colour, i, j) == want, (seed, i, j, colour)
                pairs += 1
                kept_pairs += bool(want)
                kept_poses += len(want)
    # enough pairs of both kinds to mean something: most keep nothing, some keep many poses
    assert pairs > 500 and 50 < kept_pairs < pairs - 200 and kept_poses > 2000


def test_a_third_stick_takes_away_the_poses_it_touches() -> None:
    """Two greens side by side, 12 mm apart, and yellows across them: the walk keeps the
    crossing poses, as the listing does; a third green laid between them, lower down, takes
    away the poses that touch it, and only some."""
    game = teocalli.load("stack-back")
    state = game.new_state(0)
    assert isinstance(state, StackBackState)
    state.lay(pose(GREEN, 40, 50, 90), 0)
    state.lay(pose(GREEN, 52, 50, 90), 1)
    alone = _walked(state.layout, YELLOW, 0, 1)
    assert len(alone) > 20 and alone == _listed(state.layout, YELLOW, 0, 1)
    state.lay(pose(GREEN, 46, 20, 90), 0)  # between them, its edges on theirs, lower down
    crossed = _walked(state.layout, YELLOW, 0, 1)
    assert crossed == _listed(state.layout, YELLOW, 0, 1)
    assert crossed and set(crossed) < set(alone)


def _standing_reference(  # noqa: PLR0917 - the poses as columns, their supports
    x: list[float], y: list[float], a10: list[int], h: float, a: Stick, b: Stick
) -> list[int]:
    """Which poses stand on their own weight on `a` and `b`, as the rules decide it: the
    support polygon `rules.piled` gives the stick, and `balance.stands` with no load."""
    out = []
    for k, (cx, cy, t) in enumerate(zip(x, y, a10, strict=True)):
        ux, uy = axis(t)
        feet = corners(cx, cy, ux, uy, h)
        polygon = support(feet, [corners(s.cx, s.cy, s.ux, s.uy, s.half) for s in (a, b)], cx, cy)
        if depth(polygon, 0.0, 0.0) >= SPEC.margin - BALANCE_EPS:
            out.append(k)
    return out


def test_the_scan_for_a_standing_pose_agrees_with_the_rules() -> None:
    """On the poses kept for pairs of supports of seeded games, the compiled scan passes over
    exactly the poses that fall under their own weight by the rules' support polygon."""
    standing = falling = 0
    for seed in (2, 9):
        for state in _positions(seed, 12):
            layout, sticks = state.layout, state.sticks
            for i, j, colour in _reachable(sticks):
                keep = np.array(_walked(layout, colour, i, j), dtype=np.intp)
                if not len(keep):
                    continue
                pp = search.pair_poses(sticks[i], sticks[j], colour)
                x, y = pp.x10[keep] / 10, pp.y10[keep] / 10
                a10 = pp.a10[keep]
                ux, uy = _AXES[0][a10 // A10], _AXES[1][a10 // A10]
                h = HALF_LENGTHS[colour]
                windows = layout.quads[[i, j]]
                got, at = [], 0
                while True:
                    at = search_kernels.first_standing(
                        x, y, ux, uy, h, at, windows, search.EDGE_POWER, search.NEED
                    )
                    if at >= len(keep):
                        break
                    got.append(at)
                    at += 1
                want = _standing_reference(
                    x.tolist(), y.tolist(), a10.tolist(), h, sticks[i], sticks[j]
                )
                assert got == want, (seed, i, j, colour)
                standing += len(want)
                falling += len(keep) - len(want)
    assert standing > 100 and falling > 500


def test_a_pairs_kept_poses_read_alone_are_those_of_its_listed_lattice() -> None:
    """`search.pair_subset` (the poses a pair keeps, computed without listing the lattice:
    `search_kernels.lattice_at`) gives each pose the very numbers `search.pair_poses` lists,
    on every pair within reach in positions of a seeded game, for random subsets in order and
    for the first and last poses."""
    rng = np.random.default_rng(4)
    checked = 0
    for state in _positions(5, 15):
        sticks = state.sticks
        for i, j, colour in _reachable(sticks):
            full = search.pair_poses(sticks[i], sticks[j], colour)
            n = len(full.x)
            if not n:
                continue
            some = np.flatnonzero(rng.random(n) < 0.05)
            keep = np.unique(np.concatenate((some, [0, n - 1]))).astype(np.intp)
            sub = search.pair_subset(sticks[i], sticks[j], colour, keep)
            for name in ("x", "y", "ux", "uy", "hh", "x10", "y10", "a10"):
                got, want = getattr(sub, name), getattr(full, name)[keep]
                assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), name
            assert sub.quads.tobytes() == full.quads.tobytes()
            checked += len(keep)
    assert checked > 2000
