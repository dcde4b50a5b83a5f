"""The core protocol's own pieces: options, outcomes, the generator, undo, saves, registry."""

from __future__ import annotations

import enum
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import teocalli
from teocalli.core import (
    CorruptSave,
    Effect,
    IllegalAction,
    InvalidOption,
    Option,
    Outcome,
    Rng,
    UnknownGame,
    ranks_from_keys,
)


class Why(enum.Enum):
    TEST = "test"


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownGame, match="aztack"):
        teocalli.load("chess")


def test_options_are_validated_and_coerced_from_text() -> None:
    opt = Option("speed", False, "x")
    assert opt.validate("true") is True
    with pytest.raises(InvalidOption, match="takes true or false"):
        opt.validate("maybe")
    count = Option("n", 3, "x", minimum=1, maximum=5)
    assert count.validate("4") == 4
    with pytest.raises(InvalidOption, match="at most 5"):
        count.validate(9)
    with pytest.raises(InvalidOption, match="takes a int"):
        count.validate(True)
    mode = Option("mode", "a", "x", choices=("a", "b"))
    with pytest.raises(InvalidOption, match="one of 'a', 'b'"):
        mode.validate("c")


def test_ranks_share_places_and_skip_after_ties() -> None:
    assert ranks_from_keys([3, 5, 5, 1]) == (2, 0, 0, 3)
    assert ranks_from_keys([(1, 2), (1, 3), (0, 9)]) == (1, 0, 2)


def test_returns_give_a_draw_zero_and_spread_places() -> None:
    assert Outcome((1, 1), (0, 0), Why.TEST).returns() == (0.0, 0.0)
    assert Outcome((5, 1), (0, 1), Why.TEST).returns() == (1.0, -1.0)
    assert Outcome((3, 2, 1), (0, 1, 2), Why.TEST).returns() == (1.0, 0.0, -1.0)
    assert Outcome((3,), (1,), Why.TEST).returns() == (-1.0,)
    assert Outcome((3, 2, 2), (0, 1, 1), Why.TEST).winners == (0,)


@given(st.integers(0, 2**64), st.integers(1, 1000))
def test_rng_is_reproducible_and_in_range(seed: int, n: int) -> None:
    a, b = Rng(seed), Rng(seed)
    xs = [a.randrange(n) for _ in range(20)]
    assert xs == [b.randrange(n) for _ in range(20)]
    assert all(0 <= x < n for x in xs)
    assert 0.0 <= a.random() < 1.0


def test_rng_shuffle_is_a_permutation_and_roughly_uniform() -> None:
    rng = Rng(1)
    firsts = [0] * 4
    for _ in range(4000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        assert sorted(items) == [0, 1, 2, 3]
        firsts[items[0]] += 1
    assert all(850 < f < 1150 for f in firsts)


def test_undo_only_own_last_step_without_reveal_or_draw() -> None:
    game = teocalli.load("aztack")
    state = game.new_state(3)
    assert not state.can_undo(0)
    state.apply(state.legal_actions(0)[0], 0)
    mover = state.history[-1].player
    assert state.history[-1].effect == Effect.NONE
    assert state.can_undo(mover) and not state.can_undo(1 - mover)
    before = game.new_state(3)
    assert state.undo(mover)._full() == before._full()
    with pytest.raises(IllegalAction, match="cannot be taken back"):
        state.undo(1 - mover)


def test_corrupt_saves_are_refused_with_what_is_wrong() -> None:
    game = teocalli.load("aztack")
    state = game.new_state(2)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    good = state.to_json()
    with pytest.raises(CorruptSave, match="not 'aztack'"):
        game.state_from_json({**good, "game": "stakz"})
    with pytest.raises(CorruptSave, match="version"):
        game.state_from_json({**good, "version": 99})
    with pytest.raises(CorruptSave, match="options"):
        game.state_from_json({**good, "options": {"players": 3}})
    with pytest.raises(CorruptSave, match="step 1"):
        game.state_from_json({**good, "steps": [good["steps"][0], [0, "Gf/Ow@a1-a2"]]})
    with pytest.raises(CorruptSave, match="step 0 must be"):
        game.state_from_json({**good, "steps": [["x"]]})
    with pytest.raises(CorruptSave, match="JSON object"):
        game.state_from_json(json.loads("[1]"))
    assert game.state_from_json(good)._full() == state._full()


def test_apply_accepts_notation_objects_and_indices_alike() -> None:
    game = teocalli.load("aztack")
    a, b, c = game.new_state(1), game.new_state(1), game.new_state(1)
    action = a.legal_actions()[3]
    a.apply(action)
    b.apply(str(action))
    c.apply(game.action_to_int(action))
    assert a._full() == b._full() == c._full()


def test_views_check_the_player() -> None:
    state = teocalli.load("aztack").new_state(1)
    with pytest.raises(IllegalAction, match="no player 5"):
        state.view(5)
