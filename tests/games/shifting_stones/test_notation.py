"""Notation: actions and grids round-trip; bad text is refused with a useful message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from teocalli.core import InvalidAction
from teocalli.games.shifting_stones import actions
from teocalli.games.shifting_stones.actions import END, SKIP, Flip, Score, Shift
from teocalli.games.shifting_stones.components import SWAPS
from teocalli.games.shifting_stones.grid import (
    NUM_GRIDS,
    grid_from_index,
    grid_index,
    grid_text,
    parse_grid,
)
from teocalli.games.shifting_stones.position import from_position

from .helpers import position

cards = st.integers(1, 72)
action_strategy = st.one_of(
    st.builds(Score, cards),
    st.builds(lambda c, s: Shift(c, *SWAPS[s]), cards, st.integers(0, 11)),
    st.builds(Flip, cards, st.integers(0, 8)),
    st.just(END),
    st.just(SKIP),
)


@given(action_strategy)
def test_actions_round_trip_through_text_repr_and_index(action: actions.Action) -> None:
    assert actions.parse(str(action)) == action
    assert eval(repr(action), vars(actions)) == action
    assert actions.from_int(actions.to_int(action)) == action


def test_every_index_is_one_action() -> None:
    seen = {str(actions.from_int(i)) for i in range(actions.NUM_ACTIONS)}
    assert len(seen) == actions.NUM_ACTIONS == 1586
    assert actions.to_int(Shift(17, 0, 1)) == 72 + 16 * 12
    assert actions.to_int(Flip(1, 4)) == 936 + 4 and actions.to_int(SKIP) == 1585


def test_parsing_is_forgiving_about_case_spacing_and_cell_order() -> None:
    assert actions.parse("  SHIFT 17  2-1 ") == Shift(17, 0, 1)
    assert str(actions.parse("Flip 3 9")) == "flip 3 9"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("shift 17 1-5", "no diagonal"),
        ("shift 17 12", "two cells"),
        ("flip 73 1", "not a card id"),
        ("flip 7 0", "not a cell"),
        ("score", "is not an action"),
        ("", "empty"),
        ("jump", "is not an action"),
    ],
)
def test_bad_action_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        actions.parse(text)


@given(st.integers(0, NUM_GRIDS - 1))
def test_grid_index_and_text_round_trip(index: int) -> None:
    grid = grid_from_index(index)
    assert grid_index(grid) == index
    assert parse_grid(grid_text(grid)) == grid
    assert parse_grid(grid_text(grid).replace(" ", "")) == grid


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Su Fi Ho / Bo Se Tr", "3 rows"),
        ("Su Fi Ho / Bo Se Tr / Se Tr Bi", "3 Ho/Bo"),
        ("Su Fi Xx / Bo Se Tr / Se Ho Bi", "not a face"),
        ("Su Fi / Bo Se Tr / Se Ho Bi", "3 faces"),
    ],
)
def test_bad_grids_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_grid(text)


def test_position_builder_refuses_duplicates_and_unknown_keys() -> None:
    with pytest.raises(ValueError, match="twice"):
        position("grid: Su Fi Ho / Bo Se Tr / Se Ho Bi\nhands: 1 | 1")
    with pytest.raises(ValueError, match="unknown position line"):
        position("grid: Su Fi Ho / Bo Se Tr / Se Ho Bi\ncolour: red")
    with pytest.raises(ValueError, match="2 seat"):
        position("grid: Su Fi Ho / Bo Se Tr / Se Ho Bi\nhands: 1")


def test_render_shows_the_grid_and_only_the_viewers_hand() -> None:
    import teocalli

    state = position("grid: Su Fi Ho / Bo Se Tr / Se Ho Bi\nhands: 21 | 7")
    text = state.render(0)
    assert "row 1: Su | Fi | Ho" in text and "card 21 (1 pt): Tr Tr" in text
    assert "card  7" not in text
    assert from_position(teocalli.load("shifting-stones"), "grid: " + grid_text(state.grid))  # type: ignore[arg-type]
