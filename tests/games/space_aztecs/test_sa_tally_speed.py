"""`scoring.Tally`, a city's Aztec points kept card by card (what the observation encoder reads
at every step), against `scoring.lines`, which counts the whole city again: equal after every
card that comes or goes, in every order."""

from __future__ import annotations

from teocalli.core import Rng
from teocalli.games.space_aztecs.components import CARD_BY_ID, COLOUR, KIND, NUM_CARDS, PINK, Kind
from teocalli.games.space_aztecs.scoring import Tally, lines

AZTECS = [c for c in range(NUM_CARDS) if KIND[c] is Kind.AZTEC]


def _same(tally: Tally, visible: list[int], templed: list[int]) -> None:
    _codex, per, pinks = lines(sorted(visible), sorted(templed), 0, (), False)
    assert tally.points == sum(per), (visible, templed)
    assert tally.count[PINK] == pinks
    assert tally.count == [sum(1 for c in visible + templed if COLOUR[c] == k) for k in range(4)]
    assert tally.templed == len(templed)


def test_priests_and_aliens_pair_again_as_they_come_and_go() -> None:
    """An Alien alone is worth 3; a Priest makes it a pair worth 10; a second Alien scores its
    own points until the Priest leaves, when the best Alien left scores alone."""
    tally = Tally()
    alien, other, priest = CARD_BY_ID["BLU-04"], CARD_BY_ID["BLU-05"], CARD_BY_ID["BLU-01"]
    tally.add(alien, False)
    assert tally.points == 3
    tally.add(priest, True)
    assert tally.points == 10
    tally.add(other, False)
    _same(tally, [alien, other], [priest])
    tally.remove(priest, True)
    _same(tally, [alien, other], [])
    assert tally.templed == 0


def test_warriors_score_by_how_many_of_a_type_as_they_come_and_go() -> None:
    tally = Tally()
    eagles = [CARD_BY_ID[f"YEL-0{k}"] for k in (1, 2, 3)]
    for count, card in enumerate(eagles, 1):
        tally.add(card, False)
        assert tally.points == (3, 9, 18)[count - 1]
    tally.remove(eagles[0], False)
    assert tally.points == 9


def test_archivists_count_their_bonus_only_under_a_temple() -> None:
    tally = Tally()
    archivist = CARD_BY_ID["GRN-04"]
    tally.add(archivist, False)
    assert tally.points == 1
    tally.remove(archivist, False)
    tally.add(archivist, True)
    assert tally.points == 1 + 4
    assert tally.templed == 1


def test_random_comings_and_goings_equal_the_whole_count() -> None:
    """Thousands of random Aztecs added to and taken from a city (in view or under a Temple,
    as Temples, Agents and Saucers move them): after each, the tally is the whole count."""
    rng = Rng(3)
    for _ in range(40):
        tally = Tally()
        visible: list[int] = []
        templed: list[int] = []
        for _ in range(60):
            here = visible + templed
            if here and rng.randrange(3) == 0:
                card = here[rng.randrange(len(here))]
                under = card in templed
                (templed if under else visible).remove(card)
                tally.remove(card, under)
            else:
                free = [c for c in AZTECS if c not in here]
                card = free[rng.randrange(len(free))]
                under = rng.randrange(2) == 0
                (templed if under else visible).append(card)
                tally.add(card, under)
            _same(tally, visible, templed)
