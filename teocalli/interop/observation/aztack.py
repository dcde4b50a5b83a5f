"""Aztack observations (view layout: teocalli/games/aztack/state.py `_view`).

After the common header (base.py), with n players, 24 cells (index y * 6 + x, see components.py),
60 stones (components.json order), 20 halves (colour * 4 + glyph) and the 38 adjacent cell pairs:

| field | shape | meaning |
| --- | --- | --- |
| heights | 24 | each cell's level / 12 |
| top_colour | 24 x 5 | one-hot colour of the half on top of each cell |
| top_glyph | 24 x 4 | one-hot glyph of the half on top of each cell |
| open_pairs | 38 | 1 where a stone may lie: equal heights, two different stones on top |
| on_pyramid | 60 | 1 for each stone in the pyramid (base included) |
| stone_level | 60 | that stone's level / 12 (0 off the pyramid) |
| hands | n x 60 | each player's stones (hands are public in Aztack) |
| hand_sizes | n | stones in each hand / 12 |
| discarded | 60 | stones discarded after bonuses (face up) |
| turn | n | one-hot: whose turn (all 0 in Speed Stack) |
| bonus_pending | n | players owing a discard-or-keep decision |
| last_placed | n | (step of each player's latest placement + 1) / max length |
| out_of_play | 1 | stones never dealt / 60 (face down, so only their number) |
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from teocalli.core import Game
from teocalli.games.aztack.actions import Discard, Keep, Pass, Place
from teocalli.games.aztack.components import (
    CELLS,
    HALF0,
    HALF1,
    HAND_SIZE,
    NUM_COLOURS,
    NUM_GLYPHS,
    NUM_HALVES,
    NUM_STONES,
    PAIRS,
    parse_cell,
    parse_half,
    stone_id,
)
from teocalli.games.aztack.state import AztackState

from .base import (
    ZEROS,
    Array,
    Encoder,
    FloatView,
    Layout,
    Mask,
    Memo,
    mark_ids,
    one_hot,
    scaled,
    write_bits,
)

MAX_LEVEL = 12.0
_LEVEL_VALUES = tuple(float(np.float32(scaled(h, MAX_LEVEL))) for h in range(64))
"""scaled(level, 12) by level, exactly as the view path computes it (float32 values)."""
_CELLS = range(CELLS)
_PAIRS_AT = tuple(tuple(i for i, pair in enumerate(PAIRS) if c in pair) for c in _CELLS)
"""The pairs (by index) that touch each cell."""
_HAND_KEYS = tuple(f"hand{p}" for p in range(16))
_TOUCHED = tuple(
    tuple((i, *PAIRS[i]) for i in sorted({*_PAIRS_AT[p], *_PAIRS_AT[q]}))
    for p in _CELLS
    for q in _CELLS
)
"""By `p * CELLS + q`: (index, cell, cell) of each pair that touches cell p or cell q (a
placement's cells: the open pairs it can close or open)."""
_COLOUR_AT = tuple(c * NUM_COLOURS + h // NUM_GLYPHS for c in _CELLS for h in range(NUM_HALVES))
_GLYPH_AT = tuple(c * NUM_GLYPHS + h % NUM_GLYPHS for c in _CELLS for h in range(NUM_HALVES))
"""By `cell * NUM_HALVES + half`: the half's place in top_colour and in top_glyph."""
_SIZES = tuple(scaled(k, HAND_SIZE) for k in range(NUM_STONES + 1))
"""`scaled(stones in a hand, 12)` by count, looked up."""
_REPLAY = 16
"""At most this many steps since the last observation of the same state are replayed."""


class AztackEncoder(Encoder):
    """Aztack: the pyramid's tops and heights, open pairs, public hands."""

    def _build(self, layout: Layout) -> None:
        n = self.num_players
        self.f_heights = layout.add("heights", CELLS, "each cell's level / 12")
        self.f_top_colour = layout.add("top_colour", (CELLS, NUM_COLOURS), "top half's colour")
        self.f_top_glyph = layout.add("top_glyph", (CELLS, NUM_GLYPHS), "top half's glyph")
        self.f_open = layout.add("open_pairs", len(PAIRS), "adjacent pairs a stone may bridge")
        self.f_on = layout.add("on_pyramid", NUM_STONES, "stones in the pyramid")
        self.f_level = layout.add("stone_level", NUM_STONES, "each stone's level / 12")
        self.f_hands = layout.add("hands", (n, NUM_STONES), "each player's stones")
        self.f_hand_sizes = layout.add("hand_sizes", n, "stones in each hand / 12")
        self.f_discarded = layout.add("discarded", NUM_STONES, "stones discarded after bonuses")
        self.f_turn = layout.add("turn", n, "one-hot: whose turn (0 in Speed Stack)")
        self.f_bonus = layout.add("bonus_pending", n, "players owing a discard-or-keep choice")
        self.f_last = layout.add("last_placed", n, "(step of latest placement + 1) / max length")
        self.f_out = layout.add("out_of_play", 1, "stones never dealt / 60")

    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        heights = state["heights"]
        for c, h in enumerate(heights):
            out[self.f_heights.start + c] = scaled(h, MAX_LEVEL)
        for c, text in enumerate(state["tops"]):
            half = parse_half(text)
            assert half is not None, text
            one_hot(self.f_top_colour, out, half // NUM_GLYPHS, c)
            one_hot(self.f_top_glyph, out, half % NUM_GLYPHS, c)
        top_stone: list[int] = [-1] * CELLS
        for entry in state["pyramid"]:
            s = stone_id(entry["stone"])
            one_hot(self.f_on, out, s)
            out[self.f_level.start + s] = scaled(entry["level"], MAX_LEVEL)
            for cell in entry["cells"]:
                at = parse_cell(cell)
                assert at is not None, cell
                top_stone[at] = s
        for i, (p, q) in enumerate(PAIRS):
            if heights[p] == heights[q] and top_stone[p] != top_stone[q]:
                out[self.f_open.start + i] = 1.0
        for p, hand in enumerate(state["hands"]):
            for text in hand:
                one_hot(self.f_hands, out, stone_id(text), p)
            out[self.f_hand_sizes.start + p] = scaled(len(hand), HAND_SIZE)
        for text in state["discarded"]:
            one_hot(self.f_discarded, out, stone_id(text))
        one_hot(self.f_turn, out, state["turn"])
        for p in state["bonus_pending"]:
            one_hot(self.f_bonus, out, p)
        for p, step in enumerate(state["last_placed"]):
            out[self.f_last.start + p] = scaled(step + 1, self._max_length)
        out[self.f_out.start] = scaled(state["out_of_play"], NUM_STONES)

    incremental = True
    final_is_shared = True  # `_encode` never reads the player
    final_from_fields = True  # hands are public; the final view adds only the unseen stones' ids
    shared_buffer = True  # `_observe` never reads the player: every field is public

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.num_players
        self._record = _Record(self.layout.size)
        self._num_actions = game.num_distinct_actions
        self._speed: bool = game.options["speed"]
        # field offsets as plain ints: one attribute read each on the fast path
        self._mover_at = self.f_to_move.start
        self._heights, self._on, self._level = (
            self.f_heights.start,
            self.f_on.start,
            self.f_level.start,
        )
        self._colours, self._glyphs = self.f_top_colour.start, self.f_top_glyph.start
        self._open = self.f_open.start
        self._hand_rows = tuple(self.f_hands.start + p * NUM_STONES for p in range(n))
        self._sizes, self._discarded = self.f_hand_sizes.start, self.f_discarded.start
        self._turn, self._bonus, self._last = (
            self.f_turn.start,
            self.f_bonus.start,
            self.f_last.start,
        )

    def observe(self, state: AztackState, player: int) -> Array:  # type: ignore[override]
        """One buffer holds the observation of a position (every field is public: only the
        seat depends on the observer), handed out as a copy. The same state object a few steps
        on (an env observing its game) is brought up to date from the steps applied since,
        read from `state.history`, once whoever observes: a placement takes its stone from its
        player's hand and lays it (its cells' heights and top halves, the pairs that touch
        them, its player's latest placement); a discard moves a stone from a hand to the
        discards; then the bonus owers and whose turn it is (the header's movers too). This
        trusts, as `State.legal_ids` does, that a state object changes only through `apply`.
        Any other state (another object, an earlier one, a long gap) is written by
        `_rewrite`. The end (the header's result) is the base class's."""
        if state.over:
            return super().observe(state, player)
        rec = self._record
        history = state.history
        steps = len(history)
        since = steps - rec.steps
        if rec.state is not state or not 0 <= since <= _REPLAY:
            self._rewrite(state, player, rec)
            return rec.out.copy()
        mv = rec.mv
        if since:
            hands, rows, sizes = state.hands, self._hand_rows, self._sizes
            placed = False
            for step in history[-since:]:
                action: Any = step.action
                kind = type(action)
                if kind is Place:
                    mover = step.player
                    mv[rows[mover] + action.stone] = 0.0
                    mv[sizes + mover] = _SIZES[hands[mover].bit_count()]
                    moves = state.last_placed[mover] + 1
                    limit = self._max_length
                    mv[self._last + mover] = moves / limit if moves < limit else 1.0
                    placed = True
                elif kind is Discard:
                    mover, s = step.player, action.stone
                    mv[rows[mover] + s] = 0.0
                    mv[sizes + mover] = _SIZES[hands[mover].bit_count()]
                    mv[self._discarded + s] = 1.0
                elif kind is not Keep and kind is not Pass:  # not an Aztack action: rewrite
                    self._rewrite(state, player, rec)
                    return rec.out.copy()
            if placed:
                self._placements(state, rec)
            pending = state.pending
            changed = pending ^ rec.pending
            if changed:
                rec.pending = pending
                write_bits(mv, self._bonus, pending, changed)
            if self._speed:
                self._movers(state, rec)
            else:
                turn = state.turn
                if turn != rec.turn:
                    at, field = self._mover_at, self._turn
                    mv[at + rec.turn] = mv[field + rec.turn] = 0.0
                    mv[at + turn] = mv[field + turn] = 1.0
                    rec.turn = turn
            rec.steps = steps
            limit = self._max_length
            mv[self._progress] = steps / limit if steps < limit else 1.0
        if player != rec.seat:
            seat = self._seat
            mv[seat + rec.seat] = 0.0
            mv[seat + player] = 1.0
            rec.seat = player
        return rec.out.copy()

    def _placements(self, state: AztackState, rec: _Record) -> None:
        """The stones laid since the buffer was written (the end of `state.placed`): each one
        on the pyramid at its level, its cells' heights and top halves; then the open pairs
        that touch their cells, from the engine's heights and top stones."""
        mv, top = rec.mv, rec.top
        on, level, heights = self._on, self._level, self._heights
        colours, glyphs = self._colours, self._glyphs
        placed = state.placed
        new = placed[rec.placed :]
        for s, p, q, lv in new:
            v = _LEVEL_VALUES[lv]
            mv[on + s] = 1.0
            mv[level + s] = mv[heights + p] = mv[heights + q] = v
            at, old, half = p * NUM_HALVES, top[p], HALF0[s]
            mv[colours + _COLOUR_AT[at + old]] = mv[glyphs + _GLYPH_AT[at + old]] = 0.0
            mv[colours + _COLOUR_AT[at + half]] = mv[glyphs + _GLYPH_AT[at + half]] = 1.0
            top[p] = half
            at, old, half = q * NUM_HALVES, top[q], HALF1[s]
            mv[colours + _COLOUR_AT[at + old]] = mv[glyphs + _GLYPH_AT[at + old]] = 0.0
            mv[colours + _COLOUR_AT[at + half]] = mv[glyphs + _GLYPH_AT[at + half]] = 1.0
            top[q] = half
        rec.placed = len(placed)
        pairs: Iterable[tuple[int, int, int]]
        if len(new) == 1:
            _s, p, q, _lv = new[0]
            pairs = _TOUCHED[p * CELLS + q]
        else:
            pairs = {pair for _s, p, q, _lv in new for pair in _TOUCHED[p * CELLS + q]}
        height, stones, opened = state.height, state.top_stone, self._open
        for i, a, b in pairs:
            mv[opened + i] = 1.0 if height[a] == height[b] and stones[a] != stones[b] else 0.0

    def _movers(self, state: AztackState, rec: _Record) -> None:
        """Speed Stack's movers in the header (`AztackState._to_move`: the bonus owers and
        whoever can place a stone), rewritten where they changed."""
        movers, fits = state.pending, state.fits_anywhere
        for p, hand in enumerate(state.hands):
            if hand & fits:
                movers |= 1 << p
        changed = movers ^ rec.movers
        if changed:
            rec.movers = movers
            write_bits(rec.mv, self._mover_at, movers, changed)

    def _rewrite(self, state: AztackState, player: int, rec: _Record) -> None:
        """Everything from the engine's values (the buffer zeroed first): another state
        object, an earlier position, a long gap; the record then follows `state`."""
        mv = rec.mv
        mv[:] = self._zeros
        mv[self._seat + player] = 1.0
        mv[self._decision_start + (2 if self._speed else 0)] = 1.0  # a race, or a turn
        steps, limit = len(state.history), self._max_length
        mv[self._progress] = steps / limit if steps < limit else 1.0
        on, level = self._on, self._level
        for s, _p, _q, lv in state.placed:
            mv[on + s] = 1.0
            mv[level + s] = _LEVEL_VALUES[lv]
        height, halves, stones = state.height, state.top_half, state.top_stone
        heights, colours, glyphs = self._heights, self._colours, self._glyphs
        for c in _CELLS:
            mv[heights + c] = _LEVEL_VALUES[height[c]]
            at = c * NUM_HALVES + halves[c]
            mv[colours + _COLOUR_AT[at]] = mv[glyphs + _GLYPH_AT[at]] = 1.0
        opened = self._open
        for i, (a, b) in enumerate(PAIRS):
            if height[a] == height[b] and stones[a] != stones[b]:
                mv[opened + i] = 1.0
        for p, hand in enumerate(state.hands):
            _ones(mv, self._hand_rows[p], hand)
            mv[self._sizes + p] = _SIZES[hand.bit_count()]
            moves = state.last_placed[p] + 1
            mv[self._last + p] = moves / limit if moves < limit else 1.0
            if state.pending >> p & 1:
                mv[self._bonus + p] = 1.0
        _ones(mv, self._discarded, state.discarded)
        if self._speed:
            rec.movers = 0
            self._movers(state, rec)
        else:
            mv[self._mover_at + state.turn] = mv[self._turn + state.turn] = 1.0
        mv[self.f_out.start] = state.out_of_play.bit_count() / NUM_STONES
        rec.state, rec.steps, rec.seat = state, steps, player
        rec.placed, rec.top = len(state.placed), halves.copy()
        rec.pending, rec.turn = state.pending, state.turn

    def mask(self, state: AztackState, player: int) -> Mask:  # type: ignore[override]
        """The base class's mask, with the engine's own fields for who may act (as
        `AztackState._to_move`: the player whose turn it is; in Speed Stack, a bonus ower or
        anyone who can place a stone)."""
        marks = bytearray(self._num_actions)
        if not state.over and (
            (state.pending >> player & 1 or state.hands[player] & state.fits_anywhere)
            if self._speed
            else player == state.turn
        ):
            mark_ids(marks, state.legal_ids(player))
        return np.frombuffer(marks, np.int8)

    def _observe(
        self, state: AztackState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
        """The base class's value-diff path, kept for the end only (`observe` hands a finished
        game to the base class, which writes the result into the header and calls this)."""
        n = self.num_players
        placed = state.placed
        old = memo.get("placed")
        if old != placed:
            # The pyramid (heights, top halves and stones) is laid by `placed` alone (the
            # engine's `_lay`): a continuation changes only the new placements' cells.
            on, level = self.f_on.start, self.f_level.start
            cells: set[int] | range
            if old is None or len(old) > len(placed) or old != placed[: len(old)]:
                old = []  # not a continuation: rewrite
                out[self.f_on.start : self.f_on.stop] = 0.0
                out[self.f_level.start : self.f_level.stop] = 0.0
                cells = _CELLS
            else:
                cells = set()
                for _s, p, q, _lv in placed[len(old) :]:
                    cells.add(p)
                    cells.add(q)
            for s, _p, _q, lv in placed[len(old) :]:
                mv[on + s] = 1.0
                mv[level + s] = _LEVEL_VALUES[lv]
            memo["placed"] = placed.copy()
            self._pyramid(state, mv, cells)
        hands, sizes = self.f_hands.start, self.f_hand_sizes.start
        for p, hand in enumerate(state.hands):
            if _bit_set(mv, hands + p * NUM_STONES, hand, memo, _HAND_KEYS[p]):
                mv[sizes + p] = scaled(hand.bit_count(), HAND_SIZE)
        _bit_set(mv, self.f_discarded.start, state.discarded, memo, "discarded")
        turn, bonus, last = self.f_turn.start, self.f_bonus.start, self.f_last.start
        mv[turn : turn + n] = ZEROS[:n]
        if not state.speed:
            mv[turn + state.turn] = 1.0
        max_length = self._max_length
        pending = state.pending
        for p, placed_at in enumerate(state.last_placed):
            mv[bonus + p] = 1.0 if pending >> p & 1 else 0.0
            moves = placed_at + 1  # last_placed is -1 before a player's first stone
            mv[last + p] = moves / max_length if moves < max_length else 1.0
        mv[self.f_out.start] = state.out_of_play.bit_count() / NUM_STONES

    def _pyramid(self, state: AztackState, mv: FloatView, cells: Iterable[int]) -> None:
        """Heights, top halves and open pairs at `cells`, and the pairs that touch them."""
        height, halves, top = state.height, state.top_half, state.top_stone
        heights, colours, glyphs = (
            self.f_heights.start,
            self.f_top_colour.start,
            self.f_top_glyph.start,
        )
        pairs: set[int] = set()
        for c in cells:
            mv[heights + c] = _LEVEL_VALUES[height[c]]
            colour, glyph = divmod(halves[c], NUM_GLYPHS)
            row = colours + c * NUM_COLOURS
            mv[row : row + NUM_COLOURS] = ZEROS[:NUM_COLOURS]
            mv[row + colour] = 1.0
            row = glyphs + c * NUM_GLYPHS
            mv[row : row + NUM_GLYPHS] = ZEROS[:NUM_GLYPHS]
            mv[row + glyph] = 1.0
            pairs.update(_PAIRS_AT[c])
        opened = self.f_open.start
        for i in pairs:
            p, q = PAIRS[i]
            mv[opened + i] = 1.0 if height[p] == height[q] and top[p] != top[q] else 0.0


def _bit_set(mv: FloatView, start: int, bits: int, memo: Memo, key: str) -> bool:
    """A 60-stone set (stone s at start + s) rewritten at the stones that differ from the set
    last written under `key`; whether anything changed."""
    old = memo.get(key)
    if old == bits:
        return False
    memo[key] = bits
    diff = bits ^ old if old is not None else (1 << NUM_STONES) - 1
    while diff:
        low = diff & -diff
        diff ^= low
        mv[start + low.bit_length() - 1] = 1.0 if bits & low else 0.0
    return True


def _ones(mv: FloatView, start: int, bits: int) -> None:
    """1 at `start + s` for each stone s of the set `bits` (the run zeroed beforehand)."""
    while bits:
        low = bits & -bits
        bits ^= low
        mv[start + low.bit_length() - 1] = 1.0


class _Record:
    """The observation buffer and the engine values it was last written from."""

    __slots__ = (
        "movers",
        "mv",
        "out",
        "pending",
        "placed",
        "seat",
        "state",
        "steps",
        "top",
        "turn",
    )

    def __init__(self, size: int) -> None:
        self.out: Array = np.zeros(size, np.float32)
        self.mv: FloatView = self.out.data
        self.state: AztackState | None = None
        """The state object written from (None: nothing written yet), and its steps then."""
        self.steps = -1
        self.seat = 0
        """The observer whose seat the buffer shows."""
        self.placed = 0
        """Stones laid on the pyramid as written (`state.placed` is appended to only)."""
        self.top: list[int] = []
        """Each cell's top half, as written."""
        self.pending = 0
        """The bonus owers' bits, the player whose turn it is, the movers' bits (Speed Stack),
        as written."""
        self.turn = 0
        self.movers = 0


ENCODER = AztackEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
