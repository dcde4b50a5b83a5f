"""The piled candidates from nothing in one compiled call (`cand_kernels.pile_candidates`).

`candidates.pile_moves` makes the bridges, judges them and keeps the legal ones in one call, in
pose order; these tests compare it with the two steps it fuses, each tested against the rules'
own Python in test_sb_cand_kernels.py (`bridge_index`, then `judge` on every bridge, the legal
rows kept), exact floats: the same poses in the same order, the same piled stick (contacts,
support polygon) and the same loads passed down. And a pair whose bridge length lies on a
colour's reach, in coordinates the kernel cannot tell exactly: its bridges are made in Python
with `math.hypot`, and the answer is the same.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import teocalli
from teocalli.games.stack_back import cand_kernels
from teocalli.games.stack_back.actions import Colour, pose
from teocalli.games.stack_back.candidates import (
    Move,
    _pair,
    bridge_index,
    judge,
    moves_of,
    pile_moves,
)
from teocalli.games.stack_back.components import LENGTHS
from teocalli.games.stack_back.state import StackBackState

from .sampled import random_positions


def _two_steps(state: StackBackState, supply: list[int], floor: int, owner: int) -> list[Move]:
    """The bridges (`bridge_index`), every one judged (`judge`), the legal rows wrapped."""
    index = bridge_index(state.sticks, state.carries, supply, floor, state.layout)
    got = judge(index, state.layout, state.carries, state.force, state.moment, floor=floor)
    rows = np.nonzero(got[0] == cand_kernels.LEGAL)[0]
    levels = [state.sticks[a].level + 1 for a in got[1][rows, 0].tolist()]
    return moves_of(index[rows], rows.tolist(), levels, got, owner)


def _fused(state: StackBackState, supply: list[int], floor: int, owner: int) -> list[Move]:
    return pile_moves(
        state.sticks,
        state.layout,
        carries=state.carries,
        force=state.force,
        moment=state.moment,
        supply=supply,
        floor=floor,
        owner=owner,
    )


def _same(got: list[Move], want: list[Move]) -> None:
    assert [(k, p) for k, p, _ in got] == [(k, p) for k, p, _ in want]
    for (_, _, a), (_, _, b) in zip(got, want, strict=True):
        assert a.stick == b.stick  # pose, level, supports, contacts, support polygon: exact
        assert a.deltas == b.deltas


@pytest.fixture(scope="module")
def positions() -> list[StackBackState]:
    """Positions of seeded random games, every fourth step once sticks are piled."""
    return random_positions((3, 8, 21), 4, lambda state: len(state.sticks) > 3)


def test_one_call_gives_the_two_steps_legal_bridges(positions: list[StackBackState]) -> None:
    legal = 0
    for state in positions:
        for supply in ([1, 1, 1], [0, 1, 0], [1, 0, 1]):
            for floor in (0, 1, 2):
                got = _fused(state, supply, floor, 0)
                _same(got, _two_steps(state, supply, floor, 0))
                keys = [k for k, _, _ in got]
                assert keys == sorted(set(keys))
                legal += len(got)
    assert legal > 2000  # the positions do have piled candidates, in every supply


def _threshold_position() -> StackBackState:
    """Two green sticks on the wood, parallel, their centres (39.6, 52.8) mm apart: 66 mm, a
    yellow stick's reach (72 - 6), in decimals binary floats cannot hold exactly."""
    game = teocalli.load("stack-back")
    state = game.new_state(0)
    assert isinstance(state, StackBackState)
    state.lay(pose(Colour.GREEN, 50.0, 20.0, 0.0), 0)
    state.lay(pose(Colour.GREEN, 89.6, 72.8, 0.0), 1)
    return state


def test_a_pair_on_a_reach_is_made_with_math_hypot() -> None:
    state = _threshold_position()
    a, b = state.sticks
    assert LENGTHS[Colour.YELLOW] - 6 == 66
    assert abs(math.hypot(b.cx - a.cx, b.cy - a.cy) - 66) < 1e-9
    *_, unsure = cand_kernels.pile_candidates(0b111, *_kernel_args(state))
    assert unsure.tolist() == [[0, 1]]  # the kernel hands the pair back
    want = set()
    for colour, index in enumerate(_pair(a, b)):
        if colour != Colour.GREEN:  # the supports' own colour is refused
            want.update(index.tolist())
    assert set(bridge_index(state.sticks, state.carries, [1, 1, 1], 0, state.layout)) == want
    assert want  # a bridge of some colour spans them
    legal = _two_steps(state, [1, 1, 1], 0, 0)
    assert len(legal) == 3  # the three offsets' yellow bridges stand
    _same(_fused(state, [1, 1, 1], 0, 0), legal)


def _kernel_args(state: StackBackState) -> tuple[object, ...]:
    """`pile_candidates`' arguments after `have`, as `pile_moves` passes them (floor 0, no
    free wood candidates)."""
    from teocalli.games.stack_back import candidates as c

    st = state.layout.statics
    return (
        c._LENGTHS, c._OFFSETS, c._AXES_ROWS, c._HALVES, c._WEIGHTS, c._REACHES, c._CELLS,
        st.rows, st.reach, state.layout.quads, st.level, st.colour,
        np.array(state.carries, dtype=np.int64), st.sup, st.cont, st.poly, st.npoly,
        np.array(state.force, dtype=np.float64), np.array(state.moment, dtype=np.complex128),
        0, c.TOL, c.REST, c._THRESHOLD, 0.5, c.DEEP, c._no_wood(), c._wood_colours()[0b111],
        c.wood_lattice().keys,
    )  # fmt: skip
