"""The action ids' pile poses kept along a game, in flat arrays (ids.py's mask).

The mask keeps, per pair of supports and colour it has met, the pair's lattice poses that pass
its filters, and what is known of each (docs/games/stack-back.md, "Action ids"). Kept as one
object per pair, every step paid NumPy's fixed costs per pair (some hundreds of pairs by the end
of a game) to gather them into arrays for the compiled walk; here every pair's poses lie in one
set of arrays (`rows`), each pair a span of them, and the compiled kernels read and update them
in place (`id_kernels.catch_up`, `walk`), so a step costs a few calls whatever the number of
pairs.

Changed in place, a pool belongs to one line of play: the memo that may change it is its `head`
(ids._Memo). Sticks only come, so the memo of the next step takes the pool over; a memo that is
no longer the head (a clone that played another stick, an earlier state asked again) gets a copy
rolled back to its own sticks (`fork`): a pose taken by a stick it does not have is given back
(each taken row records the first stick that took it), and the pairs met after its sticks are
forgotten (each pair records how many sticks it was filtered against when met).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .components import NUM_COLOURS
from .geometry import Array
from .id_kernels import ALIVE

Ints = npt.NDArray[np.int64]


def _grown(
    arr: npt.NDArray[np.generic], used: int, need: int, *, fresh: bool = False
) -> npt.NDArray[np.generic]:
    """`arr` with room for `need` rows (doubling), its first `used` rows kept; with `fresh`, a
    new array even when `arr` has room (a copy of the rows in use only, the rest unset: rows
    are written when added, `Pool`)."""
    if need <= len(arr) and not fresh:
        return arr
    out = np.empty((max(need, 2 * len(arr)) if need > len(arr) else len(arr), *arr.shape[1:]),
                   dtype=arr.dtype)  # fmt: skip
    out[:used] = arr[:used]
    return out


class Pool:
    """Every pair met along a game (ids `pairs` of them) and their kept poses (`rows` rows).

    Per pair p: `key` (colour, level, i, j), its rows `span` [start, end), `count` (the sticks
    its rows were last tested against), `created` (the sticks when it was met), `stamp` (the
    cone stamp its verdicts hold for) and `box` (x0, x1, y0, y1: the bounding box of its rows
    left's footprints, which `catch_up` keeps; NaN: not known yet); `index[i, j, colour]` is p
    (-1: never met). Per row: the
    pose (`poses`: colour, x10, y10, a10; `frame`: x, y, ux, uy), its bin and snap rank,
    `taken` (ALIVE, or the first stick touching it) and `verdict` (0 not judged, 1 legal, 2
    refused by the loads, 3 by its own support polygon: `id_kernels.TIPS`). `dead`: the
    state's dead pairs (`dead_of`) as an array."""

    __slots__ = ("bins", "box", "count", "created", "dead", "dead_of", "frame", "head",
                 "index", "key", "pairs", "poses", "ranks", "rows", "span", "stamp", "taken",
                 "verdict")  # fmt: skip

    def __init__(self, sticks: int = 64, pairs: int = 512, rows: int = 32768) -> None:
        """Room for a whole game as random games play it (some 400 pairs, 20,000-32,000 rows):
        growing copies every array, some megabytes. A pair's fields and a row's are written
        when it is added (`id_kernels.new_pairs`) and nothing reads past `pairs` and `rows`,
        so those arrays start unset (zeroing them, some 3 MB, cost some 0.3 ms a game, 2% of
        a random game's masks); `taken` (ALIVE) and `index` (-1) are read before written."""
        self.head: object = None
        self.index: Ints = np.full((sticks, sticks, NUM_COLOURS), -1, dtype=np.int64)
        self.dead = np.zeros((sticks, sticks, NUM_COLOURS), dtype=np.bool_)
        self.dead_of: frozenset[tuple[int, int, int]] = frozenset()
        self.pairs = 0
        self.key: Ints = np.empty((pairs, 4), dtype=np.int64)
        self.span: Ints = np.empty((pairs, 2), dtype=np.int64)
        self.count: Ints = np.empty(pairs, dtype=np.int64)
        self.created: Ints = np.empty(pairs, dtype=np.int64)
        self.stamp: Ints = np.empty(pairs, dtype=np.int64)
        self.box: Array = np.empty((pairs, 4))
        self.rows = 0
        self.poses: Ints = np.empty((rows, 4), dtype=np.int64)
        self.frame: Array = np.empty((rows, 4))
        self.bins: Ints = np.empty(rows, dtype=np.int64)
        self.ranks: Ints = np.empty(rows, dtype=np.int64)
        self.taken: Ints = np.full(rows, ALIVE, dtype=np.int64)
        self.verdict = np.empty(rows, dtype=np.int8)

    def fit(self, sticks: int, dead: frozenset[tuple[int, int, int]]) -> None:
        """Room for `sticks` sticks in `index`, and `dead` (the state's dead pairs) in place."""
        if sticks > len(self.index):
            size = max(sticks, 2 * len(self.index))
            index = np.full((size, size, NUM_COLOURS), -1, dtype=np.int64)
            old = len(self.index)
            index[:old, :old] = self.index
            self.index = index
            self.dead = np.zeros((size, size, NUM_COLOURS), dtype=np.bool_)
            self.dead_of = frozenset()
        if dead is not self.dead_of:
            self.dead[:] = False
            for i, j, c in dead:
                self.dead[i, j, c] = True
            self.dead_of = dead

    def reserve(self, pairs: int, rows: int) -> None:
        """Room for `pairs` more pairs and `rows` more rows: the arrays grow, doubling."""
        p0, r0 = self.pairs, self.rows
        if p0 + pairs > len(self.key):
            for name in ("key", "span", "count", "created", "stamp", "box"):
                setattr(self, name, _grown(getattr(self, name), p0, p0 + pairs))
        if r0 + rows > len(self.poses):
            for name in ("poses", "frame", "bins", "ranks", "verdict"):
                setattr(self, name, _grown(getattr(self, name), r0, r0 + rows))
            taken = np.full(len(self.poses), ALIVE, dtype=np.int64)
            taken[:r0] = self.taken[:r0]
            self.taken = taken

    def fork(self, sticks: int) -> Pool:
        """A copy of this pool for a line of play that shares only its first `sticks` sticks:
        the rows taken by later sticks given back, the pairs met with more sticks forgotten,
        every pair's rows tested only against the first `sticks` (no head yet)."""
        out = Pool.__new__(Pool)
        out.head = None
        out.index = self.index.copy()
        for name in ("key", "span", "count", "created", "stamp"):
            setattr(out, name, _grown(getattr(self, name), self.pairs, 0, fresh=True))
        out.box = np.full_like(self.box, np.nan)  # rows given back: the boxes grow again
        for name in ("poses", "frame", "bins", "ranks", "verdict"):
            setattr(out, name, _grown(getattr(self, name), self.rows, 0, fresh=True))
        out.taken = np.full(len(self.taken), ALIVE, dtype=np.int64)
        out.taken[: self.rows] = self.taken[: self.rows]
        out.dead = np.zeros_like(self.dead)
        out.dead_of = frozenset()
        out.pairs, out.rows = self.pairs, self.rows
        used = slice(0, self.pairs)
        late = np.nonzero(out.created[used] > sticks)[0]
        if len(late):
            keys = out.key[late]
            mine = out.index[keys[:, 2], keys[:, 3], keys[:, 0]] == late
            out.index[keys[mine, 2], keys[mine, 3], keys[mine, 0]] = -1
        np.minimum(out.count[used], sticks, out=out.count[used])
        rows = out.taken[: self.rows]
        rows[rows >= sticks] = ALIVE
        return out
