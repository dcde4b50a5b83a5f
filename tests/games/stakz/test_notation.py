"""Notation and dense indices: every action round-trips; bad text is refused with a reason."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import teocalli
from teocalli.core import InvalidAction
from teocalli.games.stakz.actions import NUM_DISTINCT_ACTIONS, EndTurn, Place, from_int, parse

GAME = teocalli.load("stakz")


def test_the_index_layout_is_the_documented_one() -> None:
    assert NUM_DISTINCT_ACTIONS == 38 * 25 + 6 == GAME.num_distinct_actions
    assert str(from_int(0)) == "Rc@0"
    assert str(from_int(25 * 3 + 6)) == "Ot@3"  # tile 6 = orange (1) triangle (1)
    assert str(from_int(950)) == "end"
    assert str(from_int(951)) == "end R"
    assert str(from_int(955)) == "end P"


@given(st.integers(0, NUM_DISTINCT_ACTIONS - 1))
def test_every_action_round_trips_through_text_index_and_repr(index: int) -> None:
    action = GAME.action_from_int(index)
    assert GAME.action_to_int(action) == index
    assert GAME.parse_action(str(action)) == action
    assert eval(repr(action), {"Place": Place, "EndTurn": EndTurn}) == action


@given(st.integers(0, NUM_DISTINCT_ACTIONS - 1), st.booleans(), st.sampled_from(["", " ", "  "]))
def test_case_and_spaces_do_not_matter(index: int, upper: bool, pad: str) -> None:
    text = str(GAME.action_from_int(index))
    text = text.upper() if upper else text.lower()
    assert parse(pad + text.replace("@", pad + "@" + pad) + pad) == GAME.action_from_int(index)


@given(st.text(max_size=12))
@example(" rc@0 ")  # texts that parse: that branch always runs
@example("end r")
@example("end")
def test_any_text_parses_or_is_refused_with_invalid_action(text: str) -> None:
    try:
        action: object = parse(text)
    except InvalidAction as err:
        action = err
    if isinstance(action, InvalidAction):
        assert str(action).strip(), "a refusal has a message"
    else:
        assert isinstance(action, Place | EndTurn)
        assert parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Zc@1", "colour letter and a symbol letter"),
        ("Rq@1", "colour letter and a symbol letter"),
        ("Rc@38", "never more than 38 stacks"),
        ("end Z", "draw a colour by its letter"),
        ("put Rc on 1", "cannot read"),
        ("Rc", "cannot read"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        parse(text)
    with pytest.raises(InvalidAction):
        GAME.action_from_int(NUM_DISTINCT_ACTIONS)
    with pytest.raises(InvalidAction):
        GAME.action_to_int(Place(25, 0))
