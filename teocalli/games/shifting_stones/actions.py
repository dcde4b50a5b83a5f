"""Shifting Stones' actions: notation and dense integer indices.

Notation (cells 1-9 in reading order, cards by id 1-72):
  `shift 17 1-2`   discard card 17 face up, swap the tiles on cells 1 and 2 (orthogonally
                   adjacent; printed lower cell first, parsed in either order)
  `flip 17 5`      discard card 17 face up, turn the tile on cell 5 to its other face
  `score 17`       reveal card 17, which matches the grid now, and keep it face up
  `end`            end the turn: draw back up to 4 cards
  `skip`           instead of any other action, draw 2 cards (not on two turns in a row)

Dense index (1586 in all):
  0-71      score card id - 1
  72-935    shift: 72 + (id - 1) * 12 + swap, swap 0-11 as `components.SWAPS` (the 6 horizontal
            pairs 1-2 2-3 4-5 5-6 7-8 8-9, then the 6 vertical 1-4 2-5 3-6 4-7 5-8 6-9)
  936-1583  flip: 936 + (id - 1) * 9 + cell (0-8)
  1584      end
  1585      skip
"""

from __future__ import annotations

from dataclasses import dataclass

from teocalli.core import InvalidAction

from .components import CELLS, NUM_CARDS, SWAP_INDEX, SWAPS


@dataclass(frozen=True, slots=True)
class Shift:
    """Pay with `card`, swap the tiles on adjacent cells p < q (0-8)."""

    card: int
    p: int
    q: int

    def __str__(self) -> str:
        return f"shift {self.card} {self.p + 1}-{self.q + 1}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Pay with `card`, turn the tile on `cell` (0-8) over."""

    card: int
    cell: int

    def __str__(self) -> str:
        return f"flip {self.card} {self.cell + 1}"


@dataclass(frozen=True, slots=True)
class Score:
    """Reveal a matching card and keep it."""

    card: int

    def __str__(self) -> str:
        return f"score {self.card}"


@dataclass(frozen=True, slots=True)
class End:
    """End the turn and draw back up to 4."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Skip:
    """Skip the turn: draw 2 cards."""

    def __str__(self) -> str:
        return "skip"


Action = Shift | Flip | Score | End | Skip
END = End()
SKIP = Skip()

SCORE_BASE = 0
SHIFT_BASE = NUM_CARDS
FLIP_BASE = SHIFT_BASE + NUM_CARDS * len(SWAPS)
END_INDEX = FLIP_BASE + NUM_CARDS * CELLS
SKIP_INDEX = END_INDEX + 1
NUM_ACTIONS = SKIP_INDEX + 1


def _card(text: str, whole: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= NUM_CARDS:
        raise InvalidAction(f"{text!r} in {whole!r} is not a card id (1 to {NUM_CARDS})")
    return int(text)


def _cell(text: str, whole: str) -> int:
    if len(text) != 1 or text not in "123456789":
        raise InvalidAction(f"{text!r} in {whole!r} is not a cell (1 to 9, in reading order)")
    return int(text) - 1


def parse(text: str) -> Action:
    """Read the notation above; InvalidAction says what is wrong."""
    if not isinstance(text, str):
        raise InvalidAction(f"{text!r} is not action text")
    words = text.strip().lower().split()
    if not words:
        raise InvalidAction("an empty text is not an action")
    verb, args = words[0], words[1:]
    if verb in ("end", "skip") and not args:
        return END if verb == "end" else SKIP
    if verb == "score" and len(args) == 1:
        return Score(_card(args[0], text))
    if verb == "flip" and len(args) == 2:
        return Flip(_card(args[0], text), _cell(args[1], text))
    if verb == "shift" and len(args) == 2:
        card = _card(args[0], text)
        a, dash, b = args[1].partition("-")
        if not dash:
            raise InvalidAction(f"a shift names two cells like '1-2', not {args[1]!r}")
        p, q = sorted((_cell(a, text), _cell(b, text)))
        if (p, q) not in SWAP_INDEX:
            raise InvalidAction(
                f"cells {p + 1} and {q + 1} are not orthogonally adjacent: no diagonal shifting"
            )
        return Shift(card, p, q)
    raise InvalidAction(
        f"{text!r} is not an action: write 'shift CARD A-B', 'flip CARD CELL', 'score CARD', "
        "'end' or 'skip'"
    )


def malformed(action: object) -> str | None:
    """Why an action object is no Shifting Stones action at all (None: it is one).

    The one check of an object's fields, so the rules may index by them: a card id, cells of the
    grid, a shift's two cells orthogonally adjacent and lower first (as notation writes them).
    Whether the card is in hand is the rules' question.
    """
    card: object
    if type(action) is Shift:
        p, q = action.p, action.q
        if type(p) is not int or type(q) is not int or (p, q) not in SWAP_INDEX:
            return (
                f"{action!r}: a shift swaps two orthogonally adjacent cells, given lower first "
                "(cells 0 to 8): no diagonal shifting"
            )
        card = action.card
    elif type(action) is Flip:
        if type(action.cell) is not int or not 0 <= action.cell < CELLS:
            return f"{action!r}: a cell is a number 0 to {CELLS - 1}"
        card = action.card
    elif type(action) is Score:
        card = action.card
    elif type(action) is End or type(action) is Skip:
        return None
    else:
        return f"{action!r} is not a Shifting Stones action"
    if type(card) is not int or not 1 <= card <= NUM_CARDS:
        return f"{action!r}: a card is an id 1 to {NUM_CARDS}"
    return None


def to_int(action: object) -> int:
    if isinstance(action, Score):
        return SCORE_BASE + action.card - 1
    if isinstance(action, Shift):
        return SHIFT_BASE + (action.card - 1) * len(SWAPS) + SWAP_INDEX[(action.p, action.q)]
    if isinstance(action, Flip):
        return FLIP_BASE + (action.card - 1) * CELLS + action.cell
    if isinstance(action, End):
        return END_INDEX
    if isinstance(action, Skip):
        return SKIP_INDEX
    raise InvalidAction(f"{action!r} is not a Shifting Stones action")


def from_int(index: int) -> Action:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < NUM_ACTIONS:
        raise InvalidAction(
            f"{index!r} is not an action index of shifting-stones (0 to {NUM_ACTIONS - 1})"
        )
    return BY_INDEX[index]


BY_INDEX: tuple[Action, ...] = (
    *(Score(card) for card in range(1, NUM_CARDS + 1)),
    *(Shift(card, p, q) for card in range(1, NUM_CARDS + 1) for p, q in SWAPS),
    *(Flip(card, cell) for card in range(1, NUM_CARDS + 1) for cell in range(CELLS)),
    END,
    SKIP,
)
"""Every action by its dense index, built once (actions are immutable values): an adapter's
step decodes its index by a lookup, not by building the object."""
if len(BY_INDEX) != NUM_ACTIONS or any(to_int(a) != i for i, a in enumerate(BY_INDEX)):
    raise AssertionError("shifting-stones: the action table disagrees with the index layout")
