"""Aztack set-up: the stone set, the base colour check and the deal."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.aztack.components import (
    HALF0,
    HALF1,
    NUM_COLOURS,
    NUM_STONES,
    STONE_COLOURS,
    stone_id,
)
from teocalli.games.aztack.state import _fix_base_colours, stones_of


def test_the_set_has_60_distinct_stones_each_half_six_times() -> None:
    assert NUM_STONES == 60
    halves = list(HALF0) + list(HALF1)
    assert all(halves.count(h) == 6 for h in range(20))
    assert len({frozenset(p) for p in zip(HALF0, HALF1, strict=True)}) == 60


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_twelve_each_and_the_rest_out_of_play(players: int) -> None:
    for seed in range(50):
        state = teocalli.load("aztack", players=players).new_state(seed)
        assert all(state.hand_size(p) == 12 for p in range(players))
        assert state.out_of_play.bit_count() == 60 - 12 - 12 * players
        assert max(state.height) == 1 and min(state.height) == 1


def test_every_colour_on_at_least_two_base_stones_for_every_seed() -> None:
    for seed in range(500):
        state = teocalli.load("aztack").new_state(seed)
        base = [s for s, *_ in state.placed[:12]]
        for colour in range(NUM_COLOURS):
            assert sum(1 for s in base if STONE_COLOURS[s] >> colour & 1) >= 2, seed


def test_colour_check_swaps_in_the_missing_colour_keeping_the_others() -> None:
    # No burgundy (R) on these 12 stones; green only on two of them.
    words = "Gf/Ow Gf/Yd Of/Yw Ow/Yd Od/Yt Ot/Yf Yf/Bw Yw/Bd Yd/Bt Yt/Bf Bf/Ot Bw/Of"
    base = [stone_id(w) for w in words.split()]
    rest = [s for s in range(NUM_STONES) if s not in base]
    flips = [0] * 12
    _fix_base_colours(base, rest, flips, Rng(3))
    counts = [sum(1 for s in base if STONE_COLOURS[s] >> c & 1) for c in range(NUM_COLOURS)]
    assert all(n >= 2 for n in counts)
    assert sorted(base + rest) == list(range(NUM_STONES)), "swapping keeps every stone"
    changed = [w for w, s in zip(words.split(), base, strict=True) if stone_id(w) != s]
    assert len(changed) == 2, "one swap per missing appearance of burgundy"
    assert "Gf/Ow" not in changed and "Gf/Yd" not in changed, "green stayed on two stones"


def test_the_same_seed_deals_the_same_game() -> None:
    game = teocalli.load("aztack", players=3)
    assert game.new_state(9)._full() == game.new_state(9)._full()
    assert game.new_state(9)._full() != game.new_state(10)._full()


def test_hands_are_public_and_left_over_stones_are_not_shown() -> None:
    state = teocalli.load("aztack", players=2).new_state(1)
    view = state.view(1)["state"]
    assert [len(h) for h in view["hands"]] == [12, 12]
    assert view["out_of_play"] == 24 and "out_of_play_stones" not in view
    assert len(stones_of(state.out_of_play)) == 24
