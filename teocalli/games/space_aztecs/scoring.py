"""The final count, in the rulebook's order: I. Codex bonuses, II. Aztec cards (set rules),
III. one point per card under your Flying Saucers.

Kept apart from the state so the engine, the views, the tests and the greedy bot score a city the
same way. Codex counts are taken in step I, before step II sacrifices Aliens to Priests, so a
sacrificed Alien still counts as a blue Aztec for the Codex of the Heavens (the order the rulebook
gives; the sacrifice only removes the Alien's own points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from teocalli.core.outcome import Part

from .components import (
    BONUS,
    CODEX_RATE,
    COLOUR,
    COLOURS,
    PINK,
    PINK_PENALTY,
    POINTS,
    PRIEST_POINTS,
    RULE,
    WARRIOR_TABLE,
    WARRIOR_TYPE,
    WARRIOR_TYPES,
    Rule,
)

_CODEX_COLOUR = {
    Rule.HARVEST: COLOURS.index("pink"),
    Rule.WAR: COLOURS.index("yellow"),
    Rule.HEAVENS: COLOURS.index("blue"),
    Rule.SECRETS: COLOURS.index("green"),
}


_RULE = tuple(int(r) for r in RULE)
"""Per card, its rule as a plain int: the rules compare ints (an Enum member's lookup on its
class costs as much as a dozen list reads, and the cities are scored at every observation)."""
_WARRIOR, _PRIEST, _ALIEN, _ARCHIVIST = (
    int(Rule.WARRIOR),
    int(Rule.PRIEST),
    int(Rule.ALIEN),
    int(Rule.ARCHIVIST),
)
_PLAIN = 0
_SCORE = tuple(
    (
        _RULE[c]
        if _RULE[c] in (_WARRIOR, _PRIEST, _ALIEN, _ARCHIVIST)
        else _PLAIN,  # Rule.FLAT, AGENT: its points
        COLOUR[c],
        POINTS[c],
    )
    for c in range(len(RULE))
)
"""Per card, how it scores as an Aztec (its rule, _PLAIN for its points alone), its colour and
points, read in one tuple."""
assert _PLAIN not in (_WARRIOR, _PRIEST, _ALIEN, _ARCHIVIST)
_BY_COLOUR, _BY_TEMPLE, _BY_TEMPLED, _BY_PEOPLE, _BY_TOKEN = range(1, 6)
_BONUS_KIND = {
    Rule.PYRAMIDS: _BY_TEMPLE,
    Rule.SHELTER: _BY_TEMPLED,
    Rule.FOUR_PEOPLES: _BY_PEOPLE,
    Rule.SUN: _BY_TOKEN,
}
_CODEX_BONUS = tuple(
    (
        _BY_COLOUR if RULE[c] in _CODEX_COLOUR else _BONUS_KIND.get(RULE[c], 0),
        _CODEX_COLOUR.get(RULE[c], -1),
        CODEX_RATE.get(RULE[c], 0),
    )
    for c in range(len(RULE))
)
"""Per card, what its Codex bonus counts (0 for no Codex), the colour counted and the rate."""


@dataclass(frozen=True, slots=True)
class City:
    """One player's cards at the end, as the count needs them."""

    visible: tuple[int, ...]  # Aztecs in view
    templed: tuple[int, ...]  # Aztecs under their Temples
    temples: tuple[int, ...]
    codex: tuple[int, ...]
    captured: int  # cards under their Saucers
    token: bool  # holds the Starting Player token

    @property
    def aztecs(self) -> tuple[int, ...]:
        return self.visible + self.templed


@dataclass(frozen=True, slots=True)
class Sheet:
    """One player's score sheet, line by line in the rulebook's order."""

    codex: int
    aztecs: tuple[int, int, int, int]  # per colour (pink, yellow, blue, green), set rules applied
    pink_penalty: int  # 0, or minus 5 for the fewest pink Aztecs
    saucers: int

    @property
    def total(self) -> int:
        return self.codex + sum(self.aztecs) + self.pink_penalty + self.saucers

    def breakdown(self) -> tuple[Part, ...]:
        """The sheet as the outcome's labelled parts (they add up to `total`); every line is
        there, zeros included, so each game shows the same labels."""
        return (
            Part("Codex bonus", float(self.codex)),
            *(Part(f"{c} set", float(v)) for c, v in zip(COLOURS, self.aztecs, strict=True)),
            Part("pink penalty", float(self.pink_penalty)),
            Part("Flying Saucers", float(self.saucers)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "I codex": self.codex,
            "II aztecs": dict(zip(COLOURS, self.aztecs, strict=True)),
            "II pink penalty": self.pink_penalty,
            "III saucers": self.saucers,
            "total": self.total,
        }


Lines = tuple[int, tuple[int, int, int, int], int]
"""A city's lines: Codex points (step I), Aztec points per colour (step II without the pink
penalty) and its pink Aztecs (for the penalty); step III is the count of its captured cards."""


def lines(
    visible: Sequence[int],
    templed: Sequence[int],
    temples: int,
    codex: Sequence[int],
    token: bool,
) -> Lines:
    """A city's lines in one pass over its Aztecs (in view, then under Temples), its number of
    Temples and its Codex cards: the one count `codex_points`, `aztec_points`, `pink_count` and
    the observation encoders' running scores read.

    Priests are paired with Aliens to maximise the score (ruling): each pair is worth the Priest's
    10 instead of the Alien's 3, so as many pairs as possible. Codex counts are taken before the
    pairing, so a sacrificed Alien still counts as a blue Aztec.
    """
    per = [0, 0, 0, 0]
    count = [0, 0, 0, 0]  # Aztecs per colour
    warriors: list[int] = []  # Warrior types, one entry per card
    priests = 0
    aliens: list[int] = []
    score, plain, warrior, priest, alien = _SCORE, _PLAIN, _WARRIOR, _PRIEST, _ALIEN
    for under, cards in ((False, visible), (True, templed)):
        for card in cards:
            how, colour, points = score[card]
            count[colour] += 1
            if how == plain:
                per[colour] += points
            elif how == warrior:
                warriors.append(card)
            elif how == priest:
                priests += 1
            elif how == alien:
                aliens.append(card)
            else:  # an Archivist: its bonus under a Temple
                per[colour] += points + (BONUS[card] if under else 0)
    if warriors:  # each type scores by how many of it there are
        kinds = [0] * len(WARRIOR_TYPES)
        colours = [0] * len(WARRIOR_TYPES)
        for card in warriors:
            kinds[WARRIOR_TYPE[card]] += 1
            colours[WARRIOR_TYPE[card]] = COLOUR[card]
        for kind, n in enumerate(kinds):
            if n:
                per[colours[kind]] += WARRIOR_TABLE[kind][n - 1]
    if aliens:
        pairs = min(priests, len(aliens))
        blue = COLOUR[aliens[0]]
        per[blue] += pairs * PRIEST_POINTS
        for alien in sorted(aliens)[pairs:]:
            per[blue] += POINTS[alien]
    return (
        codex_bonus(codex, count, temples, len(templed), token) if codex else 0,
        (per[0], per[1], per[2], per[3]),
        count[PINK],
    )


def codex_bonus(
    codex: Sequence[int], count: Sequence[int], temples: int, templed: int, token: bool
) -> int:
    """Step I: the city's Codex bonuses, from its Aztecs per colour (`count`: in view and under
    Temples), its number of Temples and of Aztecs under them, and whether it holds the token.
    `lines` counts a whole city with it; the observation encoder, a city it keeps by colour."""
    bonus_total = 0
    for card in codex:
        bonus, colour, rate = _CODEX_BONUS[card]
        if bonus == _BY_COLOUR:
            bonus_total += rate * count[colour]
        elif bonus == _BY_TEMPLE:
            bonus_total += rate * temples
        elif bonus == _BY_TEMPLED:
            bonus_total += rate * templed
        elif bonus == _BY_PEOPLE:
            bonus_total += rate * (len(count) - count.count(0))
        elif bonus == _BY_TOKEN:
            bonus_total += rate if token else 0
    return bonus_total


class Tally:
    """A city's Aztecs (in view and under Temples) kept card by card, with what `lines` counts
    of them: the Aztec points (step II without the pink penalty, all colours together), the
    Aztecs per colour and under Temples. Adding or removing a card costs a few operations, where
    `lines` counts the whole city again: the observation encoder keeps one per city to follow
    the running scores at every step. Equal to `lines` on the same cards (tested)."""

    __slots__ = ("aliens", "blue", "count", "kinds", "points", "priests", "templed")

    def __init__(self) -> None:
        self.points = 0  # the Aztec points
        self.kinds = [0] * len(WARRIOR_TYPES)  # Warriors per type
        self.priests = 0
        self.aliens: list[int] = []
        self.blue = 0  # the Priests' and Aliens' part of the points
        self.count = [0, 0, 0, 0]  # Aztecs per colour
        self.templed = 0  # Aztecs under Temples

    def add(self, card: int, under: bool, sign: int = 1) -> None:
        """Count an Aztec in (`sign` 1) or out (-1), in view or `under` a Temple."""
        how, colour, points = _SCORE[card]
        self.count[colour] += sign
        if under:
            self.templed += sign
        if how == _PLAIN:
            self.points += sign * points
        elif how == _WARRIOR:
            kind = WARRIOR_TYPE[card]
            had = self.kinds[kind]
            table = WARRIOR_TABLE[kind]
            now = self.kinds[kind] = had + sign
            self.points += (table[now - 1] if now else 0) - (table[had - 1] if had else 0)
        elif how in (_PRIEST, _ALIEN):
            if how == _PRIEST:
                self.priests += sign
            elif sign > 0:
                self.aliens.append(card)
            else:
                self.aliens.remove(card)
            pairs = min(self.priests, len(self.aliens))
            blue = pairs * PRIEST_POINTS
            for alien in sorted(self.aliens)[pairs:]:  # the Aliens left score their points
                blue += POINTS[alien]
            self.points += blue - self.blue
            self.blue = blue
        else:  # an Archivist: its bonus under a Temple
            self.points += sign * (points + (BONUS[card] if under else 0))

    def remove(self, card: int, under: bool) -> None:
        self.add(card, under, -1)


def city_lines(city: City) -> Lines:
    return lines(city.visible, city.templed, len(city.temples), city.codex, city.token)


def codex_points(city: City) -> int:
    """Step I: every Codex bonus, counting the Aztecs in the city (never the Saucers' catch)."""
    return city_lines(city)[0]


def aztec_points(city: City) -> tuple[int, int, int, int]:
    """Step II without the pink penalty: per colour, each card's points under its set's rule."""
    return city_lines(city)[1]


def pink_count(city: City) -> int:
    return city_lines(city)[2]


def score_sheets(cities: Sequence[City], pink_in_game: bool) -> list[Sheet]:
    """Everyone's sheet; the fewest pink Aztecs (0 counts) lose 5, all tied players alike."""
    counts = [city_lines(c) for c in cities]
    fewest = min(pinks for _, _, pinks in counts)
    return [
        Sheet(
            codex=codex,
            aztecs=aztecs,
            pink_penalty=-PINK_PENALTY if pink_in_game and pinks == fewest else 0,
            saucers=city.captured,
        )
        for (codex, aztecs, pinks), city in zip(counts, cities, strict=True)
    ]
