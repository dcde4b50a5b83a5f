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

from teocalli.games.shifting_stones.actions import (
    END_INDEX,
    FLIP_BASE,
    SCORE_BASE,
    SHIFT_BASE,
    SKIP_INDEX,
)
from teocalli.games.shifting_stones.components import (
    CELLS,
    NUM_CARDS,
    POINTS,
    SWAPS,
    SYMBOLS,
)
from teocalli.games.shifting_stones.state import ShiftingStonesState

from .base import Array, Encoder, FloatView, Layout, Memo, one_hot, scaled

_GRID_SIZE = CELLS * len(SYMBOLS)
_CELL_OFFSETS = tuple(c * len(SYMBOLS) for c in range(CELLS))
_ZEROS = np.zeros(max(NUM_CARDS, _GRID_SIZE), np.float32).data
_SWAPS = len(SWAPS)
_ONES_SWAPS, _ONES_CELLS = b"\x01" * _SWAPS, b"\x01" * CELLS
_TENTHS = tuple(scaled(k, 10) for k in range(11))
_QUARTERS = tuple(scaled(k, 4) for k in range(5))
"""`scaled(k, 10)` and `scaled(k, 4)` by k, clipped counts looked up (the view encoding's
values exactly)."""


class ShiftingStonesEncoder(Encoder):
    """Shifting Stones: the grid, public scoring and discards, the observer's hand."""

    def _build(self, layout: Layout) -> None:
        n = self.num_players
        self._round_limit = self.game.options["round_limit"]
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

    def _observe(
        self, state: ShiftingStonesState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
        n = self.num_players
        grid = state.grid
        if memo.get("grid") != grid:
            memo["grid"] = grid.copy()
            start = self.f_grid.start
            mv[start : start + _GRID_SIZE] = _ZEROS[:_GRID_SIZE]
            for offset, symbol in zip(_CELL_OFFSETS, grid, strict=True):
                mv[start + offset + symbol] = 1.0
        turn = self.f_turn.start
        mv[turn : turn + n] = _ZEROS[:n]
        mv[turn + state.turn] = 1.0
        rounds = state.turns // n
        limit = self._round_limit
        mv[self.f_round.start] = rounds / limit if rounds < limit else 1.0
        mv[self.f_acted.start] = 1.0 if state.acted else 0.0
        mv[self.f_scored_now.start] = _QUARTERS[min(state.turn_scored, 4)]
        sizes = self.f_hand_sizes.start
        for p, hand in enumerate(state.hands):
            mv[sizes + p] = _TENTHS[min(len(hand), 10)]
        mv[self.f_deck.start] = len(state.deck) / NUM_CARDS
        discard = state.discard
        old = memo.get("discard")
        if old != discard:
            memo["discard"] = discard.copy()
            start = self.f_discard.start - 1  # card id k at start + k
            if old is not None and len(old) < len(discard) and old == discard[: len(old)]:
                cards = discard[len(old) :]  # only new discards: set them
            else:
                mv[start + 1 : start + 1 + NUM_CARDS] = _ZEROS[:NUM_CARDS]
                cards = discard
            for card in cards:
                mv[start + card] = 1.0
        scored = state.scored
        old_rows = memo.get("scored")
        if old_rows != scored:
            memo["scored"] = [row.copy() for row in scored]
            for p, cards in enumerate(scored):
                if old_rows is not None and old_rows[p] == cards:
                    continue
                self._cards(mv, self.f_scored.start + p * NUM_CARDS, cards)
                points = sum(POINTS[c] for c in cards)
                mv[self.f_points.start + p] = points / 100 if points < 100 else 1.0
        skipped = self.f_skipped.start
        for p, skip in enumerate(state.last_skip):
            mv[skipped + p] = 1.0 if skip else 0.0
        mv[self.f_strikes.start] = _QUARTERS[min(state.strikes, 4)] if n == 1 else 0.0
        hand = state.hands[player]
        if memo.get("hand") != hand:
            memo["hand"] = hand.copy()
            self._cards(mv, self.f_hand.start, hand)

    def mark_legal(self, state: ShiftingStonesState, player: int, marks: bytearray) -> None:
        """The ids of `legal_action_ints` from the same tables, without listing them: the
        scorable cards (the engine's `scorable`, kept for `legal_actions` of the same step),
        each hand card's 12 shifts and 9 flips (two runs of ids: one slice write each), end,
        and skip when allowed. A list of ~100 ids costs more to build and mark than the
        engine's whole step."""
        for card in state.scorable(player):
            marks[SCORE_BASE + card - 1] = 1
        for card in state.hands[player]:
            shift = SHIFT_BASE + (card - 1) * _SWAPS
            marks[shift : shift + _SWAPS] = _ONES_SWAPS
            flip = FLIP_BASE + (card - 1) * CELLS
            marks[flip : flip + CELLS] = _ONES_CELLS
        marks[END_INDEX] = 1
        if state.can_skip(player):
            marks[SKIP_INDEX] = 1

    @staticmethod
    def _cards(mv: FloatView, start: int, cards: list[int]) -> None:
        """A 72-slot card set at `start` (card id k at start + k - 1): a few cards, so item
        writes through the memoryview beat one NumPy fancy assignment."""
        mv[start : start + NUM_CARDS] = _ZEROS[:NUM_CARDS]
        start -= 1
        for card in cards:
            mv[start + card] = 1.0


ENCODER = ShiftingStonesEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
