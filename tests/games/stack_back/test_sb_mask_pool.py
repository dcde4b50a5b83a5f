"""The mask's pool of pile poses (id_pool.py) along lines of play that part.

A pool is changed in place by the memo heading it; a clone that plays another stick, or a
state asked again after its line moved on, must get a copy rolled back to its own sticks
(`Pool.fork`). Its tables must then equal tables made from nothing, and the line that kept the
pool must be unaffected.
"""

from __future__ import annotations

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, id_kernels, id_pool, ids
from teocalli.games.stack_back.components import HALF_WIDTH


def _same(kept: ids.Table, state: StackBackState, player: int) -> None:
    """`kept` equals the table of `state` made from nothing (mask and snaps)."""
    world = state.clone()
    world._id_table = None
    fresh = ids.table(world, player)
    assert kept.ids.tolist() == fresh.ids.tolist(), len(state.history)
    for index in kept.ids.tolist():
        assert kept.snap_of(state, index) == fresh.snap_of(world, index), (
            len(state.history), index)  # fmt: skip


def _step(state: StackBackState, rng: Rng) -> ids.Table:
    """The mover's table, then one of its ids played."""
    player = state.current_player()
    table = ids.table(state, player)
    state.apply(int(table.ids[rng.randrange(len(table.ids))]), player)
    return table


def test_clones_that_part_fork_the_pool() -> None:
    state = teocalli.load("stack-back").new_state(3)
    assert isinstance(state, StackBackState)
    rng = Rng(8)
    for _ in range(16):
        _step(state, rng)
    assert state._id_table is not None
    ids.table(state, state.current_player())
    shared = state._id_table.memo.pool
    other = state.clone()
    again = state.clone()  # stays at the parting step, asked only after both moved on
    line, side = Rng(1), Rng(2)
    for _ in range(4):
        _step(state, line)
    assert state._id_table.memo.pool is shared  # the line that went first kept the pool
    for _ in range(4):
        player = other.current_player()
        table = ids.table(other, player)
        _same(table, other, player)
        _same(ids._table(other, 1 - player, table.memo), other, 1 - player)
        other.apply(int(table.ids[side.randrange(len(table.ids))]), player)
    assert other._id_table is not None and other._id_table.memo.pool is not shared
    player = again.current_player()
    _same(ids.table(again, player), again, player)
    for _ in range(3):  # the first line again, on its own pool
        player = state.current_player()
        _same(ids.table(state, player), state, player)
        _step(state, line)
    assert len(state.sticks) > 16


def _add(pool: id_pool.Pool, key: tuple[int, int, int, int], rows: int, sticks: int) -> int:
    """A pair `key` (colour, level, i, j) met at `sticks` sticks with `rows` blank rows,
    written as `id_kernels.new_pairs` writes one (the pool grown by `reserve`); its id."""
    pool.reserve(1, rows)
    p, r0 = pool.pairs, pool.rows
    pool.key[p], pool.span[p] = key, (r0, r0 + rows)
    pool.count[p] = pool.created[p] = sticks
    pool.stamp[p], pool.box[p] = -1, np.nan
    pool.index[key[2], key[3], key[0]] = p
    pool.pairs, pool.rows = p + 1, r0 + rows
    return p


def test_a_fork_gives_back_what_later_sticks_took() -> None:
    """`Pool.fork` at 5 sticks: a row taken by stick 6 is given back, one taken by stick 2 stays
    taken; a pair met at 7 sticks is forgotten (its key unmet again), one met at 4 is kept, its
    rows tested against 5 sticks only; the original is untouched. `fit` keeps the pairs when
    the index grows and copies the state's dead pairs."""
    pool = id_pool.Pool(sticks=4, pairs=1, rows=2)
    early = _add(pool, (0, 0, 1, 3), 2, 4)
    pool.fit(9, frozenset({(2, 5, 1)}))
    late = _add(pool, (1, 0, 2, 8), 1, 7)
    assert pool.index[1, 3, 0] == early and pool.index[2, 8, 1] == late
    assert pool.dead[2, 5, 1] and pool.dead.sum() == 1
    pool.taken[:2] = (6, 2)
    pool.count[: pool.pairs] = 9
    fork = pool.fork(5)
    assert fork.taken[:3].tolist() == [id_kernels.ALIVE, 2, id_kernels.ALIVE]
    assert fork.index[1, 3, 0] == early and fork.index[2, 8, 1] == -1
    assert fork.count[: fork.pairs].tolist() == [5, 5]
    assert pool.taken[:2].tolist() == [6, 2] and pool.index[2, 8, 1] == late
    assert pool.count[: pool.pairs].tolist() == [9, 9]


def _box_left(pool: id_pool.Pool, p: int) -> np.ndarray:
    """The bounding box (x0, x1, y0, y1) of pair p's rows left, their footprints' corners."""
    lo, hi = pool.span[p]
    left = np.arange(lo, hi)[pool.taken[lo:hi] == id_kernels.ALIVE]
    h = ids._HALF[pool.key[p, 0]]
    x, y, ux, uy = (pool.frame[left, c] for c in range(4))
    sides = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)])
    cx = np.concatenate([x + a * h * ux - b * HALF_WIDTH * uy for a, b in sides])
    cy = np.concatenate([y + a * h * uy + b * HALF_WIDTH * ux for a, b in sides])
    if not len(left):
        return np.array([np.inf, -np.inf, np.inf, -np.inf])
    return np.array([cx.min(), cx.max(), cy.min(), cy.max()])


def test_each_pairs_box_is_its_rows_left() -> None:
    """Along a seeded game and a clone that parts from it, every pair's box (`Pool.box`, kept
    by `catch_up` to skip the sticks whose bounding box misses it) is unknown (NaN) or the
    bounding box of its rows left, to 1e-9 mm: a row taken with the box left as it was would
    hide it from later sticks. A fork forgets the boxes (it gives rows back); many are known,
    some empty."""
    state = teocalli.load("stack-back").new_state(6)
    assert isinstance(state, StackBackState)
    rng = Rng(5)
    known = empty = 0
    for step in range(40):
        if step == 24:  # the line moves on with the pool; its clone then forks it
            other = state.clone()
            kept = _step(state, Rng(9)).memo.pool
            state = other
        table = _step(state, rng)
        pool = table.memo.pool
        assert step != 24 or pool is not kept
        for p in range(pool.pairs):
            if np.isnan(pool.box[p, 0]):
                continue
            known += 1
            want = _box_left(pool, p)
            empty += want[0] > want[1]
            assert np.allclose(pool.box[p], want, rtol=0, atol=1e-9), (step, p)
        if state.is_terminal():
            break
    assert known > 500 and empty > 20


def _both(state: StackBackState) -> int:
    """Both players' tables of `state` from its kept memo checked against tables made from
    nothing (`_same`); returns the ids compared."""
    player = state.current_player()
    table = ids.table(state, player)
    other = ids._table(state, 1 - player, table.memo)
    _same(table, state, player)
    _same(other, state, 1 - player)
    return len(table.ids) + len(other.ids)


@pytest.mark.parametrize("seed", [0, 5])
def test_kept_tables_are_tables_from_nothing(seed: int) -> None:
    """At every step of a seeded random game, of earlier states asked again once the game moved
    on, and of the lines they then play (their own forks of the pool), both players' tables made
    from the kept memo equal tables made from an empty memo: the ids and the pose each plays."""
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    earlier: list[StackBackState] = []
    compared = 0
    for step in range(36):
        if state.is_terminal():
            break
        compared += _both(state)
        if step % 9 == 4:
            earlier.append(state.clone())
        _step(state, rng)
    assert len(earlier) == 4 and len(state.sticks) > 20
    for old in earlier:  # the game moved on with the pool: each forks it
        for _ in range(3):
            compared += _both(old)
            _step(old, rng)
    assert compared > 20_000, compared


def test_new_pairs_written_into_a_pool_that_grows(monkeypatch: pytest.MonkeyPatch) -> None:
    """New pairs are written straight into the pool's arrays (`id_kernels.new_pairs`); when
    the rows run out mid-call the kernel stops before the pair that does not fit, and
    `ids._new_pairs` grows the arrays and goes on. Along a seeded game whose pool starts with
    room for one pair and 8 rows (growing some dozen times), the pool's pairs and rows, and
    the tables, equal those of a pool sized for a whole game."""

    def play(pool: type[id_pool.Pool] | None) -> tuple[list[list[int]], id_pool.Pool]:
        if pool is not None:
            monkeypatch.setattr(ids, "Pool", pool)
        state = teocalli.load("stack-back").new_state(6)
        assert isinstance(state, StackBackState)
        rng, masks = Rng(5), []
        for _ in range(24):
            masks.append(_step(state, rng).ids.tolist())
        assert state._id_table is not None
        return masks, state._id_table.memo.pool

    want, big = play(None)
    grown = [0]

    class Small(id_pool.Pool):
        def __init__(self) -> None:
            super().__init__(sticks=4, pairs=1, rows=8)

        def reserve(self, pairs: int, rows: int) -> None:
            grown[0] += self.rows + rows > len(self.poses)
            super().reserve(pairs, rows)

    got, small = play(Small)
    assert got == want and grown[0] > 5, grown
    assert (small.pairs, small.rows) == (big.pairs, big.rows)
    rows, pairs = slice(0, big.rows), slice(0, big.pairs)
    for name in ("poses", "frame", "bins", "ranks", "taken"):
        assert np.array_equal(getattr(small, name)[rows], getattr(big, name)[rows]), name
    for name in ("key", "span", "count", "created"):
        assert np.array_equal(getattr(small, name)[pairs], getattr(big, name)[pairs]), name


def test_a_pools_unset_rows_are_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool's pair and row arrays start unset (`Pool.__init__`, `_grown`): filled with
    garbage instead, beyond what was written, a seeded game's tables (masks and snaps) are the
    same as with a pool of zeros."""

    def play(fill: int | None) -> list[str]:
        class Filled(id_pool.Pool):
            def __init__(self) -> None:
                super().__init__()
                if fill is not None:
                    for name in ("key", "span", "count", "created", "stamp", "box", "poses",
                                 "frame", "bins", "ranks", "verdict"):  # fmt: skip
                        getattr(self, name).view(np.uint8)[:] = fill

        monkeypatch.setattr(ids, "Pool", Filled)
        state = teocalli.load("stack-back").new_state(4)
        assert isinstance(state, StackBackState)
        rng, out = Rng(4), []
        for _ in range(30):
            player = state.current_player()
            table = ids.table(state, player)
            out.append(";".join(f"{i}:{table.snap_of(state, i)}" for i in table.ids.tolist()))
            state.apply(int(table.ids[rng.randrange(len(table.ids))]), player)
        return out

    clean = play(0)
    assert play(0x7F) == clean and play(0x01) == clean
