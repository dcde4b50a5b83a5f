"""The component data: 9 tiles and the 72 pattern cards of the rules doc, validated at load."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources

import pytest

from teocalli.games.shifting_stones import components as comp


def _data() -> dict:  # type: ignore[type-arg]
    text = resources.files("teocalli.games.shifting_stones").joinpath("components.json").read_text()
    return json.loads(text)  # type: ignore[no-any-return]


def test_the_tiles_are_sun_moon_1_fish_bird_2_horse_boat_3_seed_tree_3() -> None:
    assert comp.TILE_COUNTS == (1, 2, 3, 3)
    assert comp.SYMBOLS == ("Su", "Mo", "Fi", "Bi", "Ho", "Bo", "Se", "Tr")
    assert comp.SYMBOL_COLOURS[2] == "orange"  # the rulebook's "orange tile" is the Fish


def test_72_distinct_cards_worth_28_26_13_5_of_1_2_3_5_points() -> None:
    assert len(comp.CARDS) == 72
    assert len({c.rows for c in comp.CARDS.values()}) == 72
    assert Counter(c.points for c in comp.CARDS.values()) == {1: 28, 2: 26, 3: 13, 5: 5}
    assert sum(comp.POINTS) == 144


def test_card_patterns_read_as_on_the_ruling_page() -> None:
    assert comp.pattern_text(1) == "Tr / Bi"
    assert comp.pattern_text(20) == ".. Tr .. / Fi .. Fi / .. Bo .."
    assert comp.CARDS[5].height == 3 and comp.CARDS[2].width == 3


def test_the_solo_deck_is_8_4_3_1() -> None:
    assert comp.SOLO_DECK == {1: 8, 2: 4, 3: 3, 5: 1}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cards"].pop(), "not 72|expected"),
        (lambda d: d["cards"][3].update(pattern="Tr / Bi", size="2x1"), "same pattern"),
        (lambda d: d["cards"][0].update(points=2), "cards by points"),
        (lambda d: d["cards"][0].update(pattern="Tr / Xx"), "unknown symbol"),
        (lambda d: d["cards"][0].update(size="1x2"), "is not 1x2"),
        (lambda d: d["cards"][0].update(id=9), "ids must run"),
    ],
)
def test_bad_card_data_is_refused_with_a_clear_error(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(_data())
    change(data)
    with pytest.raises(ValueError, match=message):
        comp._validate_cards(data)


def test_bad_tile_data_is_refused() -> None:
    data = copy.deepcopy(_data())
    data["tiles"][3]["count"] = 4
    with pytest.raises(ValueError, match="9 tiles"):
        comp._validate_tiles(data)


def test_placements_keep_grey_squares_inside_the_grid() -> None:
    # card 37 (Su / .. / ..) is 3 tall: it can sit only in the 3 columns, Sun in the top row
    assert sorted(checks for checks in comp.PLACEMENTS[37]) == [((0, 0),), ((1, 0),), ((2, 0),)]
    # card 8 is 3x3 with the Sun top-left: one placement only
    assert comp.PLACEMENTS[8] == (((0, 0),),)
    # a 1x2 card fits 6 places
    assert len(comp.PLACEMENTS[21]) == 6
