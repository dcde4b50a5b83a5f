"""Stack Back's action ids (ids.py): bins of poses, their mask and their snaps.

The mask must agree with the engine: every masked id plays a pose `apply` accepts (judged afresh,
without the state's tables), the bin of every legal candidate is masked, `pass` is masked
exactly when the engine offers a pass (and then alone), and a bin left out of the mask holds no
legal pose of the search's lattice (the 27 of its square are judged one by one, independently of the
filters that built the mask). A snap is the same when the table is built again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import teocalli
from teocalli.agents import make_agent
from teocalli.core import IllegalAction, InvalidAction, Rng
from teocalli.games.stack_back import PASS, Colour, Place, StackBackState, from_position, ids, parse
from teocalli.games.stack_back.ids import NUM_IDS, PASS_ID, from_int, to_int

BLOCKED = (Path(__file__).parents[2] / "data" / "stack-back-blocked.txt").read_text()


def test_the_id_layout() -> None:
    assert NUM_IDS == 3 * 12 * 26 * 15 + 1 == 14041
    assert teocalli.load("stack-back").num_distinct_actions == NUM_IDS
    assert to_int(PASS) == PASS_ID == NUM_IDS - 1
    assert to_int(parse("Y-36,-36@0")) == 0
    assert to_int(parse("Y-24.1,-24.1@14.9")) == 0  # one bin: 12 mm, 15 degrees
    assert to_int(parse("Y-36,-24@0")) == 1
    assert to_int(parse("Y-24,-36@0")) == 15
    assert to_int(parse("Y0,0@0")) == 3 * 15 + 3  # the boards' corner is a bin's corner
    assert to_int(parse("Y-36,-36@15")) == 26 * 15
    assert to_int(parse("M-36,-36@0")) == 12 * 26 * 15
    assert to_int(parse("G275.9,143.9@179.9")) == PASS_ID - 1
    assert str(from_int(0)) == "Y-30.0,-30.0@7.5"  # without a position: the square's centre


def test_every_id_names_its_own_bin() -> None:
    for index in range(NUM_IDS):
        action = from_int(index)
        assert to_int(action) == index
        assert parse(str(action)) == action


@given(
    st.sampled_from(list(Colour)),
    st.integers(-360, 2759),
    st.integers(-360, 1439),
    st.integers(0, 1799),
)
def test_a_pose_lies_in_the_bin_of_its_id(colour: Colour, x10: int, y10: int, a10: int) -> None:
    index = to_int(Place(colour, x10, y10, a10))
    c, ab, xb, yb = ids.parts(index)
    assert c == colour
    assert -360 + xb * 120 <= x10 < -360 + (xb + 1) * 120
    assert -360 + yb * 120 <= y10 < -360 + (yb + 1) * 120
    assert ab * 150 <= a10 < (ab + 1) * 150


@pytest.mark.parametrize(
    ("text", "xb", "yb"),
    [("Y-36.1,50@0", 0, 7), ("Y-900,-900@0", 0, 0), ("Y276,50@0", 25, 7), ("M10,400@45", 3, 14),
     ("G3000,-37@90", 25, 0)],
)  # fmt: skip
def test_a_pose_beyond_the_squares_lies_in_the_outermost_ring(text: str, xb: int, yb: int) -> None:
    """Every pose has an id: a pile may hang farther out than the squares reach (ids.REACH)."""
    place = parse(text)
    assert isinstance(place, Place)
    assert ids.parts(to_int(place)) == (place.colour, place.a10 // 150, xb, yb)


@pytest.mark.parametrize("bad", [-1, NUM_IDS, True, "3", 2.0])
def test_bad_ids_are_refused(bad: object) -> None:
    with pytest.raises(InvalidAction, match="not a Stack Back action id"):
        from_int(bad)  # type: ignore[arg-type]
    state = teocalli.load("stack-back").new_state(1)
    with pytest.raises(InvalidAction):
        state.apply(bad)  # type: ignore[arg-type]


def _positions() -> list[StackBackState]:
    """Positions of random and greedy games (piles at several levels) and a blocked one."""
    game = teocalli.load("stack-back")
    out: list[StackBackState] = []
    for seed, bot in ((1, "random"), (2, "greedy")):
        state = game.new_state(seed)
        agents = [make_agent(bot, game, seed=seed * 2 + p) for p in range(2)]
        step = 0
        while not state.is_terminal():
            if step % 9 == 4:
                out.append(state.clone())
            player = state.current_player()
            state.apply(agents[player].act(state, player), player)
            step += 1
    blocked = from_position(game, BLOCKED)  # type: ignore[arg-type]
    for player in (0, 1):
        blocked.turn = player
        out.append(blocked.clone())
    assert all(isinstance(s, StackBackState) for s in out)
    return out


POSITIONS = _positions()


def _bin_poses(index: int) -> list[Place]:
    """The 27 lattice poses of the search (4 mm, 5 degrees) in a bin's 12 mm square."""
    colour, ab, xb, yb = ids.parts(index)
    return [
        Place(Colour(colour), -360 + xb * 120 + dx, -360 + yb * 120 + dy, ab * 150 + da)
        for da in (0, 50, 100)
        for dx in (0, 40, 80)
        for dy in (0, 40, 80)
    ]


@pytest.mark.parametrize("n", range(len(POSITIONS)))
def test_the_mask_agrees_with_the_engine(n: int) -> None:
    state = POSITIONS[n]
    player = state.current_player()
    mask = state.legal_action_ints(player)
    assert mask == sorted(set(mask)) and mask
    legal = state.legal_actions(player)
    fresh = state.clone()  # without the candidate and id tables: judged afresh
    fresh._cache = fresh._id_table = None
    if legal == [PASS]:
        assert mask == [PASS_ID]
        assert fresh._illegal_reason(PASS, player) is None
    else:
        assert PASS_ID not in mask
        assert {to_int(a) for a in legal} <= set(mask), "a candidate's bin is not masked"
    for index in mask:
        action = state.action_from_int(index, player)
        assert to_int(action) == index
        assert fresh.action_from_int(index, player) == action, "the snap is not deterministic"
        assert fresh._illegal_reason(action, player) is None, f"{index}: {action} refused"
    for index in mask[:: max(1, len(mask) // 15)]:
        world = state.clone()
        world.apply(index, player)
        assert world.history[-1].action == state.action_from_int(index, player)
    # bins left out hold no legal pose of the search's lattice (a sample, judged one by one)
    rng = Rng(n)
    masked = set(mask)
    out = [i for i in range(PASS_ID) if i not in masked]
    for index in [out[rng.randrange(len(out))] for _ in range(150)]:
        for place in _bin_poses(index):
            assert isinstance(fresh.judge(place, player), str), f"{place} stands, bin {index}"
        with pytest.raises(IllegalAction, match="names no legal pose now"):
            state.clone().apply(index, player)


def test_bins_near_the_sticks_are_complete() -> None:
    """Every legal lattice pose near the placed sticks (where piles and tight wood poses are)
    lies in a masked bin."""
    rng = Rng(77)
    checked = 0
    for state in POSITIONS[::2]:
        player = state.current_player()
        if not state.sticks or state.legal_actions(player) == [PASS]:
            continue
        masked = set(state.legal_action_ints(player))
        for _ in range(400):
            s = state.sticks[rng.randrange(len(state.sticks))]
            x10 = (round(s.cx / 4) + rng.randrange(17) - 8) * 40
            y10 = (round(s.cy / 4) + rng.randrange(17) - 8) * 40
            place = Place(Colour(rng.randrange(3)), x10, y10, rng.randrange(36) * 50)
            if not isinstance(state.judge(place, player), str):
                checked += 1
                assert to_int(place) in masked, f"{place} stands but its bin is not masked"
    assert checked > 50


def test_pass_is_the_only_id_when_nothing_fits() -> None:
    """The blocked position (tests/data): no pose fits for either player."""
    game = teocalli.load("stack-back")
    state = from_position(game, BLOCKED)
    for player in (0, 1):
        state.turn = player
        offered = state.legal_actions(player) == [PASS]
        assert (state.legal_action_ints(player) == [PASS_ID]) == offered
        world = state.clone()
        if offered:
            world.apply(PASS_ID, player)
            assert world.history[-1].action == PASS
        else:
            with pytest.raises(IllegalAction, match="only when no stick"):
                world.apply(PASS_ID, player)


def test_the_kept_table_equals_a_fresh_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Along a game, the mask keeps what it learnt (ids._Memo: each bin's first free wood pose,
    each pair's poses left and their verdicts) and works only on what the new sticks change; the
    mask and snaps equal those of a table made from nothing at every step, and the memo saves
    work (counted in pairs whose poses are generated and filtered from nothing)."""
    made = [0]
    new_pairs = ids.id_kernels.new_pairs

    def counted(keys: Any, *args: Any) -> Any:
        made[0] += len(keys)
        return new_pairs(keys, *args)

    monkeypatch.setattr(ids.id_kernels, "new_pairs", counted)
    game = teocalli.load("stack-back")
    state = game.new_state(11)
    rng = Rng(4)
    warm = fresh = 0
    for _ in range(14):
        player = state.current_player()
        made[0] = 0
        kept = ids.table(state, player)
        warm += made[0]
        world = state.clone()
        world._id_table = None
        made[0] = 0
        again = ids.table(world, player)
        fresh += made[0]
        assert kept.ids.tolist() == again.ids.tolist(), len(state.history)
        for index in kept.ids.tolist():
            assert kept.snap_of(state, index) == again.snap_of(world, index), (
                len(state.history), index)  # fmt: skip
        state.apply(int(kept.ids[rng.randrange(len(kept.ids))]), player)
    assert len(state.sticks) >= 8
    assert warm < fresh / 2, (warm, fresh)
