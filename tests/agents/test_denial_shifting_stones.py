"""The turn search's denial proposals: legal whole turns, from the player's view only, each
ending on the grid that leaves the next player the least (checked against a brute force)."""

from __future__ import annotations

from itertools import product

import numpy as np

import teocalli
from teocalli.agents.heuristics.shifting_stones import turns
from teocalli.agents.heuristics.shifting_stones.denial import (
    REACH,
    denial_turns,
    threat,
    unseen_cards,
)
from teocalli.core import Rng
from teocalli.games.shifting_stones import from_position
from teocalli.games.shifting_stones.actions import END, Flip, Score, Shift
from teocalli.games.shifting_stones.components import POINTS, SWAPS, matches
from teocalli.games.shifting_stones.grid import grid_index, parse_grid
from teocalli.games.shifting_stones.solver import SOLVER
from teocalli.games.shifting_stones.state import ShiftingStonesState

POSITION = """grid: Su Tr Bo / Fi Fi Bo / Tr Tr Ho
hands: 26 37 61 69 | 3 14 47 51
scored: 21 | 34
deck: rest
discard: 11 12
turn: 0
"""


def _state() -> ShiftingStonesState:
    state = from_position(teocalli.load("shifting-stones", players=2), POSITION)
    assert isinstance(state, ShiftingStonesState)
    return state


def test_unseen_cards_leave_out_the_hand_the_pile_and_every_scored_card() -> None:
    unseen = unseen_cards(_state(), 0)
    assert len(unseen) == 72 - 4 - 2 - 2
    assert not {26, 37, 61, 69, 11, 12, 21, 34} & set(unseen)
    assert {3, 14, 47, 51} <= set(unseen)  # the other hand is not seen


def test_threat_weighs_each_card_by_its_distance() -> None:
    grid = parse_grid("Su Tr Bo / Fi Fi Bo / Tr Tr Ho")
    index = np.array([grid_index(grid)], dtype=np.int64)
    assert SOLVER.distance(21, grid) == 0 and SOLVER.distance(29, grid) == 0  # Tr Tr, Fi Fi
    # two cards that match now: a 4-card hand of them is expected to reach (1 + 2) * 4 / 2
    assert threat(index, [21, 29])[0] == 6.0
    two = next(c for c in range(1, 73) if SOLVER.distance(c, grid) == 2)
    assert threat(index, [two])[0] == POINTS[two] * REACH[2] * 4
    assert all(REACH[d] >= REACH[d + 1] for d in range(len(REACH) - 1))


def test_denial_turns_are_legal_whole_turns_from_the_view_alone() -> None:
    state = _state()
    proposals = denial_turns(state, 0, 5)
    assert len(proposals) == 5
    world = state.determinize(0, Rng(7))  # other hand and deck re-dealt: not read
    assert denial_turns(world, 0, 5) == proposals
    for turn in proposals:
        assert turn[-1] == END
        copy = state.clone()
        for action in turn:
            assert action in copy.legal_actions(0)
            copy.apply(action, 0)
        assert tuple(copy.to_move()) == (1,)
    # the search sees them first among the proposals
    assert turns(state, 0, Rng(1))[:3] == proposals[:3]


def test_each_denial_turn_ends_on_the_least_threatening_grid_of_its_kind() -> None:
    state = _state()
    start = list(state.grid)
    cards = unseen_cards(state, 0)
    checked = 0
    for turn in denial_turns(state, 0, 5):
        scored = {a.card for a in turn if isinstance(a, Score)}
        moves = [a for a in turn if isinstance(a, Shift | Flip)]
        if len(moves) > 3:
            continue
        grid = start.copy()
        for a in moves:
            if isinstance(a, Shift):
                grid[a.p], grid[a.q] = grid[a.q], grid[a.p]
            else:
                grid[a.cell] ^= 1
        ours = threat(np.array([grid_index(grid)], dtype=np.int64), cards)[0]
        # brute force: every sequence of as many moves along which all the scored cards match
        best = np.inf
        for seq in product(range(len(SWAPS) + 9), repeat=len(moves)):
            g = start.copy()
            seen = {c for c in scored if matches(c, g)}
            for m in seq:
                if m < len(SWAPS):
                    p, q = SWAPS[m]
                    g[p], g[q] = g[q], g[p]
                else:
                    g[m - len(SWAPS)] ^= 1
                seen |= {c for c in scored if matches(c, g)}
            if seen == scored:
                best = min(best, threat(np.array([grid_index(g)], dtype=np.int64), cards)[0])
        assert ours == best
        checked += 1
    assert checked >= 3
