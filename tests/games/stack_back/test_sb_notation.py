"""Stack Back notation: round trips, quantisation, useful refusals (action ids: test_sb_ids.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from teocalli.core import InvalidAction
from teocalli.games.stack_back import PASS, Colour, Pass, Place, parse, pose

places = st.builds(
    Place,
    st.sampled_from(list(Colour)),
    st.integers(-5000, 5000),
    st.integers(-5000, 5000),
    st.integers(0, 1799),
)


@given(places)
def test_notation_round_trips(action: Place) -> None:
    assert parse(str(action)) == action
    assert eval(repr(action)) == action


@given(st.floats(-400, 400), st.floats(-400, 400), st.floats(-720, 720))
def test_parse_quantises_any_precision(x: float, y: float, a: float) -> None:
    action = parse(f"g{x:.6f},{y:.6f}@{a:.6f}")
    assert isinstance(action, Place)
    assert abs(action.x - x) <= 0.05 + 1e-6 and abs(action.y - y) <= 0.05 + 1e-6
    assert 0 <= action.a10 < 1800
    assert parse(str(action)) == action


def test_notation_examples() -> None:
    assert str(pose(Colour.YELLOW, 35, 50, 90)) == "Y35.0,50.0@90.0"
    assert parse("yellow 35 50 @ 90") == parse("Y35.0,50.0@90.0") == parse("y35,50@270")
    assert parse("M1.25,0.35@0.05") == Place(Colour.MAUVE, 12, 4, 0)  # half to even
    assert parse("G-3.5,7@180") == Place(Colour.GREEN, -35, 70, 0)
    assert parse(" pass ") == PASS and str(Pass()) == "pass"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("R10,10@0", "colour Y, M or G"),
        ("Y10@0", "x,y@angle"),
        ("Y100000000,0@0", "10 m"),
        ("", "cannot read"),
    ],
)
def test_bad_notation_is_refused_with_a_hint(text: str, match: str) -> None:
    with pytest.raises(InvalidAction, match=match):
        parse(text)
