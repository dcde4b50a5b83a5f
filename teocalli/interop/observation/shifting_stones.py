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
    End,
    Flip,
    Score,
    Shift,
    Skip,
)
from teocalli.games.shifting_stones.components import (
    CARD_IDS,
    CELLS,
    MATCHERS,
    NUM_CARDS,
    POINTS,
    SWAPS,
    SYMBOLS,
)
from teocalli.games.shifting_stones.state import ShiftingStonesState

from .base import Array, Encoder, FloatView, Layout, Mask, one_hot, scaled

_GRID_SIZE = CELLS * len(SYMBOLS)
_CELL_OFFSETS = tuple(c * len(SYMBOLS) for c in range(CELLS))
_ZEROS = np.zeros(max(NUM_CARDS, _GRID_SIZE), np.float32).data
_SWAPS = len(SWAPS)
_TENTHS = tuple(scaled(k, 10) for k in range(NUM_CARDS + 1))
_QUARTERS = tuple(scaled(k, 4) for k in range(NUM_CARDS + 1))
"""`scaled(k, 10)` and `scaled(k, 4)` by count k, looked up (the view encoding's values
exactly)."""
_PAY = (
    (0, 0),
    *((SHIFT_BASE + (card - 1) * _SWAPS, FLIP_BASE + (card - 1) * CELLS) for card in CARD_IDS),
)
"""By card id: the first id of its 12 shifts and of its 9 flips."""
_ONES_SWAPS, _ONES_CELLS = bytearray(b"\1" * _SWAPS), bytearray(b"\1" * CELLS)
_NO_SWAPS, _NO_CELLS = bytearray(_SWAPS), bytearray(CELLS)
"""Runs of ones and zeros to mark a card's shifts or flips in a mask's bytearray (a bytearray
slice takes a bytearray's bytes a quarter cheaper than a memoryview of NumPy's)."""
_PAID = frozenset((Shift, Flip, Score))
"""The actions that take one card from the mover's hand and nothing else from it."""
_SCORES = SCORE_BASE - 1
"""The score of card id k is id `_SCORES + k`."""


_REPLAY = 12
"""At most this many steps since the last observation of the same state are replayed; more
(another player's whole turns) are compared field by field."""


class _Written:
    """The engine values the shared observation buffer was last written from (slots: reading
    one costs half a dict item's, and `observe` reads a dozen a step). The initial values are
    those of the zeroed buffer (no discards, scores or hand), or match no position (grid,
    turns, skips, strikes, seat: written in full at the first observation)."""

    __slots__ = (
        "discard",
        "grid",
        "hand",
        "last_skip",
        "scored",
        "seat",
        "state",
        "steps",
        "strikes",
        "turns",
    )

    def __init__(self, num_players: int) -> None:
        self.state: ShiftingStonesState | None = None
        self.steps = 0
        self.grid: list[int] = []
        self.turns = self.strikes = self.seat = -1
        self.last_skip: list[bool] = []
        self.discard: list[int] = []
        self.scored: list[list[int]] = [[] for _ in range(num_players)]
        self.hand: list[int] = []


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
        self._grid, self._acted = self.f_grid.start, self.f_acted.start
        self._scored_now, self._sizes = self.f_scored_now.start, self.f_hand_sizes.start
        self._deck, self._discard = self.f_deck.start, self.f_discard.start
        self._scored, self._points = self.f_scored.start, self.f_points.start
        self._hand = self.f_hand.start
        self._discard_at, self._hand_at = self._discard - 1, self._hand - 1
        """Where card id k is marked: at `_discard_at + k`, `_hand_at + k`."""
        self._turn, self._round = self.f_turn.start, self.f_round.start
        self._skipped, self._strikes = self.f_skipped.start, self.f_strikes.start
        self._cells = tuple(self._grid + offset for offset in _CELL_OFFSETS)
        self._masks: dict[int, tuple[Mask, bytearray, list[Any]]] = {}
        """By player: the mask last marked (an int8 array over a bytearray, written through the
        bytearray: cheaper than a memoryview), its bytearray and its memo (state, steps, hand)."""
        for player in range(n):
            marked = bytearray(self.game.num_distinct_actions)
            marked[END_INDEX] = 1  # always legal
            self._masks[player] = (np.frombuffer(marked, np.int8), marked, [None, 0, []])
        shared = np.zeros(layout.size, np.float32)
        shared[self.f_decision.start] = 1.0  # a turn, always (the end is not observed here)
        self._shared: tuple[Array, FloatView, _Written] = (shared, shared.data, _Written(n))
        """The observation last handed out, and the engine values it was written from."""

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

    def observe(self, state: ShiftingStonesState, player: int) -> Array:  # type: ignore[override]
        """Everything but the seat and the hand is the same for every observer of a position,
        so one buffer holds the observation of a position for one observer (the last one: in
        an env, the player to move, who keeps the turn for several steps), handed out as a
        copy. The same state object a few steps on (an env observing its game, whoever the
        observer: usually one step) is brought up to date from the steps applied since (one
        shift, flip, end or skip inline, else `_replay`), any other state by comparing every
        field with the engine values (`_diff`); the seat and hand of another observer are
        swapped in. The end (its view shows every hand) is the base class's."""
        if state.ended is not None:
            return super().observe(state, player)
        out, mv, w = self._shared
        history = state.history
        steps = len(history)
        if w.state is not state:
            self._diff(state, mv, w)
            w.state = state
        elif steps - w.steps == 1:  # the common case, inline (the buffer is one step old)
            step = history[-1]
            action: Any = step.action
            kind = type(action)
            if kind is Flip or kind is Shift:  # paid with a card from the mover's hand
                if kind is Flip:  # its cell shows the other face
                    cell = action.cell
                    symbol = state.grid[cell]
                    at = self._cells[cell]
                    mv[at + (symbol ^ 1)] = 0.0
                    mv[at + symbol] = 1.0
                    w.grid[cell] = symbol
                else:  # its cells swapped faces
                    p, q = action.p, action.q
                    grid = w.grid
                    a, b = grid[p], grid[q]
                    if a != b:
                        cells = self._cells
                        mv[cells[p] + a] = mv[cells[q] + b] = 0.0
                        mv[cells[p] + b] = mv[cells[q] + a] = 1.0
                        grid[p], grid[q] = b, a
                card, mover = action.card, step.player
                w.discard.append(card)
                mv[self._discard_at + card] = 1.0
                mv[self._sizes + mover] = _TENTHS[len(state.hands[mover])]
                mv[self._acted] = 1.0
                if mover == w.seat:  # the hand in the buffer is the mover's
                    w.hand.remove(card)
                    mv[self._hand_at + card] = 0.0
                    if player == mover:  # and the observer's: done
                        w.steps = steps
                        limit = self._max_length
                        mv[self._progress] = steps / limit if steps < limit else 1.0
                        return out.copy()
            elif kind is End or kind is Skip:
                self._passed(state, mv, w, step.player)
            elif not self._replay(state, mv, w, 1):
                self._diff(state, mv, w)
        elif steps != w.steps:
            since = steps - w.steps
            if not (0 < since <= _REPLAY and self._replay(state, mv, w, since)):
                self._diff(state, mv, w)
        w.steps = steps
        limit = self._max_length
        mv[self._progress] = steps / limit if steps < limit else 1.0
        if w.seat != player:
            if w.seat >= 0:
                mv[self._seat + w.seat] = 0.0
            mv[self._seat + player] = 1.0
            w.seat = player
        hand = state.hands[player]
        old = w.hand
        if old != hand:  # the observer's hand: a step plays or draws a few cards
            start = self._hand_at
            for card in old:
                if card not in hand:
                    mv[start + card] = 0.0
            for card in hand:
                mv[start + card] = 1.0
            w.hand = hand.copy()
        return out.copy()

    def _passed(self, state: ShiftingStonesState, mv: FloatView, w: _Written, mover: int) -> None:
        """What an end or a skip by `mover` changed, the buffer one step old: the mover's hand
        size (drawn), the turn's fields (the turn passed from the mover: two cells of each
        one-hot, the mover's skip), the deck, and the discard pile if it was reshuffled into
        the deck (then emptied: a reshuffle needs a pile and the draw adds none to it, so a
        length differing from the pile written means just that)."""
        mv[self._sizes + mover] = _TENTHS[len(state.hands[mover])]
        mv[self._acted] = 1.0 if state.acted else 0.0
        mv[self._scored_now] = _QUARTERS[state.turn_scored]
        turn, to_move, now = self._turn, self._to_move_start, state.turn
        mv[turn + mover] = mv[to_move + mover] = 0.0
        mv[turn + now] = mv[to_move + now] = 1.0
        n, turns = self.num_players, state.turns
        rounds, limit = turns // n, self._round_limit
        mv[self._round] = rounds / limit if rounds < limit else 1.0
        skip = state.last_skip[mover]
        mv[self._skipped + mover] = 1.0 if skip else 0.0
        w.last_skip[mover] = skip
        w.turns = turns
        if n == 1:
            mv[self._strikes] = _QUARTERS[min(state.strikes, 4)]
            w.strikes = state.strikes
        mv[self._deck] = len(state.deck) / NUM_CARDS
        discard = state.discard
        if len(discard) != len(w.discard):
            self._discard_pile(discard, mv, w)

    def _replay(self, state: ShiftingStonesState, mv: FloatView, w: _Written, since: int) -> bool:
        """Write what the last `since` steps of `state` changed, which the shared buffer holds
        as of `since` steps ago (a state changes only through `apply`, as `State.legal_ids`
        assumes too). A shift or a flip changes its cells, the mover's hand size and the
        discard pile; a score, the mover's hand size and scored cards; an end or a skip passes
        the turn and draws (the turn's fields, the deck, the discard pile if it was reshuffled:
        compared by value after the steps). False (the buffer and memo consistent for the
        steps written so far) at an action it does not know."""
        grid, old_grid, hands, cells = state.grid, w.grid, state.hands, self._cells
        history = state.history
        passed = False
        for step in history[len(history) - since :]:
            action: Any = step.action
            kind, mover = type(action), step.player
            mv[self._sizes + mover] = _TENTHS[len(hands[mover])]
            if kind is Shift:
                changed: tuple[int, ...] = (action.p, action.q)
            elif kind is Flip:
                changed = (action.cell,)
            elif kind is Score:
                card = action.card
                row = w.scored[mover]
                row.append(card)
                mv[self._scored + mover * NUM_CARDS + card - 1] = 1.0
                points = sum(POINTS[c] for c in row)
                mv[self._points + mover] = points / 100 if points < 100 else 1.0
                continue
            elif kind is End or kind is Skip:
                passed = True
                continue
            else:
                return False
            for c in changed:
                was, symbol = old_grid[c], grid[c]
                if was != symbol:
                    mv[cells[c] + was] = 0.0
                    mv[cells[c] + symbol] = 1.0
                    old_grid[c] = symbol
            w.discard.append(action.card)
            mv[self._discard + action.card - 1] = 1.0
        mv[self._acted] = 1.0 if state.acted else 0.0
        mv[self._scored_now] = _QUARTERS[state.turn_scored]
        if passed:
            self._turn_fields(state, mv, w)
            mv[self._deck] = len(state.deck) / NUM_CARDS
            if w.discard != state.discard:  # reshuffled into the deck
                self._discard_pile(state.discard, mv, w)
        return True

    def _diff(self, state: ShiftingStonesState, mv: FloatView, w: _Written) -> None:
        """Every field compared with the engine value it was last written from; those that
        differ rewritten one value at a time where a step changes a few (memoryview slices
        cost five item writes, so runs are cleared only on a full rewrite)."""
        grid = state.grid
        old = w.grid
        if old != grid:
            if not old:  # first write: the whole field
                start = self._grid
                mv[start : start + _GRID_SIZE] = _ZEROS[:_GRID_SIZE]
                for offset, symbol in zip(_CELL_OFFSETS, grid, strict=True):
                    mv[start + offset + symbol] = 1.0
            else:  # the cells that changed
                for cell, was, symbol in zip(self._cells, old, grid, strict=True):
                    if was != symbol:
                        mv[cell + was] = 0.0
                        mv[cell + symbol] = 1.0
            w.grid = grid.copy()
        # whose turn, the round, the skips and the strikes change only when a turn ends
        if w.turns != state.turns or w.last_skip != state.last_skip or w.strikes != state.strikes:
            self._turn_fields(state, mv, w)
        mv[self._acted] = 1.0 if state.acted else 0.0
        mv[self._scored_now] = _QUARTERS[state.turn_scored]
        sizes = self._sizes
        for p, hand in enumerate(state.hands):
            mv[sizes + p] = _TENTHS[len(hand)]
        mv[self._deck] = len(state.deck) / NUM_CARDS
        discard = state.discard
        old = w.discard
        if old != discard:
            count = len(old)
            if count < len(discard):
                old.extend(discard[count:])  # the last written pile and the new discards
            if old == discard:  # it continues the pile last written: set the new ones
                start = self._discard - 1  # card id k at start + k
                for card in discard[count:]:
                    mv[start + card] = 1.0
            else:
                self._discard_pile(discard, mv, w)
        scored = state.scored
        old_rows = w.scored
        if old_rows != scored:
            w.scored = [row.copy() for row in scored]
            for p, cards in enumerate(scored):
                if old_rows[p] == cards:
                    continue
                self._cards(mv, self._scored + p * NUM_CARDS, cards)
                points = sum(POINTS[c] for c in cards)
                mv[self._points + p] = points / 100 if points < 100 else 1.0

    def _discard_pile(self, discard: list[int], mv: FloatView, w: _Written) -> None:
        """The discard pile rewritten (a new deal, a reshuffle)."""
        self._cards(mv, self._discard, discard)
        w.discard = discard.copy()

    def _turn_fields(self, state: ShiftingStonesState, mv: FloatView, w: _Written) -> None:
        """Whose turn (and so the header's mover), the round, the skips of the last turns and
        the solo strikes."""
        n = self.num_players
        turn, to_move = self.f_turn.start, self._to_move_start
        for p in range(n):
            mv[turn + p] = mv[to_move + p] = 0.0
        mv[turn + state.turn] = mv[to_move + state.turn] = 1.0
        rounds, limit = state.turns // n, self._round_limit
        mv[self.f_round.start] = rounds / limit if rounds < limit else 1.0
        skipped = self.f_skipped.start
        for p, skip in enumerate(state.last_skip):
            mv[skipped + p] = 1.0 if skip else 0.0
        mv[self.f_strikes.start] = _QUARTERS[min(state.strikes, 4)] if n == 1 else 0.0
        w.turns, w.last_skip = state.turns, state.last_skip.copy()
        w.strikes = state.strikes

    def mask(self, state: ShiftingStonesState, player: int) -> Mask:  # type: ignore[override]
        """The ids of `legal_action_ints`, kept per player in an int8 array and changed where
        the engine's values changed since it was last marked: each card that left or joined
        the hand (its 12 shifts, 9 flips and score: the card the player's last step paid with
        or scored, when the mask was marked the step before on the same state; else the hand
        compared with the one last marked), whether each card in hand scores on the grid now,
        and skip (end is always legal); handed out as a copy. Listing and marking some hundred
        ids afresh costs more than the engine's whole step.

        The scores come from the engine's generated matchers (`components.MATCHERS`, which
        `scorable` reads too, without its calls), and the list is handed to the engine as
        `scorable` would have kept it (`ShiftingStonesState._score_memo`: hand, grid, cards,
        checked by value), so that
        `legal_actions` of the same step reads it instead of searching the patterns again, as
        the engine keeps `scorable` for: one search a step, the mask's."""
        if state.ended is not None or state.turn != player:
            return np.zeros(self.game.num_distinct_actions, np.int8)
        marks, mb, memo = self._masks[player]  # memo: the state and step marked, the hand
        history = state.history
        steps = len(history)
        hand = state.hands[player]
        if (
            memo[0] is state
            and memo[1] == steps - 1
            and (step := history[-1]).player == player
            and type(step.action) in _PAID
        ):  # the last step played a card (and so acted: no skip now): unmark it
            card = step.action.card  # type: ignore[attr-defined]
            memo[2].remove(card)
            shift, flip = _PAY[card]
            mb[shift : shift + _SWAPS] = _NO_SWAPS
            mb[flip : flip + CELLS] = _NO_CELLS
            mb[_SCORES + card] = mb[SKIP_INDEX] = 0
        else:
            old = memo[2]
            if old != hand:  # (at a new turn, usually an emptied hand refilled)
                for card in old:
                    if card not in hand:
                        shift, flip = _PAY[card]
                        mb[shift : shift + _SWAPS] = _NO_SWAPS
                        mb[flip : flip + CELLS] = _NO_CELLS
                        mb[_SCORES + card] = 0
                for card in hand:
                    if not old or card not in old:
                        shift, flip = _PAY[card]
                        mb[shift : shift + _SWAPS] = _ONES_SWAPS
                        mb[flip : flip + CELLS] = _ONES_CELLS
                memo[2] = hand.copy()
            mb[SKIP_INDEX] = 0 if state.acted or state.last_skip[player] else 1
            memo[0] = state
        memo[1] = steps
        grid = state.grid
        scorable = []
        for card in hand:
            if MATCHERS[card](grid):
                mb[_SCORES + card] = 1
                scorable.append(card)
            else:
                mb[_SCORES + card] = 0
        state._score_memo = (hand.copy(), grid.copy(), scorable)
        return marks.copy()

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
