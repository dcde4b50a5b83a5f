"""The finite candidate set that `legal_actions` offers (apply takes any pose the rules allow).

Wood candidates: the sub-lattice of components.json's `wood_lattice`: angles 0 and 90 degrees,
centres x = 4, 16, ..., 232 and y = 8, 20, ..., 92 mm (every 12 mm), each colour; kept once, at
import, when the pose lies on the boards and obeys the gap rule. A state keeps a mask of those
still free (touching no stick), updated by each placement, so the wood moves cost one AND.

Piled candidates: for every two sticks of one level that a colour the player holds may bridge
(it differs from both and neither carries it yet), three bridges: from the point at fraction f of
each support's half-length (f = -0.5, 0, 0.5, the supports' axes turned to point the same way) to
the matching point on the other, the stick centred between them; the pose snapped to the index
lattice (2 mm, 5 degrees). Each is then judged in full (level, touches, colours, balance): what
touches what for all bridges at once (`touch_table`, compiled), then one by one (`piled`, balance)
only the bridges that touch exactly two sticks of the level below their own, at or above the
floor (any other is refused or skipped anyway). `pile_listing` does this from nothing (with the
candidate list's order, listing.py); along a game the state keeps it up to date instead
(piles.py), with the same results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from . import balance, cand_kernels, pile_kernels
from .actions import (
    A10,
    A_CELLS,
    HALF_TURN10,
    X_CELLS,
    XY10,
    Y_CELLS,
    Colour,
    Place,
    lattice_index,
)
from .balance import Load, Stick
from .components import HALF_LENGTHS, HALF_WIDTH, LENGTHS, NUM_COLOURS, SPEC, WEIGHTS
from .geometry import DEEP, Array, Mask, axis
from .list_kernels import merged
from .rules import REST, TOL, Footprints, Layout, Touch, Verdict, on_wood, settle
from .wood_kernels import covered

Move = tuple[int, Place, Verdict]
"""A candidate the rules allow: (dense index, pose, the placement it makes)."""


@dataclass(frozen=True, slots=True)
class WoodLattice:
    """The wood candidates that lie legally on the bare boards, with their footprints."""

    poses: tuple[Place, ...]
    keys: npt.NDArray[np.int64]
    """Their pose keys (`lattice_index`), ascending: the poses are in key order."""
    verdicts: tuple[tuple[Verdict, ...], tuple[Verdict, ...]]
    """Per owner, per candidate: the placement it makes on the bare wood (it always stands)."""
    colours: npt.NDArray[np.int64]
    feet: Footprints
    quads: Array


@cache
def wood_lattice() -> WoodLattice:
    poses: list[Place] = []
    for colour in Colour:
        for angle in SPEC.wood_angles:
            for x in SPEC.wood_x:
                for y in SPEC.wood_y:
                    pose = Place(colour, x * 10, y * 10, angle * 10)
                    stick = on_wood(pose, 0)
                    if isinstance(stick, Stick) and isinstance(settle(stick, [], [], []), Verdict):
                        poses.append(pose)
    poses.sort(key=_index)
    feet = Footprints.of(poses)
    verdicts = tuple(tuple(Verdict(_wood_stick(p, owner), {}) for p in poses) for owner in (0, 1))
    return WoodLattice(
        tuple(poses),
        np.array([_index(p) for p in poses], dtype=np.int64),
        (verdicts[0], verdicts[1]),
        np.array([p.colour for p in poses]),
        feet,
        feet.quads(),
    )


def _wood_stick(pose: Place, owner: int) -> Stick:
    stick = on_wood(pose, owner)
    assert isinstance(stick, Stick)
    return stick


def _index(pose: Place) -> int:
    index = lattice_index(pose.colour, pose.x10, pose.y10, pose.a10)
    assert index is not None, f"{pose} is off the lattice"
    return index


def all_free() -> Mask:
    return np.ones(len(wood_lattice().poses), dtype=bool)


def still_free(free: Mask, stick: Stick) -> Mask:
    """The free mask after `stick` is placed: wood candidates it touches are no longer free."""
    covered = _covers(stick)
    if not len(covered) or not free[covered].any():
        return free
    out = free.copy()
    out[covered] = False
    return out


_COVERS: dict[Place, npt.NDArray[np.intp]] = {}
_MEMO_MAX = 20_000


def _covers(stick: Stick) -> npt.NDArray[np.intp]:
    """The wood candidates a stick's footprint touches: a function of its pose, kept per pose
    (compiled, `wood_kernels.covered`: a touch is proved by the footprints shrunk by `DEEP`
    still meeting, else by clipping)."""
    known = _COVERS.get(stick.pose)
    if known is not None:
        return known
    wood = wood_lattice()
    f = wood.feet
    idx: npt.NDArray[np.intp] = covered(stick.cx, stick.cy, stick.ux, stick.uy, stick.half,
                                        f.cx, f.cy, f.ux, f.uy, f.half, wood.quads, HALF_WIDTH,
                                        DEEP, TOL)  # fmt: skip
    if len(_COVERS) >= _MEMO_MAX:
        _COVERS.clear()
    _COVERS[stick.pose] = idx
    return idx


def is_free_wood(free: Mask, pose: Place) -> bool:
    """Whether `pose` is one of the wood candidates and still free."""
    i = _wood_position().get(pose)
    return i is not None and bool(free[i])


@cache
def _wood_position() -> dict[Place, int]:
    return {p: i for i, p in enumerate(wood_lattice().poses)}


@cache
def _wood_colours() -> npt.NDArray[np.bool_]:
    """Per set of colours held (bits), which wood candidates are of those colours."""
    colours = wood_lattice().colours
    return np.array([(1 << colours) & bits != 0 for bits in range(1 << NUM_COLOURS)])


@dataclass(frozen=True, slots=True)
class Bridge:
    """Bridging poses by dense index, with their footprints as arrays (`Bridge.of`)."""

    index: npt.NDArray[np.int64]
    cx: Array
    cy: Array
    ux: Array
    uy: Array
    half: Array

    @staticmethod
    def of(index: npt.NDArray[np.int64]) -> Bridge:
        """The footprints of dense indices, the same numbers `Footprints.of` gives their poses:
        x10 / 10 and y10 / 10 in doubles, the axis from `axis` (one per lattice angle)."""
        rest, yi = np.divmod(index, Y_CELLS)
        rest, xi = np.divmod(rest, X_CELLS)
        colour, ai = np.divmod(rest, A_CELLS)
        ux, uy = _AXES
        return Bridge(index, (xi * XY10) / 10, (yi * XY10) / 10, ux[ai], uy[ai], _HALVES[colour])


_AXES_ROWS = np.array([axis(a * A10) for a in range(A_CELLS)])
_AXES = _AXES_ROWS.T.copy()
_UX, _UY = _AXES.tolist()
_HALVES = np.array(HALF_LENGTHS, dtype=np.float64)
Bridges = tuple[npt.NDArray[np.int64], ...]
"""For two sticks, per colour: the dense indices of the bridges a stick of that colour may make."""


def place_of(index: int) -> Place:
    """The pose of a dense index (`lattice_index` read back)."""
    rest, yi = divmod(index, Y_CELLS)
    rest, xi = divmod(rest, X_CELLS)
    colour, ai = divmod(rest, A_CELLS)
    return Place(Colour(colour), xi * XY10, yi * XY10, ai * A10)


def pile_poses(
    sticks: Sequence[Stick], carries: Sequence[int], supply: Sequence[int], floor: int,
    layout: Layout,
) -> Bridge:  # fmt: skip
    """The bridging poses to try (before judging), deduplicated, in index order, as arrays
    (`bridge_index`)."""
    return Bridge.of(bridge_index(sticks, carries, supply, floor, layout))


def bridge_index(
    sticks: Sequence[Stick], carries: Sequence[int], supply: Sequence[int], floor: int,
    layout: Layout,
) -> npt.NDArray[np.int64]:  # fmt: skip
    """The dense indices of the bridging poses to try, deduplicated, in index order: the
    bridges of every two sticks of one level whose ends lie within the reach of the longest
    colour the player holds, in the colours it holds that neither stick refuses (its own, those
    it carries). One compiled call (`cand_kernels.bridge_poses`); the rare pairs whose distances
    lie within a rounding of a threshold are decided here with `math.hypot` (`_pair`)."""
    have = have_bits(supply)
    if not have or not len(sticks):
        return np.zeros(0, dtype=np.int64)
    st = layout.statics
    refuses = (1 << st.colour) | np.array(carries, dtype=np.int64)
    index, unsure = cand_kernels.bridge_poses(
        layout.cx, layout.cy, layout.ux, layout.uy, layout.half, st.level, refuses, have, floor,
        _LENGTHS, _OFFSETS, _CELLS,
    )  # fmt: skip
    if len(unsure):
        limit = max(LENGTHS[c] for c in range(NUM_COLOURS) if have >> c & 1) - 6
        parts = [index]
        for i, j in unsure.tolist():
            a, b = sticks[i], sticks[j]
            if math.hypot(b.cx - a.cx, b.cy - a.cy) - a.half - b.half > limit:
                continue
            bridges = _pair(a, b)
            refused = int(refuses[i] | refuses[j])
            parts += [bridges[c] for c in range(NUM_COLOURS) if (have & ~refused) >> c & 1]
        index = np.unique(np.concatenate(parts))
    return index


def have_bits(supply: Sequence[int]) -> int:
    """The colours (bits) of which `supply` holds a stick."""
    bits = 0
    for c, left in enumerate(supply):
        if left > 0:
            bits |= 1 << c
    return bits


_LENGTHS = np.array(LENGTHS, dtype=np.float64)
_OFFSETS = np.array(SPEC.pile_offsets, dtype=np.float64)
_CELLS = np.array([XY10, A10, X_CELLS, Y_CELLS, A_CELLS], dtype=np.int64)
"""The lattice as the kernels read it: step and angle step (tenths), cells on x, y, angle."""
assert A_CELLS * A10 == HALF_TURN10, "the angle cells cover the half turn (cand_kernels._cell)"


def _pair(a: Stick, b: Stick) -> Bridges:
    per_colour: list[list[tuple[int, Place]]] = [[] for _ in range(NUM_COLOURS)]
    turn = -1.0 if a.ux * b.ux + a.uy * b.uy < 0 else 1.0
    step10 = SPEC.step * 10
    astep10 = SPEC.angle_step * 10
    for f in SPEC.pile_offsets:
        pax = a.cx + f * (a.half - 3) * a.ux
        pay = a.cy + f * (a.half - 3) * a.uy
        pbx = b.cx + f * turn * (b.half - 3) * b.ux
        pby = b.cy + f * turn * (b.half - 3) * b.uy
        dist = math.hypot(pbx - pax, pby - pay)
        if dist < 1.0:
            continue
        x10 = round((pax + pbx) / 2 * 10 / step10) * step10
        y10 = round((pay + pby) / 2 * 10 / step10) * step10
        deg = math.degrees(math.atan2(pby - pay, pbx - pax)) % 180
        a10 = (round(deg * 10 / astep10) * astep10) % 1800
        for c in range(NUM_COLOURS):
            if dist + 6 > LENGTHS[c]:
                continue
            index = lattice_index(c, x10, y10, a10)
            if index is not None:
                per_colour[c].append((index, Place(Colour(c), x10, y10, a10)))
    return tuple(np.array([i for i, _ in b], dtype=np.int64) for b in per_colour)


Source = tuple[npt.NDArray[np.int64], Callable[[int], Verdict]]
"""Candidates of one kind: their dense indices (pose keys), and the placement of the j-th (a piled
one from nothing a new `Verdict.later` at each call)."""


class Nth:
    """The j-th of some placements (a plain object, as `_Later`)."""

    __slots__ = ("verdicts",)

    def __init__(self, verdicts: tuple[Verdict, ...]) -> None:
        self.verdicts = verdicts

    def __call__(self, j: int) -> Verdict:
        return self.verdicts[j]

    def every(self) -> list[Verdict]:
        """All of them, in order."""
        return list(self.verdicts)


NO_SOURCE: Source = (np.zeros(0, dtype=np.int64), Nth(()))
"""No candidates."""


def pile_listing(
    sticks: Sequence[Stick],
    layout: Layout,
    *,
    carries: Sequence[int],
    force: Sequence[float],
    moment: Sequence[complex],
    supply: Sequence[int],
    floor: int,
    owner: int,
    free: Mask,
) -> tuple[npt.NDArray[np.int64], Source]:
    """The bridging candidates the rules allow now, judged from nothing in one compiled call
    (`cand_kernels.pile_candidates`): the bridges (`bridge_index`'s), then what each touches,
    whether it touches exactly two sticks of the level below its derived level at or above the
    player's floor (any other is refused by `piled` or skipped anyway), `rules.piled`, its
    support polygon and balance (`rules.settle`); Python keeps their keys and makes a
    placement only when asked (`_Later`). With them, in the same call, the candidate list's
    order (`order_of`) with the wood candidates `free`. Where a pair's distance lies within a
    rounding of a threshold, the poses are made with `math.hypot` (`bridge_index`) and judged
    by `judge`."""
    have = have_bits(supply)
    if not have or not len(sticks):
        return order_of(free, supply, NO_SOURCE[0]), NO_SOURCE
    st = layout.statics
    order, piled, got, unsure = cand_kernels.pile_candidates(
        have, _LENGTHS, _OFFSETS, _AXES_ROWS, _HALVES, _WEIGHTS, _REACHES, _CELLS, st.rows,
        st.reach, layout.quads, st.level, st.colour, np.array(carries, dtype=np.int64), st.sup,
        st.cont, st.poly, st.npoly, np.array(force, dtype=np.float64),
        np.array(moment, dtype=np.complex128), floor, TOL, REST, _THRESHOLD, 0.5, DEEP, free,
        _wood_colours()[have], wood_lattice().keys,
    )  # fmt: skip
    if not len(unsure):
        index, rows, levels = piled
        return order, (index, _Later(index, rows, levels, got, owner))
    index = bridge_index(sticks, carries, supply, floor, layout)
    got = judge(index, layout, carries, force, moment, floor=floor)
    rows = np.nonzero(got[0] == cand_kernels.LEGAL)[0]
    above = [sticks[a].level + 1 for a in got[1][rows, 0].tolist()]
    return order_of(free, supply, index[rows]), (
        index[rows],
        _Later(index[rows], rows, above, got, owner),
    )


def order_of(
    free: Mask, supply: Sequence[int], piled: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The candidate list's order (`list_kernels.merged`: keys and origins) of the wood
    candidates still free in colours `supply` holds and the piled candidates `piled` (keys)."""
    return merged(free, _wood_colours()[have_bits(supply)], wood_lattice().keys, piled)


def pile_moves(
    sticks: Sequence[Stick],
    layout: Layout,
    *,
    carries: Sequence[int],
    force: Sequence[float],
    moment: Sequence[complex],
    supply: Sequence[int],
    floor: int,
    owner: int,
) -> list[Move]:
    """`pile_listing`'s candidates as moves (the kept table, piles.py, must equal them)."""
    _, source = pile_listing(
        sticks,
        layout,
        carries=carries,
        force=force,
        moment=moment,
        supply=supply,
        floor=floor,
        owner=owner,
        free=_no_wood(),
    )
    return moves(source)  # fmt: skip


@cache
def _no_wood() -> Mask:
    return np.zeros(len(wood_lattice().poses), dtype=bool)


def moves(source: Source) -> list[Move]:
    """A source's candidates as (dense index, pose, placement), in its order."""
    keys, verdict = source
    poses = places(keys)
    return [(k, poses[j], verdict(j)) for j, k in enumerate(keys.tolist())]


def source_of(listed: Sequence[Move]) -> Source:
    """Moves (the kept table's, piles.py) as a source: their keys, their placements."""
    keys = np.array(list(map(itemgetter(0), listed)), dtype=np.int64)
    return keys, Nth(tuple(map(itemgetter(2), listed)))


Judged = cand_kernels.Judged
_REACHES = np.hypot(np.array(HALF_LENGTHS, dtype=np.float64), HALF_WIDTH)
_WEIGHTS = np.array(WEIGHTS, dtype=np.float64)
_THRESHOLD = SPEC.margin - balance.EPS
"""`balance.stands`' threshold, computed as it computes it."""


def _loads(force: Sequence[float], moment: Sequence[complex]) -> Array:
    """Each stick's load as the kernels read it: rows (force, moment x, moment y)."""
    load = np.empty((len(force), 3))
    load[:, 0] = force
    m = np.array(moment, dtype=np.complex128)
    load[:, 1] = m.real
    load[:, 2] = m.imag
    return load


def judge(
    index: npt.NDArray[np.int64],
    layout: Layout,
    carries: Sequence[int],
    force: Sequence[float],
    moment: Sequence[complex],
    *,
    floor: int,
) -> Judged:
    """The bridges of `index` judged in one compiled call (`cand_kernels.judge_bridges`)."""
    st = layout.statics
    got: Judged = cand_kernels.judge_bridges(
        index, _AXES_ROWS, _HALVES, _WEIGHTS, _REACHES, _CELLS, st.rows, st.reach, layout.quads,
        st.level, st.colour, np.array(carries, dtype=np.int64), st.sup, st.cont, st.poly,
        st.npoly, _loads(force, moment), floor, TOL, REST, _THRESHOLD, 0.5, DEEP,
    )  # fmt: skip
    return got


def moves_of(
    index: npt.NDArray[np.int64],
    rows: Sequence[int] | npt.NDArray[np.int64],
    levels: Sequence[int] | npt.NDArray[np.int64],
    got: Judged,
    owner: int,
) -> list[Move]:
    """The candidates of the legal bridges `index`, rows `rows` of `judge`'s answer `got`, at
    `levels`, as moves (`_Later`)."""
    return moves((index, _Later(index, rows, levels, got, owner)))


class _Later:
    """The placement of the j-th legal bridge `index[j]`, row `rows[j]` of `got`, at
    `levels[j]`: a `Verdict.later` made at its first call and kept (`placement`: most
    candidates are never placed, but a bot reads each one's placement again and again). A plain
    object, not a closure: a state's cache pickles and deep-copies with it."""

    __slots__ = ("got", "index", "levels", "made", "owner", "rows")

    def __init__(
        self,
        index: npt.NDArray[np.int64],
        rows: Sequence[int] | npt.NDArray[np.int64],
        levels: Sequence[int] | npt.NDArray[np.int64],
        got: Judged,
        owner: int,
    ) -> None:
        self.index, self.rows, self.levels, self.got, self.owner = index, rows, levels, got, owner
        self.made: dict[int, Verdict] = {}

    def __call__(self, j: int) -> Verdict:
        made = self.made.get(j)
        if made is None:
            pose = place(int(self.index[j]))
            args = (self.got, int(self.rows[j]), pose, self.owner, int(self.levels[j]))
            made = self.made[j] = Verdict.later(placement, args)
        return made


_POSES = np.full(NUM_COLOURS * A_CELLS * X_CELLS * Y_CELLS, None, dtype=object)
"""`place_of` per dense index, made on first use (a pose is immutable: shared by every candidate
list); an array, so a list of them is one numpy indexing (`places`)."""
_MADE = np.zeros(len(_POSES), dtype=bool)
_COUNT = [0]
"""How many poses `_POSES` keeps: all are forgotten when it would pass `_MEMO_MAX`."""


def places(index: npt.NDArray[np.int64]) -> list[Place]:
    """`place_of` of each dense index, kept per index."""
    if not _MADE[index].all():
        return [place(i) for i in index.tolist()]
    got: list[Place] = _POSES[index].tolist()
    return got


def place(index: int) -> Place:
    """`place_of`, kept per dense index (made once; all forgotten when `_MEMO_MAX` are kept)."""
    pose = _POSES[index]
    if pose is None:
        if _COUNT[0] >= _MEMO_MAX:
            _POSES[_MADE] = None
            _MADE[:] = False
            _COUNT[0] = 0
        pose = _POSES[index] = place_of(index)
        _MADE[index] = True
        _COUNT[0] += 1
    assert isinstance(pose, Place)
    return pose


def placement(
    got: Judged, r: int, pose: Place, owner: int, level: int
) -> tuple[Stick, dict[int, Load]]:
    """Bridge r's stick, as `rules.piled` makes it, and the loads it passes down, as
    `rules.settle` gives them (`judge`'s answer, `got`)."""
    _, ab, contacts, edges, nedge, dstart, dstick, dval = got
    a, b = int(ab[r, 0]), int(ab[r, 1])
    gax, gay, gbx, gby = contacts[r].tolist()
    c = pose.colour
    ai = pose.a10 // A10
    stick = Stick(
        pose, owner, level, pose.x10 / 10, pose.y10 / 10, _UX[ai], _UY[ai], HALF_LENGTHS[c],
        WEIGHTS[c], (a, b), (complex(gax, gay), complex(gbx, gby)),
        tuple(map(tuple, edges[r, : nedge[r]].tolist())),
    )  # fmt: skip
    d0, d1 = int(dstart[r]), int(dstart[r + 1])
    deltas = {
        s: (f, complex(mx, my))
        for s, (f, mx, my) in zip(dstick[d0:d1].tolist(), dval[d0:d1].tolist(), strict=True)
    }
    return stick, deltas


def touch_table(feet: Bridge, layout: Layout, start: int = 0) -> npt.NDArray[np.bool_]:
    """Which of the poses `feet` touch which of the sticks from `start` on (overlap above the
    tolerance), in one compiled call (`pile_kernels.touch_table`): circumscribed circles that
    meet, the separating-axis test, then footprints shrunk by `DEEP` that still meet touch
    surely (a disc of radius 1 mm in both, more than the tolerance); the others are clipped."""
    sl = slice(start, len(layout.cx))
    half = layout.half[sl]
    out: npt.NDArray[np.bool_] = pile_kernels.touch_table(
        feet.cx, feet.cy, feet.ux, feet.uy, feet.half, np.hypot(feet.half, HALF_WIDTH),
        layout.cx[sl], layout.cy[sl], layout.ux[sl], layout.uy[sl], half,
        np.hypot(half, HALF_WIDTH), layout.quads[sl], DEEP, TOL,
    )  # fmt: skip
    return out


def touch_values(
    feet: Bridge, layout: Layout, rows: npt.NDArray[np.intp], touched: npt.NDArray[np.bool_]
) -> list[list[Touch]]:
    """For each pose feet[rows[k]], its touches (stick, area, centroid x, y) in stick order,
    as `rules.touches` gives them (`touched[k]`: which sticks it touches), clipped in one
    compiled call (`pile_kernels.touch_values`: `geometry.clip`'s arithmetic)."""
    ci, sj = np.nonzero(touched)
    got = pile_kernels.touch_values(
        feet.cx, feet.cy, feet.ux, feet.uy, feet.half, rows[ci].astype(np.int64), sj,
        layout.quads,
    ).tolist()  # fmt: skip
    out: list[list[Touch]] = [[] for _ in range(len(rows))]
    for c, s, (a, gx, gy) in zip(ci.tolist(), sj.tolist(), got, strict=True):
        out[c].append((s, a, gx, gy))
    return out
