"""Stakz's actions: notation and dense integer indices.

Notation:
  `Rc@3`    place a red circle from your hand on top of stack 3 (stacks are numbered from 0 in
            the order they appeared; a split keeps the lower half's number and appends the upper
            half as the newest stack)
  `end B`   end your turn and draw a blue tile from the pile (while the pile has tiles you must
            draw, and the colour must still be in the pile)
  `end`     end your turn when the pile is empty (nothing to draw)

Dense index (NUM_DISTINCT_ACTIONS = 38 * 25 + 6 = 956 with the rulebook's set):
  place:  stack * NUM_TILES + tile       (0 .. MAX_STACKS * NUM_TILES - 1)
  `end`:  MAX_STACKS * NUM_TILES
  `end C`: MAX_STACKS * NUM_TILES + 1 + colour   (colours in components.json order: R O G B P)
Legal actions come in ascending index order: placements by stack then tile, then the ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from teocalli.core import InvalidAction

from .components import (
    COLOUR_LETTERS,
    MAX_STACKS,
    NUM_COLOURS,
    NUM_TILES,
    TILE_TEXT,
    parse_colour,
    parse_tile,
)


@dataclass(frozen=True, slots=True)
class Place:
    """Put one tile of type `tile` from your hand on top of stack `stack`."""

    tile: int
    stack: int

    def __str__(self) -> str:
        return f"{TILE_TEXT[self.tile]}@{self.stack}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your turn, drawing a tile of colour `draw` (None when the pile is empty)."""

    draw: int | None = None

    def __str__(self) -> str:
        return "end" if self.draw is None else f"end {COLOUR_LETTERS[self.draw]}"


Action = Place | EndTurn

PLACES = MAX_STACKS * NUM_TILES
END_INDEX = PLACES
NUM_DISTINCT_ACTIONS = PLACES + 1 + NUM_COLOURS

TABLE: tuple[Action, ...] = (
    *(Place(t, s) for s in range(MAX_STACKS) for t in range(NUM_TILES)),
    EndTurn(None),
    *(EndTurn(c) for c in range(NUM_COLOURS)),
)
"""Every action by its index: the engine hands out these shared objects (no allocation)."""

_PLACE = re.compile(r"^(\S\S)\s*@\s*(\d+)$")
_END = re.compile(r"^end(?:\s+(\S+))?$", re.IGNORECASE)


def place(tile: int, stack: int) -> Place:
    """The shared Place object for a tile type on a stack."""
    action = TABLE[stack * NUM_TILES + tile]
    assert isinstance(action, Place)
    return action


def end(draw: int | None) -> EndTurn:
    """The shared EndTurn object drawing colour `draw` (None: no draw)."""
    action = TABLE[END_INDEX if draw is None else END_INDEX + 1 + draw]
    assert isinstance(action, EndTurn)
    return action


def parse(text: str) -> Action:
    """Read Stakz notation (see the module docstring); InvalidAction says what is wrong."""
    if not isinstance(text, str):
        raise InvalidAction(f"{text!r} is not Stakz notation")
    t = text.strip()
    m = _END.match(t)
    if m:
        if m[1] is None:
            return end(None)
        colour = parse_colour(m[1])
        if colour is None:
            raise InvalidAction(
                f"{text!r}: draw a colour by its letter, one of {' '.join(COLOUR_LETTERS)}"
            )
        return end(colour)
    m = _PLACE.match(t)
    if not m:
        raise InvalidAction(
            f"cannot read {text!r}: write a placement like Rc@0 (tile @ stack), "
            f"or end R (end the turn drawing a red tile), or end"
        )
    tile = parse_tile(m[1])
    if tile is None:
        raise InvalidAction(
            f"{text!r}: a tile is a colour letter and a symbol letter, like Rc (red circle)"
        )
    stack = int(m[2])
    if stack >= MAX_STACKS:
        raise InvalidAction(f"{text!r}: there are never more than {MAX_STACKS} stacks")
    return place(tile, stack)


def malformed(action: object) -> str | None:
    """Why an action object is no Stakz action at all (None: it is one).

    The one check of an object's fields, so the rules may index by them: a tile type of the set,
    a stack number below the bound on stacks, a colour of the set or no draw. Whether the stack
    exists now is the rules' question.
    """
    if type(action) is Place:
        if type(action.tile) is not int or not 0 <= action.tile < NUM_TILES:
            return f"{action!r}: a tile type is a number 0 to {NUM_TILES - 1}"
        if type(action.stack) is not int or not 0 <= action.stack < MAX_STACKS:
            return f"{action!r}: a stack is a number 0 to {MAX_STACKS - 1}"
        return None
    if type(action) is EndTurn:
        draw = action.draw
        if draw is not None and (type(draw) is not int or not 0 <= draw < NUM_COLOURS):
            return f"{action!r}: a draw is a colour 0 to {NUM_COLOURS - 1}, or None (no draw)"
        return None
    return f"{action!r} is not a Stakz action"


def to_int(action: object) -> int:
    """The action's dense index (see the module docstring)."""
    if isinstance(action, Place):
        if not (0 <= action.tile < NUM_TILES and 0 <= action.stack < MAX_STACKS):
            raise InvalidAction(f"{action!r} names no tile or stack of Stakz")
        return action.stack * NUM_TILES + action.tile
    if isinstance(action, EndTurn):
        if action.draw is None:
            return END_INDEX
        if not 0 <= action.draw < NUM_COLOURS:
            raise InvalidAction(f"{action!r} names no colour of Stakz")
        return END_INDEX + 1 + action.draw
    raise InvalidAction(f"{action!r} is not a Stakz action")


def from_int(index: int) -> Action:
    """The action with that dense index."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(TABLE):
        raise InvalidAction(
            f"{index!r} is not a Stakz action index (0 to {NUM_DISTINCT_ACTIONS - 1})"
        )
    return TABLE[index]
