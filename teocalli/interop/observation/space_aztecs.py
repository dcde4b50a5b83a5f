"""Space Aztecs observations (view layout: teocalli/games/space_aztecs/state.py `_view`).

After the common header (base.py), with n players, the 72 cards (components.json order, as the dense
actions use) and the 8 piles A-H:

| field | shape | meaning |
| --- | --- | --- |
| round | 1 | the round / 20 |
| phase | 6 | one-hot: pick, choose, resolve, capture, tuck, over |
| starting_player | n | one-hot |
| removed_set | 4 | one-hot colour taken out (pink, yellow, blue, green; 0 with 5-6 players) |
| codex | 1 | 1 when the Codex cards are in play |
| saucers | 2 | Saucers played / the limit, and the limit / 9 |
| pile_size | 8 | cards in each pile / 10 |
| pile_holder | 8 x n | one-hot: who holds each pile this round |
| city | n x 72 | cards in view in each city (Aztecs, Temples, Saucers, Codex) |
| tucked | n x 72 | cards under a Temple or a Saucer in each city |
| score_now | n | each city's running total / 100 (in [-1, 1]) |
| has_chosen | n | during the choice: who has chosen (not what) |
| announced | n x 72 | the revealed choices, one card per player |
| announced_order | n | (position in playing order + 1) / n |
| announced_played | n | which revealed cards were played already |
| last_round | 72 | the cards played last round |
| pending_kind | 2 | one-hot: a Saucer capture, or an Agent's tuck, awaits |
| pending_player | n | one-hot: who decides it |
| pending_card | 72 | the Saucer capturing, or the Aztec to tuck |
| pending_victim | n | one-hot: whose city the Saucer raids |
| pending_choices | 72 | the Aztecs the Saucer may take |
| your_pile | 8 | one-hot: the pile the observer holds |
| your_pile_cards | 72 | its cards |
| your_choice | 72 | the observer's hidden choice, until all have chosen |
| memory_round | 8 | per pile the observer held: the round they held it / 20 |
| memory_cards | 8 x 72 | per such pile, the cards they know are in it |
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from teocalli.games.space_aztecs.actions import (
    CAPTURE_BASE,
    CHOOSE_BASE,
    NUM_ACTIONS,
    Capture,
    Choose,
    Keep,
    Take,
    Tuck,
)
from teocalli.games.space_aztecs.components import (
    CARD_BY_ID,
    COLOUR,
    COLOURS,
    KIND,
    NUM_CARDS,
    NUM_PILES,
    PILE_LETTERS,
    PINK,
    PINK_PENALTY,
    POINTS,
    RULE,
    Kind,
    Rule,
)
from teocalli.games.space_aztecs.scoring import Tally, codex_bonus
from teocalli.games.space_aztecs.state import (
    CAPTURED,
    CHOSEN,
    CITY,
    TEMPLED,
    Phase,
    SpaceAztecsState,
)

from .base import ZEROS, Array, Encoder, FloatView, Layout, Mask, Memo, one_hot, scaled

PHASES = ("pick", "choose", "resolve", "capture", "tuck", "over")
assert tuple(p.name.lower() for p in Phase) == PHASES, "PHASES must follow the engine's Phase"
PENDING = ("capture", "tuck")
MAX_ROUND = 20


def _card(card_id: str) -> int:
    return CARD_BY_ID[card_id]


assert CITY % 8 == TEMPLED % 8 == CAPTURED % 8 == 0, "a city's places are CITY + p, ..."
_RANGE = range(NUM_CARDS)
_ROWS = NUM_PILES * NUM_CARDS
_TENTHS = tuple(scaled(k, 10) for k in range(NUM_CARDS + 1))
"""scaled(pile size, 10) by size, as the view path computes it."""
_TOPS = (*(KIND[c] in (Kind.TEMPLE, Kind.SAUCER) for c in _RANGE), False)
"""Cards that hold others under them (index -1, no host, is False)."""
_PICK, _CHOOSE, _CAPTURE, _TUCK, _OVER = (
    Phase.PICK,
    Phase.CHOOSE,
    Phase.CAPTURE,
    Phase.TUCK,
    Phase.OVER,
)
_KINDS = tuple(int(k) for k in KIND)
_AZTEC, _TEMPLE, _CODEX = int(Kind.AZTEC), int(Kind.TEMPLE), int(Kind.CODEX)
_SAUCER = int(Kind.SAUCER)
_COLOUR = tuple(COLOUR)
_IN_VIEW_POINTS = tuple(
    None if RULE[c] in (Rule.WARRIOR, Rule.PRIEST, Rule.ALIEN) else POINTS[c] for c in _RANGE
)
"""By card, what `Tally.add(card, False)` adds to the points when it adds only the card's own
points (None: a Warrior, Priest or Alien, whose points depend on the others)."""
_SCALED_ROUNDS = tuple(scaled(k, MAX_ROUND) for k in range(NUM_CARDS + 1))
"""scaled(round, 20) by round (a round plays a card per player: never more than 72 rounds)."""
_PILE_INDEX = np.arange(NUM_PILES)[:, None]
_NOWHERE, _IN_PILE, _IN_VIEW, _TUCKED, _TAKEN = 0, 1, 2, 3, 4
assert CHOSEN == NUM_PILES, "the piles are places 0-7"
_PLACE_KINDS = (
    *(_IN_PILE for _ in range(NUM_PILES)),
    *(_NOWHERE for _ in range(CHOSEN, CITY)),
    *(_IN_VIEW for _ in range(CITY, TEMPLED)),
    *(_TUCKED for _ in range(TEMPLED, CAPTURED)),
    *(_TAKEN for _ in range(CAPTURED, CAPTURED + 8)),
    _NOWHERE,  # _UNSEEN (index -2)
    _NOWHERE,  # OUT (index -1)
)
"""By a place (the engine's OUT = -1 and _UNSEEN = -2 from the end): a pile, in view in a city
(CITY + p), under a card there (TEMPLED + p), taken by a Saucer (CAPTURED + p), or nowhere a card
is shown (chosen face down, out of the game)."""
_CELL = tuple(
    tuple((x - CITY) * NUM_CARDS + c for c in _RANGE) if x >= CITY else () for x in range(TEMPLED)
)
"""By a place CITY + p and a card: the card's cell in the city rows (`(x - CITY) * 72 + c`)."""


class _Clipped(dict[int, float]):
    """A running total / 100, clipped to [-1, 1], by total: the totals within [-100, 100] are
    keys, the others are clipped on the way out (`__missing__`)."""

    def __missing__(self, total: int) -> float:
        return 1.0 if total > 0 else -1.0


_HUNDREDTHS = _Clipped({k: k / 100 for k in range(-100, 101)})
_SCORE_OF = _HUNDREDTHS.__getitem__
_FREE = [-1] * NUM_PILES
"""`holder` at the start of a round."""
_MANY = 16
"""Moved cards beyond which `_Placement` rebuilds everything rather than follow each card."""
_UNSEEN = -2
"""A place no card has (the engine's places are OUT = -1 and up): what `_Placement` starts from."""


def _move_cell(cells: list[int], c: int, at: int, mv: FloatView) -> None:
    """Card `c`'s one-hot cell (`cells[c]`, -1 for none) moved to `at`: clear it, set `at`."""
    if cells[c] >= 0:
        mv[cells[c]] = 0.0
    if at >= 0:
        mv[at] = 1.0
    cells[c] = at


def _under(host: list[int], top: int) -> list[int]:
    """The cards whose host is `top` (a few: found by the list's own scans, not a loop of 72)."""
    found, d = [], -1
    for _ in range(host.count(top)):
        d = host.index(top, d + 1)
        found.append(d)
    return found


class _Placement:
    """Where the cards are, as every observer's observation shows it: the piles' cards (8 rows of
    72, for `your_pile_cards` and `memory_cards`), the `city` and `tucked` rows and the cities'
    running totals. One per encoder, shared by all observers (the AEC and Parallel envs observe
    several players at one position: one update serves them all), and kept by a value diff of
    the engine's `where` and `host` against copies of the last ones seen, so it is right for any
    state. The diff looks first at the cards in the engine's `chosen` (a choice, a reveal and a
    tuck move only those), then at last round's cards (a reveal that ended the round), and
    checks with one list comparison that nothing else moved; only then does it compare all 72
    places. Each city's Aztecs are counted in a `scoring.Tally` as they come and go.
    `cities_version` and `totals_version` (ticks) tell the shared public buffer when to copy
    those rows again; the pile rows live in the shared buffer itself (`memory_cards`)."""

    def __init__(self, n: int, piles: Array) -> None:
        """`piles`: where to keep the 8 rows of the piles' cards (zeros, 8 x 72)."""
        self.n = n
        self.where = [_UNSEEN] * NUM_CARDS
        self.host = [_UNSEEN] * NUM_CARDS
        self.unchosen = [-1] * n  # the engine's `chosen` when nobody has chosen
        assert piles.shape == (_ROWS,) and not piles.any()
        self.piles = piles
        self.pile_mv: FloatView = self.piles.data
        self.choices = [np.zeros(NUM_ACTIONS, np.int8) for _ in range(NUM_PILES)]
        """Per pile, the mask of its holder during the choice (its cards' `choose` ids), kept
        with the pile rows: the engine's legal ids are the cards whose place is the pile."""
        self.choices_mv: list[Any] = [m.data for m in self.choices]
        self.cities = np.zeros(2 * n * NUM_CARDS, np.float32)
        self.cities_mv: FloatView = self.cities.data
        self.cities_version = 0
        self.cell = [-1] * NUM_CARDS  # the index each card has set in `cities` (city row)
        self.tucked_cell = [-1] * NUM_CARDS  # (tucked row)
        self._cities_counted()
        self.tick = 0
        self.start = self.removed = _UNSEEN  # what the totals were computed with
        self.points: list[int] = []  # the totals as the sheets add them up
        self.totals_version = 0

    def update(self, state: SpaceAztecsState, deal: bool = False) -> None:
        """Follow the engine's `where` and `host` (when unchanged: two list comparisons); `deal`:
        the state is a new game's (no step taken), which is rebuilt, not followed card by card."""
        where, host, mine = state.where, state.host, self.where
        moved: list[tuple[int, int]] = []  # (card, its place before)
        if deal:
            mine[:] = where
            self._rebuild(where, host)
            return
        if where != mine:
            chosen = state.chosen
            if chosen != self.unchosen:  # a choice, a reveal that leaves questions, a tuck
                for c in chosen:
                    if c >= 0 and where[c] != mine[c]:
                        moved.append((c, mine[c]))
                        mine[c] = where[c]
                tops = (*chosen, *state.last_played)
            else:  # (after a round's end: nobody has chosen)
                tops = state.last_played
            if where != mine:  # a round ended (its cards are the last played now), or more
                for c in state.last_played:
                    if where[c] != mine[c]:
                        moved.append((c, mine[c]))
                        mine[c] = where[c]
            if where != mine:  # a Temple's tuck, a capture: cards that went under a round's card
                for top in tops:
                    if _TOPS[top] and top in host:  # (found by the list's scans: `_under`)
                        for d in _under(host, top):
                            if where[d] != mine[d]:
                                moved.append((d, mine[d]))
                                mine[d] = where[d]
            if where != mine:  # more moved than that (another position): compare all 72
                moved += [(c, mine[c]) for c in compress(_RANGE, map(ne, where, mine))]
                mine[:] = where
                if len(moved) > _MANY:
                    self._rebuild(where, host)
                    return
        elif host == self.host:
            return
        look: list[int] = []  # the cards whose city or tucked cell may change
        hosts = self.host
        if host != hosts:  # a card gets a host as it moves: look at the moved cards first
            for c, _ in moved:
                if host[c] != hosts[c]:
                    hosts[c] = host[c]
                    look.append(c)
            if host != hosts:
                look += compress(_RANGE, map(ne, host, hosts))
                hosts[:] = host
        self.tick = tick = self.tick + 1
        pile_mv, tallies, dirty, cell = self.pile_mv, self.tallies, self.dirty, self.cell
        kinds = _PLACE_KINDS
        played = False  # a city cell set for a card played
        for c, o in moved:
            x = where[c]
            was = kinds[o]
            if not was and kinds[x] == _IN_VIEW:  # played (a reveal): counted, its city cell
                p = x - CITY
                k = _KINDS[c]
                if k == _AZTEC:
                    points = _IN_VIEW_POINTS[c]
                    if points is None:
                        tallies[p].add(c, False)
                    else:  # `Tally.add` of an Aztec in view that scores its own points
                        t = tallies[p]
                        t.points += points
                        t.count[_COLOUR[c]] += 1
                    dirty.add(p)
                elif k != _SAUCER:  # a Temple, a Codex card (`_enter`)
                    self._enter(c, x)
                cell[c] = at = _CELL[x][c]
                self.cities_mv[at] = 1.0
                played = True
                if _TOPS[c] and c in host:  # cards under it elsewhere follow it
                    look += _under(host, c)
                continue
            if was == _IN_PILE:
                pile_mv[o * NUM_CARDS + c] = 0.0
                self.choices_mv[o][CHOOSE_BASE + c] = 0
            elif was:
                self._enter(c, o, -1)
            now = kinds[x]
            if now == _IN_PILE:
                pile_mv[x * NUM_CARDS + c] = 1.0
                self.choices_mv[x][CHOOSE_BASE + c] = 1
            elif now:
                if now == _IN_VIEW and _KINDS[c] == _AZTEC:  # counted (`_enter`, inline)
                    p = x - CITY
                    tallies[p].add(c, False)
                    dirty.add(p)
                else:
                    self._enter(c, x)
                if now == _IN_VIEW and was < _IN_VIEW:  # played: its city cell only (had none)
                    cell[c] = at = _CELL[x][c]
                    self.cities_mv[at] = 1.0
                    played = True
                    if _TOPS[c] and c in host:  # cards under it elsewhere follow it
                        look += _under(host, c)
                    continue
            elif was < _IN_VIEW:
                continue  # neither place is in a city: no cell before or after
            look.append(c)
            if _TOPS[c] and c in host:  # the cards under it follow it
                look += _under(host, c)
        if played:
            self.cities_version = tick
        if look:
            self._cells(where, host, look, tick)

    def _rebuild(self, where: list[int], host: list[int]) -> None:
        """Everything again from `where` and `host` (a new deal, another game's position): the
        pile rows in one NumPy comparison, the cities from the cards in them."""
        self.tick = tick = self.tick + 1
        places = np.array(where)
        rows = places == _PILE_INDEX
        self.piles.reshape(NUM_PILES, NUM_CARDS)[:] = rows
        for x, choices in enumerate(self.choices):
            choices[CHOOSE_BASE : CHOOSE_BASE + NUM_CARDS] = rows[x]
        self.host[:] = host
        in_cities = np.flatnonzero(places >= CITY).tolist()
        self._cities_counted()
        for c in in_cities:
            self._enter(c, where[c])
        self.cities[:] = 0.0
        self.cell, self.tucked_cell = [-1] * NUM_CARDS, [-1] * NUM_CARDS
        self.cities_version = tick
        self._cells(where, host, in_cities, tick)

    def _cells(self, where: list[int], host: list[int], look: list[int], tick: int) -> None:
        """Set the `city` and `tucked` cells of the cards in `look` (moved, or under a card that
        moved, or given another host) as the view would show them."""
        n, cell, tucked_cell, cities_mv = self.n, self.cell, self.tucked_cell, self.cities_mv
        first, last = CITY, CITY + n  # a city row: the card is in view in city x - CITY
        tucked = n * NUM_CARDS
        changed = False
        for c in look:
            x = where[c]
            at = (x - CITY) * NUM_CARDS + c if first <= x < last else -1
            under = -1
            if x >= TEMPLED:
                h = host[c]
                if _TOPS[h] and first <= where[h] < last:
                    under = tucked + (where[h] - CITY) * NUM_CARDS + c
            if at != cell[c]:
                _move_cell(cell, c, at, cities_mv)
                changed = True
            if under != tucked_cell[c]:
                _move_cell(tucked_cell, c, under, cities_mv)
                changed = True
        if changed:
            self.cities_version = tick

    def _cities_counted(self) -> None:
        """Empty cities, all to be counted: each city's Aztecs in a `scoring.Tally` (its Aztec
        points kept card by card), its Codex cards, Temples and captured cards."""
        n = self.n
        self.tallies = [Tally() for _ in range(n)]
        self.codex: list[list[int]] = [[] for _ in range(n)]
        self.temples = [0] * n
        self.captured = [0] * n
        self.base = [0] * n  # per city, the total before the pink penalty
        self.dirty = set(range(n))  # cities whose `base` must be counted again

    def _enter(self, c: int, x: int, sign: int = 1) -> None:
        """Card `c` came to place `x` of a city (`sign` -1: left it): count it in its city."""
        p = x & 7
        if x >= CAPTURED:
            self.captured[p] += sign
            self.dirty.add(p)
            return
        if x >= TEMPLED:
            self.tallies[p].add(c, True, sign)
        else:
            kind = _KINDS[c]
            if kind == _AZTEC:
                self.tallies[p].add(c, False, sign)
            elif kind == _TEMPLE:
                self.temples[p] += sign
            elif kind == _CODEX:
                if sign > 0:
                    self.codex[p].append(c)
                else:
                    self.codex[p].remove(c)
            else:
                return  # a Saucer in view counts for nothing but its catch
        self.dirty.add(p)

    def scores(self, state: SpaceAztecsState) -> None:
        """`totals`: `state.sheets()` totals / 100 in [-1, 1]. They depend only on the cards in
        each city (their Aztec points kept by the tallies), the Starting Player and the removed
        set: a city's sum before the pink penalty (`base`: Aztec points, Codex bonus, captured
        cards) is counted again when anything in it changed or the token came to or left it
        (`dirty`); the penalty is applied to the sums after any change."""
        dirty, start, removed = self.dirty, state.start, state.removed
        if start != self.start:  # the Codex of the Sun
            codex, old = self.codex, self.start
            if 0 <= old < self.n and codex[old]:
                dirty.add(old)
            if codex[start]:
                dirty.add(start)
            self.start = start
        if removed != self.removed:
            self.removed = removed
        elif not dirty:
            return
        tallies, base = self.tallies, self.base
        if dirty:
            codex, captured = self.codex, self.captured
            for p in dirty:
                t = tallies[p]
                if codex[p]:
                    bonus = codex_bonus(codex[p], t.count, self.temples[p], t.templed, start == p)
                    base[p] = t.points + bonus + captured[p]
                else:
                    base[p] = t.points + captured[p]
            dirty.clear()
        if removed != PINK:  # the fewest pink Aztecs lose 5
            pinks = [t.count[PINK] for t in tallies]
            fewest = min(pinks)
            points = [
                b - PINK_PENALTY if k == fewest else b for b, k in zip(base, pinks, strict=True)
            ]
        else:
            points = base.copy()  # Sheet.total
        if points != self.points:
            self.points = points
            self.totals_version += 1


class _Memory:
    """What an observer's `memory_round` and `memory_cards` show of the piles it has held,
    given `seen` (its part of `seen_round`): the rounds (8 values, written in one copy) and
    the runs of rows of the piles it never held (cleared after the 8 rows are copied in one).
    Kept per observer and changed where `seen` changed (a take: one pile's round)."""

    __slots__ = ("blanks", "held", "rounds", "rounds_mv", "seen")

    def __init__(self) -> None:
        self.seen = [0] * NUM_PILES  # its own list
        self.held = 0  # bit x: pile x was held
        self.rounds = np.zeros(NUM_PILES, np.float32)
        self.rounds_mv: FloatView = self.rounds.data
        self.blanks: _Blanks = ()

    def clear(self, blanks: tuple[_Blanks, ...]) -> None:
        """No pile held (a new game): `update` with zeros, at once."""
        self.seen, self.held, self.blanks = [0] * NUM_PILES, 0, blanks[0]
        self.rounds_mv[:] = ZEROS[:NUM_PILES]

    def update(self, seen: list[int], blanks: tuple[_Blanks, ...]) -> None:
        """Follow `seen`; `blanks`: the runs to clear for each set of held piles."""
        old, held = self.seen, self.held
        for x in compress(_PILES, map(ne, seen, old)):
            k = seen[x]
            self.rounds_mv[x] = _SCALED_ROUNDS[k]
            held = held | 1 << x if k else held & ~(1 << x)
        self.seen, self.held, self.blanks = seen, held, blanks[held]


def _blanks(held: int) -> tuple[tuple[int, int], ...]:
    """The runs of rows (start, stop, from the memory's first row) of the piles not in `held`."""
    runs: list[tuple[int, int]] = []
    for x in range(NUM_PILES):
        if held >> x & 1:
            continue
        start, stop = x * NUM_CARDS, (x + 1) * NUM_CARDS
        if runs and runs[-1][1] == start:
            start = runs.pop()[0]
        runs.append((start, stop))
    return tuple(runs)


_PILES = range(NUM_PILES)
_BLANKS = tuple(_blanks(held) for held in range(1 << NUM_PILES))
"""`_blanks` of each set of held piles (bit x: pile x)."""
_Blanks = tuple[tuple[slice, FloatView], ...]
"""Runs of an observation to clear: the slice and as many zeros."""


class _Written:
    """The engine values the shared public buffer was last written from (`_diff`'s memo)."""

    __slots__ = (
        "chosen",
        "cities",
        "head",
        "holder",
        "movers",
        "pile_size",
        "result",
        "seen",
        "tail",
        "totals",
    )

    def __init__(self) -> None:
        self.head: tuple[Any, ...] | None = None
        self.chosen: list[int] | None = None
        self.movers: tuple[int, ...] | None = None
        self.result: tuple[int, ...] | None = ()  # () matches no state: written at first
        self.seen: list[int] = []  # seen_round, as the memories hold it
        self.pile_size = [0] * NUM_PILES  # as the zeroed buffer shows them
        self.holder = [-1] * NUM_PILES
        self.cities = self.totals = -1
        self.tail: tuple[Any, ...] | None = None


def _marked(ids: list[int]) -> Mask:
    """A mask with 1 at the action ids `ids`."""
    marks = bytearray(NUM_ACTIONS)
    for i in ids:
        marks[i] = 1
    return np.frombuffer(marks, np.int8)


class SpaceAztecsEncoder(Encoder):
    """Space Aztecs: piles, cities, revealed and pending choices, the observer's pile and memory."""

    def _build(self, layout: Layout) -> None:
        n, c = self.num_players, NUM_CARDS
        self.f_round = layout.add("round", 1, "the round / 20")
        self.f_phase = layout.add("phase", len(PHASES), "one-hot phase")
        self.f_start = layout.add("starting_player", n, "one-hot starting player")
        self.f_removed = layout.add("removed_set", len(COLOURS), "one-hot colour taken out")
        self.f_codex = layout.add("codex", 1, "Codex cards in play")
        self.f_saucers = layout.add("saucers", 2, "Saucers played / limit, limit / 9")
        self.f_pile_size = layout.add("pile_size", NUM_PILES, "cards per pile / 10")
        self.f_holder = layout.add("pile_holder", (NUM_PILES, n), "who holds each pile")
        self.f_city = layout.add("city", (n, c), "cards in view in each city")
        self.f_tucked = layout.add("tucked", (n, c), "cards under Temples and Saucers")
        self.f_score = layout.add("score_now", n, "running totals / 100", low=-1.0)
        self.f_chosen = layout.add("has_chosen", n, "who has chosen (not what)")
        self.f_announced = layout.add("announced", (n, c), "revealed choices")
        self.f_order = layout.add("announced_order", n, "(playing position + 1) / n")
        self.f_played = layout.add("announced_played", n, "revealed cards already played")
        self.f_last = layout.add("last_round", c, "cards played last round")
        self.f_pending_kind = layout.add("pending_kind", len(PENDING), "capture or tuck awaits")
        self.f_pending_player = layout.add("pending_player", n, "who decides it")
        self.f_pending_card = layout.add("pending_card", c, "the Saucer, or the Aztec to tuck")
        self.f_victim = layout.add("pending_victim", n, "whose city the Saucer raids")
        self.f_choices = layout.add("pending_choices", c, "Aztecs the Saucer may take")
        self.f_your_pile = layout.add("your_pile", NUM_PILES, "the observer's pile")
        self.f_your_cards = layout.add("your_pile_cards", c, "its cards")
        self.f_your_choice = layout.add("your_choice", c, "the observer's hidden choice")
        self.f_memory_round = layout.add("memory_round", NUM_PILES, "round a pile was held / 20")
        self.f_memory = layout.add("memory_cards", (NUM_PILES, c), "cards known in that pile")
        # the offsets `observe` writes at, as plain ints
        self._round, self._head, self._head_stop = (
            self.f_round.start,
            self.f_phase.start,
            self.f_pile_size.start,
        )
        self._start, self._removed = self.f_start.start, self.f_removed.start
        self._codex, self._saucers = self.f_codex.start, self.f_saucers.start
        self._codex_value = 1.0 if self.game.options["codex"] else 0.0
        self._pile_size, self._holder = self.f_pile_size.start, self.f_holder.start
        self._cities, self._cities_stop = self.f_city.start, self.f_tucked.stop
        self._score = self.f_score.start
        self._has_chosen = self.f_chosen.start
        self._tail, self._tail_stop = self.f_announced.start, self.f_choices.stop
        self._announced, self._order, self._played = (
            self.f_announced.start,
            self.f_order.start,
            self.f_played.start,
        )
        self._last = self.f_last.start
        self._pending_kind, self._pending_player = (
            self.f_pending_kind.start,
            self.f_pending_player.start,
        )
        self._pending_card, self._victim = self.f_pending_card.start, self.f_victim.start
        self._choices = self.f_choices.start
        self._your_pile, self._your_cards = self.f_your_pile.start, self.f_your_cards.start
        self._your_choice = self.f_your_choice.start
        self._memory_round, self._memory = self.f_memory_round.start, self.f_memory.start
        self._private = self.f_your_pile.start  # the observer's own fields start here
        self._shared = np.zeros(layout.size, np.float32)
        """The public part, and in `memory_cards` every pile's row (the placement's): the
        observer's memory without the piles it never held; its other own fields stay 0."""
        self._public_mv: FloatView = self._shared.data
        self._memory_stop = self.f_memory.stop
        self._placement = _Placement(n, self._shared[self._memory : self._memory_stop])
        self._written = _Written()
        self._state: SpaceAztecsState | None = None  # the state the public part was written from
        self._steps = 0  # and its number of steps then
        self._pending: list[tuple[int, int, int]] = []
        """During the choice, the cards chosen: (cell in memory_cards, pile, holder)."""
        self._memories = [_Memory() for _ in range(n)]
        self._ones: FloatView = np.ones(n, np.float32).data
        self._out = np.zeros(layout.size, np.float32)
        self._out_mv: FloatView = self._out.data
        """Where an observation is put together (the shared buffer copied in, the observer's
        own fields written) before the copy handed out: a memoryview of a buffer kept costs
        nothing per observation, one of a new array about as much as the copy. One for all
        observers (each observation overwrites all of it): it stays in the cache."""
        self._rounds_at = slice(self._memory_round, self._memory)
        self._score_at = slice(self.f_score.start, self.f_score.stop)
        self._holder_cells = tuple(self._holder + x * n for x in range(NUM_PILES))
        """Where pile x's row of `pile_holder` starts."""
        top = self.game.max_length  # (`_max_length` is set after `_build`)
        self._progress_of = tuple(k / top if k < top else 1.0 for k in range(2 * top + 2))
        """`progress` by steps taken, as the header computes it (a game's length never passes
        `max_length`; twice that is kept)."""
        self._your_cards_at = slice(self._your_cards, self._your_cards + c)
        self._no_mask: Mask = np.zeros(NUM_ACTIONS, np.int8)
        self._marks: Mask = np.zeros(NUM_ACTIONS, np.int8)
        self._marks_mv: Any = self._marks.data
        self._no_marks: Any = np.zeros(NUM_ACTIONS, np.int8).data
        """A mask is marked in `_marks` and copied (`np.frombuffer` of a new bytearray costs
        three times the copy), then cleared."""
        self._takes: dict[tuple[int, ...], Mask] = {}
        """The masks of the takes, by their ids (at most one per set of the 8 piles)."""
        """Per player, the piles it has held (kept with the public part: `_remember`)."""
        pile_mv = self._placement.pile_mv
        self._pile_rows = [pile_mv[x * c : (x + 1) * c] for x in range(NUM_PILES)]
        assert self._memory_round + NUM_PILES == self._memory
        self._blanks = tuple(
            tuple((slice(self._memory + a, self._memory + b), ZEROS[: b - a]) for a, b in runs)
            for runs in _BLANKS
        )
        """`_BLANKS` at this layout's offsets, with their zeros."""

    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        n = self.num_players
        out[self.f_round.start] = scaled(state["round"], MAX_ROUND)
        one_hot(self.f_phase, out, PHASES.index(state["phase"]))
        one_hot(self.f_start, out, state["starting_player"])
        removed = state["removed_set"]
        one_hot(self.f_removed, out, None if removed is None else COLOURS.index(removed))
        out[self.f_codex.start] = float(state["codex"])
        limit = state["saucer_limit"]
        out[self.f_saucers.start] = scaled(state["saucers_played"], limit)
        out[self.f_saucers.start + 1] = scaled(limit, 9)
        for x, pile in enumerate(state["piles"]):
            out[self.f_pile_size.start + x] = scaled(pile["size"], 10)
            one_hot(self.f_holder, out, pile["holder"], x)
        for p, city in enumerate(state["cities"]):
            for card_id in (*city["aztecs"], *city["codex"]):
                one_hot(self.f_city, out, _card(card_id), p)
            for key, top in (("temples", "temple"), ("saucers", "saucer")):
                for entry in city[key]:
                    one_hot(self.f_city, out, _card(entry[top]), p)
                    for card_id in entry["under"]:
                        one_hot(self.f_tucked, out, _card(card_id), p)
            out[self.f_score.start + p] = max(-1.0, min(1.0, city["score_now"]["total"] / 100))
        for p, chosen in enumerate(state.get("has_chosen", ())):
            out[self.f_chosen.start + p] = float(chosen)
        for i, entry in enumerate(state.get("announced", ())):
            p = entry["player"]
            one_hot(self.f_announced, out, _card(entry["card"]), p)
            out[self.f_order.start + p] = (i + 1) / n
            out[self.f_played.start + p] = float(entry["played"])
        for card_id in state.get("last_round", ()):
            one_hot(self.f_last, out, _card(card_id))
        pending = state.get("pending")
        if pending is not None:
            one_hot(self.f_pending_kind, out, PENDING.index(pending["kind"]))
            one_hot(self.f_pending_player, out, pending["player"])
            card_id = pending["saucer"] if pending["kind"] == "capture" else pending["card"]
            one_hot(self.f_pending_card, out, _card(card_id))
            if pending["kind"] == "capture":
                one_hot(self.f_victim, out, pending["victim"])
                for choice in pending["choices"]:
                    one_hot(self.f_choices, out, _card(choice))
        your_pile = state.get("your_pile")
        if your_pile is not None:
            one_hot(self.f_your_pile, out, PILE_LETTERS.index(your_pile["pile"]))
            for card in your_pile["cards"]:
                one_hot(self.f_your_cards, out, _card(card["id"]))
        your_choice = state.get("your_choice")
        if your_choice is not None:
            one_hot(self.f_your_choice, out, _card(your_choice["id"]))
        for entry in state.get("memory", ()):
            x = PILE_LETTERS.index(entry["pile"])
            out[self.f_memory_round.start + x] = scaled(entry["held_in_round"], MAX_ROUND)
            for card_id in entry["cards"]:
                one_hot(self.f_memory, out, _card(card_id), x)

    incremental = True
    final_is_shared = True  # `_encode` never reads the player (`observe` does not need it)

    def observe(self, state: Any, player: int) -> Array:
        """`Encoder.observe` without a buffer per observer: the shared public part (see
        `_observe`), copied, with the observer's own fields written into the copy. The state
        is a SpaceAztecsState (not checked: the check would cost as much as a field's update)."""
        position: SpaceAztecsState = state
        steps = len(position.history)
        if position is self._state:
            if steps != self._steps:
                if steps != self._steps + 1 or not self._step(position, steps):
                    self._state = None  # not consistent until the diff is done
                    self._diff(position, steps)
                    self._state = position
                self._steps = steps
        else:
            self._state = None
            self._diff(position, steps)
            self._state, self._steps = position, steps
        mv = self._out_mv
        mv[:] = self._public_mv
        mv[self._seat + player] = 1.0
        # The observer's own fields, where the shared buffer has zeros but every pile's row in
        # `memory_cards`: your_pile and its cards, your_choice, and the memory: the rounds,
        # the rows of the piles never held cleared, and during the choice the cards others
        # have just chosen from piles the observer knows (still in them for it).
        memory = self._memories[player]
        phase = state.phase
        if phase is _OVER or not memory.held:  # the final view is a spectator's: no own fields
            mv[self._memory : self._memory_stop] = ZEROS[: self._memory_stop - self._memory]
            return self._out.copy()
        held = state.held[player]
        if held >= 0:
            mv[self._your_pile + held] = 1.0
            mv[self._your_cards_at] = self._pile_rows[held]
        mv[self._rounds_at] = memory.rounds_mv
        for at, zeros in memory.blanks:
            mv[at] = zeros
        if phase is _CHOOSE:
            card = state.chosen[player]
            if card >= 0:
                mv[self._your_choice + card] = 1.0
            if self._pending:
                seen = memory.seen
                for cell, x, h in self._pending:
                    if h != player and seen[x]:
                        mv[cell] = 1.0
        return self._out.copy()

    def mask(self, state: Any, player: int) -> Mask:
        """`Encoder.mask`, asking the phase who may act instead of building `to_move`. The
        takes (a set of the 8 piles) are marked once per set and copied from then on; a choice
        at the position last observed is its pile's mask kept with the pile rows (`choices`),
        copied, instead of marking the engine's ids."""
        phase = state.phase
        if phase is _PICK:  # `_to_move`'s one player, without building its tuple
            if player != (state.start + state.picks) % self.num_players:
                return self._no_mask.copy()
            ids = state.legal_ids(player)
            key = tuple(ids)
            marked = self._takes.get(key)
            if marked is None:
                marked = self._takes[key] = _marked(ids)
            return marked.copy()
        if phase is _CHOOSE:
            if state.chosen[player] >= 0:
                return self._no_mask.copy()
            position: SpaceAztecsState = state
            if position is self._state and len(position.history) == self._steps:
                # the position last observed: the held pile's cards, kept with the pile rows
                return self._placement.choices[position.held[player]].copy()
            may = True
        else:
            may = phase is not _OVER and player in state._to_move()
        if not may:
            return self._no_mask.copy()
        marks = self._marks_mv  # marked in a buffer kept, copied, cleared
        for i in state.legal_ids(player):
            marks[i] = 1
        mask = self._marks.copy()
        marks[:] = self._no_marks
        return mask

    def _observe(
        self, state: SpaceAztecsState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
        """The whole observation (`observe` into `out`). Everything before `your_pile` is the
        same for every observer: it is kept in one shared buffer with the piles' rows in
        `memory_cards`, and copied. That state object one step on: written from the step
        (`_step`: a `take` or a `choose` that does not reveal, that step's few cells; a reveal or
        an answer to a question, `_resolved`) but at the game's end; any other state, the value
        diff (`_diff`); the state object last written, at that step: nothing. Like
        `State.legal_ids`, this trusts that a state object changes only through `apply`. The
        observer's own fields are a few rows written over it (`observe`)."""
        mv[:] = self.observe(state, player).data

    def _step(self, state: SpaceAztecsState, steps: int) -> bool:
        """Write what the last step changed in the public part, which holds the state one step
        before: a `take` (a holder, the player to move or the choice beginning, the taker's
        memory), a `choose` that does not reveal (a pile's size and row, who has chosen) or one
        that ends the round (`_round_end`). False, nothing written, for any other step (the diff
        then writes it)."""
        step = state.history[-1]
        action: Any = step.action
        kind, mv, memo = type(action), self._public_mv, self._written
        if kind is Take:
            phase = state.phase
            if phase is not _PICK and (
                phase is not _CHOOSE or memo.head is None or memo.head[1] is not _PICK
            ):
                return False
            x, player = action.pile, step.player
            memo.holder[x] = player
            mv[self._holder_cells[x] + player] = 1.0
            seen = memo.seen[player * NUM_PILES + x] = state.round  # the taker's memory: a pile
            memory = self._memories[player]
            memory.seen[x] = seen
            memory.rounds_mv[x] = _SCALED_ROUNDS[seen]
            memory.held = held = memory.held | 1 << x
            memory.blanks = self._blanks[held]
            mv[self._progress] = self._progress_of[steps]
            to_move = self._to_move_start
            mv[to_move + player] = 0.0  # the taker was the one to move
            if phase is _PICK:
                mover = (state.start + state.picks) % self.num_players
                mv[to_move + mover] = 1.0
                memo.movers = (mover,)
                return True
            head = memo.head
            assert head is not None  # the last take: the choice begins, nothing else changes
            memo.head = (head[0], phase, *head[2:])
            at = self._decision_start
            mv[at], mv[at + 1] = 0.0, 1.0  # turn -> simultaneous
            mv[self._head + _PICK] = 0.0
            mv[self._head + _CHOOSE] = 1.0
            memo.chosen, memo.movers = state.chosen.copy(), None  # nobody has chosen yet
            self._pending = []
            at = self._to_move_start
            mv[at : at + self.num_players] = self._ones
            return True
        if kind is Choose:
            placement, card = self._placement, action.card
            x = placement.where[card]
            phase = state.phase
            if phase is not _CHOOSE or not 0 <= x < NUM_PILES:  # the last choice: a reveal
                head = memo.head  # the cards revealed and played (`_resolved`)
                if phase is not _OVER and 0 <= x < NUM_PILES and head and head[1] is _CHOOSE:
                    self._resolved(state, steps, x, _CHOOSE)
                    return True
                return False
            assert memo.chosen is not None
            player = step.player
            mv[self._progress] = self._progress_of[steps]
            placement.where[card] = state.where[card]
            at = x * NUM_CARDS + card
            placement.pile_mv[at] = 0.0
            placement.choices_mv[x][CHOOSE_BASE + card] = 0
            size = memo.pile_size[x] = state.pile_size[x]
            mv[self._pile_size + x] = _TENTHS[size]
            memo.chosen[player] = card
            mv[self._to_move_start + player] = 0.0
            mv[self._has_chosen + player] = 1.0
            self._pending.append((self._memory + at, x, player))
            return True
        if kind is Capture or kind is Tuck or kind is Keep:  # a question answered
            head = memo.head
            if state.phase is not _OVER and head and (head[1] is _CAPTURE or head[1] is _TUCK):
                self._resolved(state, steps, -1, head[1])
                return True
        return False

    def _resolved(self, state: SpaceAztecsState, steps: int, x: int, was: Phase) -> None:
        """The round's cards were played on (`_step`): by the last choice, from pile `x`, which
        revealed them (`was` _CHOOSE), or by the answer to a question (`was` _CAPTURE or _TUCK,
        `x` -1), up to the next question or the next round (not the game's end). What `_diff`
        writes, knowing what changes then: the cards follow (`_Placement.update`) and the
        scores; the chooser's pile size; the header (the round, the phase, the Starting Player,
        the Saucers played), who may act and who has chosen; no pile held in a new round; the
        revealed cards or last round's. The piles' other sizes, who holds them and the memories
        change only by a take or a choice (`_step`)."""
        mv, memo, n = self._public_mv, self._written, self.num_players
        placement = self._placement
        placement.update(state)
        placement.scores(state)
        mv[self._progress] = self._progress_of[steps]
        if x >= 0:
            size = memo.pile_size[x] = state.pile_size[x]
            mv[self._pile_size + x] = _TENTHS[size]
        head = memo.head
        assert head is not None
        phase, start, played = state.phase, state.start, state.saucers_played
        memo.head = (state.round, phase, start, head[3], played)
        if head[0] != state.round:
            mv[self._round] = _SCALED_ROUNDS[state.round]
        if was is not phase:  # a turn now (a pick, a capture, a tuck)
            at = self._decision_start
            mv[at], mv[at + 1] = 1.0, 0.0
            mv[self._head + was] = 0.0
            mv[self._head + phase] = 1.0
        if head[2] != start:
            mv[self._start + head[2]] = 0.0
            mv[self._start + start] = 1.0
        if head[4] != played:
            limit = state.saucer_limit
            mv[self._saucers] = played / limit if played < limit else 1.0
        order = state.order  # `_to_move`: who answers the question, or the first to take
        mover = order[state.playing] if order else start
        if memo.movers != (mover,):
            memo.movers, memo.chosen = (mover,), None
            at, has = self._to_move_start, self._has_chosen
            mv[at : at + n] = ZEROS[:n]
            mv[has : has + n] = ZEROS[:n]
            mv[at + mover] = 1.0
        if not order:  # a new round: no pile held
            mv[self._holder : self._holder + NUM_PILES * n] = ZEROS[: NUM_PILES * n]
            memo.holder = state.holder.copy()
        if memo.cities != placement.cities_version:
            memo.cities = placement.cities_version
            mv[self._cities : self._cities_stop] = placement.cities_mv
        if memo.totals != placement.totals_version:
            memo.totals = placement.totals_version
            mv[self._score_at] = array("f", map(_SCORE_OF, placement.points))
        if order:  # as `_diff` keys the revealed cards and the question
            choices = placement.cities_version if phase is _CAPTURE else 0
            tail: tuple[Any, ...] = (order, tuple(state.chosen), state.playing, phase, choices)
            tail += (state.saucer, state.victims, state.tuck_card)
        else:
            tail = state.last_played
        if memo.tail != tail:
            memo.tail = tail
            self._public_tail(state, mv)

    def _remember(self, state: SpaceAztecsState, player: int) -> None:
        """Bring the player's memory (`_memories`) up to date with its part of `seen_round`."""
        base = player * NUM_PILES
        seen = state.seen_round[base : base + NUM_PILES]
        memory = self._memories[player]
        if memory.seen != seen:
            memory.update(seen, self._blanks)

    def _choosers(self, state: SpaceAztecsState, mv: FloatView) -> None:
        """During the choice: who may act (who has not chosen) and who has chosen, and the
        cards chosen (`_pending`)."""
        chosen, memo = state.chosen, self._written
        self._pending = [
            (self._memory + x * NUM_CARDS + card, x, h)
            for h, (card, x) in enumerate(zip(chosen, state.held, strict=True))
            if card >= 0
        ]
        memo.chosen, memo.movers = chosen.copy(), None
        at, has = self._to_move_start, self._has_chosen
        for p in range(self.num_players):
            mine = chosen[p] >= 0
            mv[at + p] = 0.0 if mine else 1.0
            mv[has + p] = 1.0 if mine else 0.0

    def _diff(self, state: SpaceAztecsState, steps: int) -> None:
        """The public part brought up to date by comparing it with the engine's values."""
        mv, memo, n = self._public_mv, self._written, self.num_players
        placement = self._placement
        if state.where != placement.where or state.host != placement.host:
            placement.update(state, not steps)
        if memo.seen != state.seen_round:
            if any(state.seen_round):
                for p in range(n):
                    self._remember(state, p)
            else:  # a new game's: nobody has held a pile
                for memory in self._memories:
                    if memory.held:
                        memory.clear(self._blanks)
            memo.seen = state.seen_round.copy()
        placement.scores(state)
        mv[self._progress] = self._progress_of[steps]
        phase = state.phase
        head = (state.round, phase, state.start, state.removed, state.saucers_played)
        was = memo.head
        if was != head:
            memo.head = head
            if was is None or was[3] != state.removed:  # another game: the whole header
                was = (-1, None, -1, -1, -1)
                mv[self._head : self._head_stop] = ZEROS[: self._head_stop - self._head]
                if state.removed >= 0:
                    mv[self._removed + state.removed] = 1.0
                mv[self._codex] = self._codex_value
                mv[self._saucers + 1] = scaled(state.saucer_limit, 9)
            if was[0] != state.round:
                mv[self._round] = _SCALED_ROUNDS[state.round]
            if was[1] is not phase:
                choose, over = phase is _CHOOSE, phase is _OVER
                at = self._decision_start  # turn, simultaneous (none at the end)
                mv[at] = 0.0 if choose or over else 1.0
                mv[at + 1] = 1.0 if choose else 0.0
                mv[self._terminal] = 1.0 if over else 0.0
                if was[1] is not None:
                    mv[self._head + was[1]] = 0.0
                mv[self._head + phase] = 1.0
            if was[2] != state.start:
                if was[2] >= 0:
                    mv[self._start + was[2]] = 0.0
                mv[self._start + state.start] = 1.0
            if was[4] != state.saucers_played:
                limit, played = state.saucer_limit, state.saucers_played
                mv[self._saucers] = played / limit if played < limit else 1.0
        chosen = state.chosen
        if phase is _CHOOSE:  # who may act: who has not chosen
            self._choosers(state, mv)  # (held may differ with the same choices)
        else:
            movers = state._to_move() if phase is not _OVER else ()
            if memo.movers != movers:
                memo.movers, memo.chosen = movers, None
                at, has = self._to_move_start, self._has_chosen
                mv[at : at + n] = ZEROS[:n]
                mv[has : has + n] = ZEROS[:n]
                for p in movers:
                    mv[at + p] = 1.0
        result = tuple(placement.points) if phase is _OVER else None  # ranks follow points
        if memo.result != result:
            memo.result = result
            at, stop = self.f_result.start, self.f_result.stop
            returns = np.array(state.returns(), np.float32)  # zeros before the end
            mv[at:stop] = returns.data
        sizes, old = state.pile_size, memo.pile_size
        if old != sizes:
            at = self._pile_size
            for x in compress(_PILES, map(ne, sizes, old)):
                mv[at + x] = _TENTHS[sizes[x]]
            memo.pile_size = sizes.copy()
        holder, old = state.holder, memo.holder
        if old != holder:
            at = self._holder
            if holder == _FREE:  # a new round: clear them all
                mv[at : at + NUM_PILES * n] = ZEROS[: NUM_PILES * n]
            else:
                for x in compress(_PILES, map(ne, holder, old)):
                    if old[x] >= 0:
                        mv[at + x * n + old[x]] = 0.0
                    if holder[x] >= 0:
                        mv[at + x * n + holder[x]] = 1.0
            memo.holder = holder.copy()
        if memo.cities != placement.cities_version:
            memo.cities = placement.cities_version
            mv[self._cities : self._cities_stop] = placement.cities_mv
        if memo.totals != placement.totals_version:
            memo.totals = placement.totals_version
            mv[self._score_at] = array("f", map(_SCORE_OF, placement.points))  # / 100, in [-1, 1]
        order = state.order
        if order:  # revealed cards being played, perhaps a question pending
            choices = placement.cities_version if phase is _CAPTURE else 0  # the Saucer's targets
            tail: tuple[Any, ...] = (order, tuple(chosen), state.playing, phase, choices)
            tail += (state.saucer, state.victims, state.tuck_card)
        else:  # before the reveal: only last round's cards
            tail = state.last_played
        if memo.tail != tail:
            memo.tail = tail
            self._public_tail(state, mv)

    def _public_tail(self, state: SpaceAztecsState, mv: FloatView) -> None:
        """announced to pending_choices: a few values, cleared and written again."""
        n, phase = self.num_players, state.phase
        start, stop = self._tail, self._tail_stop
        mv[start:stop] = ZEROS[: stop - start]
        order = state.order
        if order:
            announced, at, played = self._announced, self._order, self._played
            chosen, playing = state.chosen, state.playing
            for i, p in enumerate(order):
                mv[announced + p * NUM_CARDS + chosen[p]] = 1.0
                mv[at + p] = (i + 1) / n
                if i <= playing:
                    mv[played + p] = 1.0
            if phase is _CAPTURE:
                mv[self._pending_player + order[playing]] = 1.0
                mv[self._pending_kind] = 1.0
                mv[self._pending_card + state.saucer] = 1.0
                victim = state.victims[0]
                mv[self._victim + victim] = 1.0
                at = self._choices - CAPTURE_BASE  # its targets: the owner's legal captures
                for i in state.legal_ids(order[playing]):
                    mv[at + i] = 1.0
            elif phase is _TUCK:
                mv[self._pending_player + order[playing]] = 1.0
                mv[self._pending_kind + 1] = 1.0
                mv[self._pending_card + state.tuck_card] = 1.0
            return
        at = self._last
        for card in state.last_played:
            mv[at + card] = 1.0


ENCODER = SpaceAztecsEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
