"""Every outcome of one Shifting Stones turn, enumerated in numpy: shared by the solo bot's
planner (`solo.py`) and the clairvoyant solo search (`teocalli/analysis/shifting_stones`).

A turn never draws until it ends, so a turn is exactly: a walk of m moves from the grid, a set S
of hand cards each matching the grid somewhere along the walk (scored there), and m other hand
cards paying for the moves (the rest are kept); or a skip. `walks` enumerates every walk of each
length level by level as distinct (end grid, cards matched so far) pairs, so every end grid of
every walk length is covered (walks may revisit grids: no shortest-path assumption); `scorings`
then lists, per scored set S and walk length m, the distinct end grids reached with all of S
matched (the payers are any m of the other cards: the caller chooses); `turn_actions` turns one
outcome back into engine actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from teocalli.games.shifting_stones.actions import END, Action, Flip, Score, Shift
from teocalli.games.shifting_stones.components import CELLS, SWAPS, matches
from teocalli.games.shifting_stones.grid import NUM_MASKS, SWAP_RANK
from teocalli.games.shifting_stones.solver import SOLVER

_SWAP = np.array(SWAP_RANK, dtype=np.int64)  # (5040, 12)
_BITS = 16  # matched-card bits packed below the grid index in a walk key
NUM_MOVES = len(SWAPS) + CELLS


class _Tables:
    """Per-card distance tables, unpacked once (2.6 MB each) for vectorised lookups."""

    def __init__(self) -> None:
        self._dist: dict[int, npt.NDArray[np.uint8]] = {}

    def __call__(self, card: int) -> npt.NDArray[np.uint8]:
        table = self._dist.get(card)
        if table is None:
            table = SOLVER.distances(card)
            self._dist[card] = table
        return table


TABLES = _Tables()
"""The process-wide unpacked tables: `TABLES(card)[grid index]` is the exact distance."""


def neighbours_of(index: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(21, n): the grids one move from each grid, moves in the engine's order (12 swaps, then
    flips of cells 0-8)."""
    rank = index >> 9
    mask = index & (NUM_MASKS - 1)
    out = np.empty((NUM_MOVES, index.size), dtype=np.int64)
    for s, (p, q) in enumerate(SWAPS):
        differ = ((mask >> p) ^ (mask >> q)) & 1
        out[s] = _SWAP[rank, s] * NUM_MASKS + (mask ^ (differ * ((1 << p) | (1 << q))))
    for c in range(CELLS):
        out[len(SWAPS) + c] = index ^ (1 << c)
    return out


@dataclass
class Walks:
    """Every walk of each length from one grid, as distinct (end grid, matched cards) pairs, with
    a parent pointer per pair to rebuild one walk."""

    hand: tuple[int, ...]
    grids: list[npt.NDArray[np.int64]]
    matched: list[npt.NDArray[np.int64]]  # bit i: hand[i] matched somewhere along the walk
    parent: list[npt.NDArray[np.int64]]  # position in the previous level
    move: list[npt.NDArray[np.int64]]

    def path(self, level: int, pos: int) -> list[int]:
        moves: list[int] = []
        for k in range(level, 0, -1):
            moves.append(int(self.move[k][pos]))
            pos = int(self.parent[k][pos])
        return moves[::-1]


def _matched_bits(hand: Sequence[int], index: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    bits = np.zeros(index.size, dtype=np.int64)
    for i, card in enumerate(hand):
        bits |= (TABLES(card)[index] == 0).astype(np.int64) << i
    return bits


def walks(index: int, hand: tuple[int, ...], levels: int) -> Walks:
    """Walks of 0 to `levels` moves from grid `index`, tracking which hand cards matched."""
    if len(hand) > _BITS:
        raise ValueError(f"at most {_BITS} hand cards can be tracked along a walk")
    start = np.array([index], dtype=np.int64)
    out = Walks(hand, [start], [_matched_bits(hand, start)], [np.zeros(1, np.int64)], [start * 0])
    for _ in range(levels):
        grids, bits = out.grids[-1], out.matched[-1]
        nb = neighbours_of(grids)
        n = grids.size
        flat = nb.ravel()
        keys = (flat << _BITS) | (np.tile(bits, NUM_MOVES) | _matched_bits(hand, flat))
        uniq, first = np.unique(keys, return_index=True)
        out.grids.append(uniq >> _BITS)
        out.matched.append(uniq & ((1 << _BITS) - 1))
        out.parent.append(first % n)
        out.move.append(first // n)
    return out


@dataclass(frozen=True)
class Scoring:
    """The scored set S (hand order), the other cards, the walk length m (m of the other cards
    pay), and the distinct end grids of the walks of m moves matching all of S, each with its
    position in walk level m (for `Walks.path`)."""

    scored: tuple[int, ...]
    rest: tuple[int, ...]
    m: int
    grids: npt.NDArray[np.int64]
    where: npt.NDArray[np.int64]


def scorings(w: Walks) -> Iterator[Scoring]:
    """Every (scored set, walk length) a turn from `w`'s grid can reach, largest sets first."""
    hand = w.hand
    n = len(hand)
    for size in range(n, -1, -1):
        for subset in combinations(range(n), size):
            sbits = sum(1 << i for i in subset)
            scored = tuple(hand[i] for i in subset)
            rest = tuple(hand[i] for i in range(n) if i not in subset)
            for m in range(min(len(rest), len(w.grids) - 1) + 1):
                hit = np.flatnonzero((w.matched[m] & sbits) == sbits)
                if hit.size == 0:
                    continue
                uniq, first = np.unique(w.grids[m][hit], return_index=True)
                yield Scoring(scored, rest, m, uniq, hit[first])


def move_action(card: int, move: int) -> Action:
    """The engine action for move `move` (0-11 swaps, 12-20 flips of cells 0-8) paid by `card`."""
    if move < len(SWAPS):
        return Shift(card, *SWAPS[move])
    return Flip(card, move - len(SWAPS))


def turn_actions(
    grid: Sequence[int], scored: Sequence[int], payers: Sequence[int], moves: Sequence[int]
) -> list[Action]:
    """The engine actions of one turn: each scored card as soon as it matches, each move paid
    by the next payer, then `end`."""
    g = list(grid)
    left = list(scored)
    out: list[Action] = []

    def score_now() -> None:
        for c in [c for c in left if matches(c, g)]:
            out.append(Score(c))
            left.remove(c)

    score_now()
    for card, move in zip(payers, moves, strict=True):
        out.append(move_action(card, move))
        if move < len(SWAPS):
            p, q = SWAPS[move]
            g[p], g[q] = g[q], g[p]
        else:
            g[move - len(SWAPS)] ^= 1
        score_now()
    if left:
        raise ValueError(f"cards {left} never match along the walk")
    return [*out, END]
