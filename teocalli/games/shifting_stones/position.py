"""A position builder in the game's notation, so rule tests read like the rulebook.

    grid: Su Fi Ho / Bo Se Tr / Se Tr Bi      (required)
    hands: 21 1 | 7 8                         (one list per seat, separated by '|')
    scored: 9 12 |                            (optional, same layout)
    deck: 10 11                               (top first; 'rest' = every other card, by id)
    discard: 13 14                            (bottom first)
    turn: 1
    acted: no
    skipped: 0 1                              (seats whose last turn was a skip)
    round: 3
    strikes: 2
    scored_this_turn: 0
    reshuffles: 1                             (times the discard pile became the deck)
    ended: trigger                            (the game is over: trigger, round_limit,
                                               solo_win or solo_strikes)

One key per line; unknown keys are refused. The cards in play are those written (a solo game's
16). The state has no seed (it cannot be saved) and its generator starts from `seed` (used only
by reshuffles). `to_position` writes every key, so that `from_position` gives back the position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from teocalli.core import Rng

from .components import CARD_IDS
from .grid import grid_text, parse_grid
from .state import EndReason, ShiftingStonesState

if TYPE_CHECKING:
    from .game import ShiftingStones

_KEYS = {
    "grid", "hands", "scored", "deck", "discard", "turn", "acted", "skipped", "round",
    "strikes", "scored_this_turn", "reshuffles", "ended",
}  # fmt: skip


def _cards(text: str) -> list[int]:
    out = []
    for token in text.split():
        if not token.isdigit() or int(token) not in CARD_IDS:
            raise ValueError(f"{token!r} is not a card id (1 to 72)")
        out.append(int(token))
    return out


def _seats(text: str, n: int, key: str) -> list[list[int]]:
    parts = text.split("|")
    if len(parts) != n:
        raise ValueError(f"{key} must list {n} seat(s) separated by '|', not {text!r}")
    return [_cards(p) for p in parts]


def from_position(game: ShiftingStones, text: str, seed: int = 0) -> ShiftingStonesState:
    """Build a position from the text format above."""
    fields: dict[str, str] = {}
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon or key not in _KEYS:
            raise ValueError(f"unknown position line {line!r} (keys: {', '.join(sorted(_KEYS))})")
        fields[key] = value.strip()
    if "grid" not in fields:
        raise ValueError("a position needs a 'grid:' line")
    n = game.num_players
    state = game.new_state(seed)
    state.seed = None
    state.rng = Rng(seed)
    state.grid = parse_grid(fields["grid"])
    state.hands = [sorted(h) for h in _seats(fields.get("hands", "|" * (n - 1)), n, "hands")]
    state.scored = _seats(fields.get("scored", "|" * (n - 1)), n, "scored")
    state.discard = _cards(fields.get("discard", ""))
    used = [c for h in state.hands for c in h] + [c for s in state.scored for c in s]
    used += state.discard
    deck_text = fields.get("deck", "")
    if deck_text.strip() == "rest":
        deck = [c for c in CARD_IDS if c not in set(used)]
    else:
        deck = _cards(deck_text)
    state.deck = deck[::-1]
    every = used + deck
    if len(set(every)) != len(every):
        raise ValueError("a card appears twice in the position")
    state.pool = tuple(sorted(every))
    state.turn = int(fields.get("turn", "0"))
    if not 0 <= state.turn < n:
        raise ValueError(f"turn must be a seat 0 to {n - 1}")
    state.turns = int(fields.get("round", "0")) * n + state.turn
    state.acted = fields.get("acted", "no").lower() in ("yes", "true", "1")
    skipped = {int(s) for s in fields.get("skipped", "").split()}
    state.last_skip = [p in skipped for p in range(n)]
    state.skips = [1 if p in skipped else 0 for p in range(n)]
    state.strikes = int(fields.get("strikes", "0"))
    state.turn_scored = int(fields.get("scored_this_turn", "0"))
    state.reshuffles = int(fields.get("reshuffles", "0"))
    ended = fields.get("ended", "").upper()
    if ended and ended not in EndReason.__members__:
        raise ValueError(
            f"ended must be one of {', '.join(r.lower() for r in EndReason.__members__)}"
        )
    state.ended = EndReason[ended] if ended else None
    state.history = []
    return state


def _listed(cards: list[int]) -> str:
    return " ".join(str(c) for c in cards)


def to_position(state: ShiftingStonesState) -> str:
    """The position in the notation above, every key written (`from_position` reads it back)."""
    n = state.num_players
    lines = [
        f"grid: {grid_text(state.grid)}",
        "hands: " + " | ".join(_listed(h) for h in state.hands),
        "scored: " + " | ".join(_listed(s) for s in state.scored),
        f"deck: {_listed(state.deck[::-1])}",
        f"discard: {_listed(state.discard)}",
        f"turn: {state.turn}",
        f"round: {state.turns // n}",
        f"acted: {'yes' if state.acted else 'no'}",
        "skipped: " + " ".join(str(p) for p in range(n) if state.last_skip[p]),
        f"strikes: {state.strikes}",
        f"scored_this_turn: {state.turn_scored}",
        f"reshuffles: {state.reshuffles}",
    ]
    if state.ended is not None:
        lines.append(f"ended: {state.ended.name.lower()}")
    return "\n".join(line.rstrip() for line in lines) + "\n"
