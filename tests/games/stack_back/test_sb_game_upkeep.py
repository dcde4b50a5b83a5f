"""The position's upkeep (docs/games/stack-back.md, "The position's upkeep"): the per-stick
arrays grow in place in storage only their owner writes (grow.py), and every table a state holds
stays its own sticks' whatever its clones and the branches of a search add."""

from __future__ import annotations

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back.candidates import Bridge, touch_table
from teocalli.games.stack_back.geometry import quads
from teocalli.games.stack_back.grow import NOBODY, Room
from teocalli.games.stack_back.piles import Piles
from teocalli.games.stack_back.rules import Layout, pose_key
from teocalli.games.stack_back.state import StackBackState


def _played(seed: int, steps: int) -> StackBackState:
    game = teocalli.load("stack-back")
    state = game.new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed)
    for _ in range(steps):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _check_layout(layout: Layout, state: StackBackState) -> None:
    """`layout` holds exactly `state`'s sticks, as numpy computes their columns from nothing."""
    sticks = state.sticks
    col = {f: np.array([getattr(s, f) for s in sticks]) for f in ("cx", "cy", "ux", "uy", "half")}
    for name, values in col.items():
        assert getattr(layout, name).tobytes() == values.tobytes(), name
    want = quads(col["cx"], col["cy"], col["ux"], col["uy"], col["half"])
    assert layout.quads.tobytes() == want.tobytes()
    assert layout.keys is not None
    assert layout.keys.tolist() == [pose_key(s.pose) for s in sticks]
    assert layout.levels == tuple(s.level for s in sticks)
    st = layout.statics
    assert st.reach.tobytes() == np.hypot(col["half"], 3.0).tobytes()
    assert st.rows.tolist() == [[s.cx, s.cy, s.ux, s.uy, s.half] for s in sticks]
    assert st.colour.tolist() == [s.colour for s in sticks]
    for s, cont, poly, n in zip(sticks, st.cont, st.poly, st.npoly.tolist(), strict=True):
        assert n == len(s.polygon)
        assert [tuple(e) for e in poly[:n].tolist()] == list(s.polygon)
        assert not poly[n:].any()
        if s.supports:
            assert cont.tolist() == [[c.real, c.imag] for c in s.contacts[:2]]


def test_the_owner_grows_in_place_and_a_clone_copies_first() -> None:
    state = _played(3, 10)
    before = state.layout
    storage = before.room
    rows = len(before.cx)
    snapshot = [c.copy() for c in storage.columns]
    clone = state.clone()
    for _ in range(3):
        actions = clone.legal_actions()
        clone.apply(actions[-1])
    assert clone.layout.room is not storage  # a clone writes into storage of its own
    assert [c.tobytes() for c in storage.columns] == [c.tobytes() for c in snapshot]
    assert storage.used == rows
    actions = state.legal_actions()
    state.apply(actions[0])
    if len(state.sticks) > rows:  # the owner placed a stick: written past its rows, in place
        assert state.layout.room is storage and storage.used == rows + 1
    _check_layout(before, _replayed(state, rows))
    _check_layout(state.layout, state)
    _check_layout(clone.layout, clone)


def _replayed(state: StackBackState, sticks: int) -> StackBackState:
    """A state of the same game with its first `sticks` sticks only."""
    game = state.game
    steps = []
    for step in state.history:
        steps.append((step.player, step.action))
        again = game.replay(state.seed or 0, steps)
        assert isinstance(again, StackBackState)
        if len(again.sticks) == sticks:
            return again
    raise AssertionError("no such position")


def test_clones_that_go_different_ways_keep_their_own_layouts() -> None:
    """Branches of one position, each played on in turns (as a search does), then checked."""
    state = _played(5, 14)
    _ = state.layout
    branches = [state.clone() for _ in range(4)]
    for turn in range(4):
        for k, branch in enumerate(branches):
            if branch.is_terminal():
                continue
            actions = branch.legal_actions()
            branch.apply(actions[(k + turn) % len(actions)])
            _ = branch.layout
    for s in (state, *branches):
        _check_layout(s.layout, s)
    assert len({tuple(map(str, b.sticks)) for b in branches}) == 4


def test_storage_nobody_owns_is_copied_on_every_growth() -> None:
    storage = Room.of(np.arange(3.0))
    assert storage.room(3, 1, NOBODY) is not storage
    mine = storage.room(3, 1, 7)
    mine.columns[0][3] = 9.0
    mine.used = 4
    assert mine.room(4, 1, 7) is mine
    assert mine.room(3, 1, 7) is not mine  # a row lies past 3 already: a copy
    assert mine.room(4, 1, 8) is not mine  # not the owner: a copy
    assert storage.columns[0].tolist() == [0.0, 1.0, 2.0]


def _table(state: StackBackState) -> tuple[list[tuple[int, ...]], dict[int, list[int]]]:
    """The state's kept piled table brought up to date as the state brings it: its rows with
    their pose's index in place of its slot, and per pose the sticks it touches."""
    piles = state._piles.with_sticks(state.sticks, state.layout, state._owner)
    state._piles = piles
    index = piles.index.tolist()
    rows = sorted((i, j, lv, c, index[k]) for i, j, lv, c, k in piles.rows.tolist())
    touched = {index[p]: np.nonzero(row)[0].tolist() for p, row in enumerate(piles.touched)}
    assert len(touched) == len(index)  # each pose once
    feet = Bridge.of(piles.index)
    assert np.array_equal(piles.touched, touch_table(feet, state.layout))
    return rows, touched


def test_kept_piled_tables_of_branches_are_tables_built_at_once() -> None:
    """Branches of one position, each bringing its kept table up to date at every step (in
    place once it owns its storage), against the table built from nothing in one update."""
    state = _played(6, 16)
    _table(state)
    branches = [state.clone() for _ in range(3)]
    storage = state._piles.pose_room
    for turn in range(6):
        for k, branch in enumerate(branches):
            if branch.is_terminal():
                continue
            actions = branch.legal_actions()
            branch.apply(actions[(2 * k + turn) % len(actions)])
            _table(branch)
    for s in (state, *branches):
        fresh = Piles.empty().with_sticks(s.sticks, s.layout)
        index = fresh.index.tolist()
        want_rows = sorted((i, j, lv, c, index[k]) for i, j, lv, c, k in fresh.rows.tolist())
        rows, touched = _table(s)
        assert rows == want_rows
        want = {index[p]: np.nonzero(r)[0].tolist() for p, r in enumerate(fresh.touched)}
        assert touched == want
    assert state._piles.pose_room is storage  # the branches grew storage of their own
    assert all(b._piles.pose_room is not storage for b in branches)
    assert sum(len(b.sticks) > len(state.sticks) for b in branches) >= 2


def test_compiled_corners_are_numpys_bits() -> None:
    """`geometry.quads` (compiled) against numpy's arithmetic, written here, on random
    footprints, strided columns included."""
    rng = np.random.default_rng(9)
    n = 5000
    cx, cy = rng.uniform(-50, 300, n), rng.uniform(-50, 150, n)
    a = rng.uniform(0, np.pi, n)
    ux, uy = np.cos(a), np.sin(a)
    h = rng.choice([13.5, 22.5, 36.0], n)
    w = 3.0
    ax, ay, bx, by = ux * h, uy * h, -uy * w, ux * w
    want = np.empty((n, 4, 2))
    want[:, 0, 0], want[:, 0, 1] = cx + ax + bx, cy + ay + by
    want[:, 1, 0], want[:, 1, 1] = cx - ax + bx, cy - ay + by
    want[:, 2, 0], want[:, 2, 1] = cx - ax - bx, cy - ay - by
    want[:, 3, 0], want[:, 3, 1] = cx + ax - bx, cy + ay - by
    assert quads(cx, cy, ux, uy, h).tobytes() == want.tobytes()
    rows = np.stack([cx, cy, ux, uy, h], axis=1)
    assert quads(*rows.T).tobytes() == want.tobytes()


def test_the_bare_wood_kernel_decides_as_clipping_every_footprint() -> None:
    """`wood_kernels.bare_wood` (the bare-wood table's flags, `search.wood_poses`) against
    every footprint clipped with each board and the rules' thresholds applied with numpy."""
    from teocalli.games.stack_back import search
    from teocalli.games.stack_back.components import HALF_LENGTHS, SPEC
    from teocalli.games.stack_back.geometry import box, clip
    from teocalli.games.stack_back.rules import REST, TOL
    from teocalli.games.stack_back.wood_kernels import bare_wood

    x0, y0, x1, y1 = SPEC.region
    xs = np.arange(np.ceil(x0 / 4) * 4, x1 + 1e-9, 4.0)
    ys = np.arange(np.ceil(y0 / 4) * 4, y1 + 1e-9, 4.0)
    ga, gx, gy = np.meshgrid(np.array(search.ANGLES[:12], dtype=float), xs, ys, indexing="ij")
    a, x, y = np.radians(ga.ravel()), gx.ravel(), gy.ravel()
    ux, uy = np.cos(a), np.sin(a)
    straddling = 0
    for h in HALF_LENGTHS:
        q = quads(x, y, ux, uy, np.full(len(x), h))
        areas, inside = [], []
        for b in SPEC.boards:
            area, _ = clip(q, np.repeat(box(*b)[None], len(x), axis=0))
            areas.append(area)
            inside.append(np.minimum.reduce([x - b[0], b[2] - x, y - b[1], b[3] - y]))
        (aa, ab), (ia, ib) = areas, inside
        need = SPEC.margin - 1e-9
        want = ((aa > TOL) & (ab <= TOL) & (ia >= need)) | ((ab > TOL) & (aa <= TOL) & (ib >= need))
        boards = np.array(SPEC.boards, dtype=float)
        windows = np.stack([box(*b) for b in SPEC.boards])
        ok, both = bare_wood(x, y, ux, uy, h, 3.0, boards, windows, TOL, REST, need)
        assert np.array_equal(ok, want)
        assert np.array_equal(both, (aa >= REST) & (ab >= REST))
        assert ok.any() and not ok.all()
        straddling += int(both.sum())
    assert straddling  # the longest sticks reach across the gap


def test_a_table_with_more_sticks_than_its_columns_widens_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A position played on beyond the supplies may hold more sticks than `piles.WIDTH`
    (tests/games/stack_back/test_pass_search.py plays such games): the kept table widens its
    storage. With 8 columns at first, along a seeded game, the kept candidates are those judged
    from nothing and the table is the one built with the usual width."""
    from teocalli.games.stack_back import piles

    monkeypatch.setattr(piles, "WIDTH", 8)
    state = _played(2, 0)
    assert state._piles.pose_room.columns[2].shape[1] == 8
    rng = Rng(2)
    for _ in range(30):
        if state.is_terminal():
            break
        player = state.to_move()[0]
        kept = state._piled_moves(player)
        if len(state.sticks) == state._piles.count:  # the kept table answered
            want = state.piles_from_nothing(player)
            assert [(i, p) for i, p, _ in kept] == [(i, p) for i, p, _ in want]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    assert len(state.sticks) > 8
    rows, touched = _table(state)
    assert state._piles.pose_room.columns[2].shape[1] > 8
    monkeypatch.setattr(piles, "WIDTH", 64)
    fresh = Piles.empty().with_sticks(state.sticks, state.layout)
    index = fresh.index.tolist()
    assert rows == sorted((i, j, lv, c, index[k]) for i, j, lv, c, k in fresh.rows.tolist())
    assert touched == {index[p]: np.nonzero(r)[0].tolist() for p, r in enumerate(fresh.touched)}
