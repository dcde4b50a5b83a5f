"""Aztack's components as data: the stone set (components.json), the cell grid; validated at load.

Coordinates, once: the table is a grid of unit cells, 6 columns (x = 0..5, written a-f) by 4 rows
(y = 0..3, written 1-4); cell index = y * 6 + x. Base row A's stone in column x covers cells
(x, 0)-(x, 1), row B's covers (x, 2)-(x, 3). A half is (colour, glyph); half index = colour * 4 +
glyph (0..19). Stone s has halves HALF0[s] and HALF1[s] (the order of components.json).
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

COLUMNS = 6
ROWS = 4
CELLS = COLUMNS * ROWS
HAND_SIZE = 12
BASE_STONES = 12


def _load() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], list[str]]:
    data = json.loads(resources.files(__package__).joinpath("components.json").read_text())
    colour_letters = tuple(c[0] for c in data["colours"])
    colour_names = tuple(c[1] for c in data["colours"])
    glyph_letters = tuple(g[0] for g in data["glyphs"])
    glyph_names = tuple(g[1] for g in data["glyphs"])
    return colour_letters, colour_names, glyph_letters, glyph_names, list(data["stones"])


COLOUR_LETTERS, COLOUR_NAMES, GLYPH_LETTERS, GLYPH_NAMES, _STONE_TEXT = _load()
NUM_COLOURS = len(COLOUR_LETTERS)
NUM_GLYPHS = len(GLYPH_LETTERS)
NUM_HALVES = NUM_COLOURS * NUM_GLYPHS


def half_text(half: int) -> str:
    return COLOUR_LETTERS[half // NUM_GLYPHS] + GLYPH_LETTERS[half % NUM_GLYPHS]


def parse_half(text: str) -> int | None:
    if len(text) != 2 or text[0] not in COLOUR_LETTERS or text[1] not in GLYPH_LETTERS:
        return None
    return COLOUR_LETTERS.index(text[0]) * NUM_GLYPHS + GLYPH_LETTERS.index(text[1])


def _validate(stones: list[str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Check the set the ruling fixes: 60 distinct stones, each half 6 times, halves differing."""
    half0: list[int] = []
    half1: list[int] = []
    for text in stones:
        a, _, b = text.partition("/")
        h0, h1 = parse_half(a), parse_half(b)
        if h0 is None or h1 is None:
            raise ValueError(f"components.json: {text!r} is not two halves like 'Gf/Ow'")
        if h0 // NUM_GLYPHS == h1 // NUM_GLYPHS or h0 % NUM_GLYPHS == h1 % NUM_GLYPHS:
            raise ValueError(f"components.json: {text!r} repeats a colour or glyph on its halves")
        half0.append(h0)
        half1.append(h1)
    if len(stones) != 60:
        raise ValueError(f"components.json: the set has {len(stones)} stones, not 60")
    if len({frozenset(p) for p in zip(half0, half1, strict=True)}) != 60:
        raise ValueError("components.json: two stones are the same")
    counts = Counter(half0 + half1)
    if set(counts.values()) != {6} or len(counts) != NUM_HALVES:
        raise ValueError("components.json: every (colour, glyph) half must appear exactly 6 times")
    return tuple(half0), tuple(half1)


HALF0, HALF1 = _validate(_STONE_TEXT)
NUM_STONES = len(HALF0)
STONE_COLOURS = tuple(
    (1 << (HALF0[s] // NUM_GLYPHS)) | (1 << (HALF1[s] // NUM_GLYPHS)) for s in range(NUM_STONES)
)
"""Per stone, a bit set of the colours it shows (for the set-up colour check)."""

_STONE_BY_HALVES = {(HALF0[s], HALF1[s]): s for s in range(NUM_STONES)}


def stone_text(stone: int, flipped: bool = False) -> str:
    a, b = HALF0[stone], HALF1[stone]
    return f"{half_text(b)}/{half_text(a)}" if flipped else f"{half_text(a)}/{half_text(b)}"


def find_stone(first: int, second: int) -> tuple[int, bool] | None:
    """The stone with these halves and whether they are given in reverse order."""
    if (first, second) in _STONE_BY_HALVES:
        return _STONE_BY_HALVES[(first, second)], False
    if (second, first) in _STONE_BY_HALVES:
        return _STONE_BY_HALVES[(second, first)], True
    return None


def stone_id(text: str) -> int:
    """The stone written as 'Gf/Ow' (either half first); ValueError if the set has none."""
    a, _, b = text.partition("/")
    ha, hb = parse_half(a), parse_half(b)
    found = None if ha is None or hb is None else find_stone(ha, hb)
    if found is None:
        raise ValueError(f"{text!r} is not a stone of the set")
    return found[0]


def cell_text(cell: int) -> str:
    return "abcdef"[cell % COLUMNS] + str(cell // COLUMNS + 1)


def parse_cell(text: str) -> int | None:
    if len(text) != 2 or text[0] not in "abcdef" or text[1] not in "1234":
        return None
    return (int(text[1]) - 1) * COLUMNS + "abcdef".index(text[0])


def _adjacent_pairs() -> tuple[tuple[int, int], ...]:
    pairs = []
    for p in range(CELLS):
        x, y = p % COLUMNS, p // COLUMNS
        if x + 1 < COLUMNS:
            pairs.append((p, p + 1))
        if y + 1 < ROWS:
            pairs.append((p, p + COLUMNS))
    return tuple(sorted(pairs))


PAIRS = _adjacent_pairs()
"""The 38 unordered pairs of orthogonally adjacent cells (p < q), in a fixed order."""
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
SLOTS = 2 * len(PAIRS)
"""A slot is a pair and which way round: slot = 2 * pair + (0 if half 0 goes on the lower cell)."""

BASE_CELLS = tuple(
    (x + COLUMNS * 2 * row, x + COLUMNS * (2 * row + 1)) for row in range(2) for x in range(COLUMNS)
)
"""The 12 base stones' cells: row A columns a-f, then row B; each as (upper cell, lower cell)."""


def _match_tables() -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """For each ordered pair of top halves (hp, hq) at cells (p, q): bit sets over stones.

    FIT0[k]: stones whose half 0 on p and half 1 on q match both by colour or both by glyph;
    FIT1[k]: the same with the stone turned round; BONUS0/1: matches by colour and glyph;
    ANY[k] = FIT0 | FIT1. Key k = hp * NUM_HALVES + hq.
    """
    size = NUM_HALVES * NUM_HALVES
    fit0, fit1, bonus0, bonus1 = [0] * size, [0] * size, [0] * size, [0] * size
    for hp in range(NUM_HALVES):
        for hq in range(NUM_HALVES):
            k = hp * NUM_HALVES + hq
            for s in range(NUM_STONES):
                for a, b, fit, bonus in (
                    (HALF0[s], HALF1[s], fit0, bonus0),
                    (HALF1[s], HALF0[s], fit1, bonus1),
                ):
                    colours = (
                        a // NUM_GLYPHS == hp // NUM_GLYPHS and b // NUM_GLYPHS == hq // NUM_GLYPHS
                    )
                    glyphs = a % NUM_GLYPHS == hp % NUM_GLYPHS and b % NUM_GLYPHS == hq % NUM_GLYPHS
                    if colours or glyphs:
                        fit[k] |= 1 << s
                    if colours and glyphs:
                        bonus[k] |= 1 << s
    return fit0, fit1, bonus0, bonus1, [a | b for a, b in zip(fit0, fit1, strict=True)]


FIT0, FIT1, BONUS0, BONUS1, FIT_ANY = _match_tables()
