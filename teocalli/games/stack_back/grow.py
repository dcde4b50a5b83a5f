"""Arrays that grow at their end in place, under tables that are never changed
(docs/games/stack-back.md, "The position's upkeep").

A game's per-stick arrays (the footprints of `rules.Layout`, the kept piled table of
`piles.Piles`) only ever gain rows at their end, and clones share them. Copying every array at
every placement (`np.append`) costs more than the rest of keeping them. So a table's arrays are
views of the first rows of a `Room`: storage with spare rows past those in use. A new row is
written past the rows in use, which no table sharing the storage can see (each sees only its
own first rows), and only by the storage's `owner` (a number each state draws for itself, a
clone a new one) while nothing is written past the rows it holds yet. Anyone else (a clone, a
branch of a search) copies the rows it holds into storage of its own first. So no table a state
holds ever changes, and a state never writes into storage another state made.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

_OWNERS = itertools.count(1)

NOBODY = 0
"""The owner of storage nobody may grow in place (the tables built outside a game)."""


def owner() -> int:
    """A number no other owner in this process has."""
    return next(_OWNERS)


@dataclass(eq=False, slots=True)
class Room:
    """Columns with the same number of rows (`columns[k][:used]` written, the rest spare);
    only `owner` writes past `used`."""

    columns: tuple[np.ndarray, ...]
    used: int
    owner: int
    mark: int = 0
    """A second count the user keeps in step with `used` (the kept piled table: its sticks,
    whose columns it writes past the rows in use too)."""

    @staticmethod
    def of(*columns: np.ndarray) -> Room:
        """Storage holding `columns` (all their rows in use), owned by nobody."""
        return Room(tuple(columns), len(columns[0]), NOBODY)

    def room(self, rows: int, extra: int, who: int, mark: int = 0) -> Room:
        """Storage whose first `rows` rows are these, with `extra` spare rows after them that
        `who` alone may write: this storage when `who` owns it and nothing lies past `rows` in it
        yet (nor past `mark`, the second count), else a copy (with room to double). The caller
        writes rows `rows` to `rows + extra`, then sets `used` (and `mark`)."""
        size = len(self.columns[0])
        mine = who != NOBODY and who == self.owner
        if mine and self.used == rows and self.mark == mark and rows + extra <= size:
            return self
        size = max(16, 2 * (rows + extra))
        columns = []
        for c in self.columns:
            fresh = np.zeros((size, *c.shape[1:]), dtype=c.dtype)
            fresh[:rows] = c[:rows]
            columns.append(fresh)
        return Room(tuple(columns), rows, who, mark)
