"""Set-up (rulebook A-E and the rulings), options, and the text a player is shown."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.core import InvalidOption
from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.components import COLOUR, KIND, NUM_CARDS, Kind
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.position import PositionError
from teocalli.games.space_aztecs.state import OUT


@pytest.mark.parametrize(
    ("players", "codex", "per_pile"),
    [(2, True, 7), (4, True, 7), (5, True, 9), (6, True, 9), (3, False, 6), (6, False, 8)],
)
def test_eight_piles_of_the_rulebook_size(players: int, codex: bool, per_pile: int) -> None:
    state = SpaceAztecs(players=players, codex=codex).new_state(4)
    assert state.pile_size == [per_pile] * 8
    out = [c for c in range(NUM_CARDS) if state.where[c] == OUT]
    assert len(out) == 72 - 8 * per_pile
    codex_in_play = [c for c in range(NUM_CARDS) if KIND[c] is Kind.CODEX and state.where[c] != OUT]
    assert len(codex_in_play) == (8 if codex else 0)


def test_two_to_four_players_remove_one_whole_set_random_or_chosen() -> None:
    removed = set()
    for seed in range(12):
        state = SpaceAztecs(players=3).new_state(seed)
        out = {COLOUR[c] for c in range(NUM_CARDS) if state.where[c] == OUT}
        assert out == {state.removed}
        removed.add(state.removed)
    assert len(removed) > 1  # drawn at random
    state = SpaceAztecs(players=2, removed_set="blue").new_state(0)
    assert {COLOUR[c] for c in range(NUM_CARDS) if state.where[c] == OUT} == {2}
    assert state.view(None)["state"]["removed_set"] == "blue"


def test_the_starting_player_is_drawn_at_random_and_takes_the_first_pile() -> None:
    starts = {SpaceAztecs(players=5).new_state(seed).start for seed in range(20)}
    assert len(starts) > 2
    state = SpaceAztecs(players=5).new_state(1)
    assert state.to_move() == (state.start,)


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOption, match="removed_set"):
        teocalli.load("space-aztecs", players=5, removed_set="pink")
    with pytest.raises(InvalidOption, match="removed_set"):
        teocalli.load("space-aztecs", removed_set="purple")
    with pytest.raises(InvalidOption, match="players"):
        teocalli.load("space-aztecs", players=7)
    assert teocalli.load("space-aztecs", codex="false").options["codex"] is False


def test_the_maximum_length_bounds_a_game() -> None:
    # 2 players, 56 cards: 28 rounds of 2 takes, 2 choices and at most one question per card
    assert SpaceAztecs(players=2).max_length == 28 * 6
    assert SpaceAztecs(players=6).max_length == 12 * (12 + 30)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("city 0: PNK-01 PNK-01", "written twice"),
        ("city 0: GRN-01", "not in this game's deck"),
        ("city 0: PNK-01[PNK-02]", "only Temples and Saucers"),
        ("city 0: PNK-T1[YEL-01]", "only Aztecs of its colour"),
        ("held 1: A", "clockwise from the Starting Player"),
        ("flip A", "cannot read"),
    ],
)
def test_bad_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        space_aztecs_position(SpaceAztecs(players=3, removed_set="green"), text)


def test_render_shows_the_table_and_only_the_viewers_pile() -> None:
    game = SpaceAztecs(players=3, removed_set="green")
    s = space_aztecs_position(
        game,
        "start 0\ncity 1: PNK-T1[PNK-01] YEL-01\npile A: BLU-04\npile B: BLU-05\n"
        "pile C: BLU-06\nheld 0: A\nheld 1: B\nheld 2: C\nseen 0: D@1",
    )
    text = s.render(0)
    assert "Your pile A: BLU-04 Alien 06:45" in text
    assert "BLU-05" not in text and "BLU-06" not in text
    assert "PNK-T1[PNK-01]" in text and "YEL-01 Eagle Warrior" in text
    assert "You remember pile D (held in round 1)" in text
    assert "Your pile" not in s.render(None)
