"""Aztack rule scenarios, one per rule of docs/games/aztack.md and per rulebook example.

Positions are written in Aztack notation (teocalli/games/aztack/position.py). The base used by
most tests has these tops at level 1:

        a   b   c   d   e   f
    1  Bt  Rf  Gt  Yw  Yt  Rd      (row A stones cover rows 1-2)
    2  Gw  Yt  Bw  Gf  Gw  Gt
    3  Bw  Of  Od  Ow  Rd  Bd      (row B stones cover rows 3-4)
    4  Rd  Bw  Bt  Rt  Yf  Gt
"""

from __future__ import annotations

import pytest

import teocalli
from teocalli.core import IllegalAction, InvalidAction
from teocalli.games.aztack import Discard, EndReason, Keep, Pass, Place
from teocalli.games.aztack.components import cell_text, parse_cell, stone_id
from teocalli.games.aztack.position import from_position

BASE = """
A: Bt/Gw Rf/Yt Gt/Bw Yw/Gf Yt/Gw Rd/Gt
B: Bw/Rd Of/Bw Od/Bt Ow/Rt Rd/Yf Bd/Gt
"""


def position(text: str, **options: object):  # type: ignore[no-untyped-def]
    return from_position(teocalli.load("aztack", **options), BASE + text)


def legal_texts(state, player: int) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in state.legal_actions(player)}


# --- rulebook examples (placing across a1-b1, whose tops are Bt and Rf) ------------------------


def test_example_1_colours_match() -> None:
    state = position("hand 0: Bd/Rt Yf/Gt\nhand 1: Gd/Ot")
    assert "Bd/Rt@a1-b1" in legal_texts(state, 0)
    state.apply("Bd/Rt@a1-b1", 0)
    assert state.bonus_pending() == []
    assert state.to_move() == (1,)


def test_example_2_glyphs_match() -> None:
    state = position("hand 0: Gt/Of Yf/Gt\nhand 1: Gd/Ot")
    assert "Gt/Of@a1-b1" in legal_texts(state, 0)
    state.apply("Gt/Of@a1-b1", 0)
    assert state.to_move() == (1,)


def test_example_3_one_half_by_colour_and_one_by_glyph_is_refused() -> None:
    state = position("hand 0: Bd/Of Yf/Gt\nhand 1: Gd/Ot")
    assert "Bd/Of@a1-b1" not in legal_texts(state, 0)
    with pytest.raises(IllegalAction, match="one half by colour and the other only by glyph"):
        state.apply("Bd/Of@a1-b1", 0)
    assert state.hand_size(0) == 2 and state.height[parse_cell("a1")] == 1


def test_example_4_colours_and_glyphs_match_gives_a_bonus_discard() -> None:
    state = position("hand 0: Bt/Rf Yf/Gt Gd/Ot\nhand 1: Gd/Bw")
    state.apply("Bt/Rf@a1-b1", 0)
    assert state.bonus_pending() == [0]
    assert state.to_move() == (0,), "the placer decides the discard before the turn passes"
    assert legal_texts(state, 0) == {"discard Yf/Gt", "discard Gd/Ot", "keep"}
    with pytest.raises(IllegalAction, match="first discard a stone"):
        state.apply("Yf/Gt@c3-d3", 0)
    state.apply("discard Gd/Ot", 0)
    assert state.hand_size(0) == 1
    assert state.view(None)["state"]["discarded"] == ["Gd/Ot"]
    assert state.to_move() == (1,)


def test_the_bonus_discard_may_be_declined() -> None:
    state = position("hand 0: Bt/Rf Yf/Gt\nhand 1: Gd/Bw")
    state.apply("Bt/Rf@a1-b1", 0)
    state.apply(Keep(), 0)
    assert state.hand_size(0) == 1 and state.to_move() == (1,)


def test_discard_only_after_a_bonus() -> None:
    state = position("hand 0: Bd/Rt Yf/Gt\nhand 1: Gd/Bw")
    with pytest.raises(IllegalAction, match="only right after a placement that matches both"):
        state.apply("discard Yf/Gt", 0)


# --- placing -----------------------------------------------------------------------------------


def test_a_stone_must_bridge_two_stones() -> None:
    state = position("hand 0: Bd/Rt Gd/Bw\nhand 1: Gd/Ot")
    with pytest.raises(IllegalAction, match="bridge two stones"):
        state.apply("Gd/Bw@a1-a2", 0)


def test_a_stone_may_lie_across_the_two_base_rows_and_either_way_round() -> None:
    state = position("hand 0: Gd/Bw Yf/Gt\nhand 1: Gd/Ot")
    legal = legal_texts(state, 0)
    assert "Gd/Bw@a2-a3" in legal  # vertical, bridging base rows A and B
    state.apply("Bw/Gd@a3-a2", 0)  # the same placement, written the other way round
    assert state.top_texts("a2", "a3") == ("Gd", "Bw")


def test_a_stone_must_lie_flat() -> None:
    state = position("placed: Bd/Rt@a1-b1\nhand 0: Rw/Ot Yf/Gt\nhand 1: Gd/Ot")
    assert state.height[parse_cell("b1")] == 2 and state.height[parse_cell("c1")] == 1
    with pytest.raises(IllegalAction, match="must lie flat"):
        state.apply("Rw/Ot@b1-c1", 0)


def test_stones_stack_on_any_level_and_raise_the_cells() -> None:
    state = position("placed: Bd/Rt@a1-b1 Ot/Bw@c1-d1\nhand 0: Rw/Ot Yf/Gt\nhand 1: Gd/Ot")
    assert "Rw/Ot@b1-c1" in legal_texts(state, 0)
    state.apply("Rw/Ot@b1-c1", 0)
    assert [state.height[parse_cell(c)] for c in ("a1", "b1", "c1", "d1")] == [2, 3, 3, 2]
    assert state.top_texts("b1", "c1") == ("Rw", "Ot")
    assert "level 3" in state.render(0)


def test_a_stone_never_lies_on_the_table() -> None:
    with pytest.raises(InvalidAction, match="column a-f and a row 1-4"):
        teocalli.load("aztack").parse_action("Bd/Rt@f1-g1")
    assert cell_text(parse_cell("f4") or 0) == "f4"


def test_you_must_place_when_you_can() -> None:
    state = position("hand 0: Bd/Rt\nhand 1: Gd/Ot")
    assert Pass() not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="must place a stone when you can"):
        state.apply("pass", 0)


def test_a_stone_not_in_hand_is_refused() -> None:
    state = position("hand 0: Bd/Rt Yf/Gt\nhand 1: Gt/Of")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("Gt/Of@a1-b1", 0)


def test_seat_0_plays_first_and_turns_go_in_seat_order() -> None:
    state = teocalli.load("aztack", players=3).new_state(4)
    order = []
    while len(order) < 6 and not state.is_terminal():
        player = state.current_player()
        order.append(player)
        action = state.legal_actions(player)[0]
        state.apply(action, player)
        if state.bonus_pending():
            state.apply(Keep(), player)
    assert order[:3] == [0, 1, 2] and order[3:6] == [0, 1, 2]
    with pytest.raises(IllegalAction, match="not player 2's turn"):
        state.apply(state.legal_actions(0)[0], 2)


# --- the end -----------------------------------------------------------------------------------


def test_the_first_to_place_their_last_stone_wins_at_once() -> None:
    state = position("hand 0: Bd/Rt\nhand 1: Gd/Ot Yf/Gt")
    state.apply("Bd/Rt@a1-b1", 0)
    assert state.is_terminal()
    out = state.outcome()
    assert out.winners == (0,) and out.reason is EndReason.EMPTIED_HAND
    assert out.scores == (0.0, 2.0)


def test_a_bonus_on_the_last_stone_wins_without_a_discard() -> None:
    state = position("hand 0: Bt/Rf\nhand 1: Gd/Ot")
    state.apply("Bt/Rf@a1-b1", 0)
    assert state.is_terminal() and state.outcome().winners == (0,)


def test_a_bonus_discard_that_empties_the_hand_wins() -> None:
    state = position("hand 0: Bt/Rf Yf/Gt\nhand 1: Gd/Ot")
    state.apply("Bt/Rf@a1-b1", 0)
    state.apply("discard Yf/Gt", 0)
    assert state.is_terminal() and state.outcome().winners == (0,)
    assert state.outcome().reason is EndReason.EMPTIED_HAND


TIE = """
A: Yw/Of Of/Bw Yd/Rf Rw/Od Gw/Yd Bf/Gd
B: Gf/Rt Bf/Rw Ow/Bd Gw/Bf Rf/Yt Of/Bd
placed: Od/Bt@a2-b2 Od/Gw@c1-d1 Rf/Gw@c2-c3 Bw/Yf@d4-e4 Gf/Bd@a3-b3 Of/Rt@c1-c2 Ow/Rf@a1-b1
placed: Gt/Bw@e1-f1 Yw/Gt@d1-e1 Yw/Rd@b4-c4 Bw/Gd@c3-c4 Od/Bf@e2-e3 Bt/Gw@c2-c3 Rd/Yf@a2-a3
placed: Yf/Rw@c1-d1 Bt/Yd@b3-b4 Bf/Ot@a3-b3 Rt/Bd@b1-b2
hand 0: Ow/Bt Yw/Rt Yt/Rw
hand 1: Ot/Bw Yf/Gt Rd/Gt
"""


def test_blocked_equal_stones_the_latest_placement_wins() -> None:
    state = from_position(teocalli.load("aztack"), TIE)
    state.apply("Yt/Rw@b3-c3", 0)
    assert not state.is_terminal()
    state.apply("Yf/Gt@b4-c4", 1)
    assert state.is_terminal()
    out = state.outcome()
    assert out.reason is EndReason.BLOCKED
    assert out.scores == (2.0, 2.0)
    assert out.ranks == (1, 0) and out.winners == (1,)


def test_blocked_fewest_stones_wins_before_latest_placement() -> None:
    state = from_position(
        teocalli.load("aztack"),
        """
        A: Yd/Rf Of/Yw Ow/Bt Yf/Bw Ow/Yd Yw/Bd
        B: Bt/Gf Bw/Gt Ot/Bw Gd/Bf Yf/Rd Yf/Gt
        placed: Bf/Rw@d4-e4 Gt/Yw@b4-c4 Gt/Bd@c3-d3 Gw/Od@d2-e2 Rt/Yw@c3-c4 Yf/Rw@d1-e1
        placed: Gf/Ow@d1-d2 Gf/Yw@a2-b2 Rd/Ot@e1-e2 Bd/Gf@d3-d4 Yt/Od@c3-d3 Yf/Ot@a1-b1
        placed: Bt/Yd@f2-f3 Bw/Of@c4-d4 Gt/Rd@d1-e1 Yt/Bf@c3-c4 Rd/Of@d3-d4
        hand 0: Gd/Ot Of/Rt
        hand 1: Gd/Bw Bt/Rf Bt/Od Rt/Gf Rt/Yd
        turn: 1
        """,
    )
    state.apply("Bt/Od@c3-d3", 1)
    out = state.outcome()
    assert out.reason is EndReason.BLOCKED
    assert out.scores == (2.0, 4.0) and out.winners == (0,)


def test_ranking_never_placed_ranks_after_and_equal_share() -> None:
    state = position("hand 0: Bd/Rt Yf/Gt\nhand 1: Gd/Ot Yd/Bt\nhand 2: Gd/Bw Rw/Ot", players=3)
    state.last_placed = [5, -1, -1]
    state.over = True
    out = state.outcome()
    assert out.ranks == (0, 1, 1), "equal stones, none placed by 1 and 2: they share second"
    state.last_placed = [2, 3, -1]
    assert state.outcome().ranks == (1, 0, 2), "equal stones: a player who never placed ranks last"


# --- speed stack -------------------------------------------------------------------------------


def test_speed_stack_any_player_who_can_place_may_act() -> None:
    state = position("hand 0: Bd/Rt Yf/Gt\nhand 1: Gt/Of Gd/Bw", speed=True)
    assert state.to_move() == (0, 1)
    state.apply("Gt/Of@a1-b1", 1)
    with pytest.raises(IllegalAction, match="bridge two stones"):
        state.apply("Bd/Rt@a1-b1", 0)  # checked against the position as it is now
    assert 0 in state.to_move()


def test_speed_stack_bonus_discard_before_placing_again_while_others_play() -> None:
    state = position("hand 0: Bt/Rf Yf/Gt Gd/Ot\nhand 1: Gd/Bw Yd/Bt", speed=True)
    state.apply("Bt/Rf@a1-b1", 0)
    assert state.bonus_pending() == [0]
    assert legal_texts(state, 0) == {"discard Yf/Gt", "discard Gd/Ot", "keep"}
    state.apply("Gd/Bw@a2-a3", 1)  # others keep playing meanwhile
    state.apply(Discard(stone_id("Gd/Ot")), 0)
    assert state.bonus_pending() == [] and state.hand_size(0) == 1


def test_speed_stack_blocked_the_last_placer_wins_even_with_more_stones() -> None:
    state = from_position(
        teocalli.load("aztack", speed=True),
        """
        A: Od/Rw Bw/Gd Od/Gw Bw/Of Of/Rt Yf/Rd
        B: Yt/Rw Rf/Bt Bf/Yt Ot/Bw Rt/Bd Rt/Ow
        placed: Od/Bt@a1-b1 Gt/Bw@c4-d4 Rw/Yf@a2-a3 Bt/Yd@e2-f2 Bt/Ow@c3-d3 Bd/Gf@c3-c4
        placed: Bf/Ot@d1-e1 Rd/Bw@a4-b4 Yd/Rf@a3-a4 Bd/Ow@b2-c2 Yt/Gd@b1-b2 Od/Rf@a1-a2
        placed: Of/Yw@a1-b1
        hand 0: Gw/Bf Od/Yt Bf/Rw Rf/Gw
        hand 1: Gf/Ow Gf/Yd Gd/Yf Yf/Bw Yw/Rt Bf/Gd Rw/Ot
        """,
    )
    state.apply("Bf/Gd@a2-a3", 1)
    out = state.outcome()
    assert out.reason is EndReason.BLOCKED
    assert out.scores == (4.0, 6.0) and out.winners == (1,)


def test_speed_stack_declared_match_must_be_right() -> None:
    state = position("hand 0: Bd/Rt Bt/Rf Gt/Of\nhand 1: Gd/Bw", speed=True, declare=True)
    legal = legal_texts(state, 0)
    assert {"Bd/Rt@a1-b1=c", "Bt/Rf@a1-b1=cg", "Gt/Of@a1-b1=g"} <= legal
    with pytest.raises(IllegalAction, match="wrong shout"):
        state.apply("Bd/Rt@a1-b1=g", 0)
    with pytest.raises(IllegalAction, match="declare the match type"):
        state.apply("Bd/Rt@a1-b1", 0)
    state.apply("Bd/Rt@a1-b1=c", 0)
    assert state.hand_size(0) == 2


def test_declare_needs_speed_stack() -> None:
    with pytest.raises(ValueError, match="speed"):
        teocalli.load("aztack", declare=True)


# --- notation ---------------------------------------------------------------------------------


def test_placement_notation_names_a_stone_and_two_adjacent_cells() -> None:
    game = teocalli.load("aztack")
    action = game.parse_action("Rt/Bd@b1-a1")
    assert isinstance(action, Place)
    assert str(action) == "Bd/Rt@a1-b1"
    with pytest.raises(InvalidAction, match="not side by side"):
        game.parse_action("Bd/Rt@a1-c1")
    with pytest.raises(InvalidAction, match="no stone Bd/Rw"):
        game.parse_action("Bd/Rw@a1-b1")
