"""Aztack's actions: notation (like SAN in chess) and dense integer indices.

Notation:
  `Gf/Ow@a1-a2`     place the stone Gf/Ow with its Gf half on cell a1 and its Ow half on a2
                    (printed with the cells in ascending order; parsed in either order)
  `Gf/Ow@a1-a2=c`   the same, declaring a colour match (Speed Stack with `declare`): `=c` colours,
                    `=g` glyphs, `=cg` colours and glyphs
  `discard Gf/Ow`   after a bonus, discard that stone from your hand
  `keep`            after a bonus, decline the discard
  `pass`            no placement is possible for you

Dense index (per game, since `declare` changes it):
  place: (stone * SLOTS + slot) * D + d, slot = 2 * pair + (0 if half 0 is on the lower cell),
         D = 3 with `declare` (d: 0 colours, 1 glyphs, 2 both) else 1 (d = 0);
  then 60 discards (by stone), then keep, then pass.
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

from teocalli.core import InvalidAction

from .components import (
    CELLS,
    NUM_STONES,
    PAIR_INDEX,
    PAIRS,
    SLOTS,
    cell_text,
    find_stone,
    parse_cell,
    parse_half,
    stone_text,
)


class Match(enum.Enum):
    """A declared match type (Speed Stack's shout)."""

    COLOURS = "c"
    GLYPHS = "g"
    BOTH = "cg"

    def __repr__(self) -> str:
        return f"Match.{self.name}"


@dataclass(frozen=True, slots=True)
class Place:
    """Put `stone` with its half 0 on cell `p` and its half 1 on the adjacent cell `q`."""

    stone: int
    p: int
    q: int
    declared: Match | None = None

    def __str__(self) -> str:
        if self.p < self.q:
            text = f"{stone_text(self.stone)}@{cell_text(self.p)}-{cell_text(self.q)}"
        else:
            text = f"{stone_text(self.stone, flipped=True)}@{cell_text(self.q)}-{cell_text(self.p)}"
        return text if self.declared is None else f"{text}={self.declared.value}"


@dataclass(frozen=True, slots=True)
class Discard:
    """After a bonus placement, put one stone from your hand out of the game."""

    stone: int

    def __str__(self) -> str:
        return f"discard {stone_text(self.stone)}"


@dataclass(frozen=True, slots=True)
class Keep:
    """After a bonus placement, decline the discard."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Pass:
    """You have no legal placement: the turn goes on."""

    def __str__(self) -> str:
        return "pass"


Action = Place | Discard | Keep | Pass
KEEP = Keep()
PASS = Pass()

_PLACE = re.compile(r"^(\w\w)/(\w\w)@(\w\d)-(\w\d)(?:=(c|g|cg))?$")
_DISCARD = re.compile(r"^discard\s+(\w\w)/(\w\w)$")


def _stone(a: str, b: str, text: str) -> tuple[int, bool]:
    ha, hb = parse_half(a), parse_half(b)
    if ha is None or hb is None:
        raise InvalidAction(
            f"{text!r}: a stone is written as two halves, colour then glyph, like Gf/Ow"
        )
    found = find_stone(ha, hb)
    if found is None:
        raise InvalidAction(f"{text!r}: there is no stone {a}/{b} in the set")
    return found


def parse(text: str) -> Action:
    """Read Aztack notation (see the module docstring)."""
    t = text.strip()
    if t == "pass":
        return PASS
    if t == "keep":
        return KEEP
    m = _DISCARD.match(t)
    if m:
        return Discard(_stone(m[1], m[2], text)[0])
    m = _PLACE.match(t)
    if not m:
        raise InvalidAction(
            f"cannot read {text!r}: write a placement like Gf/Ow@a1-a2, "
            "or discard Gf/Ow, keep, pass"
        )
    stone, flipped = _stone(m[1], m[2], text)
    c1, c2 = parse_cell(m[3]), parse_cell(m[4])
    if c1 is None or c2 is None:
        raise InvalidAction(f"{text!r}: cells are a column a-f and a row 1-4, like b3")
    if (min(c1, c2), max(c1, c2)) not in PAIR_INDEX:
        raise InvalidAction(
            f"{text!r}: {m[3]} and {m[4]} are not side by side, so no stone covers both"
        )
    p, q = (c2, c1) if flipped else (c1, c2)
    return Place(stone, p, q, Match(m[5]) if m[5] else None)


def malformed(action: object) -> str | None:
    """Why an action object is no Aztack action at all (None: it is one).

    The one check of an object's fields, so the rules may index by them: a stone of the set,
    cells on the table and side by side (a negative cell would wrap round the list), a Match or
    no declaration. Whether the placement fits is the rules' question, not this one.
    """
    if type(action) is Place:
        s, p, q = action.stone, action.p, action.q
        if type(s) is not int or not 0 <= s < NUM_STONES:
            return f"{action!r}: a stone is a number 0 to {NUM_STONES - 1}"
        if type(p) is not int or type(q) is not int or not (0 <= p < CELLS and 0 <= q < CELLS):
            return f"{action!r}: a cell is a number 0 to {CELLS - 1}"
        if not _SIDE_BY_SIDE[p * CELLS + q]:
            return (
                f"{action!r}: {cell_text(p)} and {cell_text(q)} are not side by side, "
                "so no stone covers both"
            )
        if action.declared is not None and type(action.declared) is not Match:
            return f"{action!r}: a declaration is a Match (colours, glyphs or both) or None"
        return None
    if type(action) is Discard:
        if type(action.stone) is not int or not 0 <= action.stone < NUM_STONES:
            return f"{action!r}: a stone is a number 0 to {NUM_STONES - 1}"
        return None
    if type(action) is Keep or type(action) is Pass:
        return None
    return f"{action!r} is not an Aztack action"


_SIDE_BY_SIDE = tuple(
    (min(p, q), max(p, q)) in PAIR_INDEX for p in range(CELLS) for q in range(CELLS)
)
"""Whether cells p and q are orthogonally adjacent, at p * CELLS + q (one look-up per check)."""


class Codec:
    """Dense indices for one game's options (with or without declarations)."""

    def __init__(self, declare: bool) -> None:
        self.declare = declare
        self.kinds: tuple[Match | None, ...] = (
            (Match.COLOURS, Match.GLYPHS, Match.BOTH) if declare else (None,)
        )
        d = len(self.kinds)
        self.places = NUM_STONES * SLOTS * d
        self.size = self.places + NUM_STONES + 2
        table: list[Action] = []
        for stone in range(NUM_STONES):
            for pair in PAIRS:
                for p, q in (pair, pair[::-1]):
                    table.extend(Place(stone, p, q, kind) for kind in self.kinds)
        table.extend(Discard(s) for s in range(NUM_STONES))
        table.extend((KEEP, PASS))
        self.table: tuple[Action, ...] = tuple(table)
        self._kind_index = {kind: i for i, kind in enumerate(self.kinds)}

    def place(self, stone: int, pair: int, flipped: int, kind: int = 0) -> Place:
        """The shared Place for a stone, pair, orientation and declaration (no allocation)."""
        action = self.table[((stone * SLOTS) + 2 * pair + flipped) * len(self.kinds) + kind]
        assert isinstance(action, Place)
        return action

    def parse(self, text: str) -> Action:
        return parse(text)

    def to_int(self, action: Action) -> int:
        if isinstance(action, Place):
            if action.declared not in self._kind_index:
                need = (
                    "needs a declaration (=c, =g or =cg)"
                    if self.declare
                    else "takes no declaration"
                )
                raise InvalidAction(f"{action}: this game {need}")
            p, q = action.p, action.q
            slot = 2 * PAIR_INDEX[(min(p, q), max(p, q))] + (0 if p < q else 1)
            return (action.stone * SLOTS + slot) * len(self.kinds) + self._kind_index[
                action.declared
            ]
        if isinstance(action, Discard):
            return self.places + action.stone
        if isinstance(action, Keep):
            return self.places + NUM_STONES
        if isinstance(action, Pass):
            return self.places + NUM_STONES + 1
        raise InvalidAction(f"{action!r} is not an Aztack action")

    def from_int(self, index: int) -> Action:
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise InvalidAction(f"{index!r} is not an Aztack action index (0 to {self.size - 1})")
        return self.table[index]


@functools.cache
def codec_for(declare: bool) -> Codec:
    """The shared codec (its 4,560-action table is built once per process, not once per game)."""
    return Codec(declare)
