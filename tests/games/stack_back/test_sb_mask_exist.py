"""`id_kernels.exist` (a step's mask in one call: whether each bin holds a legal pile row, the
unjudged rows judged only until each bin needing one has one) and `id_kernels.snap_row` (the
row a bin's id plays: its first legal row in snap order) against plain references written
below, at real positions (seeded random games) with every verdict forgotten: every row of the
pairs met judged (`judge_piles`, the rules' own code where it is unsure), the ids as the union
of the wood's, the candidates' and the legal rows' bins; the snap as the first legal row of the
bin in (rank, the search's pair order, row) order below the bin's wood pose. Verdicts kept
through new sticks must be the rules' verdicts; the memo's `live` wood bins are checked along a
game and a clone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, id_kernels, ids
from teocalli.games.stack_back.components import SPEC

from .sampled import random_positions

Ints = np.ndarray


def _verdicts(state: StackBackState, player: int, memo: Any, met: Ints) -> dict[int, bool]:
    """Every row of the pairs `met` that no stick takes: legal or not, judged by `judge_piles`
    and by the rules where it is unsure."""
    pool = memo.pool
    rows, held = [], []
    for p in met.tolist():
        lo, hi = pool.span[p].tolist()
        for r in range(lo, hi):
            if pool.taken[r] == id_kernels.ALIVE:
                rows.append(r)
                held.append(tuple(pool.key[p, 2:].tolist()))
    lattices = [(c, x, y, a) for c, x, y, a in pool.poses[rows].tolist()]
    legal = ids._judge_fast(state, player, memo, lattices, held)
    return dict(zip(rows, legal, strict=True))


def _position(state: StackBackState, player: int) -> tuple[Any, ...]:
    """The table's memo (owned), the candidates' bins, the supply, the pairs met, the model."""
    memo = ids.table(state, player).memo.owned()
    arrays = ids._sticks(state)
    taken = ids._candidate_bins(state, player, state.legal_actions(player))[0]
    supply = np.array(state.supply[player], dtype=np.int64)
    met = ids._met_pairs(state, player, memo, arrays)
    return memo, taken, supply, met, ids._model(state, memo, arrays[0])


def _exist(  # noqa: PLR0917 - a position as `_position` gives it
    state: StackBackState, player: int, memo: Any, taken: Ints, supply: Ints, met: Ints,
    model: tuple[Any, ...], verdict: Ints,
) -> tuple[Ints, int]:  # fmt: skip
    """`exist` until no row is left to the rules (as `ids._table` calls it); the mask (a byte
    per id) and the rows judged."""
    pool = memo.pool
    judged = 0
    while True:
        got, unsure, count = id_kernels.exist(
            met, pool.key, pool.span, pool.taken, pool.bins, verdict, pool.poses, memo.first,
            memo.live, supply, taken, ids._MARKS, *model,
        )  # fmt: skip
        judged += count
        assert not ids._MARKS.any()
        if not len(unsure):
            return got, judged
        lattices = [(c, x, y, a) for c, x, y, a in pool.poses[unsure].tolist()]
        verdict[unsure] = np.where(np.array(ids._judge(state, player, lattices)), 1, 2)


def _wood_open(memo: Any, supply: Ints) -> set[int]:
    """The bins whose first wood pose is left, in a colour of the supply."""
    per_colour = len(memo.first) // len(supply)
    return {b for b in np.flatnonzero(memo.first >= 0).tolist() if supply[b // per_colour] > 0}


@pytest.mark.parametrize("seed", [1, 4])
def test_exist_is_the_plain_union(seed: int) -> None:
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    compared = judged = piles = 0
    while not state.is_terminal() and len(state.history) < 60:
        player = state.current_player()
        candidates = state.legal_actions(player)
        if len(state.sticks) > 6 and candidates != [ids.PASS]:
            memo, taken, supply, met, model = _position(state, player)
            pool = memo.pool
            verdict = np.zeros_like(pool.verdict)  # every row unknown
            got, count = _exist(state, player, memo, taken, supply, met, model, verdict)
            legal = _verdicts(state, player, memo, met)
            pile_bins = {int(pool.bins[r]) for r, ok in legal.items() if ok}
            wood = _wood_open(memo, supply)
            assert np.flatnonzero(got).tolist() == sorted(wood | set(taken.tolist()) | pile_bins)
            for r in np.flatnonzero(verdict).tolist():  # every verdict written is the judge's
                assert (verdict[r] == id_kernels.LEGAL) == legal[r], r
            compared += 1
            judged += count
            piles += len(pile_bins - wood - set(taken.tolist()))
        state.apply(candidates[rng.randrange(len(candidates))], player)
    assert compared > 15 and judged > 200 and piles > 100, (compared, judged, piles)


@pytest.mark.parametrize("seed", [2, 5])
def test_snap_row_is_the_first_legal_row(seed: int) -> None:
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    found = none = 0
    while not state.is_terminal() and len(state.history) < 60:
        player = state.current_player()
        candidates = state.legal_actions(player)
        if len(state.sticks) > 6 and len(state.history) % 3 == 0 and candidates != [ids.PASS]:
            memo, _, supply, met, model = _position(state, player)
            pool, w = memo.pool, ids.wood()
            legal = _verdicts(state, player, memo, met)
            order = sorted(met.tolist(), key=lambda p: tuple(pool.key[p].tolist()))
            rows = [r for p in order for r in range(*pool.span[p].tolist()) if r in legal]
            for b in sorted({int(pool.bins[r]) for r in rows})[::3]:
                f = int(memo.first[b])
                limit = int(w.ranks[f]) if f >= 0 and supply[w.colour[f]] > 0 else ids._NO_LIMIT
                mine = [r for r in rows if pool.bins[r] == b and pool.ranks[r] < limit]
                want = min(((int(pool.ranks[r]), k), r) for k, r in enumerate(mine) if legal[r])[
                    1] if any(legal[r] for r in mine) else -1  # fmt: skip
                verdict = np.zeros_like(pool.verdict)
                while True:
                    row, unsure = id_kernels.snap_row(
                        b, limit, met, pool.key, pool.span, pool.taken, pool.bins, pool.ranks,
                        verdict, pool.poses, *model,
                    )  # fmt: skip
                    if unsure < 0:
                        break
                    verdict[unsure] = 1 if legal[unsure] else 2
                assert row == want, (len(state.history), b)
                found += row >= 0
                none += row < 0
        state.apply(candidates[rng.randrange(len(candidates))], player)
    assert found > 50 and none > 10, (found, none)


def test_verdicts_kept_through_a_new_stick_are_the_rules() -> None:
    """When the sticks beneath a pair's supports change, `catch_up` forgets its LEGAL and
    REFUSED verdicts (the loads decide them) and keeps TIPS (the pose's own support polygon):
    after the next table every verdict of such a pair is unknown or what the rules now say (a
    `catch_up` that kept every verdict fails here)."""
    state = teocalli.load("stack-back").new_state(7)
    assert isinstance(state, StackBackState)
    rng = Rng(7)
    kept = checked = 0
    while not state.is_terminal() and len(state.history) < 90:
        pool = ids.table(state, state.current_player()).memo.pool
        before = pool.verdict[: pool.rows].copy()
        stamps = pool.stamp[: pool.pairs].copy()
        candidates = state.legal_actions(state.current_player())
        state.apply(candidates[rng.randrange(len(candidates))], state.current_player())
        if state.is_terminal():
            break
        player = state.current_player()
        table = ids.table(state, player)
        if table.memo.pool is not pool:
            continue
        met = set(table.met.tolist())
        for p in np.flatnonzero(pool.stamp[: len(stamps)] != stamps).tolist():
            if p not in met:
                continue
            lo, hi = pool.span[p].tolist()
            rows = [r for r in range(lo, hi) if pool.taken[r] == id_kernels.ALIVE and before[r]]
            if not rows:
                continue
            lattices = [(c, x, y, a) for c, x, y, a in pool.poses[rows].tolist()]
            legal = ids._judge_fast(state, player, table.memo, lattices,
                                    [tuple(pool.key[p, 2:].tolist())] * len(rows))  # fmt: skip
            for r, ok in zip(rows, legal, strict=True):
                now = int(pool.verdict[r])
                if before[r] == id_kernels.TIPS:
                    assert now == id_kernels.TIPS and not ok
                    kept += 1
                elif now:
                    assert (now == id_kernels.LEGAL) == ok, (r, before[r], now)
                    checked += 1
    assert kept > 100 and checked > 20, (kept, checked)


def test_live_wood_bins_follow_the_wood() -> None:
    """A memo's `live` (the bins the ids read of the wood, kept along the game, only shrinking)
    is every bin whose first wood pose is left, ascending, at every step of a seeded game and of
    a clone asked again after the game moved on."""
    state = teocalli.load("stack-back").new_state(3)
    assert isinstance(state, StackBackState)
    rng = Rng(3)
    sizes = []
    clone = None
    while not state.is_terminal() and len(state.history) < 50:
        player = state.current_player()
        memo = ids.table(state, player).memo
        assert memo.live.tolist() == np.flatnonzero(memo.first >= 0).tolist()
        sizes.append(len(memo.live))
        if len(state.history) == 20:
            clone = state.clone()
        candidates = state.legal_actions(player)
        state.apply(candidates[rng.randrange(len(candidates))], player)
    assert clone is not None
    clone.apply(clone.legal_actions(clone.current_player())[0], clone.current_player())
    memo = ids.table(clone, clone.current_player()).memo
    assert memo.live.tolist() == np.flatnonzero(memo.first >= 0).tolist()
    assert sizes[0] == len(ids._wood_bins()) and sizes[-1] < sizes[0] - 500, sizes


def _may_pile(state: StackBackState) -> bool:
    """A position whose mover has a stick down and does not just pass: the pool has rows."""
    return bool(state.sticks) and state.legal_actions() != [ids.PASS]


def test_a_rows_verdict_is_the_judges_with_the_early_refusal() -> None:
    """`_verdicts` on pool rows (what `exist` and `snap_row` judge a row with) gives `judge_piles`'
    verdict on every row of every pair met along a seeded game, but where the judge left the
    pose to the rules: its early refusal (the contacts' reach along the pose, found without
    clipping) may refuse it, and it tests no stick but the supports for a touch (the pool's
    filters did, to the rules' bits), so it may decide a pose a third stick overlaps by
    nearly the tolerance; the rules then agree. The early refusal decides many poses."""
    from teocalli.games.stack_back.cand_kernels import balance_scratch

    early = compared = 0
    for state in random_positions((9,), 3, _may_pile):
        player = state.current_player()
        memo, _, _, met, model = _position(state, player)
        pool = memo.pool
        scratch = balance_scratch(len(state.sticks))
        rows, pairs = [], []
        for p in met.tolist():
            lo, hi = pool.span[p].tolist()
            rows += [r for r in range(lo, hi) if pool.taken[r] == id_kernels.ALIVE]
            pairs += [p] * (len(rows) - len(pairs))
        pose, pi, pj, _ = id_kernels._row_poses(
            np.array(rows, dtype=np.int64), np.array(pairs, dtype=np.int64), pool.key,
            pool.poses, pool.bins, *model[:3],
        )  # fmt: skip
        verdicts = np.empty(len(rows), dtype=np.int8)
        id_kernels._verdicts(pose, pi, pj, np.full(len(rows), -1, dtype=np.int64),
                          np.zeros(0, dtype=np.int8), True, False, *model[3:], scratch,
                          verdicts)  # fmt: skip
        for t, r in enumerate(rows):
            i, j, got = int(pi[t]), int(pj[t]), int(verdicts[t])
            c, x10, y10, a10 = pool.poses[r].tolist()
            want = int(id_kernels.judge_piles(pose[t : t + 1], pi[t : t + 1], pj[t : t + 1],
                                              *model[3:])[0])  # fmt: skip
            ux, uy = ids._axes()[a10]
            reach = id_kernels._reach_along(model[4], i, j, x10 / 10, y10 / 10, ux, uy,
                                            ids._HALF[c])  # fmt: skip
            early += reach < SPEC.margin - 1e-9 - ids._DELTA - 1e-6
            if got != want:  # the judge left the pose to the rules, which agree
                assert want == id_kernels.UNSURE and got != id_kernels.UNSURE
                legal = ids._judge(state, player, [(c, x10, y10, a10)])
                assert legal == [got == id_kernels.LEGAL], (got, legal)
            compared += 1
    assert compared > 2000 and early > 300, (compared, early)


def test_verdicts_stop_at_a_bins_first_legal_row() -> None:
    """`id_kernels._verdicts` as `exist` walks it: in a bin, the rows after its first legal one
    are SKIPPED (not judged) and the bin is marked, the rows up to it judged as they are alone;
    with no bins given, every row is judged (the reference). Along a seeded game, at positions
    with bins holding several alive rows of the pairs met."""
    from teocalli.games.stack_back.cand_kernels import balance_scratch

    skipped = marked = 0
    for state in random_positions((4,), 4, _may_pile):
        player = state.current_player()
        memo, _, _, met, model = _position(state, player)
        pool = memo.pool
        rows, pairs = [], []
        for p in met.tolist():
            lo, hi = pool.span[p].tolist()
            rows += [r for r in range(lo, hi) if pool.taken[r] == id_kernels.ALIVE]
            pairs += [p] * (len(rows) - len(pairs))
        if not rows:
            continue
        order = np.argsort(pool.bins[rows], kind="stable")  # each bin's rows together
        rows_a, pairs_a = np.array(rows)[order], np.array(pairs)[order]
        pose, pi, pj, pb = id_kernels._row_poses(rows_a, pairs_a, pool.key, pool.poses,
                                                 pool.bins, *model[:3])  # fmt: skip
        walked, alone = np.empty(len(rows_a), np.int8), np.empty(len(rows_a), np.int8)
        mark = np.zeros(len(memo.first), dtype=np.int8)
        id_kernels._verdicts(pose, pi, pj, pb, mark, True, False, *model[3:],
                             balance_scratch(len(state.sticks)), walked)  # fmt: skip
        id_kernels._verdicts(pose, pi, pj, np.full(len(rows_a), -1, dtype=np.int64),
                             np.zeros(0, np.int8), True, False, *model[3:],
                             balance_scratch(len(state.sticks)), alone)  # fmt: skip
        assert not (alone == id_kernels.SKIPPED).any()  # no bins given: every row judged
        for b in np.unique(pb).tolist():
            at = np.flatnonzero(pb == b)
            legal = at[alone[at] == id_kernels.LEGAL]
            assert mark[b] == (2 if len(legal) else 0), b
            stop = legal[0] if len(legal) else at[-1] + 1
            for t in at.tolist():  # judged up to the first legal row, skipped after it
                if t <= stop:
                    assert walked[t] == alone[t], (b, t)
                else:
                    assert walked[t] == id_kernels.SKIPPED, (b, t)
                    skipped += 1
            marked += bool(len(legal))
    assert skipped > 20_000 and marked > 3_000, (skipped, marked)
