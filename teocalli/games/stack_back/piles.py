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
  adds a column, new poses add rows (`candidates.touch_table`);
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
state keeps in place of the old (clones share the old safely).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from . import cand_kernels, pile_kernels
from .balance import NEW, Stick
from .candidates import (
    _CELLS,
    _LENGTHS,
    _OFFSETS,
    Bridge,
    Move,
    _pair,
    judge,
    place,
    placement,
    touch_table,
)
from .components import LENGTHS, NUM_COLOURS
from .rules import Layout, Verdict, falls_message

Ints = npt.NDArray[np.int64]

REACH = max(LENGTHS) - 6
"""The pairs kept: ends at most this far apart (the reach of the longest colour)."""

_FIELDS = ("index", "cx", "cy", "ux", "uy", "half")
_STAMPS = itertools.count(1)


def stamp() -> int:
    """A stamp no other change in this process has (see the module docstring)."""
    return next(_STAMPS)


@dataclass(frozen=True, slots=True)
class Kept:
    """A verdict reached: the level of the piled stick (-1: `rules.piled` refuses it) and its
    placement or the rule it breaks, with what they read: the pose's touches and the stamps of
    sticks (its supports and those its loads reached)."""

    level: int
    verdict: Verdict | str
    touches: int
    reads: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Piles:
    """The pairs, bridges, touches and verdicts of the first `count` sticks of a game."""

    count: int
    row_i: Ints
    row_j: Ints
    row_level: Ints
    row_gap: npt.NDArray[np.float64]
    row_colour: Ints
    row_slot: Ints
    poses: Bridge
    order: Ints
    """The slots sorted by pose index (for finding a pose's slot)."""
    touched: npt.NDArray[np.bool_]
    kept: dict[tuple[int, int], Kept]

    @staticmethod
    def empty() -> Piles:
        z = np.zeros(0, dtype=np.int64)
        return Piles(
            0, z, z, z, np.zeros(0), z, z, Bridge.of(z), z, np.zeros((0, 0), dtype=bool), {}
        )

    def with_sticks(self, sticks: Sequence[Stick], layout: Layout) -> Piles:
        """This table brought up to all of `sticks` (`layout` holds their footprints)."""
        n, total = self.count, len(sticks)
        if n >= total:
            return self
        new_rows = _new_rows(sticks, n, layout)
        # the old poses against the new sticks
        touched = np.zeros((len(self.poses.index), total), dtype=bool)
        touched[:, :n] = self.touched
        if len(self.poses.index):
            touched[:, n:] = touch_table(self.poses, layout, n)
        poses, order, row_slot = self.poses, self.order, self.row_slot
        if new_rows is not None:
            ri, rj, level, gap, colour, index = new_rows
            known = poses.index[order]
            at = np.searchsorted(known, index)
            old = np.zeros(len(index), dtype=bool)
            if len(known):
                old = (at < len(known)) & (known[np.minimum(at, len(known) - 1)] == index)
            fresh = np.unique(index[~old])
            slots = np.empty(len(index), dtype=np.int64)
            slots[old] = order[at[old]]
            if len(fresh):
                extra = Bridge.of(fresh)
                base = len(poses.index)
                touched = np.concatenate((touched, touch_table(extra, layout, 0)))
                poses = Bridge(
                    *(np.concatenate((getattr(poses, f), getattr(extra, f))) for f in _FIELDS)
                )
                slots[~old] = base + np.searchsorted(fresh, index[~old])
                order = np.argsort(poses.index, kind="stable")
            row_slot = np.concatenate((row_slot, slots))
            rows = (
                np.concatenate((self.row_i, ri)),
                np.concatenate((self.row_j, rj)),
                np.concatenate((self.row_level, level)),
                np.concatenate((self.row_gap, gap)),
                np.concatenate((self.row_colour, colour)),
            )
        else:
            rows = (self.row_i, self.row_j, self.row_level, self.row_gap, self.row_colour)
        return Piles(total, *rows, row_slot, poses, order, touched, self.kept)

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
        if not have or not len(self.row_slot):
            return [], self
        limit = max(LENGTHS[c] for c in have) - 6
        refuses = np.array(
            [1 << s.pose.colour | carries[k] for k, s in enumerate(sticks)], dtype=np.int64
        )
        allowed = np.zeros(NUM_COLOURS, dtype=bool)
        allowed[have] = True
        picked, counted = pile_kernels.pick_bridges(
            self.row_i, self.row_j, self.row_level, self.row_gap, self.row_colour, self.row_slot,
            self.poses.index, self.touched, np.array(layout.levels, dtype=np.int64), refuses,
            allowed, floor, float(limit),
        )  # fmt: skip
        if not len(picked):
            return [], self
        counts = counted.tolist()
        indices = self.poses.index[picked].tolist()
        kept = self.kept
        learnt: dict[tuple[int, int], Kept] = {}
        found: list[Kept | None] = []
        todo: list[int] = []
        for k, (index, count) in enumerate(zip(indices, counts, strict=True)):
            entry = kept.get((owner, index))
            if entry is not None and entry.touches == count and _holds(entry, stamps):
                found.append(entry)
            else:
                found.append(None)
                todo.append(k)
        if todo:
            learnt = _judged(self.poses.index[picked[todo]], todo, counts, layout, sticks,
                             carries, force, moment, stamps, owner)  # fmt: skip
            for k in todo:
                found[k] = learnt[(owner, indices[k])]
        out: list[Move] = []
        for index, entry in zip(indices, found, strict=True):
            assert entry is not None
            if entry.level >= floor and not isinstance(entry.verdict, str):
                out.append((index, place(index), entry.verdict))
        if not learnt:
            return out, self
        return out, replace(self, kept={**kept, **learnt})


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
    bounds = zip(dstart[:-1].tolist(), dstart[1:].tolist(), strict=True)
    reads = [dstick[d0:d1] for d0, d1 in bounds]
    learnt: dict[tuple[int, int], Kept] = {}
    for r, (k, pose_index, verdict, (a, b, falls)) in enumerate(
        zip(todo, index.tolist(), code.tolist(), ab.tolist(), strict=True)
    ):
        entry: Kept
        if verdict in (cand_kernels.SKIP, cand_kernels.REFUSED):
            entry = Kept(-1, _REFUSED, counts[k], ())
        else:
            level = sticks[a].level + 1
            seen = sorted({a, b, *reads[r].tolist()})
            read = tuple((s, stamps[s]) for s in seen)
            if verdict == cand_kernels.LEGAL:
                lazy = Verdict.later(placement, (got, r, place(pose_index), owner, level))
                entry = Kept(level, lazy, counts[k], read)
            else:
                entry = Kept(level, falls_message(NEW if falls < 0 else falls, sticks),
                             counts[k], read)  # fmt: skip
        learnt[(owner, pose_index)] = entry
    return learnt


_REFUSED = "the piled rules refuse it (rules.piled)"


def _holds(entry: Kept, stamps: Sequence[int]) -> bool:
    return all(stamps[s] == t for s, t in entry.reads)


def _new_rows(
    sticks: Sequence[Stick], start: int, layout: Layout
) -> tuple[Ints, Ints, Ints, npt.NDArray[np.float64], Ints, Ints] | None:
    """The rows of the pairs (i, j), i < j, j from `start` on, of one level and within `REACH`:
    (i, j, level, gap, colour, pose index) per bridge. One compiled call
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


_LIMITS = np.array([REACH, *sorted({length - 6 for length in LENGTHS} - {REACH})])
"""The reaches `pick_bridges` compares a pair's gap with, the widest first (`pair_rows`)."""
