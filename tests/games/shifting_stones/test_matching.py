"""Matching: by translation only, symbols and orientation, grey squares on the grid (rulebook)."""

from __future__ import annotations

import pytest

from teocalli.core import IllegalAction
from teocalli.games.shifting_stones.components import matches
from teocalli.games.shifting_stones.grid import parse_grid

from .helpers import position


def test_yes_card_matching_twice_scores_once() -> None:
    # Rulebook "YES": Tr Tr (card 21, 1 point) appears twice (cells 1-2 and 2-3): it scores 1 point.
    state = position("grid: Tr Tr Tr / Fi Bi Su / Ho Bo Ho\nhands: 21 1 | 7\ndeck: 2 3 4 5")
    assert matches(21, state.grid)
    state.apply("score 21", 0)
    assert state.scored[0] == [21] and state.points(0) == 1
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("score 21", 0)


def test_no_card_symbols_match_in_the_wrong_orientation() -> None:
    # Rulebook "NO": card 1 is Tree above Bird; the grid has Tree beside Bird, not above it.
    state = position("grid: Tr Bi Ho / Bo Se Ho / Se Su Fi\nhands: 1 | 7")
    assert not matches(1, state.grid)
    assert "score 1" not in [str(a) for a in state.legal_actions(0)]
    with pytest.raises(IllegalAction, match="orientation"):
        state.apply("score 1", 0)
    # turned the right way (Tree above Bird) it matches
    assert matches(1, parse_grid("Tr Fi Ho / Bi Se Ho / Se Su Bo"))


def test_grey_square_card_fits_the_top_row_but_not_the_bottom_row() -> None:
    # Card 37 is Sun above two grey squares: the greys must fall on the grid, so the Sun must be
    # in the top row. A Sun in the bottom row does not match; in the top row it does.
    assert matches(37, parse_grid("Ho Fi Su / Bo Se Tr / Se Ho Bi"))
    assert not matches(37, parse_grid("Ho Fi Bi / Bo Se Tr / Se Ho Su"))
    assert not matches(37, parse_grid("Ho Fi Bi / Bo Su Tr / Se Ho Se"))
    # card 28 (Ho .. Ho): the top row Ho x Ho matches; a bottom row Ho x Bo would not
    assert matches(28, parse_grid("Ho Se Ho / Bo Tr Se / Fi Su Fi"))
    assert not matches(28, parse_grid("Bo Se Bo / Fi Tr Se / Ho Su Fi"))


def test_3x3_card_with_fish_in_the_centre_needs_the_orange_tile_in_the_centre() -> None:
    # Card 12: a 3x3 card with only a Fish in the centre.
    assert matches(12, parse_grid("Su Bi Ho / Bo Fi Tr / Se Ho Se"))
    assert not matches(12, parse_grid("Fi Bi Ho / Bo Su Tr / Se Ho Se"))
    assert not matches(12, parse_grid("Su Fi Ho / Bo Bi Tr / Se Ho Se"))  # Bird is the other face


def test_cards_are_never_rotated_or_mirrored() -> None:
    # card 24 is Tr Ho left to right; Ho Tr does not match it
    assert matches(24, parse_grid("Tr Ho Bi / Bo Se Ho / Se Su Fi"))
    assert not matches(24, parse_grid("Ho Tr Bi / Bo Se Ho / Se Su Fi"))
