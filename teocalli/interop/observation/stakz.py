"""Stakz observations (view layout: teocalli/games/stakz/state.py `_view_with`).

After the common header (base.py), with n players, 5 colours (R O G B P), 5 symbols, 25 tile types
(colour * 5 + symbol), S = 38 stack slots (MAX_STACKS, a true bound) and H = 8 tiles per stack
(two of each of four colours: a fifth colour splits the stack):

| field | shape | meaning |
| --- | --- | --- |
| round | 1 | the round number / 50 |
| target | 1 | the target score / 100 |
| starter | n | one-hot: who starts the round |
| scores | n | each player's total / 200 |
| stack_exists | S | 1 for each stack on the table |
| stack_height | S | tiles in each stack / 8 |
| stack_colour | S x H x 5 | one-hot colour of each tile, bottom first |
| stack_symbol | S x H x 5 | one-hot symbol of each tile, bottom first |
| used | S | stacks that took a tile this turn |
| placed | 1 | tiles placed this turn / 10 |
| idle | 1 | turns in a row that placed nothing / 10 |
| pile_size | 1 | tiles in the pile / 75 |
| pile_colours | 5 | tiles of each colour in the pile / 15 (tile backs are coloured) |
| hand_sizes | n | tiles in each hand / 20 |
| hand_colours | n x 5 | each hand's tiles per colour / 10 (public) |
| hand_tiles | n x 25 | tiles per type / 4, for the hands the view shows: the observer's own |
|  |  | (every hand once the game is over) |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from teocalli.games.stakz.components import (
    COLOUR,
    COLOUR_LETTERS,
    MAX_STACKS,
    NUM_COLOURS,
    NUM_SYMBOLS,
    NUM_TILES,
    TOTAL_TILES,
    parse_tile,
)
from teocalli.games.stakz.state import StakzState

from .base import ZEROS, Array, Encoder, FloatView, Layout, Memo, one_hot, scaled

MAX_HEIGHT = 8
_ROW_C, _ROW_S = MAX_HEIGHT * NUM_COLOURS, MAX_HEIGHT * NUM_SYMBOLS
"""One stack's run of stack_colour and of stack_symbol."""
_EIGHTHS = tuple(scaled(k, MAX_HEIGHT) for k in range(MAX_HEIGHT + 1))
_HAND_KEYS = tuple(f"hand{p}" for p in range(16))
_SLOTS = range(MAX_STACKS)
_TILES = range(NUM_TILES)
_COLOUR_KEYS = tuple(f"colours{p}" for p in range(16))
"""Memo keys: a hand's tile counts as last written, and its counts per colour."""


def _tile(text: str) -> int:
    t = parse_tile(text)
    if t is None:
        raise ValueError(f"{text!r} is not a Stakz tile")
    return t


class StakzEncoder(Encoder):
    """Stakz: every stack tile by tile, public hand colours, the observer's own tiles."""

    def _build(self, layout: Layout) -> None:
        n, s = self.num_players, MAX_STACKS
        self.f_round = layout.add("round", 1, "the round number / 50")
        self.f_target = layout.add("target", 1, "the target score / 100")
        self.f_starter = layout.add("starter", n, "one-hot: who starts the round")
        self.f_scores = layout.add("scores", n, "each player's total / 200")
        self.f_exists = layout.add("stack_exists", s, "stacks on the table")
        self.f_height = layout.add("stack_height", s, "tiles per stack / 8")
        self.f_colour = layout.add("stack_colour", (s, MAX_HEIGHT, NUM_COLOURS), "tile colours")
        self.f_symbol = layout.add("stack_symbol", (s, MAX_HEIGHT, NUM_SYMBOLS), "tile symbols")
        self.f_used = layout.add("used", s, "stacks that took a tile this turn")
        self.f_placed = layout.add("placed", 1, "tiles placed this turn / 10")
        self.f_idle = layout.add("idle", 1, "turns in a row that placed nothing / 10")
        self.f_pile = layout.add("pile_size", 1, "tiles in the pile / 75")
        self.f_pile_colours = layout.add("pile_colours", NUM_COLOURS, "pile tiles per colour / 15")
        self.f_hand_sizes = layout.add("hand_sizes", n, "tiles in each hand / 20")
        self.f_hand_colours = layout.add("hand_colours", (n, NUM_COLOURS), "per colour / 10")
        self.f_hand_tiles = layout.add("hand_tiles", (n, NUM_TILES), "shown hands' tiles / 4")

    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        out[self.f_round.start] = scaled(state["round"], 50)
        out[self.f_target.start] = scaled(state["target"], 100)
        one_hot(self.f_starter, out, state["starter"])
        for p, score in enumerate(state["scores"]):
            out[self.f_scores.start + p] = scaled(score, 200)
        colours, symbols = self.f_colour.of(out), self.f_symbol.of(out)
        for s, stack in enumerate(state["stacks"]):
            out[self.f_exists.start + s] = 1.0
            out[self.f_height.start + s] = scaled(len(stack), MAX_HEIGHT)
            for k, text in enumerate(stack[:MAX_HEIGHT]):
                t = _tile(text)
                colours[s, k, t // NUM_SYMBOLS] = 1.0
                symbols[s, k, t % NUM_SYMBOLS] = 1.0
        for s in state["used"]:
            one_hot(self.f_used, out, s)
        out[self.f_placed.start] = scaled(state["placed"], 10)
        out[self.f_idle.start] = scaled(state["idle"], 10)
        pile = state["pile"]
        out[self.f_pile.start] = scaled(pile["size"], TOTAL_TILES)
        for c, letter in enumerate(COLOUR_LETTERS):
            out[self.f_pile_colours.start + c] = scaled(pile["colours"][letter], 15)
        hand_colours, hand_tiles = self.f_hand_colours.of(out), self.f_hand_tiles.of(out)
        for p, hand in enumerate(state["hands"]):
            out[self.f_hand_sizes.start + p] = scaled(hand["size"], 20)
            for c, letter in enumerate(COLOUR_LETTERS):
                hand_colours[p, c] = scaled(hand["colours"][letter], 10)
            for text in hand.get("tiles", ()):
                hand_tiles[p, _tile(text)] += 0.25

    incremental = True
    final_is_shared = True  # `_encode` never reads the player

    def _observe(
        self, state: StakzState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
        n = self.num_players
        # round, target, starter and scores change only between rounds
        round_key = (len(state.rounds), state.target, state.starter)
        if memo.get("round") != round_key or memo.get("scores") != state.scores:
            memo["round"], memo["scores"] = round_key, state.scores.copy()
            mv[self.f_round.start] = scaled(len(state.rounds) + 1, 50)
            mv[self.f_target.start] = scaled(state.target, 100)
            starter = self.f_starter.start
            mv[starter : starter + n] = ZEROS[:n]
            mv[starter + state.starter] = 1.0
            scores = self.f_scores.start
            for p, score in enumerate(state.scores):
                mv[scores + p] = scaled(score, 200)
        stacks = state.stacks
        old: list[tuple[int, ...]] = memo.get("stacks", [])
        if old != stacks:
            colour, symbol = self.f_colour.start, self.f_symbol.start
            exists, height = self.f_exists.start, self.f_height.start
            # the stacks that are not the very tuples last written (a stack is rewritten
            # only when it changed: equal but distinct tuples are rewritten too, harmlessly)
            dirty = [s for s, a, b in zip(_SLOTS, old, stacks, strict=False) if a is not b]
            dirty += range(min(len(old), len(stacks)), max(len(old), len(stacks)))
            for s in dirty:
                stack = stacks[s] if s < len(stacks) else None
                row_c, row_s = colour + s * _ROW_C, symbol + s * _ROW_S
                mv[row_c : row_c + _ROW_C] = ZEROS[:_ROW_C]
                mv[row_s : row_s + _ROW_S] = ZEROS[:_ROW_S]
                if stack is None:
                    mv[exists + s] = mv[height + s] = 0.0
                    continue
                mv[exists + s] = 1.0
                mv[height + s] = _EIGHTHS[min(len(stack), MAX_HEIGHT)]
                for k, t in enumerate(stack[:MAX_HEIGHT]):
                    mv[row_c + k * NUM_COLOURS + t // NUM_SYMBOLS] = 1.0
                    mv[row_s + k * NUM_SYMBOLS + t % NUM_SYMBOLS] = 1.0
            memo["stacks"] = stacks.copy()  # of tuples: immutable
        bits = state.used & ((1 << len(stacks)) - 1)  # the view lists only existing stacks
        if memo.get("used") != bits:
            memo["used"] = bits
            used = self.f_used.start
            mv[used : used + MAX_STACKS] = ZEROS[:MAX_STACKS]
            while bits:
                low = bits & -bits
                bits ^= low
                mv[used + low.bit_length() - 1] = 1.0
        placed, idle, pile = state.placed, state.idle, len(state.pile)
        mv[self.f_placed.start] = placed / 10 if placed < 10 else 1.0
        mv[self.f_idle.start] = idle / 10 if idle < 10 else 1.0
        mv[self.f_pile.start] = pile / TOTAL_TILES if pile < TOTAL_TILES else 1.0
        if memo.get("pile_colours") != state.pile_colours:
            memo["pile_colours"] = state.pile_colours.copy()
            pile_colours = self.f_pile_colours.start
            for c, count in enumerate(state.pile_colours):
                mv[pile_colours + c] = count / 15 if count < 15 else 1.0
        sizes, hand_colours = self.f_hand_sizes.start, self.f_hand_colours.start
        hand_size = state.hand_size
        for p, hand in enumerate(state.hands):
            size = hand_size[p]
            mv[sizes + p] = size / 20 if size < 20 else 1.0
            key = _HAND_KEYS[p]
            old_hand = memo.get(key)
            if old_hand == hand:
                continue
            memo[key] = hand.copy()
            counts = memo.get(_COLOUR_KEYS[p])
            if old_hand is None or counts is None:  # first write: every tile type
                old_hand = [-1] * NUM_TILES
                counts = memo[_COLOUR_KEYS[p]] = [0] * NUM_COLOURS
                for t, k in enumerate(hand):
                    counts[COLOUR[t]] += k
            # the tiles that changed: their colours' counts, and the observer's own tiles
            tiles = self.f_hand_tiles.start + p * NUM_TILES if p == player else -1
            for t, k, was in zip(_TILES, hand, old_hand, strict=True):
                if k != was:
                    if was >= 0:
                        counts[COLOUR[t]] += k - was
                    if tiles >= 0:  # the view shows the observer's own tiles only
                        mv[tiles + t] = k * 0.25
            row = hand_colours + p * NUM_COLOURS
            for c, count in enumerate(counts):
                mv[row + c] = count / 10 if count < 10 else 1.0


ENCODER = StakzEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
