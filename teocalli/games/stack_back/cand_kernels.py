"""Compiled piled candidates (docs/games/stack-back.md, "Compiled piled candidates").

`candidates.pile_moves` judged each bridge in Python: its touches, `rules.piled`, its support
polygon, then `balance.try_add` passing its weight down with complex numbers. Here the whole
pipeline is two compiled calls per position: `bridge_poses` (the bridges of every pair of
supports within reach, as `candidates._pair` makes them) and `judge_bridges` (what each touches,
the piled rules, the support polygon and the balance); Python only builds the legal candidates.

Every step does the floating-point operations of the Python it stands for, in the same order
(no `fastmath`): the complex products and quotients of balance.py are written out as CPython
computes them (a float times a complex is (f x - 0 y, f y + 0 x), a complex over a float is
((x + 0 y) / f, (y - 0 x) / f): the same bits but for the sign of a zero). Two things cannot be
matched bit for bit: `math.hypot` (CPython's own algorithm, not the C library's `hypot` numba
calls); so a pair whose distances lie within 1e-9 mm of a threshold they are compared with (the
reach, 1 mm, a colour's length less 6 mm) is handed back to Python (`unsure`), which decides it
with `candidates._pair` as before. tests/games/stack_back/test_sb_cand_kernels.py compares the
results with the Python rules along seeded games, and `--hashes` is unchanged.
"""

from __future__ import annotations

import math

import numba
import numpy as np
import numpy.typing as npt

from .geom_kernels import MOST, WORK, W, clip, clip_both, clip_into, hull_edges, quad, sat_eps
from .list_kernels import Mask, merged

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

SKIP, REFUSED, FALLS, LEGAL, UNSURE = 0, 1, 2, 3, 4
"""`judge_bridges`' verdicts: not judged (it does not touch exactly two sticks of the highest
level it touches, or that level is below the floor), refused by `rules.piled`, would make a stick
fall, legal; `pass_down` also answers UNSURE (a margin within `delta` of the threshold)."""
NEW = -1
"""The stick that falls, when it is the new one (as `balance.NEW`)."""
EDGES = 24
"""Room for a support polygon's edges (the hull of two clipped rectangles: at most 16)."""


@numba.njit(cache=True, error_model="numpy")
def _cell(  # noqa: PLR0917 - a pose in steps, the lattice's cells
    xr: np.int64, yr: np.int64, ar: np.int64, xc: int, yc: int, ac: int
) -> np.int64:
    """`actions.lattice_index` of colour 0 (add colour x `_colour_stride` for the others) of
    the pose at x = xr, y = yr steps and the angle ar angle steps (folded into the half turn),
    -1 off the lattice of xc x yc cells and ac angle cells. The pose `_pair` rounds to is on
    the lattice's steps already: no remainders to test. Scalars, not the cells array, and one
    return: an array argument of an inlined helper with two exits keeps its reference counts
    (atomic increments) inside the caller's loop."""
    cell = np.int64(-1)
    if 0 <= xr < xc and 0 <= yr < yc:
        cell = ((ar % ac) * xc + xr) * yc + yr
    return cell


@numba.njit(cache=True, error_model="numpy")
def _colour_stride(cells: Ints) -> int:
    """How far apart the same pose in two successive colours lies in `lattice_index`."""
    return cells[4] * cells[2] * cells[3]


@numba.njit(cache=True, error_model="numpy")
def _exact_reach(dx: float, dy: float, t: float) -> int:
    """Whether hypot(dx, dy) <= t as `math.hypot` decides it (1 yes, 0 no), where it can be
    told exactly: dx, dy and t whole numbers below 2^26 (the wood lattice's whole millimetres),
    so that the squares are exact and a faithfully rounded hypot is at most t exactly when
    dx² + dy² <= t² (a whole number above t² is at least 1 / (2t + 1) beyond t, far more than a
    rounding); -1 where it cannot tell (the caller asks Python). With dx or dy 0 both the C
    library's and CPython's hypot give the other's magnitude exactly."""
    if dx == 0.0 or dy == 0.0:
        return 1 if abs(dx) + abs(dy) <= t else 0
    for v in (dx, dy, t):
        if v != np.floor(v) or abs(v) >= 67108864.0:
            return -1
    return 1 if dx * dx + dy * dy <= t * t else 0


@numba.njit(cache=True, error_model="numpy")
def _same_hypot(dx: float, dy: float, t: float) -> bool:
    """Whether `math.hypot(dx, dy)` and the C library's hypot surely fall on the same side of
    the whole number t: dx or dy 0 (both give the other's magnitude exactly), or dx, dy whole
    numbers below 2^26 (`_exact_reach`: the hypot is then t exactly or far from it)."""
    return _exact_reach(dx, dy, t) >= 0


@numba.njit(cache=True, error_model="numpy")
def _half_turn(deg: float) -> float:
    """`deg % 180` as Python computes it (`fmod`, then 180 added to a negative remainder, +0.0
    for a zero one), without `fmod` for the degrees `atan2` gives (-180 to 180): fmod leaves
    those unchanged but 180 and -180 (zero); anything else through `%`."""
    if 0.0 < deg < 180.0:
        return deg
    if -180.0 < deg < 0.0:
        return deg + 180.0
    if deg in (0.0, 180.0, -180.0):
        return 0.0
    return deg % 180


@numba.njit(cache=True, error_model="numpy")
def _pair(  # noqa: PLR0917 - two sticks, the lattice, the colours wanted, where to write
    i: int, j: int, cx: Array, cy: Array, ux: Array, uy: Array, half: Array, lengths: Array,
    offsets: Array, cells: Ints, allowed: int, out: Ints,
) -> bool:  # fmt: skip
    """`candidates._pair` for sticks i and j, in the colours of `allowed` (bits): per offset k,
    out[k, c] the dense index of the bridge a stick of colour c may make (-1: none: not
    allowed, too short, off the lattice, the ends nearer than 1 mm). False where a distance
    lies within 1e-9 of 1 mm or of an allowed colour's length less 6 mm and `_same_hypot`
    cannot tell that `math.hypot` decides it alike (Python decides). An offset no allowed
    colour spans costs no `atan2`. The distance is only compared with those thresholds:
    sqrt(ex² + ey²) lies within 1e-13 of `math.hypot`'s (three roundings of 2^-53 against one
    unit in the last place, at most some 300 mm), so it is compared alike with every threshold
    it lies 1e-8 or more from (the comparisons' own roundings are below 1e-14); near one,
    `math.hypot` (the C library's call, several times a square root's cost) as before."""
    step10, astep10, xc, yc, ac = cells[0], cells[1], cells[2], cells[3], cells[4]
    stride = _colour_stride(cells)
    turn = -1.0 if ux[i] * ux[j] + uy[i] * uy[j] < 0 else 1.0
    for k in range(len(offsets)):
        f = offsets[k]
        for c in range(len(lengths)):  # (a slice would make a view: a reference count)
            out[k, c] = -1
        pax = cx[i] + f * (half[i] - 3) * ux[i]
        pay = cy[i] + f * (half[i] - 3) * uy[i]
        pbx = cx[j] + f * turn * (half[j] - 3) * ux[j]
        pby = cy[j] + f * turn * (half[j] - 3) * uy[j]
        ex, ey = pbx - pax, pby - pay
        dist = math.sqrt(ex * ex + ey * ey)  # within 1e-13 of math.hypot's (see above)
        near = abs(dist - 1.0) < 1e-8
        for c in range(len(lengths)):
            near = near or (((allowed >> c) & 1) == 1 and abs(dist - (lengths[c] - 6)) < 1e-8)
        if near:
            dist = math.hypot(ex, ey)
        if abs(dist - 1.0) < 1e-9 and not _same_hypot(ex, ey, 1.0):
            return False
        spans = False
        for c in range(len(lengths)):
            if not (allowed >> c) & 1:
                continue
            if abs(dist + 6 - lengths[c]) < 1e-9 and not _same_hypot(ex, ey, lengths[c] - 6):
                return False
            spans = spans or not dist + 6 > lengths[c]
        if dist < 1.0 or not spans:
            continue
        xr = np.int64(np.rint((pax + pbx) / 2 * 10 / step10))  # x10 = xr x step10, and so on
        yr = np.int64(np.rint((pay + pby) / 2 * 10 / step10))
        deg = _half_turn(math.degrees(math.atan2(pby - pay, pbx - pax)))
        cell = _cell(xr, yr, np.int64(np.rint(deg * 10 / astep10)), xc, yc, ac)
        if cell < 0:
            continue
        for c in range(len(lengths)):
            if (allowed >> c) & 1 and not dist + 6 > lengths[c]:
                out[k, c] = c * stride + cell
    return True


@numba.njit(cache=True, error_model="numpy")
def _shell_sort(a: Ints, n: int) -> None:
    """Sort a[:n] in place (a few hundred pose indices: short code, quick to compile)."""
    for gap in (701, 301, 132, 57, 23, 10, 4, 1):
        for i in range(gap, n):
            v = a[i]
            j = i
            while j >= gap and a[j - gap] > v:
                a[j] = a[j - gap]
                j -= gap
            a[j] = v


@numba.njit(cache=True, error_model="numpy")
def _gap(dx: float, dy: float, ha: float, hb: float, limits: Array) -> tuple[float, bool]:
    """The distance between two sticks' ends (`math.hypot(dx, dy) - ha - hb`) and whether it
    surely falls on the side of each of `limits` that `math.hypot` puts it (`_exact_reach`)."""
    gap = math.hypot(dx, dy) - ha - hb
    for t in limits:
        if abs(gap - t) < 1e-6 and _exact_reach(dx, dy, t + ha + hb) < 0:
            return gap, False
    return gap, True


@numba.njit(cache=True, error_model="numpy")
def _beyond(gap: float, ha: float, hb: float, most: float, reach: float) -> bool:
    """Whether no bridge of length at most `reach` + 6 can join two sticks whose ends lie `gap`
    apart (half-lengths ha, hb): a bridge runs between points at most `most` (the largest
    |pile offset|) x (half - 3) from the supports' centres, so it spans at least
    gap + ha + hb - that; 1 mm of room, far more than a rounding of `gap`."""
    return gap + ha + hb - most * (abs(ha - 3) + abs(hb - 3)) > reach + 1.0


@numba.njit(cache=True, error_model="numpy")
def _far(  # noqa: PLR0917 - two sticks
    dx: float, dy: float, ha: float, hb: float, most: float, reach: float
) -> bool:
    """`_beyond` for centres (dx, dy) apart told without a square root (gap + ha + hb is the
    centres' distance), with 1 mm more of room: a pair it rules out `_beyond` rules out."""
    d = reach + 2.0 + most * (abs(ha - 3) + abs(hb - 3))
    return dx * dx + dy * dy > d * d


@numba.njit(cache=True, error_model="numpy")
def _bridges(  # noqa: PLR0917 - the sticks, what the player may use, the lattice
    cx: Array, cy: Array, ux: Array, uy: Array, half: Array, levels: Ints, refuses: Ints,
    have: int, floor: int, lengths: Array, offsets: Array, cells: Ints,
) -> tuple[Ints, int, Ints]:  # fmt: skip
    """The bridging poses to try (`candidates.bridge_index`), in out[:m] (a pose two pairs
    make comes twice: `_once` sorts them and keeps each once): for every two sticks of one level
    at or above the floor less one whose ends lie within the reach of the longest colour the
    player holds (`have`: bits), the bridges `_pair` makes, in the colours held that neither
    refuses (`refuses`: bits per stick). And the pairs (rows i, j) with a distance within a
    rounding of a threshold (`math.hypot` may round it otherwise): Python decides those. A pair
    no colour may bridge is skipped, and so is one no bridge of an allowed colour can span
    (`_beyond`)."""
    n = len(cx)
    limit = 0.0
    for c in range(len(lengths)):
        if (have >> c) & 1:
            limit = max(limit, lengths[c] - 6)
    most = 0.0
    for f in offsets:
        most = max(most, abs(f))
    out = np.empty(max(n * (n - 1) // 2, 1) * len(offsets) * len(lengths), dtype=np.int64)
    m = 0
    unsure = np.empty((max(n * (n - 1) // 2, 1), 2), dtype=np.int64)
    u = 0
    made = np.empty((len(offsets), len(lengths)), dtype=np.int64)
    limits = np.array([limit])
    for i in range(n):
        if levels[i] + 1 < floor:
            continue
        for j in range(i + 1, n):
            if levels[j] != levels[i]:
                continue
            allowed = have & ~(refuses[i] | refuses[j])
            if allowed == 0:
                continue
            reach = 0.0
            for c in range(len(lengths)):
                if (allowed >> c) & 1:
                    reach = max(reach, lengths[c] - 6)
            dx, dy = cx[j] - cx[i], cy[j] - cy[i]
            if _far(dx, dy, half[i], half[j], most, reach):
                continue
            gap, sure = _gap(dx, dy, half[i], half[j], limits)
            if sure and not gap <= limit:
                continue
            if _beyond(gap, half[i], half[j], most, reach):
                continue
            if not (sure and _pair(i, j, cx, cy, ux, uy, half, lengths, offsets, cells, allowed,
                                   made)):  # fmt: skip
                unsure[u, 0], unsure[u, 1] = i, j
                u += 1
                continue
            for k in range(len(offsets)):
                for c in range(len(lengths)):
                    if made[k, c] >= 0:
                        out[m] = made[k, c]
                        m += 1
    return out, m, unsure[:u]


@numba.njit(cache=True, error_model="numpy")
def _once(a: Ints, n: int) -> int:
    """Sort a[:n] and keep each value once, in a[:count]; returns count."""
    _shell_sort(a, n)
    count = 0
    for k in range(n):
        if count == 0 or a[k] != a[count - 1]:
            a[count] = a[k]
            count += 1
    return count


@numba.njit(cache=True, error_model="numpy")
def bridge_poses(  # noqa: PLR0917 - the sticks, what the player may use, the lattice
    cx: Array, cy: Array, ux: Array, uy: Array, half: Array, levels: Ints, refuses: Ints,
    have: int, floor: int, lengths: Array, offsets: Array, cells: Ints,
) -> tuple[Ints, Ints]:  # fmt: skip
    """`_bridges`' poses (sorted, each once) and its unsure pairs."""
    out, m, unsure = _bridges(cx, cy, ux, uy, half, levels, refuses, have, floor, lengths,
                              offsets, cells)  # fmt: skip
    return out[: _once(out, m)], unsure


@numba.njit(cache=True, error_model="numpy")
def pair_rows(  # noqa: PLR0917 - the sticks, where the new ones start, the lattice
    cx: Array, cy: Array, ux: Array, uy: Array, half: Array, levels: Ints, start: int,
    limits: Array, lengths: Array, offsets: Array, cells: Ints,
) -> tuple[Ints, Array, Ints]:  # fmt: skip
    """The rows `piles._new_rows` adds for the sticks from `start` on: per pair (i, j), i < j, j
    from `start` on, of one level, whose ends lie at most limits[0] apart, per colour, per
    offset, a bridge `_pair` makes: (i, j, level, colour, pose index) and the gap. And the pairs
    with a gap or a distance within a rounding of a threshold (any of `limits`: the reach of
    each colour; Python decides those)."""
    n = len(cx)
    most = max((n - start) * n, 1)
    rows = np.empty((most * len(offsets) * len(lengths), 5), dtype=np.int64)
    gaps = np.empty(most * len(offsets) * len(lengths))
    m = 0
    unsure = np.empty((most, 2), dtype=np.int64)
    u = 0
    made = np.empty((len(offsets), len(lengths)), dtype=np.int64)
    every = (1 << len(lengths)) - 1
    most_f = 0.0
    for f in offsets:
        most_f = max(most_f, abs(f))
    for j in range(start, n):
        for i in range(j):
            if levels[i] != levels[j]:
                continue
            dx, dy = cx[j] - cx[i], cy[j] - cy[i]
            if _far(dx, dy, half[i], half[j], most_f, limits[0]):
                continue
            gap, sure = _gap(dx, dy, half[i], half[j], limits)
            if sure and not gap <= limits[0]:
                continue
            if _beyond(gap, half[i], half[j], most_f, limits[0]):
                continue
            if not (sure and _pair(i, j, cx, cy, ux, uy, half, lengths, offsets, cells, every,
                                   made)):  # fmt: skip
                unsure[u, 0], unsure[u, 1] = i, j
                u += 1
                continue
            for c in range(len(lengths)):
                for k in range(len(offsets)):
                    if made[k, c] >= 0:
                        rows[m, 0], rows[m, 1], rows[m, 2] = i, j, levels[i]
                        rows[m, 3], rows[m, 4] = c, made[k, c]
                        gaps[m] = gap
                        m += 1
    return rows[:m], gaps[:m], unsure[:u]


@numba.njit(cache=True, error_model="numpy")
def _split(  # noqa: PLR0917 - a stick's two contacts and its load
    ax: float, ay: float, bx: float, by: float, f: float, mx: float, my: float, out: Array
) -> None:
    """`balance.split` (shares on the two contacts, landing points relative to the stick's
    centre): out = (share a, at a x, y, share b, at b x, y); CPython's complex arithmetic."""
    px = (mx + my * 0.0) / f
    py = (my - mx * 0.0) / f
    dx, dy = bx - ax, by - ay
    span = dx * dx - dy * -dy
    if span < 1e-12:
        out[0], out[1], out[2], out[3], out[4], out[5] = f / 2, px, py, f / 2, px, py
        return
    s = ((px - ax) * dx - (py - ay) * -dy) / span
    if s <= 0.0:
        out[0], out[1], out[2], out[3], out[4], out[5] = f, px, py, 0.0, px, py
    elif s >= 1.0:
        out[0], out[1], out[2], out[3], out[4], out[5] = 0.0, px, py, f, px, py
    else:
        ox = px - (ax + (s * dx - 0.0 * dy))
        oy = py - (ay + (s * dy + 0.0 * dx))
        out[0], out[1], out[2] = f * (1.0 - s), ax + ox, ay + oy
        out[3], out[4], out[5] = f * s, bx + ox, by + oy


@numba.njit(cache=True, error_model="numpy")
def depth(poly: Array, count: int, px: float, py: float) -> float:
    """`support.depth`: how far (px, py) lies inside the edges poly[:count] (nx, ny, c)."""
    return _depth_of(poly.reshape((1, len(poly), 3)), 0, count, px, py)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _depth_of(polys: Array, k: int, count: int, px: float, py: float) -> float:
    """`depth` of polygon polys[k], read in place and inlined: a view of it, or a call that
    may raise, made numba keep an atomic reference count of each of `pass_down`'s 12 arrays."""
    best = -np.inf if count == 0 else np.inf
    for e in range(count):
        best = min(best, polys[k, e, 2] - polys[k, e, 0] * px - polys[k, e, 1] * py)
    return best


@numba.njit(cache=True, error_model="numpy")
def pass_down(  # noqa: PLR0917 - the new stick's first loads, the structure, scratch
    lev: int, sticks: Array, level: Ints, sup: Ints, cont: Array, poly: Array, npoly: Ints,
    load: Array, thr: float, delta: float,
    df: Array, dmx: Array, dmy: Array, inside: npt.NDArray[np.bool_], sh: Array,
) -> int:  # fmt: skip
    """`balance.try_add` after the new stick (level `lev`) passed its weight to its supports
    (df, dmx, dmy hold those loads, `inside` marks them): each stick beneath, level by level
    down, in index order, takes its new load; the first whose resultant lies less than `thr`
    inside its support polygon falls (its index is returned; -1 if none), and each that stands
    passes on the difference between its new split and its old one. UNSURE (as -2) where a
    margin lies within `delta` of `thr` (0: never). The sticks: rows of `sticks` (cx, cy, ...),
    `level`, supports `sup`, contact centroids `cont` (relative to the centre), support polygon
    edges `poly` (`npoly` of them), loads `load` (force, moment x, y)."""
    n = len(level)
    for lv in range(lev - 1, -1, -1):
        for k in range(n):
            if not inside[k] or level[k] != lv:
                continue
            f = load[k, 0] + df[k]
            mx, my = load[k, 1] + dmx[k], load[k, 2] + dmy[k]
            dk = _depth_of(poly, k, npoly[k], (mx + my * 0.0) / f, (my - mx * 0.0) / f)
            if abs(dk - thr) < delta:
                return -2
            if not dk >= thr:
                return k
            if sup[k, 0] < 0:
                continue
            for sign in (1.0, -1.0):
                if sign > 0:
                    _split(cont[k, 0, 0], cont[k, 0, 1], cont[k, 1, 0], cont[k, 1, 1], f, mx, my,
                           sh)  # fmt: skip
                else:
                    _split(cont[k, 0, 0], cont[k, 0, 1], cont[k, 1, 0], cont[k, 1, 1],
                           load[k, 0], load[k, 1], load[k, 2], sh)  # fmt: skip
                for t in range(2):
                    s = sup[k, t]
                    ff = sign * sh[3 * t]
                    df[s] += ff
                    dmx[s] += ff * (sticks[k, 0] + sh[3 * t + 1] - sticks[s, 0])
                    dmy[s] += ff * (sticks[k, 1] + sh[3 * t + 2] - sticks[s, 1])
                    inside[s] = True
    return -1


@numba.njit(cache=True, error_model="numpy")
def first_loads(  # noqa: PLR0917 - the new stick on its two supports
    i: int, j: int, cx: float, cy: float, weight: float, gix: float, giy: float, gjx: float,
    gjy: float, sticks: Array, df: Array, dmx: Array, dmy: Array, inside: npt.NDArray[np.bool_],
    sh: Array,
) -> None:  # fmt: skip
    """The new stick's weight on its supports i, j (contact centroids gi, gj relative to its
    centre (cx, cy)), as `balance._first` passes it: into df, dmx, dmy (cleared first)."""
    for k in range(len(df)):
        df[k] = 0.0
        dmx[k] = 0.0
        dmy[k] = 0.0
        inside[k] = False
    _split(gix, giy, gjx, gjy, weight, 0.0, 0.0, sh)
    for k in range(2):
        s = i if k == 0 else j
        f = sh[3 * k]
        df[s] += f
        dmx[s] += f * (cx + sh[3 * k + 1] - sticks[s, 0])
        dmy[s] += f * (cy + sh[3 * k + 2] - sticks[s, 1])
        inside[s] = True


Judged = tuple[npt.NDArray[np.int8], Ints, Array, Array, Ints, Ints, Ints, Array]
"""`judge_bridges`' answer: verdicts, supports and the stick that falls, contacts, polygons,
their edge counts, the loads passed down (`dstart`, `dstick`, `dval`)."""
Scratch = tuple[
    Array, Array, Array, Array, Array, Array, Array, Array, Array, npt.NDArray[np.bool_], Array
]
"""`balance_scratch`'s buffers."""


@numba.njit(cache=True, error_model="numpy")
def balance_scratch(n: int) -> Scratch:
    """The scratch buffers of a compiled judge of piles over `n` sticks, made once per call:
    a footprint `q`, `clip`'s `work`, the support polygon's points, hull edges, clips and hulls
    (`clip_into`, `hull_edges`), the loads passed down (`df`, `dmx`, `dmy`, `inside`) and a
    split `sh` (`first_loads`, `pass_down`)."""
    return (
        np.empty((4, 2)),
        np.empty(WORK),
        np.empty((2 * MOST, 2)),
        np.empty((2 * MOST, 3)),
        np.empty((5, MOST)),
        np.empty((3, 2 * MOST, 2)),
        np.zeros(n),
        np.zeros(n),
        np.zeros(n),
        np.zeros(n, dtype=np.bool_),
        np.empty(6),
    )


@numba.njit(cache=True, error_model="numpy")
def _by_level_and_x(sticks: Array, level: Ints) -> tuple[Ints, Array, Ints]:
    """The sticks grouped by level (level lv: order[starts[lv]:starts[lv + 1]]), each level by
    centre x (`xs`, ascending), for the judges' scan of the sticks near a pose."""
    n = len(level)
    top = level.max() if n else -1
    starts = np.zeros(top + 2, dtype=np.int64)
    for t in range(n):
        starts[level[t] + 1] += 1
    for lv in range(top + 1):
        starts[lv + 1] += starts[lv]
    order = np.empty(n, dtype=np.int64)
    xs = np.empty(n)
    fill = starts[:-1].copy()
    for t in range(n):  # insertion sort within the level
        lv = level[t]
        k = fill[lv]
        fill[lv] += 1
        x = sticks[t, 0]
        while k > starts[lv] and xs[k - 1] > x:
            xs[k], order[k] = xs[k - 1], order[k - 1]
            k -= 1
        xs[k], order[k] = x, t
    return order, xs, starts


@numba.njit(cache=True, error_model="numpy")
def _row(quads: Array, j: int, out: Array) -> None:
    """Copy footprint quads[j] into `out`."""
    for k in range(4):
        out[k, 0], out[k, 1] = quads[j, k, 0], quads[j, k, 1]


@numba.njit(cache=True, error_model="numpy")
def _seen(seen: Ints, nseen: int, j: int) -> int:
    """Where stick j is among the `nseen` sticks the scan clipped (-1: not clipped). The
    caller clips the others itself: a helper taking the scratch arrays and calling the clipper
    kept an atomic reference count of each array per call."""
    at = -1
    for k in range(nseen):
        if seen[k] == j:
            at = k
    return at


@numba.njit(cache=True, error_model="numpy")
def _judge(  # noqa: PLR0917 - the bridges, the sticks, the rules' numbers
    index: Ints, count: int, legal_only: bool, axes: Array, halves: Array, weights: Array,
    reaches: Array, cells: Ints, sticks: Array, sreach: Array, squads: Array, level: Ints,
    colours: Ints, carries: Ints, sup: Ints, cont: Array, poly: Array, npoly: Ints,
    load: Array, floor: int, tol: float, rest: float, thr: float, power: float, deep: float,
) -> tuple[Judged, Ints, Ints]:  # fmt: skip
    """The bridges index[:count] judged (`judge_bridges` says how), one row each, or with
    `legal_only` only the legal ones; and the rows' dense indices and levels. One loop for
    both callers: a function called per bridge would pass some 30 arrays each time."""
    n = len(level)
    code = np.zeros(count, dtype=np.int8)
    ab = np.full((count, 3), -1, dtype=np.int64)
    contacts = np.zeros((count, 4))
    edges = np.empty((count, EDGES, 3))  # rows written only as far as `nedge` says
    nedge = np.zeros(count, dtype=np.int64)
    dstart = np.zeros(count + 1, dtype=np.int64)
    kept = np.empty(count, dtype=np.int64)
    levels = np.empty(count, dtype=np.int64)
    cap = 64
    dstick = np.empty(cap, dtype=np.int64)
    dval = np.empty((cap, 3))
    nd = 0
    q, work, pts, hull, clips, hulls, df, dmx, dmy, inside, sh = balance_scratch(n)
    win = np.empty((4, 2))  # a stick's footprint, copied (a view would count references)
    seen = np.empty(4, dtype=np.int64)  # the sticks the scan clipped, and what it found
    seen_at = np.empty((4, 3))
    yc, xc, ac = cells[3], cells[2], cells[4]
    order, xs, starts = _by_level_and_x(sticks, level)
    # where a's and b's clipped vertices go in `pts`: numbers, not constants, so that numba
    # compiles `clip_both` and `clip_into` once each, not once per constant
    slot_a, slot_b = int(np.int64(0)), int(np.int64(MOST))
    wide = 0.01  # the scan's window: any stick whose circle meets the pose's lies within it
    for t in range(n):
        wide = max(wide, sreach[t])
    w = 0  # the row written
    for r in range(count):
        rest_, yi = divmod(index[r], yc)
        rest_, xi = divmod(rest_, xc)
        colour, ai = divmod(rest_, ac)
        cx, cy = (xi * cells[0]) / 10, (yi * cells[0]) / 10
        ux, uy, h = axes[ai, 0], axes[ai, 1], halves[colour]
        reach = reaches[colour]
        top, at_top, a, b = -1, 0, -1, -1
        filled = False
        nseen = 0
        for lv in range(len(starts) - 2, -1, -1):  # the highest level touched is the top
            lo, hi = starts[lv], starts[lv + 1]
            left = cx - (reach + wide + 0.01)
            while lo < hi:  # the first stick of the level at or right of `left`
                mid = (lo + hi) // 2
                if xs[mid] < left:
                    lo = mid + 1
                else:
                    hi = mid
            for o in range(lo, starts[lv + 1]):
                if xs[o] > cx + (reach + wide + 0.01) or at_top > 2:
                    break
                j = order[o]
                rr = reach + sreach[j]
                dx = sticks[j, 0] - cx
                dy = sticks[j, 1] - cy
                if not dx * dx + dy * dy < rr * rr + 1e-6:
                    continue
                if not sat_eps(cx, cy, ux, uy, h, sticks[j, 0], sticks[j, 1], sticks[j, 2],
                               sticks[j, 3], sticks[j, 4], W):  # fmt: skip
                    continue
                hit = sat_eps(cx, cy, ux, uy, h - deep, sticks[j, 0], sticks[j, 1],
                              sticks[j, 2], sticks[j, 3], sticks[j, 4] - deep,
                              W - deep)  # fmt: skip
                if not hit:
                    if not filled:
                        quad(cx, cy, ux, uy, h, W, q)
                        filled = True
                    _row(squads, j, win)
                    area, gx, gy = clip(q, win, work)
                    if nseen < 4:
                        seen[nseen] = j
                        seen_at[nseen, 0], seen_at[nseen, 1] = area, gx
                        seen_at[nseen, 2] = gy
                        nseen += 1
                    hit = area > tol
                if not hit:
                    continue
                top = lv
                at_top += 1
                if at_top == 1:
                    a = j
                elif at_top == 2:  # the supports in index order, as the rules list touches
                    a, b = min(a, j), max(a, j)
            if top >= 0:
                break
        verdict, falls, judged = SKIP, -1, False
        if not (top >= 0 and at_top == 2 and top + 1 >= floor):
            a = b = -1
        else:
            if not filled:
                quad(cx, cy, ux, uy, h, W, q)
            # a support the scan did not clip is clipped once for its area and its polygon
            # (`clip_both`: a's vertices at pts[0:], b's at pts[MOST:] until both are known)
            # (end -1: the scan clipped it for its area, its polygon is not made yet)
            ea, eb, ka, kb = -1, -1, _seen(seen, nseen, a), _seen(seen, nseen, b)
            if ka >= 0:
                area_a, gax, gay = seen_at[ka, 0], seen_at[ka, 1], seen_at[ka, 2]
            else:
                _row(squads, a, win)
                ea, area_a, gax, gay = clip_both(q, win, pts, slot_a, clips, work)
            if kb >= 0:
                area_b, gbx, gby = seen_at[kb, 0], seen_at[kb, 1], seen_at[kb, 2]
            else:
                _row(squads, b, win)
                eb, area_b, gbx, gby = clip_both(q, win, pts, slot_b, clips, work)
            verdict = REFUSED
            if (
                min(area_a, area_b) >= rest
                and colours[a] != colour
                and colours[b] != colour
                and not (carries[a] >> colour) & 1
                and not (carries[b] >> colour) & 1
            ):
                contacts[w, 0], contacts[w, 1] = gax - cx, gay - cy
                contacts[w, 2], contacts[w, 3] = gbx - cx, gby - cy
                if ea < 0:
                    _row(squads, a, win)
                    ea = clip_into(q, win, pts, slot_a, clips)
                if eb < 0:
                    _row(squads, b, win)
                    m = clip_into(q, win, pts, ea, clips)
                else:
                    for k in range(eb - MOST):
                        pts[ea + k, 0], pts[ea + k, 1] = pts[MOST + k, 0], pts[MOST + k, 1]
                    m = ea + eb - MOST
                ne = hull_edges(pts, m, cx, cy, power, hull, hulls)
                if ne > EDGES:  # never: the hull of two clipped rectangles has at most 16 edges
                    verdict = UNSURE
                else:
                    nedge[w] = ne
                    for e in range(ne):
                        edges[w, e, 0], edges[w, e, 1] = hull[e, 0], hull[e, 1]
                        edges[w, e, 2] = hull[e, 2]
                    if not depth(hull, ne, 0.0, 0.0) >= thr:
                        verdict, falls = FALLS, NEW
                    else:
                        first_loads(a, b, cx, cy, weights[colour], contacts[w, 0], contacts[w, 1],
                                    contacts[w, 2], contacts[w, 3], sticks, df, dmx, dmy, inside,
                                    sh)  # fmt: skip
                        falls = pass_down(top + 1, sticks, level, sup, cont, poly, npoly, load,
                                          thr, 0.0, df, dmx, dmy, inside, sh)  # fmt: skip
                        verdict = FALLS if falls >= 0 else LEGAL
                        judged = True
        if legal_only and verdict != LEGAL:
            nedge[w] = 0
            contacts[w, 0] = contacts[w, 1] = contacts[w, 2] = contacts[w, 3] = 0.0
            continue
        code[w], ab[w, 0], ab[w, 1], ab[w, 2] = verdict, a, b, falls
        kept[w], levels[w] = index[r], top + 1
        dstart[w] = nd
        for s in range(n if judged else 0):  # the loads passed down (so far, where one falls)
            if not inside[s]:
                continue
            if nd == cap:
                cap *= 2
                grown_s = np.empty(cap, dtype=np.int64)
                grown_v = np.empty((cap, 3))
                for k in range(nd):
                    grown_s[k] = dstick[k]
                    grown_v[k, 0], grown_v[k, 1], grown_v[k, 2] = dval[k, 0], dval[k, 1], dval[k, 2]
                dstick, dval = grown_s, grown_v
            dstick[nd] = s
            dval[nd, 0], dval[nd, 1], dval[nd, 2] = df[s], dmx[s], dmy[s]
            nd += 1
        w += 1
    dstart[w] = nd
    got = (code[:w], ab[:w], contacts[:w], edges[:w], nedge[:w], dstart[: w + 1], dstick[:nd],
           dval[:nd])  # fmt: skip
    return got, kept[:w], levels[:w]


@numba.njit(cache=True, error_model="numpy")
def _by_key(kept: Ints, levels: Ints) -> tuple[Ints, Ints, Ints]:
    """The rows of `kept` (dense indices, a few dozen) in index order, each index once: the
    indices, their levels and their rows (insertion sort)."""
    w = len(kept)
    rows = np.empty(w, dtype=np.int64)
    for k in range(w):
        r = k
        while r > 0 and kept[rows[r - 1]] > kept[k]:
            rows[r] = rows[r - 1]
            r -= 1
        rows[r] = k
    count = 0
    for k in range(w):  # a pose two pairs made: judged alike twice, kept once
        if count == 0 or kept[rows[k]] != kept[rows[count - 1]]:
            rows[count] = rows[k]
            count += 1
    out_index = np.empty(count, dtype=np.int64)
    out_levels = np.empty(count, dtype=np.int64)
    for k in range(count):
        out_index[k], out_levels[k] = kept[rows[k]], levels[rows[k]]
    return out_index, out_levels, rows[:count]


@numba.njit(cache=True, error_model="numpy")
def judge_bridges(  # noqa: PLR0917 - the bridges, the sticks, the rules' numbers
    index: Ints, axes: Array, halves: Array, weights: Array, reaches: Array, cells: Ints,
    sticks: Array, sreach: Array, squads: Array, level: Ints, colours: Ints, carries: Ints,
    sup: Ints, cont: Array, poly: Array, npoly: Ints, load: Array, floor: int,
    tol: float, rest: float, thr: float, power: float, deep: float,
) -> Judged:  # fmt: skip
    """Each bridge of `index` (dense pose indices: colour, angle `axes[a]`, x, y on `cells`)
    judged as `candidates.pile_moves` judges it: what it touches (`candidates.touch_table`:
    circumscribed circles, `reaches` per colour and `sreach` per stick, then the
    separating-axis test, shrunk by `deep`, else clipped above `tol`; the sticks scanned from
    the highest level down), whether it touches exactly two sticks of the highest level it
    touches, that level plus one at or above the floor (else SKIP); `rules.piled` (rest at
    least `rest` on both, a colour of neither, neither carries it); its support polygon
    (`support_edges`, lengths as `** power`); balance (`balance.try_add`: it stands `thr` inside
    its polygon, then `pass_down`).

    Returns per bridge: the verdict, the supports and the stick that falls (`ab`: a, b, fall),
    the contacts (gax, gay, gbx, gby relative to its centre), the polygon (`EDGES` rows, `nedge`
    of them); and the loads a legal one passes down (one that makes a stick beneath fall: those
    passed until then, what its verdict read), rows `dstart[r]` to `dstart[r + 1]` of `dstick`
    (the stick) and `dval` (force, moment x, y)."""
    got, _, _ = _judge(index, len(index), False, axes, halves, weights, reaches, cells, sticks,
                       sreach, squads, level, colours, carries, sup, cont, poly, npoly, load,
                       floor, tol, rest, thr, power, deep)  # fmt: skip
    return got


@numba.njit(cache=True, error_model="numpy")
def pile_candidates(  # noqa: PLR0917 - the sticks, what the player may use, the rules' numbers
    have: int, lengths: Array, offsets: Array, axes: Array, halves: Array, weights: Array,
    reaches: Array, cells: Ints, sticks: Array, sreach: Array, squads: Array, level: Ints,
    colours: Ints, carries: Ints, sup: Ints, cont: Array, poly: Array, npoly: Ints,
    force: Array, moment: npt.NDArray[np.complex128], floor: int, tol: float, rest: float,
    thr: float, power: float, deep: float, free: Mask, held: Mask, wood: Ints,
) -> tuple[Ints, Ints, Judged, Ints]:  # fmt: skip
    """The legal bridges from nothing in one call: `_bridges` (the poses to try; a stick
    refuses its colour and those it carries), then each judged as `judge_bridges` judges it,
    only the legal ones kept, then put in index order, each once (`_by_key`: sorting the few
    legal ones, not the poses tried). Returns the candidate list's order with the wood
    candidates `free` and `held` (`wood`: their keys; `list_kernels.merged`), the legal
    bridges as rows (dense index, row in `judge_bridges`' answer, level), that answer, and the
    unsure pairs of `_bridges` (if any, nothing is judged: the caller makes the poses with
    Python's `math.hypot` and calls `judge_bridges`). The sticks' loads come as `force` and
    `moment` (x + iy). Few arrays: each one returned costs a conversion."""
    n = len(level)
    refuses = np.empty(n, dtype=np.int64)
    load = np.empty((n, 3))  # force, moment x, y
    for s in range(n):
        refuses[s] = (1 << colours[s]) | carries[s]
        load[s, 0], load[s, 1], load[s, 2] = force[s], moment[s].real, moment[s].imag
    columns = sticks.T.copy()  # contiguous, as `pair_rows` passes them: `_pair` compiled once
    index, count, unsure = _bridges(columns[0], columns[1], columns[2], columns[3], columns[4],
                                    level, refuses, have, floor, lengths, offsets,
                                    cells)  # fmt: skip
    if len(unsure):
        count = 0
    got, kept, at = _judge(index, count, True, axes, halves, weights, reaches, cells, sticks,
                           sreach, squads, level, colours, carries, sup, cont, poly, npoly, load,
                           floor, tol, rest, thr, power, deep)  # fmt: skip
    legal, levels, rows = _by_key(kept, at)
    piled = np.empty((3, len(legal)), dtype=np.int64)
    piled[0], piled[1], piled[2] = legal, rows, levels
    return merged(free, held, wood, legal), piled, got, unsure
