"""The lattice search's shortcuts for speed decide as the slow way does (docs/games/stack-back.md,
"Speed"): the bare-wood table clips only footprints crossing a board's edge, and what the
search rules out along a game (`search.Left`) is what it finds from nothing."""

from __future__ import annotations

import math

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import search
from teocalli.games.stack_back.components import HALF_LENGTHS, NUM_COLOURS, SPEC
from teocalli.games.stack_back.geometry import box, clip, quads
from teocalli.games.stack_back.rules import REST, TOL
from teocalli.games.stack_back.state import StackBackState


@pytest.mark.parametrize("colour", range(NUM_COLOURS))
def test_board_areas_decide_as_clipping_every_footprint(colour: int) -> None:
    x0, y0, x1, y1 = SPEC.region
    step = search.STEP
    xs = np.arange(math.ceil(x0 / step) * step, x1 + 1e-9, step)
    ys = np.arange(math.ceil(y0 / step) * step, y1 + 1e-9, step)
    ga, gx, gy = np.meshgrid(np.array(search.ANGLES, dtype=float), xs, ys, indexing="ij")
    a, x, y = np.radians(ga.ravel()), gx.ravel(), gy.ravel()
    h = HALF_LENGTHS[colour]
    q = quads(x, y, np.cos(a), np.sin(a), np.full(len(x), h))
    for board in SPEC.boards:
        fast = search.board_areas(q, board, h)
        slow, _ = clip(q, np.repeat(box(*board)[None], len(x), axis=0))
        for limit in (TOL, REST):
            assert np.array_equal(fast > limit, slow > limit)
            assert np.array_equal(fast >= limit, slow >= limit)
        # both kinds of shortcut are met, and footprints crossing an edge too
        assert (fast == 0).any() and (fast == 4 * h * 3.0).any()
        assert ((slow > TOL) & (slow < 4 * h * 3.0 - 1e-6)).any()


def test_kept_search_finds_what_a_fresh_one_finds() -> None:
    """Along a seeded random game, the search on the state (its `_left` kept from the calls
    before, brought up to date by the new sticks alone) and on a clone with nothing kept give
    the same poses and placements, and what each keeps afterwards is the same."""
    game = teocalli.load("stack-back")
    state = game.new_state(7)
    assert isinstance(state, StackBackState)
    rng = Rng(8)
    kept_calls = 0
    while not state.is_terminal():
        player = state.to_move()[0]
        if len(state.history) % 4 == 3:
            fresh = state.clone()
            fresh._left = search.Left.empty()
            fresh.wood_from = (0,) * len(fresh.wood_from)
            fresh.no_wood = 0
            fresh.dead_pairs = frozenset()
            kept_calls += any(r is not None and r[0] < len(state.sticks) for r in state._left.wood)
            got = [(p, v.stick) for p, v in search.find_lattice(state, player)]
            assert got == [(p, v.stick) for p, v in search.find_lattice(fresh, player)]
            for key, (count, idx) in fresh._left.piles.items():
                if key in state.dead_pairs:  # found without a pose before: skipped since
                    assert not len(idx)
                    continue
                assert state._left.piles[key][0] == count
                assert np.array_equal(state._left.piles[key][1], idx)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert kept_calls >= 3  # the kept path was taken, with new sticks to test
