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

from teocalli.games.aztack.components import (
    CELLS,
    HAND_SIZE,
    NUM_COLOURS,
    NUM_GLYPHS,
    NUM_STONES,
    PAIRS,
    parse_cell,
    parse_half,
    stone_id,
)
from teocalli.games.aztack.state import AztackState

from .base import ZEROS, Array, Encoder, FloatView, Layout, Memo, one_hot, scaled

MAX_LEVEL = 12.0
_LEVEL_VALUES = tuple(float(np.float32(scaled(h, MAX_LEVEL))) for h in range(64))
"""scaled(level, 12) by level, exactly as the view path computes it (float32 values)."""
_CELLS = range(CELLS)
_PAIRS_AT = tuple(tuple(i for i, pair in enumerate(PAIRS) if c in pair) for c in _CELLS)
"""The pairs (by index) that touch each cell."""
_HAND_KEYS = tuple(f"hand{p}" for p in range(16))


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

    def _observe(
        self, state: AztackState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
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


ENCODER = AztackEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
