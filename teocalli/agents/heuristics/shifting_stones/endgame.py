"""The solo endgame, solved exactly: once every card still to score is in the hand.

With at most 4 cards left and all of them in the hand (the deck and the discard pile are empty at
the start of the turn), the rest of a solo game has no chance left in it: every card paid is
reshuffled and drawn straight back when the turn ends (the hand refills to 4), so the next turn
starts with exactly the cards not scored. The position is (grid, cards left R, strikes k), and a
turn is one of the outcomes `walks.scorings` lists: a set S of R scored along a walk of m moves
paid by m of the others (next: R - S, k), or nothing scored (next: R, k + 1; the fourth strike
loses). A skip draws nothing here, so it never helps. The order of a reshuffled pile does not
matter either, so the solver needs nothing the player cannot see.

`finish` searches it depth first, scoring turns first and end grids nearest the remaining cards
first, with two exact closed forms at the leaves:
- one card left with s strikes to spare: winnable iff its distance is at most s (each move is paid
  by the card itself, which comes back only at the end of the turn: one strike a move);
- two cards {x, y} and no strike to spare: every turn must score, so x scores with at most one
  move paid by y and y must then match the grid it is left on (or both match at once).
Positions proven lost are remembered with the fewest strikes they were lost with. The budget is
a count of expanded positions: past it the answer is unknown (None), never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .walks import TABLES, Walks, neighbours_of, scorings, walks

SOLO_STRIKES = 4
MAX_ENDGAME = 4
"""The hand refills to 4: with more cards left a turn's draws are chance."""


@dataclass(frozen=True)
class Finish:
    """The first turn of a winning line: cards scored, payers, walk."""

    scored: tuple[int, ...]
    payers: tuple[int, ...]
    moves: tuple[int, ...]


class _OutOfNodes(Exception):
    """The node budget ran out: the search unwinds and says its answer is not exact."""


def _one_left(card: int, grids: npt.NDArray[np.int64], spare: int) -> npt.NDArray[np.bool_]:
    return TABLES(card)[grids] <= spare


def _two_left_no_spare(x: int, y: int, grids: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    dx, dy = TABLES(x)[grids], TABLES(y)[grids]
    nb = neighbours_of(grids)
    both_next = ((TABLES(x)[nb] == 0) & (TABLES(y)[nb] == 0)).any(axis=0)
    return ((dx == 0) & (dy <= 1)) | ((dy == 0) & (dx <= 1)) | both_next


def won_at(
    cards: tuple[int, ...], grids: npt.NDArray[np.int64], strikes: int
) -> npt.NDArray[np.bool_] | None:
    """The exact verdict per grid where a closed form decides it, else None."""
    spare = SOLO_STRIKES - 1 - strikes
    if spare < 0:
        return np.zeros(grids.size, dtype=bool)
    if not cards:
        return np.ones(grids.size, dtype=bool)
    if len(cards) == 1:
        return _one_left(cards[0], grids, spare)
    if len(cards) == 2 and spare == 0:
        return _two_left_no_spare(cards[0], cards[1], grids)
    return None


class Endgame:
    """One solve: memo of lost positions and the node count."""

    def __init__(self, nodes: int) -> None:
        self.limit = nodes
        self.nodes = 0
        self.lost: dict[tuple[tuple[int, ...], int], int] = {}

    def _order(self, cards: tuple[int, ...], grids: npt.NDArray[np.int64]) -> list[int]:
        near = sum(TABLES(c)[grids].astype(np.int64) for c in cards)
        return [int(g) for g in grids[np.argsort(near, kind="stable")]]

    def wins(self, grid: int, cards: tuple[int, ...], strikes: int) -> bool:
        """Whether the position is won with best play (raises _OutOfNodes past the budget)."""
        here = won_at(cards, np.array([grid], dtype=np.int64), strikes)
        if here is not None:
            return bool(here[0])
        return self.first_turn(grid, cards, strikes) is not None

    def first_turn(self, grid: int, cards: tuple[int, ...], strikes: int) -> Finish | None:
        """The first turn of a win from this turn-start position, or None if there is none."""
        key = (cards, grid)
        if self.lost.get(key, SOLO_STRIKES) <= strikes:
            return None
        if self.nodes >= self.limit:
            raise _OutOfNodes
        self.nodes += 1
        w = walks(grid, cards, len(cards))
        for sc in scorings(w):
            if len(sc.scored) == len(cards):
                return Finish(sc.scored, (), ())
            rest = tuple(c for c in cards if c not in sc.scored)
            after = strikes if sc.scored else strikes + 1
            if after >= SOLO_STRIKES:
                continue
            decided = won_at(rest, sc.grids, after)
            if decided is not None:
                hits = np.flatnonzero(decided)
                if hits.size:
                    return self._finish(w, sc.scored, sc.rest, sc.m, int(sc.where[hits[0]]))
                continue
            where = dict(zip(sc.grids.tolist(), sc.where.tolist(), strict=True))
            for g in self._order(rest, sc.grids):
                if self.wins(g, rest, after):
                    return self._finish(w, sc.scored, sc.rest, sc.m, where[g])
        self.lost[key] = min(self.lost.get(key, SOLO_STRIKES), strikes)
        return None

    @staticmethod
    def _finish(
        w: Walks, scored: tuple[int, ...], others: tuple[int, ...], m: int, pos: int
    ) -> Finish:
        return Finish(scored, others[:m], tuple(w.path(m, pos)))


def finish(
    grid: int, cards: tuple[int, ...], strikes: int, nodes: int
) -> tuple[Finish | None, bool]:
    """(first turn of a win or None, whether the answer is exact) for a turn-start position whose
    hand holds every card left (at most `MAX_ENDGAME`), within `nodes` expanded positions."""
    if len(cards) > MAX_ENDGAME:
        raise ValueError(f"the endgame is exact only with at most {MAX_ENDGAME} cards left")
    solver = Endgame(nodes)
    try:
        return solver.first_turn(grid, tuple(sorted(cards)), strikes), True
    except _OutOfNodes:
        return None, False
