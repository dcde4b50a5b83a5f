"""The position notation refuses impossible positions; the rendering hides what it must."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.core import IllegalAction, InvalidAction
from teocalli.games.stakz import from_position as stakz_position

GAME = teocalli.load("stakz", players=2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("stacks: Rc Rt Rs\nhand 0: Gc\nhand 1: Gc", "three tiles of one colour"),
        ("stacks: Rc Oc Gc Bc Pc\nhand 0: Gt\nhand 1: Gt", "all five colours"),
        ("stacks: Rc\nhand 0: Gc", "'hand 1:' is missing"),
        ("stacks: Rc\nhand 0: Gc\nhand 1: Gc\nhand 2: Gc", "names no player"),
        ("stacks: Rc\nhand 0: Rc Rc Rc\nhand 1: Gc", "only 3 tiles Rc"),
        ("stacks: Rc\nhand 0: Zz\nhand 1: Gc", "not a tile"),
        ("stacks: Rc\nhand 0: -\nhand 1: Gc", "hand 0 is empty"),
        ("stacks: Rc\nhand 0: Gc\nhand 1: Gc\nturn: 2", "turn must be one player"),
        ("stacks: Rc\nhand 0: Gc\nhand 1: Gc\nused: 1", "not there"),
        ("stacks: Rc /\nhand 0: Gc\nhand 1: Gc", "at least one tile"),
        ("stakcs: Rc\nhand 0: Gc\nhand 1: Gc", "cannot read"),
    ],
)
def test_impossible_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        stakz_position(GAME, text)


def test_a_built_position_omitting_the_pile_holds_the_rest_of_the_tiles() -> None:
    state = stakz_position(GAME, "stacks: Rc\nhand 0: Gc\nhand 1: Gc Gt")
    assert len(state.pile) == 75 - 4
    with pytest.raises(IllegalAction, match="no seed"):
        state.to_json()


def test_render_shows_stacks_bottom_to_top_own_symbols_and_others_colours() -> None:
    state = stakz_position(
        GAME,
        "stacks: Rc Rt Bt / Oh\nhand 0: Gs Ps\nhand 1: Bx Bh Rx\nused: 1\npile: Gc Gt",
    )
    text = state.render(0)
    assert " 0: Rc Rt Bt" in text
    assert " * 1: Oh" in text, "stack 1 is marked as having taken a tile this turn"
    assert "P0 (you): Gs Ps [2]" in text
    assert "P1: R1 O0 G0 B2 P0 [3]" in text
    assert "Bx" not in text
    assert "Gc" not in text
    assert "Pile: 2 tiles (R0 O0 G2 B0 P0)" in text
    spectator = state.render(None)
    assert "Gs" not in spectator
    assert "Bx" not in spectator


def test_render_at_the_end_shows_everything_and_the_winner() -> None:
    state = stakz_position(GAME, "stacks: Rc\nhand 0: Rh\nhand 1: Gs\nscores: 0 11")
    state.apply("Rh@0")
    text = state.render(1)
    assert "Match over: winner(s) P0" in text
    assert "Gs" in text
