"""The text and SVG pictures show every stick, shaded by level."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import teocalli
from teocalli.games.stack_back import StackBackState, from_position
from teocalli.games.stack_back.render import render, render_svg

TWO_LEVELS = "sticks: 0:Y30,40@90 1:Y60,40@90 0:M45,20@0 1:G45,60@0 0:Y45,40@90"


def position(text: str) -> StackBackState:
    return from_position(teocalli.load("stack-back"), text)  # type: ignore[arg-type]


def test_text_view_shades_levels_and_lists_sticks() -> None:
    text = render(position(TWO_LEVELS), None)
    grid = text.split("levels:")[0]
    assert "-" in grid and "=" in grid and "+" in grid  # levels 0, 1 and 2
    assert "#4 Y45.0,40.0@90.0 level 2 by 0 on 2,3" in text
    assert "player 0: Y8 M9 G10" in text
    rows = [line for line in grid.splitlines() if line.startswith("|")]
    assert len(rows) == 25 and all(len(r) == 61 for r in rows)
    assert all(r[27:34].strip() == "" for r in rows[:1])  # the gap is blank


def test_a_seat_sees_the_same_board_with_its_line_marked() -> None:
    state = position(TWO_LEVELS)
    seen = render(state, 1)
    assert "player 1: Y9 M10 G9  (floor 0) (you)" in seen
    assert seen.replace(" (you)", "") == render(state, None)  # nothing is hidden


def test_svg_is_well_formed_with_one_group_per_stick() -> None:
    svg = render_svg(position(TWO_LEVELS))
    root = ET.fromstring(svg)
    groups = root.findall("{http://www.w3.org/2000/svg}g")
    assert len(groups) == 5
    assert groups[-1].find("{http://www.w3.org/2000/svg}text").text == "2"  # drawn last: on top
