"""The piled candidates kept along a game: what changes from one position to the next is updated,
the rest is kept (docs/games/stack-back.md, "Speed").

`candidates.pile_moves` finds the bridges of every pair of sticks within reach, what each touches,
and judges each one in full, from nothing, at every position. Along a game almost all of that
stays: a new stick adds the pairs it makes with the sticks of its level, touches the bridges that
overlap its footprint, and changes the loads only of the sticks beneath it. So a `Piles` holds,
for the sticks placed so far:
- every pair of sticks of one level whose ends lie within the longest stick's reach (72 - 6 mm),
  with that distance (computed as `candidates._within_reach` computes it), and their bridges per
  colour (`candidates._pair`) as rows (pair, colour, pose);
- the bridges' poses (each once) and which sticks each touches, as a boolean matrix: a new stick
  adds a column, new poses add rows (`pile_kernels.grow_table`, the touch test of
  `candidates.touch_table`);
- the verdicts already reached, per player and pose, with what they read: the pose's number of
  touches, and a stamp per stick whose carried colours or loads they read (a stamp is unique
  for the whole process and changes whenever a stick's loads or carried colours do, so an equal
  stamp means the same values, in any clone).
A query picks the rows the player may use now (their colours in the supply and allowed on both
supports, the pair at or above the floor less one, within the reach of the longest colour held),
exactly the bridges `candidates.pile_poses` tries, and judges only the poses whose verdict is not
kept or no longer holds. The candidates and the placements are the same as `pile_moves`' (tests/
games/stack_back/test_sb_piles.py compares them along seeded games, through clones).

A `Piles` is never changed: an update or a query that learns verdicts makes a new one, which the
state keeps in place of the old (clones share the old safely). Its arrays are the first rows
(and columns) of storage that the state owning it grows in place past them, and anyone else
copies first (grow.py): one compiled call per update instead of copying the whole table.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import cand_kernels, pile_kernels
from .balance import NEW, Stick
from .candidates import (
    _AXES_ROWS,
    _CELLS,
    _HALVES,
    _LENGTHS,
    _OFFSETS,
    _REACHES,
    Move,
    _pair,
    judge,
    place,
    placement,
)
from .components import LENGTHS, NUM_COLOURS
from .geometry import DEEP
from .grow import NOBODY, Room
from .rules import TOL, Layout, Verdict, falls_message

Ints = npt.NDArray[np.int64]

REACH = max(LENGTHS) - 6
"""The pairs kept: ends at most this far apart (the reach of the longest colour)."""

_STAMPS = itertools.count(1)


def stamp() -> int:
    """A stamp no other change in this process has (see the module docstring)."""
    return next(_STAMPS)


class Kept(NamedTuple):
    """A verdict reached: the level of the piled stick (-1: `rules.piled` refuses it) and its
    placement or the rule it breaks, with what they read: the pose's touches and the stamps of
    sticks (its supports and those its loads reached). A named tuple: thousands are made per
    game, and a frozen dataclass's constructor costs several times more."""

    level: int
    verdict: Verdict | str
    touches: int
    reads: tuple[int, ...]
    stamps: tuple[int, ...]
    """The stamps of the sticks `reads` when the verdict was reached."""
    move: Move | None
    """The candidate, for a verdict that places the pose (None: a rule refuses it)."""

    def holds(self, count: int, stamps: Sequence[int]) -> bool:
        """Whether the verdict still holds for a pose touching `count` sticks now."""
        return self.touches == count and tuple(map(stamps.__getitem__, self.reads)) == self.stamps


WIDTH = 64
"""Columns for the touched sticks at first: a game places at most 60 sticks (a position played
on beyond the supplies, as tests/games/stack_back/test_pass_search.py does, widens them)."""


@dataclass(frozen=True, slots=True)
class Piles:
    """The pairs, bridges, touches and verdicts of the first `count` sticks of a game. Its
    arrays are the first rows of storage that grows in place past them (grow.py): `rows` (i, j,
    level, colour, slot) and `gap` per bridge row, `index` per kept pose (its slot), `touched`
    per kept pose and stick."""

    count: int
    rows: Ints
    gap: npt.NDArray[np.float64]
    index: Ints
    kept: dict[tuple[int, int], Kept]
    row_room: Room
    pose_room: Room

    @property
    def touched(self) -> npt.NDArray[np.bool_]:
        """Which sticks each kept pose touches (poses x sticks)."""
        out: npt.NDArray[np.bool_] = self.pose_room.columns[2][: len(self.index), : self.count]
        return out

    @staticmethod
    def empty() -> Piles:
        row_room = Room.of(np.zeros((0, 5), dtype=np.int64), np.zeros(0))
        pose_room = Room.of(
            np.zeros((0, 6)), np.zeros(0, dtype=np.int64), np.zeros((0, WIDTH), dtype=bool)
        )
        return Piles.of(0, row_room, 0, pose_room, 0, {})

    @staticmethod
    def of(  # noqa: PLR0917 - the counts and the storage
        count: int, row_room: Room, used: int, pose_room: Room, poses: int,
        kept: dict[tuple[int, int], Kept],
    ) -> Piles:  # fmt: skip
        """The table of the first `used` rows and `poses` poses of the storage, `count` sticks."""
        rows, gap = row_room.columns
        index = pose_room.columns[1]
        return Piles(count, rows[:used], gap[:used], index[:poses], kept, row_room, pose_room)

    def with_sticks(self, sticks: Sequence[Stick], layout: Layout, who: int = NOBODY) -> Piles:
        """This table brought up to all of `sticks` (`layout` holds their footprints), in one
        compiled call (`pile_kernels.grow_table`) after the new pairs' rows (`_new_rows`); its
        storage grown in place when `who` owns it (grow.py), else copied first."""
        n, total = self.count, len(sticks)
        if n >= total:
            return self
        pose_room = self.pose_room
        pose, index, touched = pose_room.columns
        if total > touched.shape[1]:  # more sticks than the columns: wider storage, copied
            wider = np.zeros((len(touched), 2 * total), dtype=bool)
            wider[:, : touched.shape[1]] = touched
            pose_room = Room((pose, index, wider), pose_room.used, NOBODY, pose_room.mark)
        new_rows = _new_rows(sticks, n, layout)
        if new_rows is None:
            ri = rj = level = colour = pose_index = _NO_INTS
            gap_ = _NO_GAPS
        else:  # contiguous columns: one compiled version
            i_, j_, l_, gap_, c_, k_ = new_rows
            ri, rj, level, colour, pose_index = (_column(c) for c in (i_, j_, l_, c_, k_))
        used, poses = len(self.rows), len(self.index)
        row_room = self.row_room.room(used, len(ri), who)
        pose_room = pose_room.room(poses, len(ri), who, mark=n)
        rows, gap = row_room.columns
        pose, index, touched = pose_room.columns
        st = layout.statics
        poses, used = pile_kernels.grow_table(
            pose, index, touched, poses, n, rows, gap, used, ri, rj, level, colour, pose_index,
            gap_, layout.cx, layout.cy, layout.ux, layout.uy, layout.half, st.reach, layout.quads,
            _AXES_ROWS, _HALVES, _REACHES, _CELLS, DEEP, TOL,
        )  # fmt: skip
        row_room.used = used
        pose_room.used, pose_room.mark = poses, total
        return Piles.of(total, row_room, used, pose_room, poses, self.kept)

    def moves(  # noqa: PLR0917 - the position's parts a verdict reads
        self,
        sticks: Sequence[Stick],
        layout: Layout,
        carries: Sequence[int],
        force: Sequence[float],
        moment: Sequence[complex],
        stamps: Sequence[int],
        supply: Sequence[int],
        floor: int,
        owner: int,
    ) -> tuple[list[Move], Piles]:
        """The bridging candidates the rules allow now, as `pile_moves` gives them, and this
        table with the verdicts it reached (itself if none are new)."""
        assert self.count == len(sticks)
        have = [c for c in range(NUM_COLOURS) if supply[c] > 0]
        if not have or not len(self.rows):
            return [], self
        limit = max(LENGTHS[c] for c in have) - 6
        refuses = (1 << layout.statics.colour) | np.array(carries, dtype=np.int64)
        allowed = np.zeros(NUM_COLOURS, dtype=bool)
        allowed[have] = True
        picked, counted = pile_kernels.pick_bridges(
            self.rows, self.gap, self.index, self.pose_room.columns[2], layout.statics.level,
            refuses, allowed, floor, float(limit),
        )  # fmt: skip
        if not len(picked):
            return [], self
        counts = counted.tolist()
        indices = self.index[picked].tolist()
        kept = self.kept.get
        found = [kept((owner, index)) for index in indices]
        todo = [
            k
            for k, (entry, count) in enumerate(zip(found, counts, strict=True))
            if entry is None or not entry.holds(count, stamps)
        ]
        learnt: dict[tuple[int, int], Kept] = {}
        if todo:
            learnt = _judged(self.index[picked[todo]], todo, counts, layout, sticks,
                             carries, force, moment, stamps, owner)  # fmt: skip
            for k in todo:
                found[k] = learnt[(owner, indices[k])]
        out: list[Move] = [
            entry.move
            for entry in found
            if entry is not None and entry.move is not None and entry.level >= floor
        ]
        if not learnt:
            return out, self
        return out, Piles(self.count, self.rows, self.gap, self.index, {**self.kept, **learnt},
                          self.row_room, self.pose_room)  # fmt: skip


def _judged(  # noqa: PLR0917 - the poses, the position's parts a verdict reads
    index: Ints,
    todo: list[int],
    counts: list[int],
    layout: Layout,
    sticks: Sequence[Stick],
    carries: Sequence[int],
    force: Sequence[float],
    moment: Sequence[complex],
    stamps: Sequence[int],
    owner: int,
) -> dict[tuple[int, int], Kept]:
    """The poses `index` (picked rows `todo`, with their touch counts) judged in one compiled
    call (`candidates.judge`), as verdicts to keep."""
    got = judge(index, layout, carries, force, moment, floor=0)
    code, ab, _, _, _, dstart, dstick, _ = got
    starts, read_sticks = dstart.tolist(), dstick.tolist()
    learnt: dict[tuple[int, int], Kept] = {}
    for r, (k, pose_index, verdict, (a, b, falls)) in enumerate(
        zip(todo, index.tolist(), code.tolist(), ab.tolist(), strict=True)
    ):
        entry: Kept
        if verdict in (cand_kernels.SKIP, cand_kernels.REFUSED):
            entry = Kept(-1, _REFUSED, counts[k], (), (), None)
        else:
            level = sticks[a].level + 1
            seen = tuple(sorted({a, b, *read_sticks[starts[r] : starts[r + 1]]}))
            read = tuple(map(stamps.__getitem__, seen))
            if verdict == cand_kernels.LEGAL:
                pose = place(pose_index)
                lazy = Verdict.later(placement, (got, r, pose, owner, level))
                entry = Kept(level, lazy, counts[k], seen, read, (pose_index, pose, lazy))
            else:
                entry = Kept(level, falls_message(NEW if falls < 0 else falls, sticks),
                             counts[k], seen, read, None)  # fmt: skip
        learnt[(owner, pose_index)] = entry
    return learnt


_REFUSED = "the piled rules refuse it (rules.piled)"


def _new_rows(
    sticks: Sequence[Stick], start: int, layout: Layout
) -> tuple[Ints, Ints, Ints, npt.NDArray[np.float64], Ints, Ints] | None:
    """The rows of the pairs (i, j), i < j, j from `start` on, of one level and within `REACH`:
    (i, j, level, gap, colour, pose index) per bridge (columns of one array). One compiled call
    (`cand_kernels.pair_rows`); the rare pairs whose distances lie within a rounding of a
    threshold are made here with `math.hypot` (`candidates._pair`)."""
    rows, gaps, unsure = cand_kernels.pair_rows(
        layout.cx, layout.cy, layout.ux, layout.uy, layout.half, layout.statics.level, start,
        _LIMITS, _LENGTHS, _OFFSETS, _CELLS,
    )  # fmt: skip
    if len(unsure):
        extra: list[tuple[int, int, int, int, int]] = []
        extra_gaps: list[float] = []
        for i, j in unsure.tolist():
            a, b = sticks[i], sticks[j]
            d = math.hypot(b.cx - a.cx, b.cy - a.cy) - a.half - b.half
            if d > REACH:
                continue
            for c, index in enumerate(_pair(a, b)):
                extra += [(i, j, a.level, c, k) for k in index.tolist()]
                extra_gaps += [d] * len(index)
        if extra:
            rows = np.concatenate((rows, np.array(extra, dtype=np.int64)))
            gaps = np.concatenate((gaps, extra_gaps))
    if not len(rows):
        return None
    return rows[:, 0], rows[:, 1], rows[:, 2], gaps, rows[:, 3], rows[:, 4]


_NO_INTS = np.zeros(0, dtype=np.int64)
_NO_GAPS = np.zeros(0)


def _column(a: Ints) -> Ints:
    out: Ints = np.ascontiguousarray(a)
    return out


_LIMITS = np.array([REACH, *sorted({length - 6 for length in LENGTHS} - {REACH})])
"""The reaches `pick_bridges` compares a pair's gap with, the widest first (`pair_rows`)."""
