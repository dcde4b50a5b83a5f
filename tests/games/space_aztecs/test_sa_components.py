"""The card list of docs/games/space-aztecs.md, as data, validated at load."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from teocalli.games.space_aztecs import components as comp
from teocalli.games.space_aztecs.components import (
    CARD_ID,
    COLOUR,
    KIND,
    MINUTES,
    NUM_CARDS,
    CardDataError,
    Kind,
    deck,
)


def test_the_deck_has_72_cards_four_sets_and_eight_codex() -> None:
    assert NUM_CARDS == 72 == len(CARD_ID)
    counts = Counter((COLOUR[c], KIND[c]) for c in range(NUM_CARDS))
    for colour in range(4):
        assert counts[(colour, Kind.AZTEC)] == 10
        assert counts[(colour, Kind.TEMPLE)] == 3
        assert counts[(colour, Kind.SAUCER)] == 3
    assert counts[(-1, Kind.CODEX)] == 8


def test_all_times_differ_and_the_file_is_in_time_order() -> None:
    assert len(set(MINUTES)) == 72
    assert list(MINUTES) == sorted(MINUTES)
    assert comp.CARD_TIME[comp.CARD_BY_ID["PNK-01"]] == "05:00"
    assert comp.CARD_TIME[comp.CARD_BY_ID["GRN-03"]] == "22:45"


def test_deck_sizes_for_each_set_up() -> None:
    assert len(deck(True, -1)) == 72
    assert len(deck(True, 0)) == 56
    assert len(deck(False, -1)) == 64
    assert len(deck(False, 3)) == 48
    assert all(COLOUR[c] != 3 for c in deck(True, 3))


def _bad(mutate: object) -> str:
    data = copy.deepcopy(comp._load())
    mutate(data)  # type: ignore[operator]
    with pytest.raises(CardDataError) as err:
        comp._validate(data)
    return str(err.value)


def test_a_repeated_time_is_refused() -> None:
    def twice(d: dict) -> None:
        d["cards"][1]["time"] = d["cards"][0]["time"]

    assert "05:00" in _bad(twice)


def test_a_missing_card_is_refused() -> None:
    assert "not 72" in _bad(lambda d: d["cards"].pop())


def test_a_set_of_the_wrong_shape_is_refused() -> None:
    def recolour(d: dict) -> None:
        d["cards"][0]["colour"] = "blue"

    assert "set has" in _bad(recolour)


def test_bad_fields_are_refused_with_the_card_named() -> None:
    def bad_time(d: dict) -> None:
        d["cards"][3]["time"] = "25:00"

    def bad_kind(d: dict) -> None:
        d["cards"][3]["kind"] = "dragon"

    def codex_colour(d: dict) -> None:
        for c in d["cards"]:
            if c["kind"] == "codex":
                c["colour"] = "pink"
                break

    def warrior_table(d: dict) -> None:
        d["warriors"]["Eagle Warrior"] = [3, 9]

    assert "card 3 (PNK-04)" in _bad(bad_time)
    assert "dragon" in _bad(bad_kind)
    assert "no colour" in _bad(codex_colour)
    assert "Eagle Warrior" in _bad(warrior_table)
