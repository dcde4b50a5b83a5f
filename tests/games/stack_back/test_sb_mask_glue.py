"""The action ids' candidate bins (ids.py `_candidate_bins`, bin_kernels.py): read from the
listing's pose keys (`StackBackState.candidate_keys`), they must be the bins of the candidates'
poses, each with its first candidate (the bin's snap), as a plain loop over the `Place`s finds
them."""

from __future__ import annotations

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, bin_kernels, ids
from teocalli.games.stack_back.actions import PASS, Action, Place, lattice_index

from .blocked import FILLERS, blocked


def _reference(candidates: list[Action]) -> dict[int, Action]:
    """Each bin holding a candidate with its first candidate, by `ids.to_int` one by one."""
    out: dict[int, Action] = {}
    for action in candidates:
        out.setdefault(ids.to_int(action), action)
    return out


def _check(state: StackBackState, player: int) -> None:
    """`_candidate_bins` and the table's snaps of the candidates' bins against `_reference`."""
    candidates = state.legal_actions(player)
    held, firsts = ids._candidate_bins(state, player, candidates)
    ref = _reference(candidates)
    assert held.tolist() == sorted(ref)
    assert all(candidates[k] is ref[b] for b, k in zip(held.tolist(), firsts.tolist(), strict=True))
    table = ids.table(state, player)
    assert all(table.snap_of(state, b) is ref[b] for b in ref)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_candidates_bins_are_their_poses_bins(seed: int) -> None:
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    keyed = shared = 0
    while not state.is_terminal():
        player = state.current_player()
        candidates = state.legal_actions(player)
        keys = state.candidate_keys(player)
        if keys is not None:
            want = [lattice_index(a.colour, a.x10, a.y10, a.a10) for a in candidates
                    if isinstance(a, Place)]  # fmt: skip
            assert keys.tolist() == want
            keyed += 1
        if candidates != [PASS]:
            _check(state, player)
            shared += len(candidates) - len(ids._candidate_bins(state, player, candidates)[0])
        state.apply(candidates[rng.randrange(len(candidates))], player)
    assert keyed > 40 and shared > 20, (keyed, shared)  # bins holding several candidates


def test_the_searchs_poses_are_binned_from_their_objects() -> None:
    """With all but the last filler of the blocked position laid, the listing is empty and the
    search finds the poses (some off the lattice): no keys."""
    state = blocked(fillers=len(FILLERS) - 1)
    player = state.current_player()
    candidates = state.legal_actions(player)
    assert candidates != [PASS] and state.candidate_keys(player) is None
    _check(state, player)


def test_a_lone_pass_has_no_keys() -> None:
    state = blocked()
    player = state.current_player()
    assert state.legal_actions(player) == [PASS] and state.candidate_keys(player) is None
    assert ids.table(state, player).snap_of(state, ids.PASS_ID) == PASS


def test_firsts_keeps_each_bins_first_position() -> None:
    got = bin_kernels.firsts(np.array([5, 3, 5, 7, 3, 3], dtype=np.int64))
    assert got.tolist() == [[3, 5, 7], [1, 0, 3]]
    assert bin_kernels.firsts(np.zeros(0, dtype=np.int64)).shape == (2, 0)
