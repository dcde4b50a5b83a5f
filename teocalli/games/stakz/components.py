"""Stakz's components as data: the tile set (components.json), validated at load, immutable.

A tile type is (colour, symbol); its index is `colour * NUM_SYMBOLS + symbol` (0..24 with the
rulebook's set), written as the colour's upper-case letter then the symbol's lower-case letter,
e.g. `Rc` (red circle). Copies of a type are identical, so every part of the engine counts types.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

HAND_PER_COLOUR = 2
"""Set-up: each player takes ten tiles, two of each colour."""
MAX_OF_A_COLOUR = 2
"""A stack holds at most two tiles of one colour."""


class ComponentError(ValueError):
    """components.json does not describe a playable Stakz set."""


def _letters(data: dict[str, Any], key: str, upper: bool) -> list[list[str]]:
    rows = data.get(key)
    if not isinstance(rows, list) or not rows:
        raise ComponentError(f"components.json: {key!r} must be a non-empty list")
    for row in rows:
        if (
            not isinstance(row, list)
            or len(row) < 2
            or not all(isinstance(x, str) for x in row)
            or len(row[0]) != 1
            or not row[0].isalpha()
            or row[0].isupper() != upper
        ):
            case = "upper" if upper else "lower"
            raise ComponentError(
                f"components.json: each of {key!r} must be [one {case}-case letter, name, ...], "
                f"not {row!r}"
            )
    return rows


def _load() -> tuple[list[list[str]], list[list[str]], int]:
    text = resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8")
    data = json.loads(text)
    colours = _letters(data, "colours", upper=True)
    symbols = _letters(data, "symbols", upper=False)
    copies = data.get("copies")
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        raise ComponentError(f"components.json: 'copies' must be an int >= 1, not {copies!r}")
    if len(colours) != 5:
        raise ComponentError(
            f"components.json: Stakz has 5 colours (stacks split on the fifth), not {len(colours)}"
        )
    letters = [c[0].lower() for c in colours] + [s[0] for s in symbols]
    if len(set(letters)) != len(letters):
        raise ComponentError("components.json: every colour and symbol needs its own letter")
    if len(symbols) * copies < HAND_PER_COLOUR * 4 + 1:
        raise ComponentError(
            "components.json: each colour needs at least 9 tiles (four hands of two, and a stack)"
        )
    return colours, symbols, copies


_COLOURS, _SYMBOLS, COPIES = _load()
COLOUR_LETTERS: tuple[str, ...] = tuple(c[0] for c in _COLOURS)
COLOUR_NAMES: tuple[str, ...] = tuple(c[1] for c in _COLOURS)
SYMBOL_LETTERS: tuple[str, ...] = tuple(s[0] for s in _SYMBOLS)
SYMBOL_NAMES: tuple[str, ...] = tuple(s[1] for s in _SYMBOLS)
SYMBOL_GLYPHS: tuple[str, ...] = tuple(s[2] if len(s) > 2 else s[0] for s in _SYMBOLS)
NUM_COLOURS = len(COLOUR_LETTERS)
NUM_SYMBOLS = len(SYMBOL_LETTERS)
NUM_TILES = NUM_COLOURS * NUM_SYMBOLS
"""Number of tile types."""
TOTAL_TILES = NUM_TILES * COPIES
ALL_COLOURS = (1 << NUM_COLOURS) - 1

COLOUR = tuple(t // NUM_SYMBOLS for t in range(NUM_TILES))
SYMBOL = tuple(t % NUM_SYMBOLS for t in range(NUM_TILES))
TILE_TEXT = tuple(COLOUR_LETTERS[COLOUR[t]] + SYMBOL_LETTERS[SYMBOL[t]] for t in range(NUM_TILES))
TILE_NAME = tuple(f"{COLOUR_NAMES[COLOUR[t]]} {SYMBOL_NAMES[SYMBOL[t]]}" for t in range(NUM_TILES))
MATCHES = tuple(
    tuple(COLOUR[a] == COLOUR[b] or SYMBOL[a] == SYMBOL[b] for a in range(NUM_TILES))
    for b in range(NUM_TILES)
)
"""MATCHES[top][tile]: whether `tile` may go on a stack whose top tile is `top`."""

MAX_STACKS = (TOTAL_TILES + 1) // 2
"""A true bound on the number of stacks (38 with 75 tiles), which sizes the dense action index.

The two starting stacks hold at least one tile each; every other stack comes from a split of a
stack of five or more tiles, so both halves hold at least two, and stacks never shrink otherwise.
A hand is never empty while the round goes on, so at most TOTAL - 1 tiles lie on the table:
2 + 2 * (S - 2) <= TOTAL - 1.
"""

_TILE_BY_TEXT = {TILE_TEXT[t].lower(): t for t in range(NUM_TILES)}
_COLOUR_BY_LETTER = {c.lower(): i for i, c in enumerate(COLOUR_LETTERS)}


def parse_tile(text: str) -> int | None:
    """The tile type written `text` (colour letter, symbol letter; either case), or None."""
    return _TILE_BY_TEXT.get(text.strip().lower())


def parse_colour(text: str) -> int | None:
    """The colour with that letter (either case), or None."""
    return _COLOUR_BY_LETTER.get(text.strip().lower())
