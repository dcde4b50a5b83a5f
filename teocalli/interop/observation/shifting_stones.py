"""Shifting Stones observations (view layout: teocalli/games/shifting_stones/state.py `_view`).

After the common header (base.py), with n players, the 9 grid cells (1-9 in reading order, here
0-8), the 8 symbols (Su Mo Fi Bi Ho Bo Se Tr) and the 72 cards (card id k at index k - 1):

| field | shape | meaning |
| --- | --- | --- |
| grid | 9 x 8 | one-hot symbol face up on each cell |
| turn | n | one-hot: whose turn |
| round | 1 | the round / the round limit |
| acted | 1 | the player to move already shifted, flipped or scored this turn |
| scored_this_turn | 1 | cards scored this turn / 4 |
| hand_sizes | n | cards in each hand / 10 |
| deck | 1 | cards in the deck / 72 |
| discard | 72 | cards in the discard pile (face up) |
| scored | n x 72 | each player's scored cards |
| points | n | each player's points / 100 |
| skipped_last_turn | n | players whose last turn was a skip |
| strikes | 1 | solo: strikes / 4 (0 with 2+ players) |
| hand | 72 | the observer's own hand |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from teocalli.games.shifting_stones.components import (
    CELLS,
    NUM_CARDS,
    POINTS,
    SYMBOLS,
)
from teocalli.games.shifting_stones.state import ShiftingStonesState

from .base import Array, Encoder, Layout, Memo, changed, changed_rows, one_hot, scaled

_CARD_BASE = np.arange(-1, NUM_CARDS)
"""Card id k at index k - 1: `_CARD_BASE[cards]` (as an array index)."""


class ShiftingStonesEncoder(Encoder):
    """Shifting Stones: the grid, public scoring and discards, the observer's hand."""

    def _build(self, layout: Layout) -> None:
        n = self.num_players
        self.f_grid = layout.add("grid", (CELLS, len(SYMBOLS)), "symbol on each cell")
        self.f_turn = layout.add("turn", n, "one-hot: whose turn")
        self.f_round = layout.add("round", 1, "the round / the round limit")
        self.f_acted = layout.add("acted", 1, "the mover already acted this turn")
        self.f_scored_now = layout.add("scored_this_turn", 1, "cards scored this turn / 4")
        self.f_hand_sizes = layout.add("hand_sizes", n, "cards in each hand / 10")
        self.f_deck = layout.add("deck", 1, "cards in the deck / 72")
        self.f_discard = layout.add("discard", NUM_CARDS, "cards in the discard pile")
        self.f_scored = layout.add("scored", (n, NUM_CARDS), "each player's scored cards")
        self.f_points = layout.add("points", n, "each player's points / 100")
        self.f_skipped = layout.add("skipped_last_turn", n, "last turn was a skip")
        self.f_strikes = layout.add("strikes", 1, "solo: strikes / 4")
        self.f_hand = layout.add("hand", NUM_CARDS, "the observer's hand")

    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        cells = [tok for row in state["grid"].split("/") for tok in row.split()]
        if len(cells) != CELLS:
            raise ValueError(f"a Shifting Stones grid has 9 cells, not {state['grid']!r}")
        for c, token in enumerate(cells):
            one_hot(self.f_grid, out, SYMBOLS.index(token), c)
        one_hot(self.f_turn, out, state["turn"])
        out[self.f_round.start] = scaled(state["round"], self.game.options["round_limit"])
        out[self.f_acted.start] = float(state["acted"])
        out[self.f_scored_now.start] = scaled(state["scored_this_turn"], 4)
        for p, size in enumerate(state["hand_sizes"]):
            out[self.f_hand_sizes.start + p] = scaled(size, 10)
        out[self.f_deck.start] = scaled(state["deck"], NUM_CARDS)
        for card in state["discard"]:
            one_hot(self.f_discard, out, card - 1)
        for p, cards in enumerate(state["scored"]):
            for card in cards:
                one_hot(self.f_scored, out, card - 1, p)
        for p, points in enumerate(state["points"]):
            out[self.f_points.start + p] = scaled(points, 100)
        for p, skipped in enumerate(state["skipped_last_turn"]):
            out[self.f_skipped.start + p] = float(skipped)
        out[self.f_strikes.start] = scaled(state.get("strikes", 0), 4)
        # A player's view has "hand"; once the game is over the view shows every hand.
        hand = state["hand"] if "hand" in state else state["hands"][player]
        for card in hand:
            one_hot(self.f_hand, out, card - 1)

    incremental = True

    def _observe(self, state: ShiftingStonesState, player: int, out: Array, memo: Memo) -> None:
        n = self.num_players
        if changed(memo, "grid", state.grid):
            grid = self.f_grid
            out[grid.start : grid.stop] = 0.0
            for c, symbol in enumerate(state.grid):
                out[grid.start + c * len(SYMBOLS) + symbol] = 1.0
        turn = self.f_turn.start
        out[turn : turn + n] = 0.0
        out[turn + state.turn] = 1.0
        out[self.f_round.start] = scaled(state.turns // n, self.game.options["round_limit"])
        out[self.f_acted.start] = float(state.acted)
        out[self.f_scored_now.start] = scaled(state.turn_scored, 4)
        for p, hand in enumerate(state.hands):
            out[self.f_hand_sizes.start + p] = scaled(len(hand), 10)
        out[self.f_deck.start] = scaled(len(state.deck), NUM_CARDS)
        if changed(memo, "discard", state.discard):
            self._cards(out, self.f_discard.start, state.discard)
        if changed_rows(memo, "scored", state.scored):
            for p, cards in enumerate(state.scored):
                self._cards(out, self.f_scored.start + p * NUM_CARDS, cards)
                points = sum(POINTS[c] for c in cards)
                out[self.f_points.start + p] = scaled(points, 100)
        for p, skipped in enumerate(state.last_skip):
            out[self.f_skipped.start + p] = float(skipped)
        out[self.f_strikes.start] = scaled(state.strikes if n == 1 else 0, 4)
        if changed(memo, "hand", state.hands[player]):
            self._cards(out, self.f_hand.start, state.hands[player])

    @staticmethod
    def _cards(out: Array, start: int, cards: list[int]) -> None:
        """A 72-slot card set at `start` (card id k at start + k - 1)."""
        row = out[start : start + NUM_CARDS]
        row[:] = 0.0
        row[_CARD_BASE[cards]] = 1.0


ENCODER = ShiftingStonesEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
