"""Stack Back's action ids for learning agents: bins of poses, decoded in a position.

Poses are continuous, so no fixed list of ids can name every legal pose (a lattice fine enough to
keep every pose with 2 mm of room has hundreds of thousands of points). An id names a *bin* of
poses instead, and a position decodes it to one concrete legal pose inside that bin, found by the
engine's own search (docs/games/stack-back.md, "Action ids"):

  place: ((colour * 12 + angle bin) * 26 + x bin) * 15 + y bin          (0 .. 14039)
         x bin = floor((x + 36 mm) / 12 mm), y bin = floor((y + 36 mm) / 12 mm), each clamped to
         its range (0-25, 0-14): 12 mm squares over x -36 to 276 mm and y -36 to 144 mm, the
         outermost ring reaching on to any distance; angle bin = floor(angle / 15 degrees)
  pass:  14040 (= 3 * 12 * 26 * 15); 14041 ids in all

- Every pose has an id (`to_int`: the bin it lies in, `pass` is 14040). The squares cover every
  centre a stick on the wood or a first-level pile can have (the boards' 236 x 100 mm and 34.1 mm
  beyond each side; the derivation: `REACH` below and the docs); a higher pile hanging farther
  out lies in the outermost ring of bins, so no legal pose is left without an id.
- Decoding needs a position: `snap(state, player, id)` is the bin's *snap*, the first legal pose
  in this order: the candidates of `legal_actions` lying in the bin (in their order), then the
  poses of the search's lattice (search.py: 4 mm, 5 degrees, the 27 of a square; in the
  outermost ring also those beyond it, farther out later) nearest the bin's centre first (at
  equal distance a wood pose first). An id whose bin holds no legal pose is refused
  (IllegalAction, naming the bin). Without a position (`from_int`), an id reads as its square's
  centre pose, a name only.
- The mask (`legal_ids`) is the bins holding a legal candidate or a legal lattice pose, from the
  same lattice search that decides a pass: `pass` alone when the engine offers a pass (no lattice
  pose is legal), never otherwise. Every masked id decodes to a pose `apply` accepts, and the
  bin of every legal candidate (and of every legal lattice pose) is in the mask.

How the lattice poses are judged (the search's own filters, all exact), and kept along a game
(`_Memo`, carried by each table to the next of the same state and its clones: sticks only come
and never move, so each step works only on what the new sticks change):
- On the wood: the lattice poses the bare boards take (`search.wood_poses`), less those a placed
  stick touches (overlap above 3 mm²). Such a pose touches nothing, so it is a level-0 stick on
  its own (balance only concerns its own contacts, already judged on the bare boards): legal
  whenever its colour is in the supply. Only each bin's first such pose matters (it is the best
  wood pose of the bin); it is kept per bin and moved on only where a new stick takes it
  (`id_kernels.wood_first`).
- Piled: per pair of supports and colour the search would try (same level, at or above the floor
  less one, a colour differing from both that neither carries, within reach, not dead), the
  pair's lattice poses whose centre lies inside the supports' extent along the stick (a new
  stick carries nothing, so elsewhere it falls), resting 6 x 6 mm on both and touching no other
  stick of that level or above (`id_kernels.pair_keep`, at the pair's first visit; later only
  the sticks added since are tested, `id_kernels.catch_up`), every pair's poses kept in one
  pool of flat arrays along the game (id_pool.py); then judged in full only where the mask
  needs it: in a bin holding neither a candidate nor a wood pose, until the bin has one legal
  pose (`id_kernels.exist`; the mask needs only whether a bin holds one). Which pose a bin's id
  plays is sought when the id is played (`Table.snap_of`, `id_kernels.snap_row`: the bin's
  rows in snap order, judged until the first legal one). A verdict reads only the two supports
  and the loads of the sticks beneath them, so it is kept until one of those sticks gets a new
  stamp (`_cone_stamps`); a pose refused by its own support polygon (TIPS) is refused for good.
  Judging is compiled (`id_kernels.judge_piles`: the level rule, the rest, balance by the
  support polygon with the loads passed down, in floating point) wherever every quantity lies
  more than 1e-6 from the rules' threshold it is compared with, and done by the rules' own code
  (`rules.piled`, `rules.settle`) for the rest (about 0.4% of the poses).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from teocalli.core import IllegalAction, InvalidAction

from . import bin_kernels, id_kernels, search
from .actions import A10, A_CELLS, PASS, X_CELLS, XY10, Y_CELLS, Action, Colour, Pass, Place
from .components import HALF_LENGTHS, HALF_WIDTH, LENGTHS, NUM_COLOURS, SPEC, WEIGHTS
from .geometry import Array, axis
from .id_pool import Pool
from .rules import REST, TOL, Footprints, piled, settle, touches

if TYPE_CHECKING:
    from .state import StackBackState

Ints = npt.NDArray[np.int64]

BIN_MM = 12
"""Bin side in x and y (mm): three lattice centres of the search (4 mm) each way."""
BIN_DEG = 15
"""Bin width in angle (degrees): three lattice angles of the search (5 degrees)."""
X0_MM, Y0_MM = -36, -36
"""The squares' lower left corner (mm): a multiple of the search's 4 mm, so each square holds
the same 3 x 3 lattice centres, and 0 (the boards' edge) is a bin edge."""
X_BINS = 26
"""x in [-36, 276) mm: the boards and the gap (0-236 mm), 36 and 40 mm beyond."""
Y_BINS = 15
"""y in [-36, 144) mm: the boards (0-100 mm), 36 and 44 mm beyond."""
REACH = 34.2
"""mm beyond the boards' hull (x 0-236, y 0-100) within which lies the centre of every legal
stick on the wood and of every legal pile on two sticks on the wood (34.125, rounded up). A new
stick carries nothing, so it stands only with its centre 1 mm inside its support polygon: on the
wood that polygon lies on the boards (a straddle's spans both), so a wood stick's centre lies
1 mm inside the hull; its footprint reaches at most sqrt(36² + 3²) = 36.125 mm from its centre
(the yellow's half-diagonal), so 35.125 mm beyond the hull. A pile's support polygon is the hull
of its contacts with its two supports, inside their footprints, and its centre lies 1 mm inside
it: 34.125 mm beyond at most. The squares reach 36 mm and more beyond each side. Each higher
level may reach about 35 mm farther out again, when what lies under it is counterweighted so
that it balances: such poses lie in the outermost ring of bins, which reach on to any distance,
so no legal pose is without an id."""
A_BINS = 180 // BIN_DEG
NUM_PLACES = NUM_COLOURS * A_BINS * X_BINS * Y_BINS
PASS_ID = NUM_PLACES
NUM_IDS = NUM_PLACES + 1

_BIN10, _ABIN10 = BIN_MM * 10, BIN_DEG * 10
_X010, _Y010 = X0_MM * 10, Y0_MM * 10


def _axis_bin(v10: int, origin10: int, count: int) -> int:
    """The bin of a coordinate (tenths of mm) along one axis, the outermost bins unbounded."""
    return min(max((v10 - origin10) // _BIN10, 0), count - 1)


def bin_of(colour: int, x10: int, y10: int, a10: int) -> int:
    """The id of the bin holding a pose (tenths of mm and degrees)."""
    xb, yb = _axis_bin(x10, _X010, X_BINS), _axis_bin(y10, _Y010, Y_BINS)
    return ((colour * A_BINS + (a10 % 1800) // _ABIN10) * X_BINS + xb) * Y_BINS + yb


def to_int(action: object) -> int:
    """The id of an action: its bin (a pose), or PASS_ID."""
    if isinstance(action, Pass):
        return PASS_ID
    if isinstance(action, Place):
        return bin_of(action.colour, action.x10, action.y10, action.a10)
    raise InvalidAction(f"{action!r} is not a Stack Back action")


def check(index: object) -> int:
    """`index` as an id, or InvalidAction saying what ids are."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_IDS:
        raise InvalidAction(f"{index!r} is not a Stack Back action id (0 to {NUM_IDS - 1})")
    return index


def parts(index: int) -> tuple[int, int, int, int]:
    """(colour, angle bin, x bin, y bin) of a place id."""
    rest, yb = divmod(index, Y_BINS)
    rest, xb = divmod(rest, X_BINS)
    colour, ab = divmod(rest, A_BINS)
    return colour, ab, xb, yb


def from_int(index: int) -> Action:
    """An id without a position: `pass`, or its square's centre pose (a name: in a position the
    id plays the bin's snap, `snap`)."""
    if check(index) == PASS_ID:
        return PASS
    colour, ab, xb, yb = parts(index)
    half = _BIN10 // 2
    return Place(
        Colour(colour),
        _X010 + xb * _BIN10 + half,
        _Y010 + yb * _BIN10 + half,
        ab * _ABIN10 + _ABIN10 // 2,
    )


# --- the snap order inside a bin ----------------------------------------------------------------
_STEP10, _ASTEP10 = search.STEP * 10, search.ASTEP * 10
_PER_X, _PER_A = _BIN10 // _STEP10, _ABIN10 // _ASTEP10


@cache
def _rank_table() -> npt.NDArray[np.int64]:
    """Rank (0 first) of each lattice pose of a bin by its offsets (x, y, angle steps): nearest
    the bin's centre first (in bin widths), ties in lattice order (angle, x, y)."""
    cells = [(a, x, y) for a in range(_PER_A) for x in range(_PER_X) for y in range(_PER_X)]

    def far(c: tuple[int, int, int]) -> float:
        a, x, y = c
        mid, amid = (_PER_X - 1) / 2 + 0.5, (_PER_A - 1) / 2 + 0.5
        return ((x - mid) / _PER_X) ** 2 + ((y - mid) / _PER_X) ** 2 + ((a - amid) / _PER_A) ** 2

    order = sorted(cells, key=lambda c: (far(c), c))
    table = np.zeros((_PER_A, _PER_X, _PER_X), dtype=np.int64)
    for rank, (a, x, y) in enumerate(order):
        table[a, x, y] = rank
    return table


def _ranks(
    x10: npt.NDArray[np.int64], y10: npt.NDArray[np.int64], a10: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Snap rank of lattice poses within their bins: by the table within a square; a pose beyond
    the squares (in an outermost bin) after every pose of its square, by its distance in lattice
    steps (the farther, the later)."""
    table = _rank_table()
    rx, ry = x10 - _X010, y10 - _Y010
    inside = table[(a10 % _ABIN10) // _ASTEP10, (rx % _BIN10) // _STEP10,
                   (ry % _BIN10) // _STEP10]  # fmt: skip
    span_x, span_y = X_BINS * _BIN10, Y_BINS * _BIN10
    beyond = np.maximum.reduce([
        np.zeros_like(rx), -rx, rx - (span_x - _STEP10), -ry, ry - (span_y - _STEP10)
    ])  # fmt: skip
    out: npt.NDArray[np.int64] = inside + table.size * (-(-beyond // _STEP10))
    return out


def _bins(
    colour: int, x10: npt.NDArray[np.int64], y10: npt.NDArray[np.int64], a10: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Bin ids of lattice poses (`bin_of` on arrays)."""
    xb, yb = _axis_bins(x10, _X010, X_BINS), _axis_bins(y10, _Y010, Y_BINS)
    out: npt.NDArray[np.int64] = ((colour * A_BINS + a10 // _ABIN10) * X_BINS + xb) * Y_BINS + yb
    return out


def _axis_bins(v10: npt.NDArray[np.int64], origin10: int, count: int) -> npt.NDArray[np.int64]:
    """`_axis_bin` on an array."""
    out: npt.NDArray[np.int64] = np.clip((v10 - origin10) // _BIN10, 0, count - 1)
    return out


# --- wood: the search's lattice poses on the bare boards, less those a stick touches ------------
@dataclass(frozen=True, slots=True)
class Wood:
    """All colours' wood lattice poses (search.wood_poses) in snap order: by bin, then rank."""

    colour: npt.NDArray[np.int64]
    x10: npt.NDArray[np.int64]
    y10: npt.NDArray[np.int64]
    a10: npt.NDArray[np.int64]
    bins: npt.NDArray[np.int64]
    ranks: npt.NDArray[np.int64]
    rows: Array
    """Per pose, its footprint as a row (cx, cy, ux, uy, half)."""
    start: npt.NDArray[np.int64]
    """Per bin b, where its poses start (they run to start[b + 1])."""
    code: npt.NDArray[np.uint8]
    """Per pose, its lattice point in its bin, angle * 9 + x step * 3 + y step (each 0-2): what
    `id_kernels.wood_first` reads of a pose, one byte (126 KB for all, kept in the cache from
    step to step; the rows are 5 MB), its footprint rebuilt from the bin with `dirs`."""
    dirs: Array
    """Per angle bin and lattice angle in it, the axis (`geometry.axis`, as `rows` holds it)."""


@cache
def wood() -> Wood:
    cols, xs, ys, angs = [], [], [], []
    for c in range(NUM_COLOURS):
        wp = search.wood_poses(c)
        cols.append(np.full(len(wp.x10), c, dtype=np.int64))
        xs.append(wp.x10)
        ys.append(wp.y10)
        angs.append(wp.a10)
    colour, x10, y10, a10 = (np.concatenate(v).astype(np.int64) for v in (cols, xs, ys, angs))
    bins = np.concatenate([_bins(c, x10[colour == c], y10[colour == c], a10[colour == c])
                           for c in range(NUM_COLOURS)])  # fmt: skip
    ranks = _ranks(x10, y10, a10)
    order = np.lexsort((ranks, bins))
    order = order[bins[order] >= 0]
    colour, x10, y10, a10 = colour[order], x10[order], y10[order], a10[order]
    # the footprints exactly as the rules build them (rules.base: x10 / 10, geometry.axis)
    dirs = np.array([axis(int(a)) for a in a10.tolist()]).reshape(-1, 2)
    half = np.array([HALF_LENGTHS[int(c)] for c in colour.tolist()])
    start = np.searchsorted(bins[order], np.arange(NUM_PLACES + 1)).astype(np.int64)
    rows = np.stack((x10 / 10, y10 / 10, dirs[:, 0], dirs[:, 1], half), axis=1)
    code = ((a10 % _ABIN10) // _ASTEP10 * _PER_X * _PER_X + (x10 - _X010) % _BIN10 // _STEP10
            * _PER_X + (y10 - _Y010) % _BIN10 // _STEP10).astype(np.uint8)  # fmt: skip
    lattice = np.array([axis(ab * _ABIN10 + j * _ASTEP10) for ab in range(A_BINS)
                        for j in range(_PER_A)]).reshape(A_BINS, _PER_A, 2)  # fmt: skip
    return Wood(colour, x10, y10, a10, bins[order], ranks[order], rows, start, code, lattice)


_RADII = np.hypot(np.array(HALF_LENGTHS), HALF_WIDTH)
"""Per colour, the radius of a footprint's circumscribed circle: farther apart, two never
meet."""


# --- piles: the search's pair poses, judged bin by bin ------------------------------------------
_MARGIN = SPEC.margin - 1e-6
"""A new stick carries nothing, so its centre must lie at least the margin (1 mm) inside its
support polygon, the hull of its contacts (the balance ruling). The contacts lie within the
supports' footprints, so the centre must lie that far inside their extent along the stick's
axis (`id_kernels.may_stand`): a bound that only skips poses the rules refuse."""


@dataclass(frozen=True, slots=True)
class _Memo:
    """What the mask keeps along a game, for the game's first `count` sticks: per bin the first
    wood pose left (`first`, an index of `wood()`, or -1), and the pairs of supports met so far
    with their poses left and verdicts (`pool`, id_pool.py), each brought up to date when next
    met. Sticks only come (a state's sticks are only ever appended, and a clone copies them), so
    a memo made at an earlier step of a state holds for it, and its clones' (they share it,
    `StackBackState._id_table`); the pool is changed in place by its head memo only, the others
    fork it (`owned`)."""

    count: int
    first: npt.NDArray[np.int64]
    live: npt.NDArray[np.int64]
    """The bins whose `first` holds a wood pose, ascending: what the ids read of the wood
    (`id_kernels.exist`). Sticks only take wood away, so it only shrinks (`id_kernels.alive`)."""
    pool: Pool
    sup: npt.NDArray[np.int64]
    """Per stick, what balance reads of it that never changes (`id_kernels.judge_piles`):
    its supports (-1: none), its contact centroids (x, y relative to its centre), its support
    polygon's edges (nx, ny, c; `npoly` of them): the engine's own arrays (`rules.Statics`,
    whose first rows never change), not copies."""
    cont: Array
    poly: Array
    npoly: npt.NDArray[np.int64]
    reaching: npt.NDArray[np.int64]
    """The pairs of sticks of one level a stick of some colour could overlap both of
    (`search._reach`), as rows (colour, level, i, j), i before j."""
    colours: npt.NDArray[np.int64]
    """Per stick, its colour."""

    @staticmethod
    def empty() -> _Memo:
        w = wood()
        first = np.where(w.start[:-1] < w.start[1:], w.start[:-1], -1).astype(np.int64)
        pool = Pool()
        made = _Memo(0, first, _wood_bins(), pool, np.zeros((0, 2), np.int64), np.zeros((0, 2, 2)),
                     np.zeros((0, _EDGES, 3)), np.zeros(0, np.int64),
                     np.zeros((0, 4), np.int64), np.zeros(0, np.int64))  # fmt: skip
        pool.head = made
        return made

    def owned(self) -> _Memo:
        """This memo, or, when another memo now heads its pool, this memo with a copy of the
        pool rolled back to its sticks (`Pool.fork`)."""
        if self.pool.head is self:
            return self
        made = replace(self, pool=self.pool.fork(self.count))
        made.pool.head = made
        return made

    def to(self, state: StackBackState, arrays: tuple[Array, Array, Array] | None = None) -> _Memo:
        """This memo brought up to all of the state's sticks (the wood; the pairs when next
        met); `arrays`: `_sticks(state)` if known."""
        sticks = state.sticks
        if self.count >= len(sticks):
            return self.owned()
        w = wood()
        first = self.first.copy()
        rows, quads_, reach = _sticks(state) if arrays is None else arrays
        id_kernels.wood_first(first, w.code, w.dirs, _HALF, w.start, _RADII, rows, quads_,
                              self.count, TOL, search.DEEP)  # fmt: skip
        lay = state.layout
        st = lay.statics  # what never changes of the sticks, the engine's arrays: no copies
        reaching = id_kernels.reaching(lay.cx, lay.cy, reach, st.level, self.count, _PILE_REACH_A)
        pool = self.pool if self.pool.head is self else self.pool.fork(self.count)
        live = id_kernels.alive(self.live, first)
        made = _Memo(len(sticks), first, live, pool, st.sup, st.cont, st.poly, st.npoly,
                     np.concatenate((self.reaching, reaching)), st.colour)  # fmt: skip
        pool.head = made
        return made


_PILE_REACH_A = np.array([math.hypot(LENGTHS[c], SPEC.width) for c in range(NUM_COLOURS)])
"""Per colour, `search._reach`'s bound on how far a stick of it reaches."""


def _cone_stamps(state: StackBackState) -> npt.NDArray[np.int64]:
    """Per stick, the newest stamp of it and of every stick beneath it. A pile's verdict reads
    only its two supports (their colours and carried colours) and the loads of the sticks
    beneath them (balance passes loads down only); a stick's stamp changes whenever its loads
    or carried colours do, with a stamp newer than any before, so a pair's verdicts hold while
    the newest stamp beneath its supports stays (`id_kernels.cones`, over the engine's
    supports)."""
    stamps = np.array(state._stamps, dtype=np.int64)
    return id_kernels.cones(stamps, state.layout.statics.sup)


_COS = np.cos(np.radians(np.array(search.ANGLES, dtype=np.float64)))
_SIN = np.sin(np.radians(np.array(search.ANGLES, dtype=np.float64)))
"""The search's lattice angles' axes, computed as `search.pair_poses` computes them."""


def _sticks(state: StackBackState) -> tuple[Array, Array, Array]:
    """The layout as the kernels read it: rows of (cx, cy, ux, uy, half), the footprints, and
    the circumscribed radii (the engine's own arrays, `rules.Statics`: never changed)."""
    lay = state.layout
    return lay.statics.rows, lay.quads, lay.statics.reach


def _new_pairs(
    memo: _Memo,
    keys: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    sticks: tuple[Array, Array, Array],
) -> npt.NDArray[np.int64]:
    """Pairs met for the first time (rows of `keys`: colour, level, i, j): their lattice poses
    through the three per-pose filters (`id_kernels.pair_keep`, every new pair in one call:
    `id_kernels.new_pairs`), written into the pool; returns their ids."""
    rows, quads_, reach = sticks
    pool = memo.pool
    k, first = len(keys), pool.pairs
    pool.reserve(k, 0)
    done = 0
    while True:
        got, end = id_kernels.new_pairs(
            keys[done:], levels, rows, quads_, reach, _HALF, _COS, _SIN, float(search.STEP),
            _MARGIN, TOL, search.DEEP, REST, search.REST_INSET, _GRID, _rank_table(), pool.key,
            pool.span, pool.count, pool.created, pool.stamp, pool.box, pool.index, pool.pairs,
            pool.poses, pool.frame, pool.bins, pool.ranks, pool.verdict, pool.rows,
        )  # fmt: skip
        done += got
        pool.pairs, pool.rows = pool.pairs + got, end
        if done == k:
            return np.arange(first, first + k, dtype=np.int64)
        pool.reserve(0, len(pool.poses) - pool.rows + 1)  # no room for the next pair's: double


_GRID = np.array([_STEP10, _ASTEP10, _X010, _Y010, _BIN10, _ABIN10, X_BINS, Y_BINS, A_BINS],
                 dtype=np.int64)  # fmt: skip
"""The lattice and the squares as `id_kernels.lattice_rows` reads them."""


def _met_pairs(
    state: StackBackState,
    player: int,
    memo: _Memo,
    sticks: tuple[Array, Array, Array] | None = None,
) -> npt.NDArray[np.int64]:
    """The pool's ids of every pair of supports and colour the search would try now (same
    level, at or above the floor less one, a colour in the supply differing from both that
    neither carries, within reach, not dead; `id_kernels.pairs_due`), brought up to date: met
    for the first time, its poses filtered (`_new_pairs`); met before, only the sticks added
    since tested (`id_kernels.catch_up`); its verdicts forgotten when the sticks beneath its
    supports changed. `memo` must head its pool (`_Memo.owned`)."""
    if sticks is None:
        sticks = _sticks(state)
    pool = memo.pool
    assert pool.head is memo
    levels = state.layout.statics.level  # the engine's array, not a copy of its tuple
    n = len(levels)
    pool.fit(n, state.dead_pairs)
    met, new = id_kernels.pairs_due(
        memo.reaching, memo.colours, levels, np.array(state.carries, dtype=np.int64),
        state.floor[player], np.array(state.supply[player], dtype=np.int64), pool.index,
        pool.dead,
    )  # fmt: skip
    if len(new):
        met = np.concatenate((met, _new_pairs(memo, memo.reaching[new], levels, sticks)))
    rows, quads_, reach = sticks
    id_kernels.catch_up(
        met, pool.key, pool.span, pool.count, pool.stamp, pool.box, _HALF, pool.frame, pool.taken,
        pool.verdict, levels, rows, quads_, reach,
        _cone_stamps(state), TOL, search.DEEP,
    )  # fmt: skip
    return met


@dataclass(frozen=True, slots=True)
class PairPoses:
    """A pair of supports and a colour with its lattice poses left (rows of colour, x10, y10,
    a10), as `_pile_pairs` lists them."""

    supports: tuple[int, int]
    colour: int
    poses: npt.NDArray[np.int64]


def _pile_pairs(
    state: StackBackState,
    player: int,
    memo: _Memo,
    sticks: tuple[Array, Array, Array] | None = None,
) -> list[PairPoses]:
    """Every pair of supports and colour the search would try now with poses left, brought up
    to date (`_met_pairs`), in the search's order (colour, level, i, j)."""
    memo = memo.owned()
    pool = memo.pool
    met = _met_pairs(state, player, memo, sticks)
    out = []
    for p in sorted(met.tolist(), key=lambda p: tuple(pool.key[p].tolist())):
        colour, _, i, j = pool.key[p].tolist()
        lo, hi = pool.span[p].tolist()
        left = pool.taken[lo:hi] == id_kernels.ALIVE
        if left.any():
            out.append(PairPoses((i, j), colour, pool.poses[lo:hi][left]))
    return out


_EDGES = 24
"""Room for a support polygon's edges (the hull of two clipped rectangles: at most 16)."""
_DELTA = 1e-6
"""mm or mm²: a quantity this near a threshold of the rules is judged by the rules' own code."""


def _scene(
    state: StackBackState, sticks: Array | None = None
) -> tuple[Array, npt.NDArray[np.int64], Array]:
    """What `id_kernels.judge_piles` reads of the position: the sticks (cx, cy, ux, uy, half;
    `_sticks`' first array if known), their levels, their loads (force, moment x, y)."""
    st = state.layout.statics
    moment = np.array(state.moment, dtype=np.complex128)
    load = np.empty((len(moment), 3))
    load[:, 0] = state.force
    load[:, 1] = moment.real
    load[:, 2] = moment.imag
    return st.rows if sticks is None else sticks, st.level, load


def _judge_fast(
    state: StackBackState,
    player: int,
    memo: _Memo,
    lattices: list[Lattice],
    supports: list[tuple[int, int]],
    *,
    scene: tuple[Array, npt.NDArray[np.int64], Array] | None = None,
) -> list[bool]:
    """Whether each pile pose is legal now, as `_judge` decides: compiled
    (`id_kernels.judge_piles`, in floating point, with every quantity compared with a rule's
    threshold at least `_DELTA` away from it), and by `_judge` itself for the poses where one is
    nearer (rounding could then decide)."""
    rows = np.array(lattices, dtype=np.int64).reshape(-1, 4)
    pi = np.array([s[0] for s in supports], dtype=np.int64)
    pj = np.array([s[1] for s in supports], dtype=np.int64)
    return _judge_rows(state, player, memo, rows, pi, pj, _scene(state) if scene is None else scene)


@cache
def _axes() -> Array:
    """`geometry.axis` of every angle (tenths of a degree, 0 to 1799), as rows (ux, uy)."""
    return np.array([axis(a) for a in range(1800)])


_HALF = np.array(HALF_LENGTHS)
_WEIGHT = np.array(WEIGHTS, dtype=np.float64)


def _judge_rows(  # noqa: PLR0917 - the poses, their supports, the position
    state: StackBackState,
    player: int,
    memo: _Memo,
    rows: npt.NDArray[np.int64],
    pi: npt.NDArray[np.int64],
    pj: npt.NDArray[np.int64],
    scene: tuple[Array, npt.NDArray[np.int64], Array],
) -> list[bool]:
    """`_judge_fast` on arrays: pile poses (rows of colour, x10, y10, a10) on the supports
    (pi, pj), the poses' footprints built as the rules build them (x10 / 10, `geometry.axis`)."""
    c = rows[:, 0]
    pose = np.empty((len(rows), 6))
    pose[:, 0] = rows[:, 1] / 10
    pose[:, 1] = rows[:, 2] / 10
    pose[:, 2:4] = _axes()[rows[:, 3]]
    pose[:, 4] = _HALF[c]
    pose[:, 5] = _WEIGHT[c]
    got = id_kernels.judge_piles(
        pose, pi, pj, scene[0], state.layout.quads, scene[1], memo.sup, memo.cont, memo.poly,
        memo.npoly, scene[2], TOL, REST, SPEC.margin, _DELTA,
    )  # fmt: skip
    out: list[bool] = (got == id_kernels.LEGAL).tolist()
    unsure = np.nonzero(got == id_kernels.UNSURE)[0].tolist()
    if unsure:
        lattices: list[Lattice] = [(c, x, y, a) for c, x, y, a in rows[unsure].tolist()]
        for r, ok in zip(unsure, _judge(state, player, lattices), strict=True):
            out[r] = ok
    return out


def _judge(state: StackBackState, player: int, lattices: list[Lattice]) -> list[bool]:
    """Whether each pile pose (colour, x10, y10, a10) is legal now, judged as
    `StackBackState.judge` judges it (as `candidates.pile_moves` judges its bridges), the touches
    of the batch found at once. A pose that passed the pair filters (it rests 6 x 6 mm on both
    supports and touches no other stick of their level or above; its colour is in the supply,
    differs from both and neither carries it; its level, one above theirs, is at or above the
    floor) is judged by its supports and what lies beneath them alone."""
    places = [Place(Colour(c), x, y, a) for c, x, y, a in lattices]
    feet = replace(Footprints.of(places), keys=None)  # a batch: clipped at once, not memoised
    out = []
    for place, touched in zip(places, touches(state.layout, feet), strict=True):
        if not touched or state.supply[player][place.colour] <= 0:
            out.append(not isinstance(state.judge(place, player), str))
            continue
        stick = piled(place, player, touched, state.sticks, state.carries)
        if isinstance(stick, str) or stick.level < state.floor[player]:
            out.append(False)
            continue
        out.append(not isinstance(settle(stick, state.sticks, state.force, state.moment), str))
    return out


Lattice = tuple[int, int, int, int]
"""A lattice pose as (colour, x10, y10, a10)."""


_MARKS = np.zeros(NUM_PLACES, dtype=np.int8)
"""`id_kernels.exist`'s per-bin marks, kept between calls (left zero)."""


@cache
def _wood_bins() -> npt.NDArray[np.int64]:
    """The bins holding a wood pose at the start, ascending (some 6,000 of the 14,040): the
    bins of `wood()`'s poses, where `_Memo.empty` starts `first` and `live`."""
    start = wood().start
    return np.flatnonzero(start[:-1] < start[1:]).astype(np.int64)


# --- the table of a position --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Table:
    """The mask of one player at one step: `ids` sorted, `snap(state, id)` the pose an id plays
    (found when asked: the mask needs only whether a bin holds a legal pose); and what the next
    tables of the game start from (`memo`)."""

    step: int
    player: int
    marks: npt.NDArray[np.int8]
    """The mask: a byte per id, 1 where the id may be played (`ids` lists them)."""
    held: npt.NDArray[np.int64]
    """The bins holding a candidate (ascending; `PASS_ID` for a lone pass)."""
    firsts: npt.NDArray[np.int64]
    """Per bin of `held`, where its first candidate lies in `candidates`."""
    candidates: tuple[Action, ...]
    """`legal_actions` of the step."""
    supply: tuple[int, ...]
    """The player's sticks left per colour: a bin's wood snap is `memo.first`'s pose in a
    colour of the supply."""
    met: npt.NDArray[np.int64]
    """The pool's pairs the step met (`_met_pairs`): where a bin's pile snap is sought."""
    memo: _Memo

    @property
    def ids(self) -> npt.NDArray[np.int64]:
        """The ids the mask holds, ascending."""
        return np.flatnonzero(self.marks)

    def snap_of(self, state: StackBackState, index: int) -> Action | None:
        """The pose id `index` plays (None: not in the mask), `state` being this table's
        position (`table(state, player)` returns a table whose memo heads its pool, as the
        pile snap's search needs)."""
        k = _find(self.held, index)
        if k is not None or not 0 <= index < PASS_ID:
            return None if k is None else self.candidates[int(self.firsts[k])]
        if not self.marks[index]:
            return None
        w, first = wood(), int(self.memo.first[index])
        has_wood = first >= 0 and self.supply[int(w.colour[first])] > 0
        limit = int(w.ranks[first]) if has_wood else _NO_LIMIT
        row = _pile_snap(state, self, index, limit)
        if row >= 0:
            c, x10, y10, a10 = self.memo.pool.poses[row].tolist()
            return Place(Colour(c), x10, y10, a10)
        if has_wood:
            return Place(Colour(int(w.colour[first])), int(w.x10[first]), int(w.y10[first]),
                         int(w.a10[first]))  # fmt: skip
        return None


_NO_LIMIT = int(np.iinfo(np.int64).max)
"""A bin without a wood pose: every pile row counts."""


Model = tuple[Array, Array, Array, Array, Array, Ints, Ints, Array, Array, Ints, Array, float,
              float, float, float]  # fmt: skip
"""`_model`'s answer, in the kernels' order."""


def _model(state: StackBackState, memo: _Memo, sticks: Array | None = None) -> Model:
    """What `id_kernels.exist` and `snap_row` judge a pile pose with: the poses' axes, halves
    and weights, the position (`_scene`), the memo's balance arrays, the thresholds."""
    scene = _scene(state, sticks)
    return (_axes(), _HALF, _WEIGHT, scene[0], state.layout.quads, scene[1], memo.sup,
            memo.cont, memo.poly, memo.npoly, scene[2], TOL, REST, SPEC.margin,
            _DELTA)  # fmt: skip


def _pile_snap(state: StackBackState, table: Table, b: int, limit: int) -> int:
    """Bin b's pile snap (a pool row; -1: none ranked below `limit`), `id_kernels.snap_row`
    with the rows it is unsure of judged by the rules."""
    memo = table.memo
    assert memo.pool.head is memo and len(state.history) == table.step, "a stale table"
    pool, model = memo.pool, _model(state, memo)
    while True:
        row, unsure = id_kernels.snap_row(b, limit, table.met, pool.key, pool.span, pool.taken,
                                          pool.bins, pool.ranks, pool.verdict, pool.poses,
                                          *model)  # fmt: skip
        if unsure < 0:
            return row
        c, x, y, a = pool.poses[unsure].tolist()
        pool.verdict[unsure] = 1 if _judge(state, table.player, [(c, x, y, a)])[0] else 2


def _find(ascending: npt.NDArray[np.int64], index: int) -> int | None:
    """Where `index` lies in an ascending array of ids (None: not in it)."""
    k = int(np.searchsorted(ascending, index))
    return k if k < len(ascending) and ascending[k] == index else None


def table(state: StackBackState, player: int) -> Table:
    """The ids `player` may play now and the pose each plays (kept until the state changes;
    made again when another line of play has taken its memo's pool since, as a clone that
    played on does)."""
    known = state._id_table
    if known is not None and known.step == len(state.history) and known.player == player:
        if known.memo.pool.head is known.memo:
            return known
        made = _table(state, player, known.memo)  # its pool forked back to this position
        state._id_table = made
        return made
    memo = _Memo.empty() if known is None else known.memo
    arrays = _sticks(state)
    made = _table(state, player, memo.to(state, arrays), arrays)
    state._id_table = made
    return made


@cache
def _key_parts() -> Ints:
    """The bin of a pose key (`actions.lattice_index`: ((colour * A_CELLS + angle) * X_CELLS +
    x) * Y_CELLS + y) as `bin_kernels.key_bins` reads it: X_CELLS, Y_CELLS, X_BINS, Y_BINS,
    then per x cell its x bin, per y cell its y bin (`_axis_bins`), per (colour, angle) cell
    its (colour, angle bin) part."""
    colour, ai = np.divmod(np.arange(NUM_COLOURS * A_CELLS), A_CELLS)
    x10, y10 = np.arange(X_CELLS) * XY10, np.arange(Y_CELLS) * XY10
    return np.concatenate(([X_CELLS, Y_CELLS, X_BINS, Y_BINS], _axis_bins(x10, _X010, X_BINS),
                           _axis_bins(y10, _Y010, Y_BINS), colour * A_BINS + ai * A10 // _ABIN10)
                          ).astype(np.int64)  # fmt: skip


def _candidate_bins(
    state: StackBackState, player: int, candidates: Sequence[Action]
) -> tuple[Ints, Ints]:
    """The bins holding a candidate of `candidates` (`legal_actions(player)`, no `pass`; none
    for a player not to move), ascending, and per bin where its first candidate (the bin's
    snap) lies in the list (`bin_kernels.firsts`). From the listing's pose keys
    (`StackBackState.candidate_keys`: some 150 a step, one compiled call); the search's poses
    (a few, some off the lattice) from their objects."""
    keys = state.candidate_keys(player) if candidates else None
    if keys is not None:
        assert len(keys) == len(candidates), (len(keys), len(candidates))
        found = bin_kernels.key_firsts(keys, _key_parts())
    else:
        assert PASS not in candidates, candidates
        bins = np.array([to_int(action) for action in candidates], dtype=np.int64)
        found = bin_kernels.firsts(bins)
    return found[0], found[1]


def _table(
    state: StackBackState,
    player: int,
    memo: _Memo,
    arrays: tuple[Array, Array, Array] | None = None,
) -> Table:
    step = len(state.history)
    memo = memo.owned()
    candidates = cast("list[Action]", state.legal_actions(player))  # the engine's own
    supply = tuple(state.supply[player])
    if candidates == [PASS]:
        return Table(step, player, _PASS_MARKS, _PASS_ONLY, _FIRST, (PASS,), (0,) * NUM_COLOURS,
                     _NONE, memo)  # fmt: skip
    if arrays is None:
        arrays = _sticks(state)
    taken, firsts = _candidate_bins(state, player, candidates)
    met = _met_pairs(state, player, memo, arrays)
    pool = memo.pool
    supplies = np.array(supply, dtype=np.int64)
    model = _model(state, memo, arrays[0])
    while True:  # compiled, but for the poses the kernel leaves to the rules
        marks, unsure, _ = id_kernels.exist(
            met, pool.key, pool.span, pool.taken, pool.bins, pool.verdict, pool.poses,
            memo.first, memo.live, supplies, taken, _MARKS, *model,
        )  # fmt: skip
        if not len(unsure):
            break
        lattices: list[Lattice] = [(c, x, y, a) for c, x, y, a in pool.poses[unsure].tolist()]
        ok = _judge(state, player, lattices)
        pool.verdict[unsure] = np.where(np.array(ok, dtype=bool), 1, 2)
    marks.flags.writeable = False  # tables are shared: by clones, by the adapters' masks
    return Table(step, player, marks, taken, firsts, tuple(candidates), supply, met, memo)


_NONE = np.zeros(0, dtype=np.int64)
_PASS_ONLY, _FIRST = np.array([PASS_ID]), np.zeros(1, dtype=np.int64)
_PASS_MARKS = (np.arange(NUM_IDS) == PASS_ID).astype(np.int8)
_PASS_MARKS.flags.writeable = False
"""A lone pass's bin, its candidate's place in the list, its mask (`Table`)."""


def legal_ids(state: StackBackState, player: int) -> list[int]:
    """The mask: ids whose bin holds a legal pose now (or `pass` alone), sorted."""
    out: list[int] = table(state, player).ids.tolist()
    return out


def _span(b: int, origin: int, count: int) -> str:
    """A bin's range along one axis, in words (the outermost bins reach on without end)."""
    lo, hi = origin + b * BIN_MM, origin + (b + 1) * BIN_MM
    if b == 0:
        return f"below {hi}"
    if b == count - 1:
        return f"{lo} or more"
    return f"{lo}-{hi}"


def snap(state: StackBackState, player: int, index: int) -> Action:
    """The action id `index` plays for `player` now: `pass`, or its bin's snap; IllegalAction
    for a bin holding no legal pose now (naming the bin)."""
    if check(index) == PASS_ID:
        return PASS
    found = table(state, player).snap_of(state, index)
    if found is None:
        colour, ab, xb, yb = parts(index)
        raise IllegalAction(
            f"action id {index} names no legal pose now: no {Colour(colour).name.lower()} stick "
            f"fits centred at x {_span(xb, X0_MM, X_BINS)} mm, y {_span(yb, Y0_MM, Y_BINS)} mm, "
            f"at {ab * BIN_DEG}-{(ab + 1) * BIN_DEG} degrees (see the action mask)"
        )
    return found


__all__ = ["NUM_IDS", "PASS_ID", "bin_of", "from_int", "legal_ids", "snap", "table", "to_int"]
