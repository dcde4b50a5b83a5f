"""The compiled piled candidates (cand_kernels.py) decide as the rules' own Python does.

`candidates.bridge_index` against the pairs of sticks within reach found by `math.hypot` and
their bridges made by `candidates._pair`; `candidates.judge` against each bridge judged one by one
as the rules judge a pose (`rules.touches`, `rules.piled`, `rules.settle`), exact floats: the
piled stick (contacts, support polygon) and the loads it passes down. On positions of seeded
random games, for several supplies and floors; and the exact reach test against `math.hypot` on
whole-millimetre distances at the threshold.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import cand_kernels
from teocalli.games.stack_back.balance import Stick
from teocalli.games.stack_back.candidates import _pair, bridge_index, judge, moves_of, place_of
from teocalli.games.stack_back.components import LENGTHS, NUM_COLOURS
from teocalli.games.stack_back.rules import Footprints, piled, settle, touches
from teocalli.games.stack_back.state import StackBackState

from .sampled import random_positions


def _positions() -> list[StackBackState]:
    """Positions of seeded random games, every fifth step once sticks are piled."""
    return random_positions((2, 9, 13), 5, lambda state: len(state.sticks) > 3)


@pytest.fixture(scope="module")
def positions() -> list[StackBackState]:
    return _positions()


_SUPPLIES = ([1, 1, 1], [0, 0, 1], [1, 0, 0], [0, 1, 1])


def _reference_bridges(state: StackBackState, supply: list[int], floor: int) -> set[int]:
    """The bridges to try, pair by pair in Python: two sticks of one level (at or above the
    floor less one) whose ends lie within the longest held colour's reach (`math.hypot`), each
    colour held that neither refuses (its own colour, one it carries)."""
    sticks = state.sticks
    have = [c for c in range(NUM_COLOURS) if supply[c] > 0]
    limit = max(LENGTHS[c] for c in have) - 6
    out: set[int] = set()
    for j, b in enumerate(sticks):
        for i, a in enumerate(sticks[:j]):
            if a.level != b.level or a.level + 1 < floor:
                continue
            if math.hypot(b.cx - a.cx, b.cy - a.cy) - a.half - b.half > limit:
                continue
            refused = 1 << a.colour | 1 << b.colour | state.carries[i] | state.carries[j]
            for c, index in enumerate(_pair(a, b)):
                if c in have and not refused >> c & 1:
                    out.update(index.tolist())
    return out


def test_the_bridges_are_those_of_every_pair_within_reach(
    positions: list[StackBackState],
) -> None:
    seen = 0
    for state in positions:
        for supply in _SUPPLIES:
            for floor in (0, 1, 2):
                got = bridge_index(state.sticks, state.carries, supply, floor, state.layout)
                assert list(got) == sorted(got.tolist()) and len(set(got.tolist())) == len(got)
                assert set(got.tolist()) == _reference_bridges(state, supply, floor)
                seen += len(got)
    assert seen > 5000


def _reference_judge(state: StackBackState, index: int, owner: int, floor: int) -> Any:
    """One bridge judged as the rules judge a pose: None if not judged (it does not touch
    exactly two sticks of the highest level it touches, or that level is below the floor),
    else `rules.piled`'s refusal, or `rules.settle`'s verdict (a refusal or a Verdict)."""
    pose = place_of(index)
    touched = touches(state.layout, Footprints.of([pose]))[0]
    if not touched:
        return None
    top = max(state.sticks[t[0]].level for t in touched)
    if sum(state.sticks[t[0]].level == top for t in touched) != 2 or top + 1 < floor:
        return None
    stick = piled(pose, owner, touched, state.sticks, state.carries)
    if isinstance(stick, str):
        return stick
    return settle(stick, state.sticks, state.force, state.moment)


def test_judged_bridges_are_the_rules_verdicts(positions: list[StackBackState]) -> None:
    counts = np.zeros(5, dtype=np.int64)
    for state in positions:
        for floor in (0, 1):
            index = bridge_index(state.sticks, state.carries, [1, 1, 1], floor, state.layout)
            got = judge(index, state.layout, state.carries, state.force, state.moment, floor=floor)
            code = got[0]
            counts += np.bincount(code, minlength=5)
            legal = np.nonzero(code == cand_kernels.LEGAL)[0]
            levels = [state.sticks[a].level + 1 for a in got[1][legal, 0].tolist()]
            moves = {k: v for k, _, v in moves_of(index[legal], legal.tolist(), levels, got, 1)}
            for r, k in enumerate(index.tolist()):
                want = _reference_judge(state, k, 1, floor)
                if want is None:
                    assert code[r] == cand_kernels.SKIP, (k, code[r])
                elif code[r] == cand_kernels.REFUSED:
                    assert isinstance(want, str) and "fall" not in want, want
                elif code[r] == cand_kernels.FALLS:
                    assert isinstance(want, str) and "fall" in want, want
                else:
                    assert code[r] == cand_kernels.LEGAL and not isinstance(want, str), want
                    verdict = moves[k]
                    assert isinstance(verdict.stick, Stick)
                    assert verdict.stick == want.stick  # pose, level, contacts, polygon: exact
                    assert verdict.deltas == want.deltas
    skip, refused, falls, legal, unsure = counts.tolist()
    assert legal > 500 and refused > 20 and falls > 5 and skip > 1000  # every branch met
    assert unsure == 0


@pytest.mark.parametrize("t", [30.0, 48.0, 66.0, 1.0])
def test_the_exact_reach_is_math_hypots_at_the_threshold(t: float) -> None:
    """Whole-millimetre offsets around a whole threshold, Pythagorean ones exactly on it: the
    kernel's verdict (hypot <= t) is `math.hypot`'s, or it defers (-1) off whole numbers."""
    exact = 0
    for dx in range(-70, 71):
        for dy in range(-70, 71):
            got = cand_kernels._exact_reach(float(dx), float(dy), t)
            assert got == int(math.hypot(dx, dy) <= t)
            exact += math.hypot(dx, dy) == t
    assert exact >= 4  # on the axes, and the Pythagorean offsets
    assert cand_kernels._exact_reach(30.2, 40.0, 50.0) == -1
    assert cand_kernels._exact_reach(0.0, 50.0, 50.0) == 1
    assert cand_kernels._exact_reach(0.3, 0.0, 0.2) == 0


def test_the_kept_piles_new_rows_are_every_new_pairs_bridges(
    positions: list[StackBackState],
) -> None:
    """`piles._new_rows` (compiled: `cand_kernels.pair_rows`) against the pairs made in Python:
    every two sticks of one level, the later one new, ends within the longest reach by
    `math.hypot`, each bridge `candidates._pair` makes, with that gap, bit for bit where a
    colour's reach could tell them apart (the gaps are compared with the reaches only)."""
    from teocalli.games.stack_back.piles import REACH, _new_rows

    reaches = sorted({length - 6 for length in LENGTHS})
    seen = 0
    for state in positions:
        sticks = state.sticks
        start = max(0, len(sticks) - 4)
        want = []
        for j in range(start, len(sticks)):
            for i in range(j):
                a, b = sticks[i], sticks[j]
                gap = math.hypot(b.cx - a.cx, b.cy - a.cy) - a.half - b.half
                if a.level != b.level or gap > REACH:
                    continue
                for c, index in enumerate(_pair(a, b)):
                    want += [(i, j, a.level, c, k, [gap <= t for t in reaches]) for k in index]
        rows = _new_rows(sticks, start, state.layout)
        got = []
        if rows is not None:
            ri, rj, level, gap_, colour, index = (r.tolist() for r in rows)
            got = [
                (i, j, lv, c, k, [g <= t for t in reaches])
                for i, j, lv, g, c, k in zip(ri, rj, level, gap_, colour, index, strict=True)
            ]
        assert sorted(got) == sorted(want)
        seen += len(got)
    assert seen > 1000


def test_clones_that_go_different_ways_keep_their_own_stick_arrays() -> None:
    """The per-stick arrays grow in place, shared by clones (`rules.Statics`): each state's
    arrays must stay its own sticks' after its clones add others."""
    game = teocalli.load("stack-back")
    state = game.new_state(4)
    assert isinstance(state, StackBackState)
    rng = Rng(4)
    for _ in range(12):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    _ = state.layout
    clones = [state.clone() for _ in range(3)]
    for k, clone in enumerate(clones):
        for _ in range(k + 2):
            actions = clone.legal_actions()
            clone.apply(actions[(k + 1) % len(actions)])
        _ = clone.layout
    for s in (state, *clones):
        st = s.layout.statics
        want = [[t.cx, t.cy, t.ux, t.uy, t.half] for t in s.sticks]
        assert st.rows.tolist() == want
        assert st.level.tolist() == [t.level for t in s.sticks]
        assert st.sup.tolist() == [list(t.supports) if t.supports else [-1, -1] for t in s.sticks]
        assert st.npoly.tolist() == [len(t.polygon) for t in s.sticks]
        for t, poly, n in zip(s.sticks, st.poly, st.npoly.tolist(), strict=True):
            assert [tuple(e) for e in poly[:n].tolist()] == list(t.polygon)
    assert len({tuple(map(str, c.sticks)) for c in clones}) == 3  # they did go different ways


def test_half_turn_is_pythons_modulo() -> None:
    """`_half_turn` folds degrees as Python's `% 180` does, bit for bit (the sign of a zero
    included), for what `math.degrees(math.atan2(...))` gives and beyond it."""
    values = [0.0, -0.0, 180.0, -180.0, 90.0, -90.0, 1e-300, -1e-300, 179.99999999999997]
    values += [-179.99999999999997, 200.0, -400.0, 360.0, 540.5]
    values += [math.degrees(math.atan2(y, x)) for y in (-1.0, -0.0, 0.0, 0.3) for x in (-2, 0, 1)]
    rng = Rng(7)
    values += [rng.uniform(-180.0, 180.0) for _ in range(2000)]
    for v in values:
        got, want = cand_kernels._half_turn(v), v % 180
        assert (got, math.copysign(1.0, got)) == (want, math.copysign(1.0, want)), v


@pytest.mark.parametrize("reach", [1.0, 30.0, 48.0, 66.0])
def test_a_pairs_bridges_near_a_threshold_are_pythons(reach: float) -> None:
    """Two sticks whose bridge ends lie `reach` (1 mm, a colour's length less 6) plus a few
    roundings or a little more apart, at odd angles: the kernel's `_pair` (a square root,
    `math.hypot` within 1e-8 of a threshold) makes the bridges `candidates._pair` makes with
    `math.hypot`, or defers (False)."""
    from types import SimpleNamespace

    from teocalli.games.stack_back.candidates import _CELLS, _LENGTHS, _OFFSETS

    compared = deferred = 0
    for delta in (0.0, 1e-14, -1e-14, 3e-9, -3e-9, 9e-9, -9e-9, 1.1e-8, -1.1e-8, 1e-6, -1e-6):
        for angle in (0.0, 0.3, 1.1, 2.0, 2.9):
            d = reach + delta
            ex, ey = d * math.cos(angle), d * math.sin(angle)
            a = SimpleNamespace(cx=110.3, cy=50.1, ux=-math.sin(angle), uy=math.cos(angle),
                                half=27.0)  # fmt: skip
            b = SimpleNamespace(cx=a.cx + ex, cy=a.cy + ey, ux=a.ux, uy=a.uy, half=27.0)
            col = np.array
            out = np.empty((len(_OFFSETS), len(_LENGTHS)), dtype=np.int64)
            sure = cand_kernels._pair(
                0, 1, col([a.cx, b.cx]), col([a.cy, b.cy]), col([a.ux, b.ux]), col([a.uy, b.uy]),
                col([a.half, b.half]), _LENGTHS, _OFFSETS, _CELLS, 0b111, out,
            )  # fmt: skip
            if not sure:
                deferred += 1
                continue
            want = _pair(a, b)  # type: ignore[arg-type]
            for c in range(len(_LENGTHS)):
                assert sorted(v for v in out[:, c].tolist() if v >= 0) == sorted(want[c].tolist())
            compared += 1
    assert compared >= 40
