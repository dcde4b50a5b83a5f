"""Turn actions: shift, flip, score, end (draw to 4), skip (draw 2, never twice), reshuffle."""

from __future__ import annotations

import pytest

from teocalli.core import Effect, IllegalAction
from teocalli.games.shifting_stones.grid import grid_text

from .helpers import GRID, position

BASE = f"grid: {GRID}\nhands: 21 1 2 3 | 4 5 6 7\ndeck: 10 11 12 13 14 15 16"


def test_shift_discards_a_card_and_swaps_two_adjacent_tiles() -> None:
    state = position(BASE)
    state.apply("shift 2 1-2", 0)
    assert grid_text(state.grid) == "Fi Su Ho / Bo Se Tr / Se Ho Bi"
    assert state.hands[0] == [1, 3, 21] and state.discard == [2]
    assert state.history[-1].effect is Effect.REVEALED  # the discarded card is public
    state.apply("shift 3 2-5", 0)  # vertical
    assert grid_text(state.grid) == "Fi Se Ho / Bo Su Tr / Se Ho Bi"


def test_no_diagonal_shifting() -> None:
    state = position(BASE)
    with pytest.raises(ValueError, match="no diagonal shifting"):
        state.apply("shift 2 1-5", 0)
    assert "shift 2 1-5" not in {str(a) for a in state.legal_actions(0)}


def test_flip_discards_a_card_and_turns_one_tile_over() -> None:
    state = position(BASE)
    state.apply("flip 1 1", 0)
    state.apply("flip 2 9", 0)
    assert grid_text(state.grid) == "Mo Fi Ho / Bo Se Tr / Se Ho Fi"
    assert state.discard == [1, 2]


def test_paying_needs_a_card_from_your_own_hand() -> None:
    state = position(BASE)
    with pytest.raises(IllegalAction, match="card 4 is not in your hand"):
        state.apply("flip 4 1", 0)
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        state.apply("flip 4 1", 1)


def test_a_move_that_changes_nothing_is_still_legal_a_way_to_discard() -> None:
    # swapping two Horse tiles shows the same grid, yet discards the card
    state = position("grid: Ho Ho Su / Bo Se Tr / Se Fi Bi\nhands: 1 2 | 3")
    state.apply("shift 1 1-2", 0)
    assert grid_text(state.grid) == "Ho Ho Su / Bo Se Tr / Se Fi Bi" and state.discard == [1]


def test_score_keeps_a_matching_card_face_up_and_any_number_per_turn() -> None:
    # card 21 (Tr Tr) needs one flip: cell 5 Se -> Tr makes row 2 Bo Tr Tr
    state = position(BASE)
    assert "score 21" not in {str(a) for a in state.legal_actions(0)}
    state.apply("flip 1 5", 0)  # Bo Tr Tr in row 2
    state.apply("score 21", 0)
    assert state.scored[0] == [21] and state.points(0) == 1
    state.apply("flip 2 8", 0)  # acting after scoring is fine
    state.apply("end", 0)
    assert state.turn == 1


def test_a_card_scores_or_pays_never_both() -> None:
    state = position(BASE)
    state.apply("flip 21 5", 0)
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("score 21", 0)


def test_end_turn_draws_back_up_to_four_and_never_discards_down() -> None:
    state = position(BASE)
    state.apply("flip 1 1", 0)
    state.apply("flip 2 1", 0)
    state.apply("end", 0)
    assert state.hands[0] == [3, 10, 11, 21]  # deck top first: 10, 11
    assert state.history[-1].effect is Effect.DREW
    six = position(f"grid: {GRID}\nhands: 1 2 3 4 5 6 | 7\ndeck: 10 11")
    six.apply("end", 0)
    assert len(six.hands[0]) == 6 and six.deck == [11, 10]


def test_ending_a_turn_with_no_action_is_legal_and_is_not_a_skip() -> None:
    state = position(BASE)
    state.apply("end", 0)
    assert state.last_skip == [False, False] and state.skips == [0, 0]


def test_skip_draws_two_only_instead_of_any_other_action() -> None:
    state = position(BASE)
    state.apply("skip", 0)
    assert state.hands[0] == [1, 2, 3, 10, 11, 21] and state.turn == 1
    state.apply("flip 4 1", 1)
    with pytest.raises(IllegalAction, match="instead of any other action"):
        state.apply("skip", 1)


def test_no_skipping_twice_in_a_row() -> None:
    state = position(BASE)
    state.apply("skip", 0)
    state.apply("end", 1)
    assert "skip" not in {str(a) for a in state.legal_actions(0)}
    with pytest.raises(IllegalAction, match="twice in a row"):
        state.apply("skip", 0)
    state.apply("end", 0)
    state.apply("end", 1)
    state.apply("skip", 0)  # allowed again after a turn that was not a skip


def test_skip_mode_up_to_6() -> None:
    state = position(f"grid: {GRID}\nhands: 1 | 2\ndeck: rest", skip_mode="upto6")
    state.apply("skip", 0)
    assert len(state.hands[0]) == 6


def test_an_empty_deck_reshuffles_the_discard_pile() -> None:
    state = position(f"grid: {GRID}\nhands: 1 2 3 4 | 5\ndeck: 6\ndiscard: 7 8")
    state.apply("flip 1 1", 0)
    state.apply("flip 2 1", 0)
    state.apply("end", 0)  # draws 6, then the deck is empty: 7 8 1 2 are reshuffled
    assert len(state.hands[0]) == 4 and 6 in state.hands[0]
    assert state.reshuffles == 1 and state.discard == []
    assert sorted(state.hands[0] + state.deck) == [1, 2, 3, 4, 6, 7, 8]


def test_with_deck_and_discard_empty_the_hand_stays_short() -> None:
    state = position(f"grid: {GRID}\nhands: 1 | 5")
    state.apply("end", 0)
    assert state.hands[0] == [1]
    assert state.history[-1].effect is Effect.NONE


def test_legal_actions_list_scores_then_shifts_then_flips_then_end_then_skip() -> None:
    state = position("grid: Tr Tr Tr / Fi Bi Su / Ho Bo Ho\nhands: 21 2 | 5")
    texts = [str(a) for a in state.legal_actions(0)]
    assert texts[0] == "score 21"
    assert texts[1:13] == [
        f"shift 2 {p}"
        for p in (
            "1-2",
            "2-3",
            "4-5",
            "5-6",
            "7-8",
            "8-9",
            "1-4",
            "2-5",
            "3-6",
            "4-7",
            "5-8",
            "6-9",
        )
    ]
    assert texts[13:22] == [f"flip 2 {c}" for c in range(1, 10)]
    assert texts[-2:] == ["end", "skip"] and len(texts) == 1 + 2 * 21 + 2
