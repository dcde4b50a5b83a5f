"""Notation: every action prints, parses back, has an evaluable repr and a stable index."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from teocalli.core import InvalidAction
from teocalli.games.space_aztecs import actions
from teocalli.games.space_aztecs.actions import (
    KEEP,
    NUM_ACTIONS,
    TUCK,
    Capture,
    Choose,
    Keep,
    Take,
    Tuck,
    from_int,
    parse,
    to_int,
)
from teocalli.games.space_aztecs.components import CARD_BY_ID
from teocalli.games.space_aztecs.game import SpaceAztecs


def test_the_documented_notation_and_indices() -> None:
    assert str(Take(2)) == "take C"
    assert str(Choose(CARD_BY_ID["PNK-05"])) == "choose PNK-05"
    assert str(Capture(CARD_BY_ID["YEL-04"])) == "capture YEL-04"
    assert (str(TUCK), str(KEEP)) == ("tuck", "keep")
    assert to_int(Take(0)) == 0
    assert to_int(Choose(0)) == 8
    assert to_int(Capture(71)) == 151
    assert (to_int(TUCK), to_int(KEEP)) == (152, 153)
    assert NUM_ACTIONS == SpaceAztecs().num_distinct_actions == 154


@given(st.integers(0, NUM_ACTIONS - 1))
def test_every_index_round_trips_through_text_and_repr(index: int) -> None:
    action = from_int(index)
    assert to_int(action) == index
    assert parse(str(action)) == action
    assert parse("  " + str(action).upper() + " ") == action
    namespace = {"Take": Take, "Choose": Choose, "Capture": Capture, "Tuck": Tuck, "Keep": Keep}
    assert eval(repr(action), namespace) == action


@given(
    st.one_of(
        st.text(max_size=20),  # nearly always refused
        st.integers(0, NUM_ACTIONS - 1).map(lambda i: str(from_int(i))),  # read
    )
)
@example("take A")
@example("~ not a move ~")
def test_parsing_anything_either_reads_an_action_or_says_why(text: str) -> None:
    try:
        action = parse(text)
    except InvalidAction as err:
        message = str(err)
        assert message
    else:
        assert parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("take Z", "piles are A to H"),
        ("choose XYZ-99", "not a card id"),
        ("capture", "cannot read"),
        ("tuck it", "cannot read"),
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        parse(text)


def test_out_of_range_indices_are_refused() -> None:
    for bad in (-1, NUM_ACTIONS, True):
        with pytest.raises(InvalidAction):
            from_int(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction):
        actions.to_int("take A")
