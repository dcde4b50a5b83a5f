"""The pass search (search.py, free_space.py) against a slow exhaustive fine search, written
independently.

The engine offers `pass` only when its search over a 4 mm / 5 degree lattice finds no pose and
its free-space stage (free_space.py) finds none either. The search here looks on a 1 mm /
1 degree lattice, over every colour in the supply, every centre from 40 mm beyond the boards on
each side, every angle: on the wood and on any two sticks. It
shares none of search.py's code: it rasterises the sticks on a 1 mm grid as bit sets (one bit a
stick) and reads, along each pose's centre line (every 1 mm, at least 1 mm from its ends), which
sticks the pose surely touches (`sure`: a point more than 1 mm deep in a stick, so a disc of
radius 1 mm lies in both footprints, more than the 3 mm² tolerance) and which it may touch
(`near`: a stick within 3.9 mm of a point, which every stick sharing area with the footprint
is). A pose is dropped only when those sets prove the rules refuse it (three supports of one
level, one alone, a support of its colour or carrying it, below the level floor; on the wood,
its centre off both boards without crossing the gap); every other pose
is judged by the rules `apply` uses (`state.judge`), and the first accepted one counts.

A position counts as missed when the engine offered only `pass` there and this search finds a
legal pose. Issue 17 asks for at most 2% of sampled blocked positions; the tests check a few
positions (bounded counts of positions and judged poses, so a bounded cost), and
`python -m benchmarks.bench_stack_back --blocked N` measures N (the figure in
docs/games/stack-back.md, "Blocked players: the search").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import shapely

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import (
    PASS,
    Colour,
    Place,
    StackBackState,
    from_position,
    search,
)
from teocalli.games.stack_back.components import HALF_LENGTHS, HALF_WIDTH, NUM_COLOURS, SPEC

BEYOND = 40
"""mm of centres searched beyond the boards on each side (a pile may hang off them)."""
X0, Y0 = int(SPEC.region[0]) - BEYOND, int(SPEC.region[1]) - BEYOND
X1, Y1 = int(SPEC.region[2]) + BEYOND, int(SPEC.region[3]) + BEYOND
NX, NY = X1 - X0 + 1, Y1 - Y0 + 1
SURE = 1.0 + math.sqrt(0.5) + 1e-9
"""A grid point deeper than this in a stick: the centre-line point it stands for (at most
sqrt(0.5) mm away) is more than 1 mm deep."""
NEAR = 3.9
"""A stick sharing area with a footprint comes within sqrt(3² + 1²) = 3.17 mm of a centre-line
sample (1 mm apart, the last 1 mm from each end), so within 3.17 + 0.71 of its grid point."""
GAP = (SPEC.boards[0][2], SPEC.boards[1][0])
IN = SPEC.margin - 1e-3
"""A stick on one board stands only with its centre this far inside the board's edges."""

Bits = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Rasters:
    """Per grid point, the sticks (bits) it lies surely inside / near; per level the sticks of
    that level; per colour the sticks a stick of that colour may not rest on."""

    sure: Bits
    near: Bits
    levels: tuple[int, ...]
    refused: tuple[int, ...]
    polygons: npt.NDArray[np.object_]
    tree: shapely.STRtree


def rasters(state: StackBackState) -> Rasters:
    assert len(state.sticks) <= 63, "one bit a stick"
    sure = np.zeros((NX, NY), dtype=np.int64)
    near = np.zeros((NX, NY), dtype=np.int64)
    gx = np.arange(X0, X1 + 1, dtype=np.float64)
    gy = np.arange(Y0, Y1 + 1, dtype=np.float64)
    levels: dict[int, int] = {}
    refused = [0] * NUM_COLOURS
    for k, s in enumerate(state.sticks):
        bit = np.int64(1) << np.int64(k)
        a = math.radians(s.pose.a10 / 10)
        ux, uy = math.cos(a), math.sin(a)
        cx, cy = s.pose.x10 / 10, s.pose.y10 / 10
        h = HALF_LENGTHS[s.pose.colour]
        dx = gx[:, None] - cx
        dy = gy[None, :] - cy
        along = np.abs(dx * ux + dy * uy)
        across = np.abs(-dx * uy + dy * ux)
        depth = np.minimum(h - along, HALF_WIDTH - across)
        sure[depth > SURE] |= bit
        near[depth >= -NEAR] |= bit
        levels[s.level] = levels.get(s.level, 0) | int(bit)
        refused[s.pose.colour] |= int(bit)
        for c in range(NUM_COLOURS):
            if state.carries[k] >> c & 1:
                refused[c] |= int(bit)
    top = max(levels, default=-1)
    polygons = np.array([_stick_polygon(s.pose) for s in state.sticks], dtype=object)
    return Rasters(
        sure, near, tuple(levels.get(v, 0) for v in range(top + 1)), tuple(refused),
        polygons, shapely.STRtree(polygons),
    )  # fmt: skip


def _stick_polygon(place: Place) -> shapely.Polygon:
    a = math.radians(place.a10 / 10)
    ux, uy = math.cos(a), math.sin(a)
    h, w = HALF_LENGTHS[place.colour], HALF_WIDTH
    x, y = place.x10 / 10, place.y10 / 10
    return shapely.Polygon(
        [(x + sx * h * ux - sy * w * uy, y + sx * h * uy + sy * w * ux)
         for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
    )  # fmt: skip


def _along(grid: Bits, offsets: list[tuple[int, int]]) -> Bits:
    """OR of the grid read at each centre plus each offset (0 off the grid)."""
    out = np.zeros_like(grid)
    for ox, oy in offsets:
        xs = slice(max(0, -ox), min(NX, NX - ox))
        ys = slice(max(0, -oy), min(NY, NY - oy))
        xt = slice(max(0, ox), min(NX, NX + ox))
        yt = slice(max(0, oy), min(NY, NY + oy))
        out[xs, ys] |= grid[xt, yt]
    return out


def _top_level(bits: Bits, levels: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """The highest level among each bit set's sticks (-1: none)."""
    out = np.full(bits.shape, -1, dtype=np.int64)
    for level, mask in enumerate(levels):
        out[(bits & np.int64(mask)) != 0] = level
    return out


def _count(bits: Bits) -> npt.NDArray[np.uint8]:
    out: npt.NDArray[np.uint8] = np.bitwise_count(bits)
    return out


@dataclass
class Search:
    """What one exhaustive search met: poses judged by the rules, the legal ones found."""

    judged: int = 0
    found: list[Place] = field(default_factory=list)


def exhaustive(
    state: StackBackState, player: int, want: int = 1, max_judged: int = 200_000
) -> Search:
    """Every pose of the fine lattice the bit sets cannot refuse, judged by the rules, until
    `want` are legal (or `max_judged` poses were judged: a bound on the cost, asserted by
    callers)."""
    r = rasters(state)
    out = Search()
    floor = state.floor[player]
    cx = np.arange(X0, X1 + 1)[:, None] + np.zeros((1, NY), dtype=np.int64)
    cy = np.arange(Y0, Y1 + 1)[None, :] + np.zeros((NX, 1), dtype=np.int64)
    _, ry0, _, ry1 = SPEC.region
    for colour in range(NUM_COLOURS):
        if state.supply[player][colour] <= 0:
            continue
        h = HALF_LENGTHS[colour]
        ts = np.arange(-(h - 1), h - 1 + 1e-9, 1.0)
        bad = np.int64(r.refused[colour])
        for degrees in range(180):
            a = math.radians(degrees)
            ux, uy = math.cos(a), math.sin(a)
            offsets = sorted({(round(t * ux), round(t * uy)) for t in ts})
            sure = _along(r.sure, offsets)
            near = _along(r.near, offsets)
            top_sure = _top_level(sure, r.levels)
            # a pile resting on level v: two sticks of level v near it that may carry it, none
            # sure above v, and of level v sure only such ones, at most two
            pile = np.zeros((NX, NY), dtype=bool)
            for level, mask in enumerate(r.levels):
                if level + 1 < floor:
                    continue
                m = np.int64(mask)
                s_here = sure & m
                pile |= (
                    (top_sure <= level)
                    & (_count(near & m & ~bad) >= 2)
                    & (_count(s_here) <= 2)
                    & ((s_here & bad) == 0)
                )
            # on the wood: touching nothing surely, and either its centre over a board (a stick
            # on one board may overhang its edges) or crossing the gap (it rests on both)
            ex = h * abs(ux) + HALF_WIDTH * abs(uy)
            ey = h * abs(uy) + HALF_WIDTH * abs(ux)
            over = np.zeros((NX, NY), dtype=bool)
            for bx0, by0, bx1, by1 in SPEC.boards:
                over |= (cx >= bx0 + IN) & (cx <= bx1 - IN) & (cy >= by0 + IN) & (cy <= by1 - IN)
            crosses = (cx - ex < GAP[0]) & (cx + ex > GAP[1]) & (cy + ey > ry0) & (cy - ey < ry1)
            wood = (sure == 0) & (over | crosses)
            keep = pile | wood
            ii, jj = np.nonzero(keep)
            if not len(ii):
                continue
            xs, ys = cx[ii, jj], cy[ii, jj]
            for k in _geometric(r, state, colour, degrees, xs, ys, floor).tolist():
                place = Place(Colour(colour), int(xs[k]) * 10, int(ys[k]) * 10, degrees * 10)
                out.judged += 1
                if not isinstance(state.judge(place, player), str):
                    out.found.append(place)
                    if len(out.found) >= want:
                        return out
                if out.judged >= max_judged:
                    return out
    return out


TOUCH, REST, SLOP = 3.0, 36.0, 1e-6


def _polygons(colour: int, degrees: int, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64]):  # type: ignore[no-untyped-def]
    a = math.radians(degrees)
    ux, uy = math.cos(a), math.sin(a)
    h, w = HALF_LENGTHS[colour], HALF_WIDTH
    corners = np.stack(
        [
            np.stack((xs + sx * h * ux - sy * w * uy, ys + sx * h * uy + sy * w * ux), axis=-1)
            for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))
        ],
        axis=1,
    )
    return shapely.polygons(corners)


def _geometric(  # noqa: PLR0917 - one angle's surviving centres and what judges them
    r: Rasters, state: StackBackState, colour: int, degrees: int,
    xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], floor: int,
) -> npt.NDArray[np.intp]:  # fmt: skip
    """Those centres whose footprint, clipped exactly (shapely), obeys every rule but balance,
    or lies within 1e-6 mm² of a threshold (left to the rules)."""
    polys = _polygons(colour, degrees, xs, ys)
    sticks = r.polygons
    n = len(xs)
    pi, si = r.tree.query(polys, predicate="intersects")
    area = shapely.area(shapely.intersection(polys[pi], sticks[si])) if len(pi) else np.zeros(0)
    unsure = np.zeros(n, dtype=bool)
    unsure[pi[np.abs(area - TOUCH) <= SLOP]] = True
    touch = area > TOUCH
    pi, si, area = pi[touch], si[touch], area[touch]
    lv = np.array([s.level for s in state.sticks], dtype=np.int64)
    level = np.full(n, -1, dtype=np.int64)  # the highest level touched: the pose's, less one
    np.maximum.at(level, pi, lv[si])
    ok = np.zeros(n, dtype=bool)
    # on the wood: its centre over a board (it may overhang that board's edges), or resting on
    # both boards across the gap
    wood = np.nonzero(level < 0)[0]
    if len(wood):
        b0, b1 = shapely.box(*SPEC.boards[0]), shapely.box(*SPEC.boards[1])
        on0 = shapely.area(shapely.intersection(polys[wood], b0))
        on1 = shapely.area(shapely.intersection(polys[wood], b1))
        centres = shapely.centroid(polys[wood])
        inner = [shapely.box(x0 + IN, y0 + IN, x1 - IN, y1 - IN) for x0, y0, x1, y1 in SPEC.boards]
        over = shapely.intersects(centres, inner[0]) | shapely.intersects(centres, inner[1])
        ok[wood] = over | ((on0 >= REST - SLOP) & (on1 >= REST - SLOP))
    # piled: exactly two touched sticks of the level below, 6 x 6 mm on each, of other colours
    # and not carrying this one, at or above the floor
    below = lv[si] == level[pi]  # the supports: the highest touched
    count = np.bincount(pi[below], minlength=n)
    least = np.full(n, np.inf)
    np.minimum.at(least, pi[below], area[below])
    bad = np.zeros(n, dtype=bool)
    refused = np.array([(r.refused[colour] >> k) & 1 for k in range(len(lv))], dtype=bool)
    bad[pi[below & refused[si]]] = True
    piled = (level >= 0) & (count == 2) & (least >= REST - SLOP) & ~bad & (level + 1 >= floor)
    ok |= piled
    out: npt.NDArray[np.intp] = np.nonzero(ok | unsure)[0]
    return out


def blocked_positions(count: int, first_seed: int = 0) -> list[tuple[StackBackState, int]]:
    """The first `count` positions where the engine offers only `pass`, one per seeded random
    game (`blocked_position`), from `first_seed` on."""
    out: list[tuple[StackBackState, int]] = []
    seed = first_seed
    while len(out) < count:
        found = blocked_position(seed)
        if found is not None:
            out.append(found)
        seed += 1
    return out


REFILL = (3, 0, 0)
"""The supplies (yellow, mauve, green) both players get whenever a game ends with one empty."""
MAX_STICKS = 63
"""The slow search keeps one bit a stick in an int64."""


def blocked_position(seed: int) -> tuple[StackBackState, int] | None:
    """The first position of a seeded random game where the engine offers only `pass`. Games
    now rarely block before a player has placed all their sticks, so whenever a game ends so,
    both supplies are set to `REFILL` (three yellows, the longest stick: the board as it is)
    and it goes on until someone must pass; None when the board reaches `MAX_STICKS` first.
    (Such a board may hold more sticks of a colour than the set: the position notation cannot
    write it, the engine plays it.)"""
    state = teocalli.load("stack-back").new_state(seed)
    assert isinstance(state, StackBackState)
    rng = Rng(seed + 1)
    while len(state.sticks) < MAX_STICKS:
        if state.is_terminal():
            if state.idle >= 2:
                return None
            for p in range(2):
                state.supply[p] = list(REFILL)
            state._cache = None  # the supplies changed at the same step: no stale candidates
            state._id_table = None
        player = state.to_move()[0]
        actions = state.legal_actions(player)
        if actions == [PASS]:
            return state, player
        state.apply(actions[rng.randrange(len(actions))], player)
    return None


def lattice_blocked_positions(count: int, first_seed: int = 0) -> list[tuple[StackBackState, int]]:
    """The first `count` positions where the engine's 4 mm / 5 degree lattice finds no pose (so
    the engine passed there before free_space.py), along the same seeded random games as
    `blocked_positions` (one per game at most, the first)."""
    game = teocalli.load("stack-back")
    out: list[tuple[StackBackState, int]] = []
    seed = first_seed
    while len(out) < count:
        state = game.new_state(seed)
        assert isinstance(state, StackBackState)
        rng = Rng(seed + 1)
        while not state.is_terminal():
            player = state.to_move()[0]
            actions = state.legal_actions(player)
            off = all(isinstance(a, Place) and search.order_key(a) == search.OFF_LATTICE
                      for a in actions)  # fmt: skip
            if (off or actions == [PASS]) and not search.find_lattice(state.clone(), player):
                out.append((state.clone(), player))
                break
            state.apply(actions[rng.randrange(len(actions))], player)
        seed += 1
    return out


def the_data_position() -> tuple[StackBackState, int]:
    text = (Path(__file__).parents[2] / "data" / "stack-back-blocked.txt").read_text()
    state = from_position(teocalli.load("stack-back"), text)  # type: ignore[arg-type]
    return state, state.to_move()[0]


def has_room(state: StackBackState, player: int, place: Place) -> bool:
    """Whether every pose within 2 mm in x and y and 2 degrees of `place` (1 mm, 1 degree
    apart) is legal: such a box holds a pose of the engine's 4 mm / 5 degree lattice, which its
    search then finds (search.py's guarantee), so the engine may not pass."""
    for dx in range(-20, 21, 10):
        for dy in range(-20, 21, 10):
            for da in range(-20, 21, 10):
                near = Place(place.colour, place.x10 + dx, place.y10 + dy, (place.a10 + da) % 1800)
                if isinstance(state.judge(near, player), str):
                    return False
    return True


def test_the_exhaustive_search_finds_poses_on_bare_boards() -> None:
    state = teocalli.load("stack-back").new_state(0)
    assert isinstance(state, StackBackState)
    result = exhaustive(state, state.to_move()[0], want=3, max_judged=10)
    assert len(result.found) == 3
    player = state.to_move()[0]
    # the first (lowest angle, x, y): 1 mm inside board A's corner, hanging over both its edges
    assert result.found[0] == Place(Colour.YELLOW, 10, 10, 0)
    assert not has_room(state, player, result.found[0])  # 1 mm further out it would fall
    assert has_room(state, player, Place(Colour.YELLOW, 500, 500, 0))


def test_the_engine_offers_a_pose_where_the_lattice_alone_would_pass() -> None:
    """Where the 4 mm / 5 degree lattice finds nothing (the engine passed there before
    free_space.py) but the slow search finds a legal pose, the engine offers poses instead of a
    pass, each legal: the data position and the first such position of two seeded games. With
    the lattice search alone (free_space.find returning []) this fails on all three."""
    samples = [the_data_position(), *lattice_blocked_positions(2)]
    for state, player in samples:
        assert not search.find_lattice(state.clone(), player)
        slow = exhaustive(state, player, want=1, max_judged=5_000)
        assert slow.found, "the slow search finds no pose here, so the sample shows nothing"
        actions = state.legal_actions(player)
        assert actions != [PASS], f"the engine passes but {slow.found[0]} is legal"
        for action in actions:
            assert isinstance(action, Place)
            assert not isinstance(state.judge(action, player), str), action


@pytest.mark.parametrize("seed", [1, 6])
def test_where_the_engine_passes_the_slow_search_finds_no_pose(seed: int) -> None:
    """Issue 17's property where the engine passes (the blocked position of seeded games 1 and
    6, see `blocked_position`): the slow search, bounded by a count of judged poses, finds no
    legal pose either. Game 6 reached a pass earlier while the search looked only over x 0-240,
    y 0-104 mm, where the slow search found `Y-10.0,58.0@142.0`, a yellow pile hanging 10 mm
    off board A's outer edge: with the search confined so again, this fails. (Over many sampled
    blocked positions: the figure in the docs, `python -m benchmarks.bench_stack_back --blocked
    N`.)"""
    found = blocked_position(seed)
    assert found is not None
    state, player = found
    assert state.legal_actions(player) == [PASS]
    result = exhaustive(state, player, want=1, max_judged=20_000)
    assert result.judged < 20_000, "the exhaustive search ran out of its budget"
    assert not result.found, f"the engine passes but {result.found} is legal:\n{state.render()}"
