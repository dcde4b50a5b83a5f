"""Perft-style legal-move counts from fixed Stack Back positions, verified independently.

Stack Back's poses are continuous, so what `legal_actions` lists is, in the rules' own
words, a *documented candidate set* (docs/games/stack-back.md, "Candidates"; `apply` accepts any
legal pose): the candidate generator is itself the definition of the action set. The brute force
below therefore rebuilds that candidate set from the page's description and judges every
candidate from the rules' words, with geometry of its own (shapely polygons; none of the
engine's `geometry.py`, `rules.py`, `balance.py` or `candidates.py`):

- wood candidates: angles 0 and 90 degrees, centres x = 4, 16, ..., 232 and y = 8, 20, ..., 92,
  each colour in the supply, resting on a board (it may overhang its edges), resting at least
  6 x 6 mm on each board when it reaches both, touching no stick;
- piled candidates: for every two sticks of one level and every colour in the supply that may
  bridge them (it differs from both and neither carries it yet), three bridges, from the points
  at -0.5, 0 and +0.5 of each support's half-length (the two axes turned to point the same way)
  to the matching point on the other, the stick centred between them, snapped (half to even, as
  the notation quantises) to the 2 mm / 5 degree index lattice;
- every candidate judged in full: its level is 0 if its footprint touches no stick (an overlap
  of more than 3 mm²), else one above the highest stick it touches; a piled stick rests on
  exactly two sticks of the level below, at least 6 x 6 mm on each, differs in colour from both,
  and neither already carries its colour; it is at a level no lower than the player's floor
  (the level rule; wood plays are not limited); and, with the balance model of the page (each
  stick standing when the resultant of its weight and loads lies inside the convex hull of its
  contact areas, 1 mm from its edge, loads passed down by the page's lever rule), every stick
  still stands;
- `pass` when no candidate is legal (at the positions counted here there always is one; the
  engine then also runs its pass search, "Blocked players: the search" on the page).

The levels, supports, carried colours and loads of the sticks already placed are recomputed from
their poses in the order they were laid; the state is read only for its poses, supplies, floors
and turn.

Two details of the page's candidate set are parameters here, so that a test shows each one
matters: the bridges' fractions are taken on the half-length less 3 mm (`INSET`), and a bridge
whose two points lie more than the colour's length less 6 mm apart is dropped before judging
(`length_filter`), legal or not.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import shapely

import teocalli
from teocalli.core.perft import perft
from teocalli.games.stack_back import StackBackState, from_position
from teocalli.games.stack_back.components import SPEC

from .blocked import BLOCKED, blocked

KEYS = SPEC.keys  # Y M G
LENGTH = SPEC.lengths  # 72 54 36 mm; a stick's weight is its length (one density, one section)
WIDTH = SPEC.width  # 6 mm
BOARDS = [shapely.box(*b) for b in SPEC.boards]
TOUCH = 3.0 + 1e-6  # mm²: a touch is an overlap of more than 3 (exactly 3 is not, up to rounding)
REST = 36.0 - 1e-6  # mm²: 6 x 6, to rest on a support or a board across the gap
MARGIN = 1.0  # mm: the resultant inside the support polygon, this far from its edge


def footprint(colour: int, x: float, y: float, angle: float) -> shapely.Polygon:
    """The stick's 6 mm wide rectangle seen from above."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    h, w = LENGTH[colour] / 2, WIDTH / 2
    return shapely.Polygon(
        [(x + sx * h * ux - sy * w * uy, y + sx * h * uy + sy * w * ux)
         for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
    )  # fmt: skip


@dataclass
class Stick:
    colour: int
    x10: int
    y10: int
    a10: int
    poly: shapely.Polygon
    level: int = 0
    supports: tuple[int, ...] = ()
    contacts: tuple[tuple[float, float], ...] = ()  # the contact areas' centroids (x, y)
    areas: tuple[shapely.Geometry, ...] = ()  # the contact areas: with supports or boards

    @property
    def axis(self) -> tuple[float, float]:
        return math.cos(math.radians(self.a10 / 10)), math.sin(math.radians(self.a10 / 10))

    def along(self, point: tuple[float, float]) -> float:
        """Where a point lies along the stick: mm from its centre along its axis."""
        ux, uy = self.axis
        return (point[0] - self.x10 / 10) * ux + (point[1] - self.y10 / 10) * uy

    def notation(self) -> str:
        def tenths(v: int) -> str:
            return f"{v // 10}.{v % 10}"

        return f"{KEYS[self.colour]}{tenths(self.x10)},{tenths(self.y10)}@{tenths(self.a10)}"


def make(colour: int, x10: int, y10: int, a10: int) -> Stick:
    return Stick(colour, x10, y10, a10, footprint(colour, x10 / 10, y10 / 10, a10 / 10))


def centroid(poly: shapely.Geometry) -> tuple[float, float]:
    c = poly.centroid
    return c.x, c.y


def judge(stick: Stick, placed: list[Stick], floor: int) -> Stick | None:
    """The stick as the rules would lay it (level, supports, contacts), or None if refused."""
    touched = [i for i, s in enumerate(placed) if stick.poly.intersection(s.poly).area > TOUCH]
    if not touched:
        on = [a for a in (stick.poly.intersection(b) for b in BOARDS) if a.area > TOUCH]
        if not on:
            return None  # on no board at all
        if len(on) == 2 and min(p.area for p in on) < REST:
            return None  # reaching both boards: it must cross the gap, 6 x 6 mm on each
        stick.contacts = tuple(centroid(p) for p in on)
        stick.areas = tuple(on)
        return stick  # balance (its centre over its support polygon) is judged after
    stick.level = 1 + max(placed[i].level for i in touched)
    below = [i for i in touched if placed[i].level == stick.level - 1]
    if len(below) != 2:
        return None  # exactly two supports of the level below
    overlaps = [stick.poly.intersection(placed[i].poly) for i in below]
    if min(o.area for o in overlaps) < REST:
        return None  # at least 6 x 6 mm on each
    for i in below:
        if placed[i].colour == stick.colour:
            return None  # never on its own colour
        if any(s.colour == stick.colour and i in s.supports for s in placed):
            return None  # a support carries one stick of each colour at most
    if stick.level < floor:
        return None  # the level rule: no coming back down within the turn
    stick.supports = (below[0], below[1])
    stick.contacts = (centroid(overlaps[0]), centroid(overlaps[1]))
    stick.areas = (overlaps[0], overlaps[1])
    return stick


def inside(polygon: shapely.Geometry, x: float, y: float) -> float:
    """Signed distance (mm) of a point from a polygon's edge: positive inside."""
    point = shapely.Point(x, y)
    d = polygon.exterior.distance(point)
    return d if polygon.contains(point) else -d


def everything_stands(sticks: list[Stick]) -> bool:
    """Support polygons, loads passed down by the lever rule of the page, top first.

    Each stick's resultant (its weight at its centre plus the loads on it) must lie inside the
    convex hull of its contact areas at least 1 mm from its edge. A piled stick's load splits
    between its two supports along the line through its contact centroids a and b: at the
    resultant's position s along it (0 at a, 1 at b), shares (1 - s) and s landing at a and b
    moved by the resultant's offset across the line; all of it at the resultant when s < 0
    (on a) or s > 1 (on b).
    """
    force = [float(LENGTH[s.colour]) for s in sticks]
    first = [(f * s.x10 / 10, f * s.y10 / 10) for f, s in zip(force, sticks, strict=True)]
    for i in sorted(range(len(sticks)), key=lambda j: -sticks[j].level):
        s = sticks[i]
        px, py = first[i][0] / force[i], first[i][1] / force[i]
        hull = shapely.union_all(s.areas).convex_hull
        if inside(hull, px, py) < MARGIN - 1e-9:
            return False
        if not s.supports:
            continue  # on the wood
        (ax, ay), (bx, by) = s.contacts
        dx, dy = bx - ax, by - ay
        t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
        ox, oy = px - (ax + t * dx), py - (ay + t * dy)
        if t <= 0:
            lands = [(force[i], px, py), (0.0, px, py)]
        elif t >= 1:
            lands = [(0.0, px, py), (force[i], px, py)]
        else:
            lands = [(force[i] * (1 - t), ax + ox, ay + oy), (force[i] * t, bx + ox, by + oy)]
        for support, (share, lx, ly) in zip(s.supports, lands, strict=True):
            force[support] += share
            first[support] = (first[support][0] + share * lx, first[support][1] + share * ly)
    return True


def replay(state: StackBackState) -> list[Stick]:
    """The placed sticks, laid again in order with their levels, supports and contacts."""
    placed: list[Stick] = []
    for s in state.sticks:
        pose = s.pose
        laid = judge(make(int(pose.colour), pose.x10, pose.y10, pose.a10), placed, 0)
        assert laid is not None, f"the position holds a stick the rules refuse: {pose}"
        placed.append(laid)
    assert everything_stands(placed)
    return placed


def snap(value: float, step: int) -> int:
    """A value (mm or degrees) in tenths, on multiples of `step`, ties to even as in notation."""
    return round(value / step) * step * 10


INSET = 3.0
"""mm: the bridges' fractions are taken on each support's half-length less 3 mm (half the stick's
width: from its centre to the centre of its end square), as docs/games/stack-back.md says."""


def bridges(a: Stick, b: Stick, colour: int, inset: float, length_filter: bool) -> list[Stick]:
    """The three bridges of a colour between two sticks, before any judging.

    With `length_filter`, as the page says (and candidates._pair does), a bridge is dropped
    before judging when its two points lie more than the colour's
    length less 6 mm apart (or less than 1 mm).
    """
    (aux, auy), (bux, buy) = a.axis, b.axis
    turn = -1.0 if aux * bux + auy * buy < 0 else 1.0  # the axes turned to point the same way
    ha, hb = LENGTH[a.colour] / 2 - inset, turn * (LENGTH[b.colour] / 2 - inset)
    out = []
    for f in (-0.5, 0.0, 0.5):
        ax, ay = a.x10 / 10 + f * ha * aux, a.y10 / 10 + f * ha * auy
        bx, by = b.x10 / 10 + f * hb * bux, b.y10 / 10 + f * hb * buy
        dist = math.hypot(bx - ax, by - ay)
        if dist == 0 or (length_filter and not 1.0 <= dist <= LENGTH[colour] - 6):
            continue
        angle = math.degrees(math.atan2(by - ay, bx - ax)) % 180
        pose = (snap((ax + bx) / 2, 2), snap((ay + by) / 2, 2), snap(angle, 5) % 1800)
        out.append(make(colour, *pose))
    return out


WOOD = [
    make(colour, x * 10, y * 10, angle * 10)
    for colour, angle, x, y in itertools.product(
        range(3), (0, 90), range(4, 233, 12), range(8, 93, 12)
    )
]
WOOD_POLYS = np.array([s.poly for s in WOOD], dtype=object)
WOOD_X = np.array([s.x10 / 10 for s in WOOD])
WOOD_Y = np.array([s.y10 / 10 for s in WOOD])
WOOD_HALF = np.array([LENGTH[s.colour] / 2 for s in WOOD])
ON_BARE_WOOD = np.array(
    [(laid := judge(make(s.colour, s.x10, s.y10, s.a10), [], 0)) is not None
     and everything_stands([laid]) for s in WOOD]
)  # fmt: skip
"""Which wood lattice poses the bare boards take (the boards, the gap): a fact of the table."""


def brute_force(
    state: StackBackState, player: int, inset: float = INSET, length_filter: bool = True
) -> set[str]:
    """Every candidate the rules allow `player` now, in notation."""
    placed = replay(state)
    supply, floor = state.supply[player], state.floor[player]
    free = ON_BARE_WOOD & np.array([supply[s.colour] > 0 for s in WOOD])
    for s in placed:  # a wood candidate touches no stick (sticks whose circles meet, clipped)
        reach = WOOD_HALF + LENGTH[s.colour] / 2 + WIDTH
        near = np.nonzero(free & (np.hypot(WOOD_X - s.x10 / 10, WOOD_Y - s.y10 / 10) < reach))[0]
        touched = shapely.area(shapely.intersection(WOOD_POLYS[near], s.poly)) > TOUCH
        free[near[touched]] = False
    allowed = {WOOD[i].notation() for i in np.nonzero(free)[0]}
    carries = [{s.colour for s in placed if i in s.supports} for i in range(len(placed))]
    for (i, a), (j, b) in itertools.combinations(enumerate(placed), 2):
        if a.level != b.level:
            continue
        for colour in range(3):
            if not supply[colour] or colour in {a.colour, b.colour} | carries[i] | carries[j]:
                continue  # a colour in the supply that may bridge the two
            for bridge in bridges(a, b, colour, inset, length_filter):
                laid = judge(bridge, placed, floor)
                if laid is not None and laid.level > 0 and everything_stands([*placed, laid]):
                    allowed.add(laid.notation())
    return allowed or {"pass"}


def leaves_below(state: StackBackState, length_filter: bool = True) -> int:
    """perft(state, 1) counted by the brute force (a finished game is one leaf)."""
    if state.is_terminal():
        return 1
    return sum(len(brute_force(state, p, length_filter=length_filter)) for p in state.to_move())


def position(text: str) -> StackBackState:
    return from_position(teocalli.load("stack-back"), text)  # type: ignore[arg-type]


def legal(state: StackBackState, player: int) -> set[str]:
    return {str(a) for a in state.legal_actions(player)}


# Two yellows side by side, 24 mm apart: a mauve may bridge them (a green is too short to rest
# 6 x 6 mm on both once snapped, and a yellow never rests on a yellow).
TWO_YELLOWS = """
sticks: 0:Y30,50@90 1:Y60,50@90
turn: 0
"""

# Board A: a mauve and a green piled on two yellows (level 1), which only a yellow may bridge
# (level 2: each yellow below already carries a mauve and a green, so nothing more goes on them);
# board B: two bare yellows. Player 0 piled the green this turn (floor 1), so may pile on.
TWO_LEVELS = """
sticks: 0:Y20,50@90 1:Y50,50@90 1:M35,30@0 0:G35,70@0 1:Y160,50@90 0:Y190,50@90
turn: 0
placed: 1
floor: 1 0
"""

# Two mauve bridges on greens, overhanging to x = 76: a yellow across both far enough beyond the
# greens' outer edges would tip them.
LOADED = """
sticks: 0:G30,20@90 1:G50,20@90 0:G30,60@90 1:G50,60@90 0:M49,20@0 1:M49,60@0
turn: 0
"""


def piles(actions: set[str]) -> set[str]:
    return actions - {s.notation() for s in WOOD} - {"pass"}


def depth_two(state: StackBackState, length_filter: bool = True) -> int:
    """The brute force summed over every child of the brute force's own actions."""
    total = 0
    for player in state.to_move():
        for action in sorted(brute_force(state, player, length_filter=length_filter)):
            child = state.clone()
            child.apply(action, player)
            total += leaves_below(child, length_filter)
    return total


def test_the_bare_boards_have_the_documented_784_wood_candidates() -> None:
    state = position("turn: 0")
    assert legal(state, 0) == brute_force(state, 0)
    assert perft(state, 1) == len(brute_force(state, 0)) == 784


def test_depth_one_with_a_bridge_matches_a_brute_force_count() -> None:
    state = position(TWO_YELLOWS)
    allowed = brute_force(state, 0)
    assert piles(allowed) == {"M44.0,34.0@0.0", "M44.0,50.0@0.0", "M44.0,66.0@0.0"}
    assert legal(state, 0) == allowed
    assert perft(state, 1) == len(allowed) == 607


def test_depth_one_with_two_levels_matches_a_brute_force_count() -> None:
    state = position(TWO_LEVELS)
    allowed = brute_force(state, 0)
    assert piles(allowed) == {
        "Y26.0,50.0@85.0", "Y36.0,50.0@90.0", "Y44.0,50.0@95.0",  # level 2, on board A
        "M176.0,34.0@0.0", "M176.0,50.0@0.0", "M176.0,66.0@0.0",  # level 1, on board B
    }  # fmt: skip
    assert legal(state, 0) == allowed
    assert perft(state, 1) == len(allowed) == 413


def test_depth_one_where_balance_refuses_bridges_matches_a_brute_force_count() -> None:
    state = position(LOADED)
    allowed = brute_force(state, 0)
    assert "Y48.0,40.0@90.0" in allowed
    assert "Y50.0,40.0@90.0" in allowed, "the mauves' resultant 3.6 mm inside the greens' edge"
    assert "Y60.0,40.0@90.0" not in allowed, "it would tip the mauves off their greens"
    assert len(piles(allowed)) == 17
    assert legal(state, 0) == allowed
    assert perft(state, 1) == len(allowed) == 544


def test_depth_one_when_only_a_sliver_fits_is_that_sliver() -> None:
    """No pose of the brute force's lattice fits the data position, but the free-space search
    finds a sliver: a yellow in a 6 mm slot (free_space.py); the engine offers it, not a pass."""
    state = position(BLOCKED)
    assert brute_force(state, 0) == {"pass"}
    assert legal(state, 0) == {"Y53.6,14.0@0.2"}


def test_depth_one_when_nothing_fits_is_a_pass() -> None:
    state = blocked()
    assert legal(state, 0) == brute_force(state, 0) == {"pass"}
    assert perft(state, 1) == 1


def test_depth_two_equals_the_brute_force_summed_over_every_child() -> None:
    expected = {TWO_YELLOWS: 333017, TWO_LEVELS: 155039, LOADED: 263257}
    for text, count in expected.items():
        state = position(text)
        assert perft(state, 2) == depth_two(state) == count
    state = blocked()
    assert perft(state, 2) == depth_two(state) == 1


def test_the_bridges_start_at_half_the_half_length_less_3_mm() -> None:
    """The page (Candidates): the fractions -0.5, 0, +0.5 of each support's half-length less
    3 mm: between the yellows at x 30 and 60, mauves at y 50 - 15 and 50 + 15 (34 and 66 once
    snapped), not at 32 and 68 (the fractions of the whole half-length)."""
    offered = legal(position(TWO_YELLOWS), 0)
    assert {"M44.0,34.0@0.0", "M44.0,50.0@0.0", "M44.0,66.0@0.0"} <= offered
    assert not {"M44.0,32.0@0.0", "M44.0,68.0@0.0"} & offered
    assert offered != brute_force(position(TWO_YELLOWS), 0, inset=0.0)


def test_a_bridge_whose_points_lie_too_far_apart_is_no_candidate_yet_may_be_played() -> None:
    """The page (Candidates): a bridge whose two points lie more than the colour's length less
    6 mm apart is dropped before judging, though once snapped it may be legal; the candidates are
    the bots' finite list, and `apply` takes any legal pose (a person may play it)."""
    state = position(TWO_YELLOWS)
    state.apply("G88.0,20.0@90.0", 0)
    assert "M74.0,48.0@125.0" not in legal(state, 1)
    assert "M74.0,48.0@125.0" in brute_force(state, 1, length_filter=False)
    state.apply("M74.0,48.0@125.0", 1)
    assert state.sticks[-1].level == 1
    assert perft(position(TWO_YELLOWS), 2) != depth_two(position(TWO_YELLOWS), length_filter=False)
