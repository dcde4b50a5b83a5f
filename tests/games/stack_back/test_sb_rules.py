"""Stack Back's rules, one scenario each, from positions in notation (docs/games/stack-back.md)."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.core import Effect, IllegalAction
from teocalli.games.stack_back import PASS, EndReason, StackBackState, from_position, parse

from .blocked import blocked


def position(text: str, **options: object) -> StackBackState:
    game = teocalli.load("stack-back", **options)
    return from_position(game, text)  # type: ignore[arg-type]


TWO_YELLOWS = "sticks: 0:Y30,40@90 1:Y60,40@90"


def refuse(state, move: str, match: str, player: int | None = None) -> None:
    before = state.view(None)
    with pytest.raises(IllegalAction, match=match):
        state.apply(move, player)
    assert state.view(None) == before


# --- the wood ------------------------------------------------------------------------------------
def test_the_first_stick_goes_on_the_wood_and_ends_the_turn() -> None:
    state = position("turn: 0")
    state.apply("M50,50@0")
    assert [s.level for s in state.sticks] == [0]
    assert state.to_move() == (1,)
    assert state.supply[0] == [10, 9, 10]


def test_a_stick_on_the_wood_may_overhang_while_its_centre_is_over_the_board() -> None:
    position("").apply("Y20,50@0")  # 16 mm beyond board A's outer edge
    position("").apply("G50,98@0")  # 1 mm beyond its far edge
    refuse(position(""), "Y0.5,50@0", "this stick would fall")
    refuse(position(""), "G50,99.5@0", "this stick would fall")


def test_a_green_stick_cannot_straddle_the_gap() -> None:
    state = position("")
    refuse(state, "G118,50@0", "must rest on a board")  # in the gap, touching neither board
    for x in (100, 136):  # touching one board, its centre over the edge
        refuse(state, f"G{x},50@0", "this stick would fall")


def test_yellow_and_mauve_may_straddle_resting_six_mm_on_each_board() -> None:
    state = position("")
    state.apply("Y118,50@0")
    assert state.sticks[0].level == 0 and len(state.sticks[0].contacts) == 2
    state = position("")
    state.apply("M118,50@0")  # 91..145: 9 mm on A, 9 mm on B
    refuse(position(""), "M124,50@0", "resting at least 6 x 6 mm on each board")  # 3 mm on A


def test_a_stick_may_hang_into_the_gap_but_not_reach_the_other_board_by_less_than_6_mm() -> None:
    position("").apply("G90,50@0")  # 8 mm over the gap, on board A
    refuse(position(""), "Y104,50@0", "must cross it")  # 4 mm onto board B


def test_a_stick_on_the_wood_may_lie_side_by_side_with_another() -> None:
    state = position("sticks: 0:Y30,40@90")
    state.apply("Y36,40@90", 0)  # edges touch along a line: no overlap, still the wood
    assert state.sticks[1].level == 0


# --- piling --------------------------------------------------------------------------------------
def test_a_piled_stick_rests_on_exactly_two_and_its_player_plays_again() -> None:
    state = position(TWO_YELLOWS)
    state.apply("M45,40@0", 0)
    stick = state.sticks[-1]
    assert stick.level == 1 and stick.supports == (0, 1)
    assert state.to_move() == (0,)  # the replay after piling
    assert state.placed_this_turn == 1 and state.piled_plays == [1, 0]
    state.apply("G80,90@0", 0)  # a stick on the wood ends the turn
    assert state.to_move() == (1,)


def test_the_level_is_derived_from_what_lies_under_the_footprint() -> None:
    state = position(TWO_YELLOWS + " 0:M45,20@0 1:G45,60@0")
    state.apply("Y45,40@90", 0)
    assert state.sticks[-1].level == 2
    assert state.sticks[-1].supports == (2, 3)


def test_resting_on_one_stick_alone_is_refused() -> None:
    refuse(position("sticks: 0:Y30,50@90"), "G30,50@0", "not on one alone")


def test_touching_a_third_stick_is_refused() -> None:
    state = position("sticks: 0:Y20,50@90 1:Y30,50@90 0:Y40,50@90")
    refuse(state, "M30,50@0", "would touch 3")


def test_a_piled_stick_must_rest_six_by_six_on_each_support() -> None:
    state = position("sticks: 0:Y30,50@90 1:Y60,50@90")
    refuse(state, "G46,50@0", "at least 6 x 6 mm on each of its two supports")
    state.apply("G45,50@0")  # exactly across both
    assert state.sticks[-1].level == 1


def test_a_mauve_on_a_mauve_is_refused() -> None:
    state = position("sticks: 0:M30,40@90 1:G60,40@90")
    refuse(state, "M45,40@0", "never rests on a stick of its own colour")
    state.apply("Y45,40@0")


CARRIER = "sticks: 0:Y30,50@90 1:G60,50@90 0:M45,50@0 1:Y10,50@90"
"""The yellow at x=30 carries a mauve; a bridge at y=25 rests on it and on the yellow at x=10."""


def test_a_yellow_carrying_a_mauve_refuses_a_second_mauve() -> None:
    refuse(position(CARRIER), "M20,25@0", "yellow stick that already carries a mauve")


def test_a_yellow_carrying_a_mauve_refuses_a_yellow() -> None:
    refuse(position(CARRIER), "Y20,25@0", "own colour")


def test_a_yellow_carrying_a_mauve_takes_a_green() -> None:
    state = position(CARRIER)
    state.apply("G20,25@0", 0)
    assert state.sticks[-1].supports == (0, 3)
    assert state.carries[0] == 0b110  # mauve and green


# --- balance -------------------------------------------------------------------------------------
def test_a_stick_off_balance_is_refused() -> None:
    state = position("sticks: 0:G30,40@90 1:G42,40@90")
    refuse(state, "Y63,40@0", "this stick would fall")
    state.apply("Y40,40@0")  # the same bridge centred over its supports stands
    assert state.sticks[-1].level == 1


LOADED = "sticks: 0:G30,20@90 1:G50,20@90 0:G30,60@90 1:G50,60@90 0:M49,20@0 1:M49,60@0"
"""Two mauve bridges overhanging to x=76; a yellow across both at x=72 would tip them."""


def test_a_stick_that_would_topple_one_below_is_refused() -> None:
    state = position(LOADED)
    refuse(state, "Y72,40@90", "make the mauve stick at 49,20 .level 1. fall")
    state.apply("Y40,40@90")  # the same load inside the span


def test_a_straddling_stick_passes_the_balance_check_on_its_board_contacts() -> None:
    state = position("sticks: 0:Y118,30@0 1:Y118,70@0")
    state.apply("M118,50@90", 0)  # over the middle of the gap, on two straddling sticks
    assert state.sticks[-1].level == 1


# --- turns ---------------------------------------------------------------------------------------
LEVELS = TWO_YELLOWS + " 0:M45,20@0 1:G45,60@0 1:Y170,50@90 0:Y200,50@90"


@pytest.mark.parametrize("rule", ["turn", "game"])
def test_the_level_rule(rule: str) -> None:
    state = position(LEVELS, level_rule=rule)
    state.apply("Y45,40@90", 0)  # level 2
    refuse(state, "M185,50@0", "piled at level 2 .* may not come back down to level 1")
    state.apply("G80,90@0", 0)  # the wood ends the turn
    state.apply("G215,10@0", 1)
    if rule == "turn":
        state.apply("M185,50@0", 0)  # the limit resets with each new turn
        assert state.sticks[-1].level == 1
    else:
        refuse(state, "M185,50@0", "in this game")


def test_piling_is_optional() -> None:
    state = position(TWO_YELLOWS)
    assert parse("M44,40@0") in state.legal_actions(0)  # the candidate, on the 2 mm lattice
    state.apply("G80,90@0", 0)
    assert state.to_move() == (1,)


def test_no_pass_while_a_stick_can_be_placed() -> None:
    refuse(position(TWO_YELLOWS), "pass", "only when no stick can be placed")


def test_a_player_who_can_place_nothing_passes_and_two_passes_end_the_game() -> None:
    state = blocked()
    assert state.legal_actions(0) == [PASS]
    state.apply("pass", 0)
    assert not state.is_terminal() and state.idle == 1
    state.apply("pass", 1)
    assert state.is_terminal()
    out = state.outcome()
    assert out.reason is EndReason.BLOCKED
    assert out.scores == (5.0, 3.0) and out.winners == (1,)  # fewest sticks left wins


def test_equal_counts_share_the_win() -> None:
    state = blocked()
    state.supply[0] = [1, 1, 1]
    state.idle, state.turn = 1, 1
    state.apply("pass", 1)
    assert state.outcome().winners == (0, 1) and state.outcome().ranks == (0, 0)


def test_a_turn_of_piles_ends_when_nothing_more_fits_and_is_not_a_pass() -> None:
    state = blocked()
    state.placed_this_turn, state.turn, state.idle = 2, 1, 1
    state.apply("pass", 1)
    assert state.idle == 0 and state.passes == [0, 0] and state.to_move() == (0,)


def test_the_first_to_place_all_their_sticks_wins_at_once() -> None:
    state = position(TWO_YELLOWS + "\nsupply 0: 0 1 0")
    state.apply("M45,40@0", 0)  # a pile, but nothing is left to play again with
    assert state.is_terminal()
    out = state.outcome()
    assert out.reason is EndReason.ALL_PLACED and out.winners == (0,)


def test_a_colour_you_no_longer_hold_is_refused() -> None:
    refuse(position("supply 0: 0 5 5"), "Y50,50@90", "no yellow sticks left", 0)


def test_the_first_player_is_drawn_by_lot() -> None:
    game = teocalli.load("stack-back")
    assert {game.new_state(seed).to_move()[0] for seed in range(12)} == {0, 1}


# --- dexterity -----------------------------------------------------------------------------------
def test_a_steady_hand_places_exactly() -> None:
    game = teocalli.load("stack-back", dexterity=True, steadiness_0=0.0, steadiness_1=0.0)
    state = game.new_state(3)
    player = state.to_move()[0]
    state.apply("Y50,50@90", player)
    assert str(state.sticks[0].pose) == "Y50.0,50.0@90.0"
    assert state.history[-1].effect is Effect.DREW  # the hand drew on the generator


def test_a_shaky_hand_moves_the_stick_and_a_slip_ends_the_turn() -> None:
    game = teocalli.load("stack-back", dexterity=True, steadiness_0=0.0, steadiness_1=2.0)
    moved = slipped = tried = 0
    for seed in range(40):
        state = game.new_state(seed)
        if state.to_move() != (1,):
            continue
        state.apply("Y30,40@90", 1)
        moved += str(state.sticks[0].pose) != "Y30.0,40.0@90.0"
        state.apply("Y60,40@90", 0)
        state.apply("G220,50@90", 1)
        state.apply("G160,50@90", 0)
        piles = [a for a in state.legal_actions(1) if not state.is_free_wood(a)]
        if not piles:
            continue
        tried += 1
        state.apply(piles[0], 1)
        if len(state.sticks) == 4:
            slipped += 1
            assert state.to_move() == (0,) and state.fumbles == [0, 1]
        else:
            assert state.to_move() == (1,) and state.sticks[-1].level == 1
        assert state.history[-1].effect is Effect.DREW
        replay = game.replay(seed, [(s.player, s.action) for s in state.history])
        assert replay._full() == state._full()
    assert moved >= 10 and 0 < slipped < tried
