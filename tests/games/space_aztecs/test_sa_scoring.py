"""The final count in the rulebook's order, with every set rule and every Codex."""

from __future__ import annotations

import pytest

from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.scoring import Sheet
from teocalli.games.space_aztecs.state import SpaceAztecsState


def pos(text: str, removed: str = "green") -> SpaceAztecsState:
    return space_aztecs_position(SpaceAztecs(players=3, removed_set=removed), text)


def sheet(city0: str, removed: str = "green", extra: str = "") -> Sheet:
    """Player 0's sheet; players 1 and 2 hold a pink Aztec each unless `extra` says otherwise."""
    others = extra or "city 1: PNK-09\ncity 2: PNK-08"
    return pos(f"city 0: {city0}\n{others}", removed).sheets()[0]


YELLOW = 1
BLUE = 2
GREEN = 3


# --- Warriors: by the number of the same type you own -------------------------------------------
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("YEL-01", 3),
        ("YEL-01 YEL-02", 9),
        ("YEL-01 YEL-02 YEL-03", 18),  # the rulebook's Eagle example: 3, 9, 18
        ("YEL-04", 2),
        ("YEL-04 YEL-05", 8),
        ("YEL-04 YEL-05 YEL-06", 20),
        ("YEL-07", 4),
        ("YEL-07 YEL-08", 12),
        ("YEL-09", 5),
        ("YEL-09 YEL-10", 11),
        ("YEL-01 YEL-02 YEL-04 YEL-09", 9 + 2 + 5),  # each type counted on its own
        ("YEL-T1[YEL-01 YEL-02] YEL-03", 18),  # in a Temple or not
    ],
)
def test_each_warrior_table(cards: str, points: int) -> None:
    assert sheet(cards).aztecs[YELLOW] == points


# --- Superiors: Priest and Alien ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("BLU-01", 0),  # a Priest alone is worth nothing
        ("BLU-04", 3),  # an Alien alone is worth its 3
        ("BLU-01 BLU-04", 10),  # the Alien is sacrificed: 10, and the Alien scores nothing
        ("BLU-01 BLU-02 BLU-04", 10),  # one Alien per Priest
        ("BLU-01 BLU-04 BLU-05", 13),
        ("BLU-01 BLU-02 BLU-04 BLU-05", 20),
        ("BLU-T1[BLU-01] BLU-04", 10),  # pairs across a Temple
        ("BLU-07 BLU-08 BLU-09 BLU-10", 4 + 4 + 5 + 6),  # flat Superiors
    ],
)
def test_priests_pair_with_aliens_to_the_best_score(cards: str, points: int) -> None:
    assert sheet(cards).aztecs[BLUE] == points


# --- Special Agents: Archivists ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("GRN-04", 1),
        ("GRN-T1[GRN-04]", 1 + 4),
        ("GRN-06 GRN-T1[GRN-07]", 2 + 2 + 3),
        ("GRN-T1[GRN-08 GRN-10]", 3 + 2 + 4 + 1),
        ("GRN-01 GRN-03", 2 + 3),  # Agents score their points
    ],
)
def test_archivists_score_their_bonus_under_a_temple(cards: str, points: int) -> None:
    assert sheet(cards, removed="yellow").aztecs[GREEN] == points


# --- Villagers and Animals: flat points and the fewest-pink penalty -----------------------------
def test_the_fewest_pink_aztecs_lose_five_all_tied_alike() -> None:
    s = pos("city 0: PNK-01 PNK-02\ncity 1: PNK-03\ncity 2: YEL-01")
    assert [x.pink_penalty for x in s.sheets()] == [0, 0, -5]
    assert s.sheets()[0].aztecs[0] == 1 + 2
    s = pos("city 0: PNK-01 PNK-02\ncity 1: YEL-02\ncity 2: YEL-01")
    assert [x.pink_penalty for x in s.sheets()] == [0, -5, -5]
    s = pos("city 0: PNK-01\ncity 1: PNK-T1[PNK-02]\ncity 2: PNK-03")
    assert [x.pink_penalty for x in s.sheets()] == [-5, -5, -5]  # everyone tied


def test_pink_cards_under_a_saucer_do_not_count_for_their_captor() -> None:
    s = pos("city 0: PNK-S1[PNK-01 PNK-02]\ncity 1: PNK-03\ncity 2: PNK-04")
    sheets = s.sheets()
    assert sheets[0].pink_penalty == -5 and sheets[0].aztecs[0] == 0
    assert sheets[0].saucers == 2


def test_no_pink_penalty_when_the_pink_set_is_out_of_the_game() -> None:
    s = pos("city 0: YEL-01\ncity 1: YEL-02", removed="pink")
    assert [x.pink_penalty for x in s.sheets()] == [0, 0, 0]


# --- Codex -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("city0", "removed", "bonus"),
    [
        ("CDX-1 PNK-01 PNK-T1[PNK-02] PNK-S2[PNK-03]", "green", 4),  # Harvest: 2 per pink Aztec
        ("CDX-2 YEL-01 YEL-04 YEL-07", "green", 6),  # War: 2 per yellow
        ("CDX-3 BLU-04 BLU-T1[BLU-07]", "green", 4),  # Heavens: 2 per blue
        ("CDX-4 GRN-01 GRN-04", "yellow", 4),  # Secrets: 2 per green
        ("CDX-5 PNK-T1 BLU-T1 PNK-S1", "green", 6),  # Pyramids: 3 per Temple, never a Saucer
        ("CDX-6 PNK-T1[PNK-01 PNK-02] BLU-04", "green", 2),  # Shelter: 1 per Aztec under Temples
        ("CDX-7 PNK-01 YEL-01 BLU-T1[BLU-04] YEL-S1[YEL-02]", "green", 9),  # Four Peoples
        ("CDX-8", "green", 5),  # Sun: the Starting Player token (player 0 holds it here)
    ],
)
def test_each_codex(city0: str, removed: str, bonus: int) -> None:
    assert sheet(city0, removed).codex == bonus


def test_the_sun_needs_the_token_at_the_end() -> None:
    s = pos("start 1\ncity 0: CDX-8\ncity 1: PNK-01")
    assert s.sheets()[0].codex == 0


def test_codex_are_counted_first_so_a_sacrificed_alien_still_counts_as_blue() -> None:
    # I: Heavens counts the Priest and the Alien (4); II: the Alien goes under the Priest (10)
    s = sheet("CDX-3 BLU-01 BLU-04")
    assert (s.codex, s.aztecs[BLUE]) == (4, 10)


def test_the_sheet_adds_codex_then_aztecs_then_saucers() -> None:
    s = sheet("CDX-1 PNK-05 PNK-06 YEL-01 YEL-S1[YEL-02 YEL-03]", extra="city 1: PNK-09")
    assert list(s.to_json()) == ["I codex", "II aztecs", "II pink penalty", "III saucers", "total"]
    assert (s.codex, s.aztecs, s.pink_penalty, s.saucers) == (4, (6, 3, 0, 0), 0, 2)
    assert s.total == 4 + 6 + 3 + 2


def test_the_outcome_ranks_by_total_and_tied_players_share_the_win() -> None:
    text = """
    start 0
    city 0: PNK-05
    city 1: PNK-06
    city 2: PNK-01
    pile A: -
    pile B: YEL-01
    pile C: YEL-04
    pile D: BLU-07
    held 0: B
    held 1: C
    held 2: D
    """
    s = pos(text)
    for p, card in ((0, "YEL-01"), (1, "YEL-04"), (2, "BLU-07")):
        s.apply(f"choose {card}", p)
    out = s.outcome()
    # player 0: 3 + 3, player 1: 3 + 2, player 2: 1 + 4 - 5 (fewest pink? all have one: all -5)
    assert out.scores == (1.0, 0.0, 0.0)
    assert out.ranks == (0, 1, 1) and out.winners == (0,)
    stats = s.stats()
    assert stats["points_pink"] == [3.0, 3.0, 1.0]
    assert stats["rounds"] == 1.0 and stats["ended_by_piles"] == 1.0
    assert stats["ended_by_saucers"] == 0.0 and stats["saucers_played"] == 0.0
    # player 2 takes the Astronomer (5) instead: 1 + 5 - 5 ties player 0, and both win
    s2 = pos(text.replace("BLU-07", "BLU-09"))
    for p, card in ((0, "YEL-01"), (1, "YEL-04"), (2, "BLU-09")):
        s2.apply(f"choose {card}", p)
    out = s2.outcome()
    assert out.scores == (1.0, 0.0, 1.0)
    assert out.ranks == (0, 2, 0) and out.winners == (0, 2)
