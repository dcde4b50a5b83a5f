"""The action-id table kept along a game (ids.py) against the table of the code before it.

The mask and the pose each id plays must not change when the table is made faster: the pinned
digests below were computed by the earlier algorithm (git 1a84ac6: every pair's poses filtered
and judged afresh at each position, the verdicts kept by the poses of the structures holding
the supports), on the same seeded random games, with the same digest. Each step's table of the
player to move is digested (every masked id with the pose it plays), and at every fifth step
also the other player's, made from the same position. The compiled balance that judges most pile
poses is compared with the rules' own judgement on every pose of every pair along a game.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, id_kernels, ids

PINNED = {0: "f6bc29f3e5c15651", 1: "f775d314f0f6c7b2", 2: "e3bd7b7a37266408"}
"""Per seed: the digest of the per-step digests, from git 1a84ac6's ids.py."""


def _digest(state: StackBackState, table: ids.Table) -> str:
    text = ";".join(f"{i}:{table.snap_of(state, i)}" for i in table.ids.tolist())
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _steps(seed: int) -> list[str]:
    """Per step of a seeded random game, the digest of the mover's table (and, at every fifth
    step, of the other player's)."""
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    out = []
    while not state.is_terminal():
        player = state.current_player()
        out.append(_digest(state, ids.table(state, player)))
        if len(state.history) % 5 == 2:
            assert state._id_table is not None
            out.append("o" + _digest(state, ids._table(state, 1 - player, state._id_table.memo)))
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    return out


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_the_table_is_the_earlier_algorithms(seed: int) -> None:
    steps = _steps(seed)
    assert len(steps) > 60
    assert hashlib.sha1(" ".join(steps).encode()).hexdigest()[:16] == PINNED[seed]


def test_the_compiled_balance_agrees_with_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pile pose of every pair the mask meets along a game (at every third step), judged by
    `id_kernels.judge_piles` (the rules' code where it is unsure) and by the rules alone
    (`ids._judge`): the same verdicts, and the kernel sure of nearly all."""
    unsure = [0]
    kernel = id_kernels.judge_piles

    def counted(*args: object) -> np.ndarray:
        out: np.ndarray = kernel(*args)
        unsure[0] += int((out == id_kernels.UNSURE).sum())
        return out

    monkeypatch.setattr(id_kernels, "judge_piles", counted)
    state = teocalli.load("stack-back").new_state(5)
    assert isinstance(state, StackBackState)
    rng = Rng(5)
    judged = legal = 0
    while not state.is_terminal():
        player = state.current_player()
        if len(state.history) % 3 == 0 and state.sticks:
            memo = ids._Memo.empty().to(state)
            pairs = ids._pile_pairs(state, player, memo)
            lattices = [(c, x, y, a) for p in pairs for c, x, y, a in p.poses.tolist()]
            held = [p.supports for p in pairs for _ in range(len(p.poses))]
            if lattices:
                fast = ids._judge_fast(state, player, memo, lattices, held)
                assert fast == ids._judge(state, player, lattices), len(state.history)
                judged += len(lattices)
                legal += sum(fast)
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    assert judged > 2000 and 0 < legal < judged, (judged, legal)
    assert unsure[0] <= judged // 20, (unsure[0], judged)
