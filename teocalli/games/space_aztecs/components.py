"""Space Aztecs' components as data: the 72 cards (components.json, validated at load), the piles.

Card index = position in components.json (the card list of docs/games/space-aztecs.md, by time).
Colours are ints 0..3 (pink, yellow, blue, green) in the order of the file's "colours"; a Codex
has colour -1.
Piles are 0..7, written A..H (the eight Place tiles around the Sundial).
Every table here is a tuple shared by all states: states hold only card ids and small ints.
"""

from __future__ import annotations

import enum
import json
import re
from collections import Counter
from importlib import resources
from typing import Any

NUM_PILES = 8
PILE_LETTERS = "ABCDEFGH"
AZTECS_PER_SET = 10
TEMPLES_PER_SET = 3
SAUCERS_PER_SET = 3
NUM_CODEX = 8


class Kind(enum.IntEnum):
    """The four card families."""

    AZTEC = 0
    TEMPLE = 1
    SAUCER = 2
    CODEX = 3


class Rule(enum.IntEnum):
    """How an Aztec card scores, or which bonus a Codex gives."""

    FLAT = 0
    ALIEN = 1
    PRIEST = 2
    WARRIOR = 3
    ARCHIVIST = 4
    AGENT = 5
    NONE = 6  # Temple, Saucer
    HARVEST = 10
    WAR = 11
    HEAVENS = 12
    SECRETS = 13
    PYRAMIDS = 14
    SHELTER = 15
    FOUR_PEOPLES = 16
    SUN = 17


_AZTEC_RULES = {
    "flat": Rule.FLAT,
    "alien": Rule.ALIEN,
    "priest": Rule.PRIEST,
    "warrior": Rule.WARRIOR,
    "archivist": Rule.ARCHIVIST,
    "agent": Rule.AGENT,
}
_CODEX_RULES = {
    "harvest": Rule.HARVEST,
    "war": Rule.WAR,
    "heavens": Rule.HEAVENS,
    "secrets": Rule.SECRETS,
    "pyramids": Rule.PYRAMIDS,
    "shelter": Rule.SHELTER,
    "four-peoples": Rule.FOUR_PEOPLES,
    "sun": Rule.SUN,
}
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class CardDataError(ValueError):
    """components.json does not describe a valid Space Aztecs deck."""


def _fail(where: str, why: str) -> CardDataError:
    return CardDataError(f"components.json: {where}: {why}")


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("components.json").read_text()
    )
    return data


def _validate(data: dict[str, Any]) -> dict[str, Any]:
    """Check the deck the ruling fixes and turn it into flat tables (one tuple per field)."""
    colours = list(data["colours"])
    if len(colours) != 4 or len(set(colours)) != 4:
        raise _fail("colours", f"need four distinct colours, got {colours!r}")
    warriors: dict[str, list[int]] = data["warriors"]
    cards = data["cards"]
    if len(cards) != 72:
        raise _fail("cards", f"the deck has {len(cards)} cards, not 72")
    fields: dict[str, list[Any]] = {
        k: []
        for k in ("id", "name", "time", "minutes", "colour", "kind", "rule", "points", "bonus")
    }
    for i, card in enumerate(cards):
        where = f"card {i} ({card.get('id', '?')})"
        m = _TIME.match(str(card.get("time", "")))
        if not m:
            raise _fail(where, f"time {card.get('time')!r} is not HH:MM")
        kind_text = card.get("kind")
        try:
            kind = Kind[str(kind_text).upper()]
        except KeyError:
            raise _fail(where, f"unknown kind {kind_text!r}") from None
        colour_text = card.get("colour")
        if kind is Kind.CODEX:
            if colour_text is not None:
                raise _fail(where, "a Codex card has no colour")
            colour = -1
            rule = _CODEX_RULES.get(card.get("rule", ""))
            if rule is None:
                raise _fail(where, f"unknown Codex bonus {card.get('rule')!r}")
        else:
            if colour_text not in colours:
                raise _fail(where, f"colour {colour_text!r} is not one of {colours}")
            colour = colours.index(colour_text)
            rule = Rule.NONE
            if kind is Kind.AZTEC:
                rule = _AZTEC_RULES.get(card.get("rule", ""), Rule.NONE)
                if rule is Rule.NONE:
                    raise _fail(where, f"unknown Aztec rule {card.get('rule')!r}")
                if rule is Rule.WARRIOR and card["name"] not in warriors:
                    raise _fail(where, f"warrior {card['name']!r} has no table in 'warriors'")
        points = card.get("points", 0)
        bonus = card.get("bonus", 0)
        if not isinstance(points, int) or not isinstance(bonus, int) or points < 0 or bonus < 0:
            raise _fail(where, "points and bonus must be whole numbers of at least 0")
        if (rule is Rule.ARCHIVIST) != (bonus > 0):
            raise _fail(where, "exactly the Archivists have a bonus")
        fields["id"].append(str(card["id"]))
        fields["name"].append(str(card["name"]))
        fields["time"].append(m[0])
        fields["minutes"].append(int(m[1]) * 60 + int(m[2]))
        fields["colour"].append(colour)
        fields["kind"].append(kind)
        fields["rule"].append(rule)
        fields["points"].append(points)
        fields["bonus"].append(bonus)
    dup = [k for k, n in Counter(fields["id"]).items() if n > 1]
    if dup:
        raise _fail("cards", f"card id {dup[0]} appears twice")
    dup = [k for k, n in Counter(fields["time"]).items() if n > 1]
    if dup:
        raise _fail("cards", f"two cards show the time {dup[0]}: all times must differ")
    counts = Counter(zip(fields["colour"], fields["kind"], strict=True))
    for c, name in enumerate(colours):
        for kind, need in (
            (Kind.AZTEC, AZTECS_PER_SET),
            (Kind.TEMPLE, TEMPLES_PER_SET),
            (Kind.SAUCER, SAUCERS_PER_SET),
        ):
            if counts[(c, kind)] != need:
                raise _fail(
                    "cards", f"the {name} set has {counts[(c, kind)]} {kind.name} cards, not {need}"
                )
    codex_rules = [
        r for r, k in zip(fields["rule"], fields["kind"], strict=True) if k is Kind.CODEX
    ]
    if len(codex_rules) != NUM_CODEX or len(set(codex_rules)) != NUM_CODEX:
        raise _fail("cards", "there must be 8 Codex cards, each with a different bonus")
    for name, table in warriors.items():
        copies = fields["name"].count(name)
        if copies != len(table):
            raise _fail("warriors", f"{name} has {copies} cards but a table for {len(table)}")
    return {
        "colours": tuple(colours),
        "codes": tuple(data["colour_codes"]),
        "set_names": tuple(data["set_names"]),
        "warriors": {k: tuple(v) for k, v in warriors.items()},
        "pink_penalty": int(data["pink_penalty"]),
        "priest_points": int(data["priest_points"]),
        "codex_rates": {_CODEX_RULES[k]: int(v) for k, v in data["codex_rates"].items()},
        **{k: tuple(v) for k, v in fields.items()},
    }


_DECK = _validate(_load())

NUM_CARDS = 72
COLOURS: tuple[str, ...] = _DECK["colours"]
COLOUR_CODES: tuple[str, ...] = _DECK["codes"]
SET_NAMES: tuple[str, ...] = _DECK["set_names"]
PINK = COLOURS.index("pink")
CARD_ID: tuple[str, ...] = _DECK["id"]
CARD_NAME: tuple[str, ...] = _DECK["name"]
CARD_TIME: tuple[str, ...] = _DECK["time"]
MINUTES: tuple[int, ...] = _DECK["minutes"]
COLOUR: tuple[int, ...] = _DECK["colour"]
KIND: tuple[Kind, ...] = _DECK["kind"]
RULE: tuple[Rule, ...] = _DECK["rule"]
POINTS: tuple[int, ...] = _DECK["points"]
BONUS: tuple[int, ...] = _DECK["bonus"]
PINK_PENALTY: int = _DECK["pink_penalty"]
PRIEST_POINTS: int = _DECK["priest_points"]
CODEX_RATE: dict[Rule, int] = _DECK["codex_rates"]

WARRIOR_TYPES: tuple[str, ...] = tuple(_DECK["warriors"])
WARRIOR_TABLE: tuple[tuple[int, ...], ...] = tuple(_DECK["warriors"].values())
WARRIOR_TYPE: tuple[int, ...] = tuple(
    WARRIOR_TYPES.index(CARD_NAME[c]) if RULE[c] is Rule.WARRIOR else -1 for c in range(NUM_CARDS)
)
"""Per card, its Warrior type index (into WARRIOR_TYPES / WARRIOR_TABLE), or -1."""

CARD_BY_ID = {cid: c for c, cid in enumerate(CARD_ID)}
IS_AZTEC = tuple(k is Kind.AZTEC for k in KIND)
IS_AGENT = tuple(r is Rule.AGENT for r in RULE)


def card_text(card: int) -> str:
    return CARD_ID[card]


def parse_card(text: str) -> int | None:
    return CARD_BY_ID.get(text.strip().upper())


def pile_text(pile: int) -> str:
    return PILE_LETTERS[pile]


def parse_pile(text: str) -> int | None:
    t = text.strip().upper()
    return PILE_LETTERS.index(t) if len(t) == 1 and t in PILE_LETTERS else None


def deck(codex: bool, removed: int) -> list[int]:
    """The cards in play: all but the removed colour's set (-1: none) and, without Codex, those."""
    return [
        c
        for c in range(NUM_CARDS)
        if (COLOUR[c] != removed or removed < 0) and (codex or KIND[c] is not Kind.CODEX)
    ]


def card_json(card: int) -> dict[str, Any]:
    """A card as the views show it: id, name, time, colour."""
    colour = COLOUR[card]
    return {
        "id": CARD_ID[card],
        "name": CARD_NAME[card],
        "time": CARD_TIME[card],
        "colour": COLOURS[colour] if colour >= 0 else None,
    }
