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

import numpy as np

from teocalli.core import Game
from teocalli.games.stakz.actions import EndTurn, Place
from teocalli.games.stakz.components import (
    COLOUR,
    COLOUR_LETTERS,
    COPIES,
    MAX_STACKS,
    NUM_COLOURS,
    NUM_SYMBOLS,
    NUM_TILES,
    TOTAL_TILES,
    parse_tile,
)
from teocalli.games.stakz.state import StakzState

from .base import (
    ZEROS,
    Array,
    Encoder,
    FloatView,
    Layout,
    Mask,
    mark_ids,
    one_hot,
    scaled,
    write_bits,
)

MAX_HEIGHT = 8
_ROW_C, _ROW_S = MAX_HEIGHT * NUM_COLOURS, MAX_HEIGHT * NUM_SYMBOLS
"""One stack's run of stack_colour and of stack_symbol."""
_EIGHTHS = tuple(scaled(k, MAX_HEIGHT) for k in range(TOTAL_TILES + 1))
_SLOTS = range(MAX_STACKS)
_TILES = range(NUM_TILES)
_TENTHS = tuple(scaled(k, 10) for k in range(TOTAL_TILES + 1))
"""`scaled(k, 10)` by count k (a hand's tiles of a colour), looked up."""
_TILES_OF = tuple(tuple(t for t in _TILES if COLOUR[t] == c) for c in range(NUM_COLOURS))
"""The tile types of each colour."""
_COLOUR = COLOUR
_CELL_C = tuple(tuple(k * NUM_COLOURS + COLOUR[t] for t in _TILES) for k in range(MAX_HEIGHT))
_CELL_S = tuple(tuple(k * NUM_SYMBOLS + t % NUM_SYMBOLS for t in _TILES) for k in range(MAX_HEIGHT))
"""A tile's cell in a stack's run of stack_colour and of stack_symbol, by height and type."""
_TWENTIETHS = tuple(scaled(k, 20) for k in range(TOTAL_TILES + 1))
_FIFTEENTHS = tuple(scaled(k, 15) for k in range(TOTAL_TILES + 1))
_PILE = tuple(scaled(k, TOTAL_TILES) for k in range(TOTAL_TILES + 1))
_QUARTERS = tuple(scaled(k, 4) for k in range(COPIES + 1))
"""`scaled` of a hand's size, of a colour's tiles in the pile, of the pile's size and of a hand's
tiles of a type (the view encoding's sum of quarters, clipped), looked up."""
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

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.num_players
        self._record = _Record(self.layout.size, n)
        self._num_actions = game.num_distinct_actions
        # field offsets as plain ints: one attribute read each on the fast path
        self._mover_at, self._used = self.f_to_move.start, self.f_used.start
        self._height = self.f_height.start
        self._placed, self._idle = self.f_placed.start, self.f_idle.start
        self._pile, self._pile_colours = self.f_pile.start, self.f_pile_colours.start
        self._sizes = self.f_hand_sizes.start
        self._colour_rows = tuple(self.f_hand_colours.start + p * NUM_COLOURS for p in range(n))
        self._tile_rows = tuple(self.f_hand_tiles.start + p * NUM_TILES for p in range(n))
        self._stack_c = tuple(self.f_colour.start + s * _ROW_C for s in _SLOTS)
        self._stack_s = tuple(self.f_symbol.start + s * _ROW_S for s in _SLOTS)

    def observe(self, state: StakzState, player: int) -> Array:  # type: ignore[override]
        """One buffer holds the observation of a position for one observer (the last one: in
        an env, the player to move, who keeps the turn for a few steps), handed out as a copy;
        only the seat and the observer's own tiles depend on the observer, and every hand's
        tiles are kept written in a row of their own (`_Record.own`), swapped in for another
        observer. The same state object a few steps on (an env observing its game) is brought
        up to date from the steps applied since, read from `state.history`, once whoever
        observes: a placement takes a known tile from its player's hand (a colour count, a
        hand size, a tile count) and puts it on a stack (its new top; a split rewrites the
        stacks it touched); a turn's end draws a tile of a known colour (that colour's five
        tile counts) and passes the turn. This trusts, as `State.legal_ids` does, that a
        state object changes only through `apply`. Any other state (another object, a new deal
        since, a long gap) is written by `_rewrite`. The end (its view shows every hand) is
        the base class's."""
        if state.over:
            return super().observe(state, player)
        rec = self._record
        history = state.history
        steps = len(history)
        since = steps - rec.steps
        if rec.state is not state or not 0 <= since <= _REPLAY or rec.rounds != len(state.rounds):
            self._rewrite(state, player, rec)
            return rec.out.copy()
        mv = rec.mv
        if since:
            seat, own, colours = rec.seat, rec.own, rec.colours
            rows, sizes = self._colour_rows, self._sizes
            hand_size, hands = state.hand_size, state.hands
            stacks, old, heights = state.stacks, rec.stacks, rec.heights
            split = len(stacks) != len(old)  # a split appends a stack: else only tiles on top
            placed_on: list[int] = []
            ended = False
            for step in history[-since:]:
                action: Any = step.action
                mover = step.player
                kind = type(action)
                if kind is Place:
                    t = action.tile
                    c = _COLOUR[t]
                    counts = colours[mover]
                    k = counts[c] = counts[c] - 1
                    mv[rows[mover] + c] = _TENTHS[k]
                    mv[sizes + mover] = _TWENTIETHS[hand_size[mover]]
                    v = own[mover][t] = _QUARTERS[hands[mover][t]]
                    if mover == seat:
                        mv[rec.tiles + t] = v
                    s = action.stack
                    if split:
                        placed_on.append(s)
                    else:  # the tile on top of the stack as written
                        k = heights[s]
                        heights[s] = k + 1
                        if k < MAX_HEIGHT:
                            mv[self._stack_c[s] + _CELL_C[k][t]] = 1.0
                            mv[self._stack_s[s] + _CELL_S[k][t]] = 1.0
                        mv[self._height + s] = _EIGHTHS[k + 1]
                        old[s] = stacks[s]
                elif kind is EndTurn:
                    ended = True
                    c = action.draw
                    if c is not None:
                        counts = colours[mover]
                        k = counts[c] = counts[c] + 1
                        mv[rows[mover] + c] = _TENTHS[k]
                        mv[sizes + mover] = _TWENTIETHS[hand_size[mover]]
                        mv[self._pile_colours + c] = _FIFTEENTHS[state.pile_colours[c]]
                        # the tile drawn: one of its colour's five types, a run of the row
                        hand, row, a = hands[mover], own[mover], c * NUM_SYMBOLS
                        for t in _TILES_OF[c]:
                            row[t] = _QUARTERS[hand[t]]
                        if mover == seat:
                            b = rec.tiles + a
                            mv[b : b + NUM_SYMBOLS] = row[a : a + NUM_SYMBOLS]
                else:  # no Stakz action: write everything from the engine's values
                    rec.stacks = []  # the stacks placed on so far are only partly written
                    self._rewrite(state, player, rec)
                    return rec.out.copy()
            if split:
                self._splits(stacks, rec, placed_on)
            used = state.used & ((1 << len(stacks)) - 1)  # the view lists only these
            changed = used ^ rec.used
            if changed:
                rec.used = used
                write_bits(mv, self._used, used, changed)
            placed = state.placed
            mv[self._placed] = placed / 10 if placed < 10 else 1.0
            if ended:
                idle = state.idle
                mv[self._idle] = idle / 10 if idle < 10 else 1.0
                mv[self._pile] = _PILE[len(state.pile)]
                mover = state.player
                if mover != rec.mover:
                    at = self._mover_at
                    mv[at + rec.mover] = 0.0
                    mv[at + mover] = 1.0
                    rec.mover = mover
            rec.steps = steps
            limit = self._max_length
            mv[self._progress] = steps / limit if steps < limit else 1.0
        if player != rec.seat:
            self._seat_of(state, player, rec)
        return rec.out.copy()

    def _seat_of(self, state: StakzState, player: int, rec: _Record) -> None:
        """Another observer of the position in the buffer: the seat, and the own tiles shown
        (the row kept for `player`, written from the hand if a rewrite left it stale)."""
        mv = rec.mv
        if rec.seat >= 0:  # else none shown (`_rewrite`)
            mv[self._seat + rec.seat] = 0.0
            mv[rec.tiles : rec.tiles + NUM_TILES] = ZEROS[:NUM_TILES]
        mv[self._seat + player] = 1.0
        row = rec.own[player]
        if not rec.fresh >> player & 1:
            hand = state.hands[player]
            for t in _TILES:
                row[t] = _QUARTERS[hand[t]]
            rec.fresh |= 1 << player
        rec.tiles = tiles = self._tile_rows[player]
        mv[tiles : tiles + NUM_TILES] = row
        rec.seat = player

    def _splits(self, stacks: list[tuple[int, ...]], rec: _Record, placed_on: list[int]) -> None:
        """After a split (the stacks written are no longer a prefix of the engine's), the
        stacks placed on and the new ones (on top of the list) rewritten."""
        old = rec.stacks
        dirty = set(placed_on)
        dirty.update(range(len(old), len(stacks)))
        old.extend(stacks[len(old) :])
        for s in dirty:
            self._stack(rec.mv, s, stacks[s])
            old[s] = stacks[s]
        rec.heights = [len(stack) for stack in stacks]

    def _rewrite(self, state: StakzState, player: int, rec: _Record) -> None:
        """Everything from the engine's values: the stacks that are not the very tuples last
        written (the bulk of the vector: a stack is rewritten only when it changed; equal but
        distinct tuples are rewritten too, harmlessly), every other field outright (a few dozen
        values: this runs only for another state, a new deal or a long gap). The other players'
        rows of own tiles are left stale, written if they observe."""
        mv = rec.mv
        n = self.num_players
        stop = self._header_stop
        mv[:stop] = ZEROS[:stop]
        mv[self._seat + player] = 1.0
        mv[self._mover_at + state.player] = 1.0
        mv[self._decision_start] = 1.0  # always a turn
        steps, limit = len(state.history), self._max_length
        mv[self._progress] = steps / limit if steps < limit else 1.0
        mv[self.f_round.start] = scaled(len(state.rounds) + 1, 50)
        mv[self.f_target.start] = scaled(state.target, 100)
        starter, scores = self.f_starter.start, self.f_scores.start
        mv[starter : starter + n] = ZEROS[:n]
        mv[starter + state.starter] = 1.0
        for p, score in enumerate(state.scores):
            mv[scores + p] = scaled(score, 200)
        stacks, old = state.stacks, rec.stacks
        if old != stacks:
            dirty = [s for s, a, b in zip(_SLOTS, old, stacks, strict=False) if a is not b]
            dirty += range(min(len(old), len(stacks)), max(len(old), len(stacks)))
            for s in dirty:
                self._stack(mv, s, stacks[s] if s < len(stacks) else None)
            rec.stacks = stacks.copy()  # of tuples: immutable
            rec.heights = [len(stack) for stack in stacks]
        used = self._used
        mv[used : used + MAX_STACKS] = ZEROS[:MAX_STACKS]
        rec.used = bits = state.used & ((1 << len(stacks)) - 1)
        for s in _SLOTS:
            if bits >> s & 1:
                mv[used + s] = 1.0
        mv[self._placed] = scaled(state.placed, 10)
        mv[self._idle] = scaled(state.idle, 10)
        mv[self._pile] = scaled(len(state.pile), TOTAL_TILES)
        for c, count in enumerate(state.pile_colours):
            mv[self._pile_colours + c] = scaled(count, 15)
        for p, hand in enumerate(state.hands):
            mv[self._sizes + p] = scaled(state.hand_size[p], 20)
            counts = rec.colours[p]
            row = self._colour_rows[p]
            for c, types in enumerate(_TILES_OF):
                counts[c] = k = sum(hand[t] for t in types)
                mv[row + c] = scaled(k, 10)
        tiles = self.f_hand_tiles.start
        mv[tiles : tiles + n * NUM_TILES] = ZEROS[: n * NUM_TILES]
        rec.fresh = 0
        rec.state, rec.steps, rec.rounds = state, steps, len(state.rounds)
        rec.mover = state.player
        rec.seat = -1  # no seat nor own tiles shown: `_seat_of` writes them
        self._seat_of(state, player, rec)

    def _stack(self, mv: FloatView, s: int, stack: tuple[int, ...] | None) -> None:
        """Stack slot `s` rewritten (None: no stack there)."""
        row_c, row_s = self._stack_c[s], self._stack_s[s]
        exists, height = self.f_exists.start, self._height
        mv[row_c : row_c + _ROW_C] = ZEROS[:_ROW_C]
        mv[row_s : row_s + _ROW_S] = ZEROS[:_ROW_S]
        if stack is None:
            mv[exists + s] = mv[height + s] = 0.0
            return
        mv[exists + s] = 1.0
        mv[height + s] = _EIGHTHS[min(len(stack), MAX_HEIGHT)]
        for k, t in enumerate(stack[:MAX_HEIGHT]):
            mv[row_c + _CELL_C[k][t]] = 1.0
            mv[row_s + _CELL_S[k][t]] = 1.0

    def mask(self, state: StakzState, player: int) -> Mask:  # type: ignore[override]
        """The base class's mask, with the engine's own fields for whose turn it is."""
        marks = bytearray(self._num_actions)
        if not state.over and player == state.player:
            mark_ids(marks, state.legal_ids(player))
        return np.frombuffer(marks, np.int8)


class _Record:
    """The observation buffer and the engine values it was last written from."""

    __slots__ = (
        "colours",
        "fresh",
        "heights",
        "mover",
        "mv",
        "out",
        "own",
        "rounds",
        "seat",
        "stacks",
        "state",
        "steps",
        "tiles",
        "used",
    )

    def __init__(self, size: int, players: int) -> None:
        self.out: Array = np.zeros(size, np.float32)
        self.mv: FloatView = self.out.data
        self.state: StakzState | None = None
        """The state object written from (None: nothing written yet)."""
        self.steps = -1
        """Its steps taken then, and its finished rounds (a replay stays within a deal)."""
        self.rounds = -1
        self.seat = -1
        """The observer whose seat and own tiles the buffer shows; where those tiles start."""
        self.tiles = 0
        self.own: list[FloatView] = [np.zeros(NUM_TILES, np.float32).data for _ in range(players)]
        """Each player's hand_tiles row (tiles per type / 4), kept written by the replays;
        fresh: the bits of the players whose row is up to date (a rewrite leaves them stale)."""
        self.fresh = 0
        self.mover = 0
        """The player to move, as the header shows."""
        self.used = 0
        """The used stacks' bits, as written."""
        self.stacks: list[tuple[int, ...]] = []
        """The stacks as written (the engine's tuples), and their heights."""
        self.heights: list[int] = []
        self.colours = [[0] * NUM_COLOURS for _ in range(players)]
        """Each player's tiles per colour, as written."""


ENCODER = StakzEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
