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

How the lattice poses are judged (the search's own filters and memos, all exact):
- On the wood: the lattice poses the bare boards take (`search.wood_poses`), less those a placed
  stick touches (overlap above 3 mm²: clipped exactly once per stick pose and kept per process,
  `_covers`). Such a pose touches nothing, so it is a level-0 stick on its own (balance only
  concerns its own contacts, already judged on the bare boards): legal whenever its colour is in
  the supply.
- Piled: per pair of supports and colour the search would try (same level, at or above the floor
  less one, a colour differing from both that neither carries, within reach, not dead), the
  pair's lattice poses resting 6 x 6 mm on both and touching no other stick of that level or
  above (`search.pair_poses`, `_touching`, `_rests`), less those whose centre lies outside the
  supports' extent along the stick (`_may_stand`: they would fall); then judged in full, bin by
  bin in snap order, only until the bin has its snap. A verdict is kept by the pose and the
  structures holding its two supports (`_PileJudge`), so a later position judges again only the
  poses on structures a stick has joined since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from teocalli.core import IllegalAction, InvalidAction

from . import search
from .actions import PASS, Action, Colour, Pass, Place
from .balance import Stick
from .components import HALF_LENGTHS, HALF_WIDTH, NUM_COLOURS, SPEC
from .geometry import Array, Mask, axis, clip, quads, sat_hits
from .rules import TOL, Footprints, Touch, piled, settle, touches

if TYPE_CHECKING:
    from .state import StackBackState

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
    xb = np.clip((x10 - _X010) // _BIN10, 0, X_BINS - 1)
    yb = np.clip((y10 - _Y010) // _BIN10, 0, Y_BINS - 1)
    out: npt.NDArray[np.int64] = ((colour * A_BINS + a10 // _ABIN10) * X_BINS + xb) * Y_BINS + yb
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
    cx: Array
    cy: Array
    ux: Array
    uy: Array
    half: Array


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
    return Wood(colour, x10, y10, a10, bins[order], ranks[order], x10 / 10, y10 / 10,
                dirs[:, 0].copy(), dirs[:, 1].copy(), half)  # fmt: skip


_COVERS: dict[Place, npt.NDArray[np.intp]] = {}
_COVERS_MAX = 5_000


def _covers(stick: Stick) -> npt.NDArray[np.intp]:
    """The wood lattice poses a stick's footprint touches (overlap above the tolerance, clipped
    as `rules.touches` clips): a function of its pose, kept per pose."""
    known = _COVERS.get(stick.pose)
    if known is not None:
        return known
    w = wood()
    reach = stick.half + float(w.half.max()) + 2 * HALF_WIDTH
    near = np.nonzero((np.abs(w.cx - stick.cx) < reach) & (np.abs(w.cy - stick.cy) < reach))[0]
    one = (np.array([stick.cx]), np.array([stick.cy]), np.array([stick.ux]), np.array([stick.uy]),
           np.array([stick.half]))  # fmt: skip
    hit = sat_hits(w.cx[near], w.cy[near], w.ux[near], w.uy[near], w.half[near], *one)[:, 0]
    idx = near[hit]
    # shrunk by 1 mm and still meeting: they share a disc of radius 1 mm (> 3 mm²), no clipping
    k, deep = len(idx), search.DEEP
    sx, sy, vx, vy, sh = (np.repeat(v, k) for v in one)
    sure = search._sat_flat(w.cx[idx], w.cy[idx], w.ux[idx], w.uy[idx], w.half[idx] - deep,
                            HALF_WIDTH - deep, sx, sy, vx, vy, sh, deep)  # fmt: skip
    maybe = idx[~sure]
    if len(maybe):
        mine = quads(w.cx[maybe], w.cy[maybe], w.ux[maybe], w.uy[maybe], w.half[maybe])
        area, _ = clip(mine, np.repeat(quads(*one), len(maybe), axis=0))
        idx = np.sort(np.concatenate((idx[sure], maybe[area > TOL])))
    if len(_COVERS) >= _COVERS_MAX:
        _COVERS.clear()
    _COVERS[stick.pose] = idx
    return idx


def _free_wood(state: StackBackState, supply: list[int]) -> npt.NDArray[np.intp]:
    """Indices into `wood()` of the poses legal on the wood now, in snap order."""
    w = wood()
    free = np.array([supply[c] > 0 for c in range(NUM_COLOURS)])[w.colour]
    for stick in state.sticks:
        free[_covers(stick)] = False
    out: npt.NDArray[np.intp] = np.nonzero(free)[0]
    return out


# --- piles: the search's pair poses, judged bin by bin ------------------------------------------
Lattice = tuple[int, int, int, int]
"""A lattice pose as (colour, x10, y10, a10)."""


_MARGIN = SPEC.margin - 1e-6


def _may_stand(pp: search.PairPoses, keep: npt.NDArray[np.intp], a: Stick, b: Stick) -> Mask:
    """Which of the pair's poses `keep` could stand: a new stick carries nothing, so its centre
    must lie at least the margin (1 mm) inside its support polygon, the hull of its contacts
    (the balance ruling; the beam model's span between contact centroids lies inside it). The
    contacts lie within the supports' footprints, so the centre must lie that far inside their
    extent along the stick's axis: a bound that only skips poses the rules refuse."""
    x, y, ux, uy = pp.x[keep], pp.y[keep], pp.ux[keep], pp.uy[keep]
    lo = np.full(len(keep), np.inf)
    hi = np.full(len(keep), -np.inf)
    for s in (a, b):
        d = (s.cx - x) * ux + (s.cy - y) * uy
        r = s.half * np.abs(s.ux * ux + s.uy * uy) + HALF_WIDTH * np.abs(s.ux * uy - s.uy * ux)
        lo, hi = np.minimum(lo, d - r), np.maximum(hi, d + r)
    out: Mask = (lo <= -_MARGIN) & (hi >= _MARGIN)
    return out


Structure = tuple[tuple[Place, ...], ...]
"""The sticks a pile's verdict depends on: the poses of the structures (sticks linked by resting
on one another) holding each of its two supports, in placing order."""


def _structures(sticks: Sequence[Stick]) -> list[tuple[Place, ...]]:
    """Per stick, the poses of its structure (sticks linked to it by resting), in placing order."""
    root = list(range(len(sticks)))

    def find(k: int) -> int:
        while root[k] != k:
            root[k] = root[root[k]]
            k = root[k]
        return k

    for k, s in enumerate(sticks):
        for t in s.supports:
            root[find(k)] = find(t)
    members: dict[int, list[Place]] = {}
    for k, s in enumerate(sticks):
        members.setdefault(find(k), []).append(s.pose)
    keys = {r: tuple(m) for r, m in members.items()}
    return [keys[find(k)] for k in range(len(sticks))]


def _pile_poses(
    state: StackBackState, player: int
) -> tuple[npt.NDArray[np.int64], list[Structure]]:
    """Every lattice pose the search would judge as a pile now, in a bin: rows of (bin, rank,
    colour, x10, y10, a10, pair), and per pair the structures holding its supports."""
    sticks, layout, floor = state.sticks, state.layout, state.floor[player]
    supply = state.supply[player]
    levels = np.array(layout.levels, dtype=np.int64)
    parts: list[npt.NDArray[np.int64]] = []
    pairs: list[Structure] = []
    structures = _structures(sticks)
    for colour in range(NUM_COLOURS):
        if supply[colour] <= 0:
            continue
        by_level: dict[int, list[int]] = {}
        for i, s in enumerate(sticks):
            if s.level + 1 >= floor and s.colour != colour and not state.carries[i] >> colour & 1:
                by_level.setdefault(s.level, []).append(i)
        for level, group in sorted(by_level.items()):
            others_all = np.nonzero(levels >= level)[0]
            for i, j in search._reaching(sticks, group, colour):
                if (i, j, colour) in state.dead_pairs:
                    continue
                pp = search.pair_poses(sticks[i], sticks[j], colour)
                if not len(pp.x):
                    continue
                others = others_all[(others_all != i) & (others_all != j)]
                keep = _pair_keep(state, pp, (i, j), colour, others)
                if len(keep):
                    x10, y10, a10 = pp.x10[keep], pp.y10[keep], pp.a10[keep]
                    bins, ranks = _bins(colour, x10, y10, a10), _ranks(x10, y10, a10)
                    c = np.full(len(keep), colour, dtype=np.int64)
                    pair = np.full(len(keep), len(pairs), dtype=np.int64)
                    parts.append(np.stack((bins, ranks, c, x10, y10, a10, pair), axis=1))
                    si, sj = structures[i], structures[j]
                    pairs.append((si,) if si is sj else (si, sj))
    if not parts:
        return np.zeros((0, 7), dtype=np.int64), pairs
    rows = np.concatenate(parts)
    out: npt.NDArray[np.int64] = rows[rows[:, 0] >= 0]
    return out, pairs


_KEEP: dict[tuple[Place, Place, int], tuple[tuple[Place, ...], npt.NDArray[np.intp]]] = {}
"""Per pair of supports and colour: the poses (indices into its `PairPoses`) that rest on both,
may stand and touch none of the other sticks listed with them (their poses, in placing order),
kept across positions. Sticks are only ever added, each after those before it, so at a later
position of the same game the others of a pair's level extend that list: only the new ones are
clipped against the poses left. Keyed by poses, so any state (a clone, a determinized world,
another game) finds only entries made with the same sticks."""
_KEEP_MAX = 20_000


def _pair_keep(
    state: StackBackState,
    pp: search.PairPoses,
    pair: tuple[int, int],
    colour: int,
    others: npt.NDArray[np.intp],
) -> npt.NDArray[np.intp]:
    """The poses of `pp` that rest on the sticks `pair`, may stand, and touch none of the
    sticks `others` (rows of the state's layout). The three filters are per pose, so their
    order does not change the result: at a pair's first visit they run as the search runs
    them, and along a game only the touch test runs again, against the sticks added since the
    pair's last visit, on the poses left."""
    sticks, (i, j) = state.sticks, pair
    key = (sticks[i].pose, sticks[j].pose, colour)
    seen = tuple(sticks[k].pose for k in others.tolist())
    known = _KEEP.get(key)
    if known is not None and seen[: len(known[0])] == known[0]:
        keep, new = known[1], others[len(known[0]) :]
        if not len(new):
            return keep
        if len(keep):
            keep = keep[~search._touching(pp, keep, state.layout, new)]
    else:  # the touch test first: it is the cheapest per pose, and `_rests` clips each it keeps
        keep = np.arange(len(pp.x))
        if len(others):
            keep = keep[~search._touching(pp, keep, state.layout, others)]
        if len(keep):
            keep = search._rests(pp, keep)
        if len(keep):
            keep = keep[_may_stand(pp, keep, sticks[i], sticks[j])]
    if len(_KEEP) >= _KEEP_MAX:
        _KEEP.clear()
    _KEEP[key] = (seen, keep)
    return keep


_VERDICTS: dict[tuple[Lattice, Structure], bool] = {}
"""Whether a pile pose is legal, by the pose and the structures holding its two supports (see
`_PileJudge`), kept across positions: a pose a pair's structures were judged with keeps its
verdict until a stick joins one of them."""
_VERDICTS_MAX = 200_000


class _PileJudge:
    """Pile poses judged as `StackBackState.judge` judges them (as `candidates.pile_moves`
    judges its bridges), the touches of a batch of poses found at once.

    A pose that passed `_pile_poses`' filters (it rests 6 x 6 mm on both supports and touches no
    other stick of their level or above; its colour is in the supply, differs from both and
    neither carries it; the level rule lets it in) is judged by what the supports rest on and
    carry: its level and supports, the colours they carry and the balance of the structures that
    hold them. So its verdict is a function of the pose and the poses of those structures, in
    placing order, and is kept by them (`_VERDICTS`): sticks placed elsewhere leave it alone."""

    def __init__(self, state: StackBackState, player: int) -> None:
        self.state, self.player = state, player

    def legal(self, lattices: list[Lattice], structures: list[Structure]) -> list[bool]:
        """Whether each pose (on supports held by those structures) is legal now."""
        state = self.state
        memo = _VERDICTS
        out: list[bool | None] = [memo.get(k) for k in zip(lattices, structures, strict=True)]
        todo = [k for k, v in enumerate(out) if v is None]
        if not todo:
            return [bool(v) for v in out]
        if len(memo) + len(todo) > _VERDICTS_MAX:
            memo.clear()
        places = [Place(Colour(c), x, y, a) for c, x, y, a in (lattices[k] for k in todo)]
        feet = replace(Footprints.of(places), keys=None)  # a batch: clipped at once, not memoised
        for k, place, touched in zip(todo, places, touches(state.layout, feet), strict=True):
            ok = self._judge(place, touched)
            out[k] = memo[lattices[k], structures[k]] = ok
        return [bool(v) for v in out]

    def _judge(self, place: Place, touched: list[Touch]) -> bool:
        state, player = self.state, self.player
        if not touched or state.supply[player][place.colour] <= 0:
            return not isinstance(state.judge(place, player), str)
        stick = piled(place, player, touched, state.sticks, state.carries)
        if isinstance(stick, str) or stick.level < state.floor[player]:
            return False
        return not isinstance(settle(stick, state.sticks, state.force, state.moment), str)


# --- the table of a position --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Table:
    """The mask and snaps of one player at one step: `ids` sorted, `snaps[id]` its pose."""

    step: int
    player: int
    ids: tuple[int, ...]
    snaps: dict[int, Action]


def table(state: StackBackState, player: int) -> Table:
    """The ids `player` may play now and the pose each plays (kept until the state changes)."""
    known = state._id_table
    if known is not None and known.step == len(state.history) and known.player == player:
        return known
    made = _table(state, player)
    state._id_table = made
    return made


def _table(state: StackBackState, player: int) -> Table:
    step = len(state.history)
    candidates = state.legal_actions(player)
    if candidates == [PASS]:
        return Table(step, player, (PASS_ID,), {PASS_ID: PASS})
    snaps: dict[int, Action] = {}
    for action in candidates:
        assert isinstance(action, Place), action
        b = bin_of(action.colour, action.x10, action.y10, action.a10)
        if b not in snaps:
            snaps[b] = action
    # the lattice: per bin, its poses nearest the centre first (a free wood pose needs no
    # judgement; at equal rank it comes first), judged in rounds (each open bin's next pose), a
    # bin closing at its first legal pose, so only the poses up to each snap are judged
    w = wood()
    free = _free_wood(state, state.supply[player])
    fb = w.bins[free]
    first = np.ones(len(fb), dtype=bool)
    first[1:] = fb[1:] != fb[:-1]  # `wood()` is in snap order: a bin's first is its best
    wk = free[first]
    piles, structures = _pile_poses(state, player)
    kind = np.concatenate((np.zeros(len(wk), np.int64), np.ones(len(piles), np.int64)))
    bins = np.concatenate((w.bins[wk], piles[:, 0]))
    ranks = np.concatenate((w.ranks[wk], piles[:, 1]))
    row = np.concatenate((wk, np.arange(len(piles))))  # into wood(), or into piles
    tie = np.concatenate((np.zeros(len(wk), np.int64), np.arange(len(piles))))
    taken = np.array(sorted(snaps), dtype=np.int64)
    open_ = ~np.isin(bins, taken)
    order = np.lexsort((tie, kind, ranks, bins))
    order = order[open_[order]]
    bins, kind, row = bins[order], kind[order], row[order]
    start = np.ones(len(bins), dtype=bool)
    start[1:] = bins[1:] != bins[:-1]
    heads = np.nonzero(start)[0]
    depth = np.arange(len(bins)) - np.repeat(heads, np.diff(np.append(heads, len(bins))))
    judge = _PileJudge(state, player)
    for d in range(int(depth.max()) + 1 if len(depth) else 0):
        at = np.nonzero(depth == d)[0]
        at = at[~np.isin(bins[at], np.fromiter(snaps, np.int64, len(snaps)))]
        if not len(at):
            continue
        woods = at[kind[at] == 0]
        for b, k in zip(bins[woods].tolist(), row[woods].tolist(), strict=True):
            snaps[b] = Place(Colour(int(w.colour[k])), int(w.x10[k]), int(w.y10[k]),
                             int(w.a10[k]))  # fmt: skip
        tried = at[kind[at] == 1]
        chosen = piles[row[tried]]
        lattices = [(int(c), int(x), int(y), int(a)) for c, x, y, a in chosen[:, 2:6].tolist()]
        held = [structures[k] for k in chosen[:, 6].tolist()]
        verdicts = judge.legal(lattices, held)
        for b, lat, ok in zip(bins[tried].tolist(), lattices, verdicts, strict=True):
            if ok:
                snaps[b] = Place(Colour(lat[0]), lat[1], lat[2], lat[3])
    return Table(step, player, tuple(sorted(snaps)), snaps)


def legal_ids(state: StackBackState, player: int) -> list[int]:
    """The mask: ids whose bin holds a legal pose now (or `pass` alone), sorted."""
    return list(table(state, player).ids)


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
    found = table(state, player).snaps.get(index)
    if found is None:
        colour, ab, xb, yb = parts(index)
        raise IllegalAction(
            f"action id {index} names no legal pose now: no {Colour(colour).name.lower()} stick "
            f"fits centred at x {_span(xb, X0_MM, X_BINS)} mm, y {_span(yb, Y0_MM, Y_BINS)} mm, "
            f"at {ab * BIN_DEG}-{(ab + 1) * BIN_DEG} degrees (see the action mask)"
        )
    return found


__all__ = ["NUM_IDS", "PASS_ID", "bin_of", "from_int", "legal_ids", "snap", "table", "to_int"]
