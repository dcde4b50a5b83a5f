"""The mask's pool of pile poses (id_pool.py) along lines of play that part.

A pool is changed in place by the memo heading it; a clone that plays another stick, or a
state asked again after its line moved on, must get a copy rolled back to its own sticks
(`Pool.fork`). Its tables must then equal tables made from nothing, and the line that kept the
pool must be unaffected.
"""

from __future__ import annotations

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, ids


def _same(kept: ids.Table, state: StackBackState, player: int) -> None:
    """`kept` equals the table of `state` made from nothing (mask and snaps)."""
    world = state.clone()
    world._id_table = None
    fresh = ids.table(world, player)
    assert kept.ids.tolist() == fresh.ids.tolist(), len(state.history)
    for index in kept.ids.tolist():
        assert kept.snap_of(index) == fresh.snap_of(index), (len(state.history), index)


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
