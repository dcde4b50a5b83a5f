"""Space Aztecs' actions: notation and dense integer indices.

Notation (card ids as in the rules doc, piles A-H; parsing ignores case and extra spaces):
  `take C`          take pile C this round (a TURN, clockwise from the Starting Player)
  `choose PNK-05`   choose that card of your pile face down (the SIMULTANEOUS choice)
  `capture YEL-04`  your Flying Saucer takes that visible Aztec (when a victim has several)
  `tuck`            with a Special Agent in view: put the Aztec you just played under your Temple
  `keep`            ... or leave it in view

Dense index, fixed for every option set:
  0..7      take pile A..H
  8..79     choose card 0..71 (card index = order of components.json)
  80..151   capture card 0..71
  152       tuck
  153       keep
"""

from __future__ import annotations

from dataclasses import dataclass

from teocalli.core import InvalidAction

from .components import NUM_CARDS, NUM_PILES, card_text, parse_card, parse_pile, pile_text


@dataclass(frozen=True, slots=True)
class Take:
    """Take one pile for this round."""

    pile: int

    def __str__(self) -> str:
        return f"take {pile_text(self.pile)}"


@dataclass(frozen=True, slots=True)
class Choose:
    """Choose a card of your pile, face down."""

    card: int

    def __str__(self) -> str:
        return f"choose {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Capture:
    """The Saucer's owner picks which visible Aztec of the victim goes under the Saucer."""

    card: int

    def __str__(self) -> str:
        return f"capture {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class Tuck:
    """Put the Aztec just played under a Temple of its colour (Special Agent power)."""

    def __str__(self) -> str:
        return "tuck"


@dataclass(frozen=True, slots=True)
class Keep:
    """Leave the Aztec just played in view (declining the Special Agent power)."""

    def __str__(self) -> str:
        return "keep"


Action = Take | Choose | Capture | Tuck | Keep
TUCK = Tuck()
KEEP = Keep()

TAKE_BASE = 0
CHOOSE_BASE = NUM_PILES
CAPTURE_BASE = CHOOSE_BASE + NUM_CARDS
TUCK_INDEX = CAPTURE_BASE + NUM_CARDS
KEEP_INDEX = TUCK_INDEX + 1
NUM_ACTIONS = KEEP_INDEX + 1

TABLE: tuple[Action, ...] = (
    *(Take(p) for p in range(NUM_PILES)),
    *(Choose(c) for c in range(NUM_CARDS)),
    *(Capture(c) for c in range(NUM_CARDS)),
    TUCK,
    KEEP,
)
"""Every action by dense index: the shared instances that move generation hands out."""

_HELP = "write take A, choose PNK-05, capture YEL-04, tuck or keep"


def parse(text: str) -> Action:
    """Read Space Aztecs notation (see the module docstring)."""
    if not isinstance(text, str):
        raise InvalidAction(f"{text!r} is not Space Aztecs notation: {_HELP}")
    words = text.strip().lower().split()
    if words == ["tuck"]:
        return TUCK
    if words == ["keep"]:
        return KEEP
    if len(words) == 2 and words[0] == "take":
        pile = parse_pile(words[1])
        if pile is None:
            raise InvalidAction(f"{text!r}: the piles are A to H")
        return TABLE[TAKE_BASE + pile]
    if len(words) == 2 and words[0] in ("choose", "capture"):
        card = parse_card(words[1])
        if card is None:
            raise InvalidAction(
                f"{text!r}: {words[1].upper()} is not a card id (like PNK-05, BLU-T1, CDX-4)"
            )
        return TABLE[(CHOOSE_BASE if words[0] == "choose" else CAPTURE_BASE) + card]
    raise InvalidAction(f"cannot read {text!r}: {_HELP}")


def malformed(action: object) -> str | None:
    """Why an action object is no Space Aztecs action at all (None: it is one).

    The one check of an object's fields, so the rules may index by them: a pile A-H, a card of
    the set. Whether the phase asks for that action is the rules' question.
    """
    if type(action) is Take:
        if type(action.pile) is not int or not 0 <= action.pile < NUM_PILES:
            return f"{action!r}: a pile is a number 0 to {NUM_PILES - 1} (A to H)"
        return None
    if type(action) is Choose or type(action) is Capture:
        if type(action.card) is not int or not 0 <= action.card < NUM_CARDS:
            return f"{action!r}: a card is a number 0 to {NUM_CARDS - 1}"
        return None
    if type(action) is Tuck or type(action) is Keep:
        return None
    return f"{action!r} is not a Space Aztecs action"


def to_int(action: object) -> int:
    if isinstance(action, Take) and 0 <= action.pile < NUM_PILES:
        return TAKE_BASE + action.pile
    if isinstance(action, Choose) and 0 <= action.card < NUM_CARDS:
        return CHOOSE_BASE + action.card
    if isinstance(action, Capture) and 0 <= action.card < NUM_CARDS:
        return CAPTURE_BASE + action.card
    if isinstance(action, Tuck):
        return TUCK_INDEX
    if isinstance(action, Keep):
        return KEEP_INDEX
    raise InvalidAction(f"{action!r} is not a Space Aztecs action")


def from_int(index: int) -> Action:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < NUM_ACTIONS:
        raise InvalidAction(
            f"{index!r} is not a Space Aztecs action index (0 to {NUM_ACTIONS - 1})"
        )
    return TABLE[index]
