"""Generated Stack Back structures with known balance margins, to check the balance model.

Each scene is a short list of poses laid in order and derived by the engine's own rules
(`on_wood`, `piled`: levels, supports, contact areas), balance aside, so that some of them fall;
its margin is the engine's: the smallest depth (mm) of any stick's resultant inside its support
polygon (balance.py), negative when some stick's resultant lies outside. The engine lets a
structure stand when that margin is at least `SPEC.margin` (1 mm).

The families cover what the balance ruling is about (docs/games/stack-back.md, "Balance"):
- `bridge`: a yellow or a mauve across two greens, anywhere along them (weight between the outer
  edges of the supports or beyond);
- `edge`: a yellow resting on the long edges of two greens laid end to end along it, by slivers
  on one side of its centre line (it rolls off sideways) or on both;
- `overhang`: two mauves on greens overhanging them, a yellow across their ends (two levels);
- `counterweight`: mauves overhanging their greens so far that they fall alone, held by a yellow
  across their other ends, or not held by one too far in;
- `tower`: three levels (two yellows, a mauve and a green across them, a yellow on those),
  offsets drawn at random;
- `wood`: a stick on one board overhanging the gap or an outer edge, bare or carrying a stick
  across two of them;
- `straddle`: yellows crossing the gap on both boards, a stick across them.

This module lives here rather than in tests/ so that the generator can be imported by tests and
benchmarks alike (the tests' own modules are not importable under pytest's importlib mode), and
it needs nothing beyond the engine; the physics (MuJoCo, a test-only dependency) stays in
tests/games/stack_back/test_balance_physics.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from teocalli.games.stack_back.actions import Colour, Place
from teocalli.games.stack_back.balance import Stick, margins
from teocalli.games.stack_back.rules import Footprints, Layout, on_wood, piled, touches

Y, M, G = Colour(0), Colour(1), Colour(2)


def pose(colour: Colour, x: float, y: float, angle: float) -> Place:
    """A pose in millimetres and degrees, on the notation's 0.1 grid."""
    return Place(colour, round(x * 10), round(y * 10), round(angle * 10) % 1800)


@dataclass(frozen=True, slots=True)
class Scene:
    """A structure, as the engine derives it, and its balance margin."""

    family: str
    poses: tuple[Place, ...]
    sticks: tuple[Stick, ...]
    margins: tuple[float, ...]
    """Per stick: how far (mm) its resultant lies inside its support polygon (< 0 outside)."""

    @property
    def margin(self) -> float:
        return min(self.margins)

    def describe(self) -> str:
        return f"{self.family}: " + " ".join(str(p) for p in self.poses)


def build(poses: Sequence[Place]) -> list[Stick] | str:
    """The sticks the rules would derive, balance aside, or why a pose is refused."""
    sticks: list[Stick] = []
    carries: list[int] = []
    layout = Layout.empty()
    for p in poses:
        touched = touches(layout, Footprints.of([p]))[0]
        stick = piled(p, 0, touched, sticks, carries) if touched else on_wood(p, 0)
        if isinstance(stick, str):
            return f"{p}: {stick}"
        for s in stick.supports:
            carries[s] |= 1 << stick.colour
        sticks.append(stick)
        carries.append(0)
        layout = layout.with_stick(stick)
    return sticks


def bridge(rng: random.Random) -> list[Place]:
    """A yellow or mauve across two greens d mm apart, centred anywhere it rests on both."""
    d = rng.uniform(8, 30)
    colour = rng.choice((Y, M))
    half = 36 if colour == Y else 27
    x0 = 30.0
    c = rng.uniform(x0 + d + 3 - half + 6, x0 - 3 + half - 6)
    return [pose(G, x0, 40, 90), pose(G, x0 + d, 40, 90), pose(colour, c, 40, 0)]


def edge(rng: random.Random) -> list[Place]:
    """A yellow on the long edges of two greens laid end to end along it, by slivers e mm wide
    (on one side of its centre line; sometimes the second green on the other side)."""
    e = rng.uniform(1.0, 6.0)
    turn = rng.uniform(-1.5, 1.5)
    both = rng.random() < 0.25
    x = rng.uniform(48, 52)
    y0 = 40.0
    upper = y0 + 6 - e  # the yellow's centre line: its lower edge e mm into the first green
    second = upper + 6 - e if both else y0
    return [pose(G, x - 18.2, y0, 0), pose(G, x + 18.2, second, 0), pose(Y, x, upper, turn)]


def overhang(rng: random.Random) -> list[Place]:
    """Two mauves on greens, overhanging them, a yellow across both at some point along them."""
    gap = rng.uniform(12, 24)
    m = rng.uniform(42, 58)
    p = rng.uniform(30 + gap + 4, m + 24)
    return [
        pose(G, 30, 20, 90), pose(G, 30 + gap, 20, 90),
        pose(G, 30, 60, 90), pose(G, 30 + gap, 60, 90),
        pose(M, m, 20, 0), pose(M, m, 60, 0),
        pose(Y, p, 40, 90),
    ]  # fmt: skip


def counterweight(rng: random.Random) -> list[Place]:
    """Mauves that overhang two close greens, and a yellow across their other ends."""
    gap = rng.uniform(8, 14)
    m = rng.uniform(30 + gap + 2, 30 + gap + 10)
    p = rng.uniform(m - 24, m - 4)
    return [
        pose(G, 30, 20, 90), pose(G, 30 + gap, 20, 90),
        pose(G, 30, 60, 90), pose(G, 30 + gap, 60, 90),
        pose(M, m, 20, 0), pose(M, m, 60, 0),
        pose(Y, p, 40, 90),
    ]  # fmt: skip


def tower(rng: random.Random) -> list[Place]:
    """Three levels: two yellows, a mauve and a green across them (overhanging them), a yellow
    across those two somewhere along them."""
    a = rng.uniform(24, 34)
    b = a + rng.uniform(8, 26)
    m = rng.uniform(b - 24, a + 24)
    g = rng.uniform(b - 15, a + 15)
    lo, hi = max(m - 24, g - 15), min(m + 24, g + 15)
    p = rng.uniform(lo, hi)
    return [
        pose(Y, a, 50, 90), pose(Y, b, 50, 90),
        pose(M, m, 40, 0), pose(G, g, 60, 0),
        pose(Y, p, 50, 90),
    ]  # fmt: skip


def wood(rng: random.Random) -> list[Place]:
    """Sticks on board A overhanging the gap (or B's outer edge), perhaps loaded across."""
    if rng.random() < 0.35:
        colour = rng.choice((Y, M, G))
        c = rng.uniform(90, 104)
        if rng.random() < 0.5:
            return [pose(colour, c, rng.uniform(10, 90), 0)]
        return [pose(colour, 236 - c + 100, rng.uniform(10, 90), 0)]
    c = rng.uniform(76, 99)
    p = rng.uniform(c - 10, c + 26)
    return [pose(M, c, 30, 0), pose(M, c, 50, 0), pose(G, p, 40, 90)]


def straddle(rng: random.Random) -> list[Place]:
    """Two yellows across the gap, and a mauve or green across them."""
    c = rng.uniform(112, 124)
    p = rng.uniform(c - 30, c + 30)
    return [pose(Y, c, 30, 0), pose(Y, c + rng.uniform(-4, 4), 50, 0), pose(M, p, 40, 90)]


FAMILIES: dict[str, Callable[[random.Random], list[Place]]] = {
    "bridge": bridge,
    "edge": edge,
    "overhang": overhang,
    "counterweight": counterweight,
    "tower": tower,
    "wood": wood,
    "straddle": straddle,
}


def scenes(per_family: int, seed: int = 17) -> list[Scene]:
    """`per_family` scenes of each family that the rules allow (balance aside), seeded."""
    rng = random.Random(seed)
    out: list[Scene] = []
    for family, make in FAMILIES.items():
        kept = tries = 0
        while kept < per_family:
            tries += 1
            if tries > 50 * per_family:
                raise RuntimeError(f"the {family} family keeps breaking the rules")
            poses = make(rng)
            sticks = build(poses)
            if isinstance(sticks, str):
                continue
            out.append(Scene(family, tuple(poses), tuple(sticks), tuple(margins(sticks))))
            kept += 1
    return out
