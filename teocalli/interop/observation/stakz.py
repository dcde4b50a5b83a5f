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

from teocalli.games.stakz.actions import EndTurn, Place
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
_TENTHS = tuple(scaled(k, 10) for k in range(TOTAL_TILES + 1))
"""`scaled(k, 10)` by count k (a hand's tiles of a colour), looked up."""
_TILES_OF = tuple(tuple(t for t in _TILES if COLOUR[t] == c) for c in range(NUM_COLOURS))
"""The tile types of each colour."""
_REPLAY = 16
"""At most this many steps since the last observation of the same state are replayed."""


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
        """The same state object a few steps on (the common case: an env observing its game)
        is brought up to date from the steps applied since (`_replay`), any other state by
        comparing every field with the engine values (`_diff`); then the small fields every
        step changes."""
        steps = len(state.history)
        if not (
            memo.get("state") is state
            and 0 <= steps - memo["steps"] <= _REPLAY
            and self._replay(state, player, mv, memo, steps - memo["steps"])
        ):
            self._diff(state, player, mv, memo)
            memo["state"] = state
        memo["steps"] = steps
        bits = state.used & ((1 << len(state.stacks)) - 1)  # the view lists only existing stacks
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

    def _replay(
        self, state: StakzState, player: int, mv: FloatView, memo: Memo, since: int
    ) -> bool:
        """Write what the last `since` steps of `state` changed in the stacks and hands, which
        the buffer holds as of `since` steps ago (a state changes only through `apply`, as
        `State.legal_ids` assumes too): a placement takes a known tile from its player's hand
        and changes its stack (and the new one a split makes); a turn's end draws a tile of a
        known colour (that colour's five tile types compared by value after the steps). False
        (nothing written) if a round ended since (a new deal: `_diff`)."""
        if memo["round"][0] != len(state.rounds):
            return False
        history, hands = state.history, state.hands
        hand_colours = self.f_hand_colours.start
        tiles = self.f_hand_tiles.start + player * NUM_TILES
        dirty: set[int] = set()
        drew: list[tuple[int, int]] = []
        movers: set[int] = set()
        for step in history[len(history) - since :]:
            action, mover = step.action, step.player
            movers.add(mover)
            if type(action) is Place:
                t = action.tile
                memo_hand = memo[_HAND_KEYS[mover]]
                memo_hand[t] -= 1
                counts = memo[_COLOUR_KEYS[mover]]
                c = COLOUR[t]
                counts[c] -= 1
                mv[hand_colours + mover * NUM_COLOURS + c] = _TENTHS[counts[c]]
                if mover == player:
                    mv[tiles + t] = memo_hand[t] * 0.25
                dirty.add(action.stack)
            elif type(action) is EndTurn:
                if action.draw is not None:
                    drew.append((mover, action.draw))
            else:
                return False
        for mover, c in drew:
            hand, memo_hand = hands[mover], memo[_HAND_KEYS[mover]]
            counts = memo[_COLOUR_KEYS[mover]]
            for t in _TILES_OF[c]:
                k = hand[t]
                if k != memo_hand[t]:
                    counts[c] += k - memo_hand[t]
                    memo_hand[t] = k
                    if mover == player:
                        mv[tiles + t] = k * 0.25
            mv[hand_colours + mover * NUM_COLOURS + c] = _TENTHS[counts[c]]
        stacks, old = state.stacks, memo["stacks"]
        if len(stacks) > len(old):  # splits: new stacks on top of the list
            dirty.update(range(len(old), len(stacks)))
            old.extend(stacks[len(old) :])
        for s in dirty:
            was, stack = old[s], stacks[s]
            if len(was) < len(stack) <= MAX_HEIGHT and stack[: len(was)] == was:
                # tiles placed on top: write them alone
                row_c = self.f_colour.start + s * _ROW_C
                row_s = self.f_symbol.start + s * _ROW_S
                for k in range(len(was), len(stack)):
                    t = stack[k]
                    mv[row_c + k * NUM_COLOURS + t // NUM_SYMBOLS] = 1.0
                    mv[row_s + k * NUM_SYMBOLS + t % NUM_SYMBOLS] = 1.0
                mv[self.f_height.start + s] = _EIGHTHS[len(stack)]
            else:
                self._stack(mv, s, stack)
            old[s] = stack
        sizes = self.f_hand_sizes.start
        for p in movers:
            size = state.hand_size[p]
            mv[sizes + p] = size / 20 if size < 20 else 1.0
        return True

    def _diff(self, state: StakzState, player: int, mv: FloatView, memo: Memo) -> None:
        """The round's fields, the stacks and the hands, compared with the engine values they
        were last written from."""
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
            # the stacks that are not the very tuples last written (a stack is rewritten
            # only when it changed: equal but distinct tuples are rewritten too, harmlessly)
            dirty = [s for s, a, b in zip(_SLOTS, old, stacks, strict=False) if a is not b]
            dirty += range(min(len(old), len(stacks)), max(len(old), len(stacks)))
            for s in dirty:
                self._stack(mv, s, stacks[s] if s < len(stacks) else None)
            memo["stacks"] = stacks.copy()  # of tuples: immutable
        hand_colours = self.f_hand_colours.start
        for p, hand in enumerate(state.hands):
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
                mv[row + c] = _TENTHS[count]
        sizes = self.f_hand_sizes.start
        for p, size in enumerate(state.hand_size):
            mv[sizes + p] = size / 20 if size < 20 else 1.0

    def _stack(self, mv: FloatView, s: int, stack: tuple[int, ...] | None) -> None:
        """Stack slot `s` rewritten (None: no stack there)."""
        row_c, row_s = self.f_colour.start + s * _ROW_C, self.f_symbol.start + s * _ROW_S
        exists, height = self.f_exists.start, self.f_height.start
        mv[row_c : row_c + _ROW_C] = ZEROS[:_ROW_C]
        mv[row_s : row_s + _ROW_S] = ZEROS[:_ROW_S]
        if stack is None:
            mv[exists + s] = mv[height + s] = 0.0
            return
        mv[exists + s] = 1.0
        mv[height + s] = _EIGHTHS[min(len(stack), MAX_HEIGHT)]
        for k, t in enumerate(stack[:MAX_HEIGHT]):
            mv[row_c + k * NUM_COLOURS + t // NUM_SYMBOLS] = 1.0
            mv[row_s + k * NUM_SYMBOLS + t % NUM_SYMBOLS] = 1.0


ENCODER = StakzEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
