"""Shifting Stones' components as data: symbols, tiles and the 72 pattern cards (components.json).

Coordinates, once: the grid's cells are numbered 1-9 in reading order (1 = top-left, 3 =
top-right, 9 = bottom-right; the top is the deck's side); internally cell c is 0-8. A symbol is
0-7 in the order Su Mo Fi Bi Ho Bo Se Tr, so a tile's two faces are 2t and 2t + 1 (tile kind t:
0 Sun/Moon, 1 Fish/Bird, 2 Horse/Boat, 3 Seed/Tree) and flipping is `symbol ^ 1`.

A card's pattern is an h x w block of symbols and grey squares (None). It matches a grid when the
block, slid but never rotated or mirrored, fits inside the 3 x 3 grid with every symbol equal to
the face there; `PLACEMENTS[card]` lists, per fitting offset, the (cell, symbol) pairs to check.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

SIZE = 3
CELLS = 9
HAND_SIZE = 4
NUM_CARDS = 72


@dataclass(frozen=True, slots=True)
class Card:
    """One pattern card: id 1-72, points, and its block (rows of symbols or None for grey)."""

    id: int
    points: int
    rows: tuple[tuple[int | None, ...], ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("components.json").read_text()
    )
    return data


_DATA = _load()
SYMBOLS: tuple[str, ...] = tuple(s[0] for s in _DATA["symbols"])
SYMBOL_NAMES: tuple[str, ...] = tuple(s[1] for s in _DATA["symbols"])
SYMBOL_COLOURS: tuple[str, ...] = tuple(s[2] for s in _DATA["symbols"])
GREY = ".."


def _validate_tiles(data: dict[str, Any]) -> tuple[int, ...]:
    """The tile kinds must pair symbols 2t / 2t+1 and number 9 tiles in all."""
    if len(SYMBOLS) != 8 or len(set(SYMBOLS)) != 8:
        raise ValueError("components.json: there must be 8 distinct symbols")
    counts = []
    for t, tile in enumerate(data["tiles"]):
        if list(tile["faces"]) != [SYMBOLS[2 * t], SYMBOLS[2 * t + 1]]:
            raise ValueError(
                f"components.json: tile {t} must have faces {SYMBOLS[2 * t]}/{SYMBOLS[2 * t + 1]}"
            )
        counts.append(int(tile["count"]))
    if len(counts) != 4 or sum(counts) != CELLS:
        raise ValueError(f"components.json: the 4 tile kinds must number 9 tiles, not {counts}")
    return tuple(counts)


TILE_COUNTS = _validate_tiles(_DATA)
"""How many tiles of each kind: (1, 2, 3, 3)."""


def _parse_pattern(card_id: int, text: str, size: str) -> tuple[tuple[int | None, ...], ...]:
    rows = []
    for row_text in text.split("/"):
        row: list[int | None] = []
        for token in row_text.split():
            if token == GREY:
                row.append(None)
            elif token in SYMBOLS:
                row.append(SYMBOLS.index(token))
            else:
                raise ValueError(f"components.json: card {card_id} has an unknown symbol {token!r}")
        rows.append(tuple(row))
    h, w = len(rows), len(rows[0]) if rows else 0
    if f"{h}x{w}" != size or any(len(r) != w for r in rows):
        raise ValueError(f"components.json: card {card_id}'s pattern {text!r} is not {size}")
    if not (1 <= h <= SIZE and 1 <= w <= SIZE):
        raise ValueError(f"components.json: card {card_id} is larger than the grid")
    if all(s is None for r in rows for s in r):
        raise ValueError(f"components.json: card {card_id} has no symbol")
    return tuple(rows)


def _validate_cards(data: dict[str, Any]) -> tuple[Card, ...]:
    """72 distinct cards with ids 1-72 and 28/26/13/5 cards worth 1/2/3/5 points."""
    cards = []
    for i, entry in enumerate(data["cards"], start=1):
        if entry["id"] != i:
            raise ValueError(f"components.json: card ids must run 1-72; found {entry['id']}")
        cards.append(
            Card(i, int(entry["points"]), _parse_pattern(i, entry["pattern"], entry["size"]))
        )
    if len(cards) != NUM_CARDS:
        raise ValueError(f"components.json: {len(cards)} cards, not {NUM_CARDS}")
    if len({c.rows for c in cards}) != NUM_CARDS:
        raise ValueError("components.json: two cards have the same pattern")
    expected = {int(k): v for k, v in data["card_counts_by_points"].items()}
    counts = Counter(c.points for c in cards)
    if dict(counts) != expected:
        raise ValueError(f"components.json: cards by points {dict(counts)}, expected {expected}")
    if expected != {1: 28, 2: 26, 3: 13, 5: 5}:
        raise ValueError("components.json: the edition must have 28/26/13/5 cards worth 1/2/3/5")
    return tuple(cards)


_CARD_LIST = _validate_cards(_DATA)
CARDS: dict[int, Card] = {c.id: c for c in _CARD_LIST}
CARD_IDS: tuple[int, ...] = tuple(CARDS)
POINTS: tuple[int, ...] = (0, *(c.points for c in _CARD_LIST))
"""POINTS[card id] (index 0 unused)."""
SOLO_DECK: dict[int, int] = {int(k): v for k, v in _DATA["solo_deck_by_points"].items()}
"""The solo mini-deck by points: 8 one-point, 4 two-point, 3 three-point, 1 five-point card."""
if sum(SOLO_DECK.values()) != 16 or any(p not in (1, 2, 3, 5) for p in SOLO_DECK):
    raise ValueError("components.json: the solo deck must be 16 cards of 1/2/3/5 points")


def _placements(card: Card) -> tuple[tuple[tuple[int, int], ...], ...]:
    out = []
    for r0 in range(SIZE - card.height + 1):
        for c0 in range(SIZE - card.width + 1):
            checks = tuple(
                ((r0 + r) * SIZE + c0 + c, s)
                for r, row in enumerate(card.rows)
                for c, s in enumerate(row)
                if s is not None
            )
            out.append(checks)
    return tuple(out)


PLACEMENTS: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {
    c.id: _placements(c) for c in _CARD_LIST
}


def _matcher(card_id: int) -> Callable[[Grid], bool]:
    """`matches` of one card as one expression over the grid's cells, built from its
    placements: `(g[1] == 0 and g[4] == 5) or ...`, each placement's symbols rarest tile first
    (most placements fail at their first test). About a quarter of the cost of looping over
    the placement tables, which every step's `legal_actions` and every mask ran for each card
    in hand. Built from the validated ints of the card table only."""
    placements = []
    for checks in PLACEMENTS[card_id]:
        ordered = sorted(checks, key=lambda check: TILE_COUNTS[check[1] // 2])
        placements.append(" and ".join(f"g[{cell}] == {symbol}" for cell, symbol in ordered))
    source = " or ".join(f"({tests})" for tests in placements) or "False"
    matcher: Callable[[Grid], bool] = eval(f"lambda g: {source}")
    return matcher


Grid = list[int] | tuple[int, ...]
MATCHERS: tuple[Callable[[Grid], bool], ...] = (
    lambda g: False,  # no card 0
    *(_matcher(c) for c in CARD_IDS),
)
assert tuple(range(1, len(CARD_IDS) + 1)) == CARD_IDS, "MATCHERS is indexed by card id"
"""By card id: whether its pattern is on a grid (`matches` without the call)."""


def matches(card_id: int, grid: Grid) -> bool:
    """Whether the card's pattern appears in the grid (anywhere it fits, unrotated)."""
    return MATCHERS[card_id](grid)


def matches_by_table(card_id: int, grid: Grid) -> bool:
    """`matches` read from the placement tables, one cell at a time: the reference the
    generated `MATCHERS` are tested against."""
    for checks in PLACEMENTS[card_id]:
        for cell, sym in checks:
            if grid[cell] != sym:
                break
        else:
            return True
    return False


def pattern_text(card_id: int) -> str:
    """The card's pattern as the rules doc writes it: rows top to bottom separated by ' / '."""
    return " / ".join(
        " ".join(GREY if s is None else SYMBOLS[s] for s in row) for row in CARDS[card_id].rows
    )


def _adjacent_pairs() -> tuple[tuple[int, int], ...]:
    horizontal = [(r * SIZE + c, r * SIZE + c + 1) for r in range(SIZE) for c in range(SIZE - 1)]
    vertical = [(r * SIZE + c, (r + 1) * SIZE + c) for r in range(SIZE - 1) for c in range(SIZE)]
    return tuple(horizontal + vertical)


SWAPS = _adjacent_pairs()
"""The 12 swaps (cells p < q, 0-8): the 6 horizontal pairs in reading order, then the 6 vertical."""
SWAP_INDEX = {pair: i for i, pair in enumerate(SWAPS)}
