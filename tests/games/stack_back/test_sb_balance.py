"""The static balance model (lever rule), and its cross-check against MuJoCo's rigid bodies.

The cross-check builds structures from a seeded generator, keeps those whose every stick is well
inside the model's margin (resultant >= 4 mm inside the span between contact centroids) or where
some stick is well outside (resultant >= 4 mm beyond the edge of its contact patch), and asks the
simulator whether anything tips: it must agree with the model on what stands and what falls.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState, from_position, pose
from teocalli.games.stack_back.actions import Place
from teocalli.games.stack_back.balance import Stick, evaluate, margins
from teocalli.games.stack_back.components import SPEC
from teocalli.games.stack_back.rules import Footprints, Layout, Verdict, on_wood, piled, touches

WELL = 4.0  # mm: how far inside or outside a structure must be to be asked of the simulator
PATCH = SPEC.width / 2  # a perpendicular contact patch reaches 3 mm beyond its centroid


def position(text: str) -> StackBackState:
    return from_position(teocalli.load("stack-back"), text)  # type: ignore[arg-type]


def test_a_centred_bridge_loads_its_supports_equally() -> None:
    state = position("sticks: 0:Y30,40@90 1:Y60,40@90 0:M45,40@0")
    assert state.force[:2] == [72 + 27, 72 + 27]
    assert state.moment[:2] == [0.0, 0.0]


def test_an_offset_bridge_loads_its_supports_by_the_lever_rule() -> None:
    state = position("sticks: 0:G30,40@90 1:G42,40@90 0:Y40,40@0")
    # contacts at t = -10 and +2 on the bridge, its weight (72) at t = 0
    assert state.force[0] == pytest.approx(36 + 72 * 2 / 12)
    assert state.force[1] == pytest.approx(36 + 72 * 10 / 12)
    assert margins(state.sticks)[2] == pytest.approx(2.0)


def test_loads_pass_down_through_two_levels() -> None:
    state = position("sticks: 0:Y30,40@90 1:Y60,40@90 0:M45,20@0 1:G45,60@0 0:Y45,40@90")
    force, moment = evaluate(state.sticks)
    assert force == pytest.approx(state.force) and moment == pytest.approx(state.moment, abs=1e-9)
    assert sum(force[:2]) == pytest.approx(72 + 72 + 54 + 36 + 72)


# --- the MuJoCo cross-check --------------------------------------------------------------------
def structure(poses: list[Place]) -> list[Stick]:
    """Sticks as the rules would derive them, without the balance check (so some may fall)."""
    sticks: list[Stick] = []
    layout = Layout.empty()
    for p in poses:
        touched = touches(layout, Footprints.of([p]))[0]
        stick = piled(p, 0, touched, sticks, [0] * len(sticks)) if touched else on_wood(p, 0)
        assert isinstance(stick, Stick), (str(p), stick)
        sticks.append(stick)
        layout = layout.with_stick(stick)
    return sticks


def simulate(sticks: list[Stick], seconds: float = 1.0) -> list[float]:
    """Each stick's tilt in degrees after `seconds` of rigid-body physics (scaled x10)."""
    k = 0.01  # metres per mm: ten times life size, which statics ignore and MuJoCo prefers
    xml = [
        '<mujoco><option timestep="0.0005"/><default><geom friction="0.6 0.005 0.0001" '
        'solref="0.002 1" density="700"/></default><worldbody>'
    ]
    for x0, y0, x1, y1 in SPEC.boards:
        xml.append(
            f'<geom type="box" pos="{(x0 + x1) / 2 * k} {(y0 + y1) / 2 * k} {-5 * k}" '
            f'size="{(x1 - x0) / 2 * k} {(y1 - y0) / 2 * k} {5 * k}"/>'
        )
    for s in sticks:
        a = math.radians(s.pose.angle) / 2
        xml.append(
            f'<body pos="{s.cx * k} {s.cy * k} {(6 * s.level + 3) * k}" '
            f'quat="{math.cos(a)} 0 0 {math.sin(a)}"><freejoint/>'
            f'<geom type="box" size="{s.half * k} {3 * k} {3 * k}"/></body>'
        )
    xml.append("</worldbody></mujoco>")
    model = mujoco.MjModel.from_xml_string("".join(xml))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    start = data.xquat[1:].copy()
    for _ in range(int(seconds / model.opt.timestep)):
        mujoco.mj_step(model, data)
    dots = np.abs(np.sum(start * data.xquat[1:], axis=1)).clip(0.0, 1.0)
    return [math.degrees(2 * math.acos(d)) for d in dots]


def bridge(rng: Rng) -> list[Place]:
    """Two green sticks on the wood, a yellow bridge across them at some offset."""
    d = 2 * (6 + rng.randrange(14))  # 12..38 mm apart
    lo, hi = d - 3, 63  # the bridge's centre range that still covers both supports
    c = lo + rng.randrange(hi - lo + 1)
    return [pose(2, 30, 40, 90), pose(2, 30 + d, 40, 90), pose(0, c, 40, 0)]


def loaded(rng: Rng) -> list[Place]:
    """Two mauve bridges overhanging to x=76, a yellow across both somewhere along them."""
    spots = [x for x in range(25, 74) if not (24 <= x <= 36 or 44 <= x <= 56)]
    x = spots[rng.randrange(len(spots))]
    base = [pose(2, 30, 20, 90), pose(2, 50, 20, 90), pose(2, 30, 60, 90), pose(2, 50, 60, 90)]
    return [*base, pose(1, 49, 20, 0), pose(1, 49, 60, 0), pose(0, x, 40, 90)]


def verdict(sticks: list[Stick]) -> str | None:
    """'stands' or 'falls' when the model is sure by the WELL margin, else None."""
    m = margins(sticks)
    if min(m) >= SPEC.margin + WELL - 1:
        return "stands"
    if min(m) <= -(PATCH + WELL):
        return "falls"
    return None


def scenes() -> list[tuple[str, list[Stick]]]:
    rng = Rng(2024)
    found: dict[str, list[tuple[str, list[Stick]]]] = {"stands": [], "falls": []}
    for make in (bridge, loaded):
        counts = {"stands": 0, "falls": 0}
        while min(counts.values()) < 2:
            sticks = structure(make(rng))
            kind = verdict(sticks)
            if kind is not None and counts[kind] < 2:
                counts[kind] += 1
                found[kind].append((kind, sticks))
    return found["stands"] + found["falls"]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(8))
def test_the_simulator_agrees_with_the_static_model(index: int) -> None:
    kind, sticks = scenes()[index]
    tilts = simulate(sticks)
    if kind == "stands":
        assert max(tilts) < 1.0, f"the model says it stands; MuJoCo tilts it {max(tilts):.1f} deg"
    else:
        assert max(tilts) > 5.0, f"the model says it falls; MuJoCo leaves it ({max(tilts):.1f} deg)"


def test_the_engine_refuses_exactly_what_the_model_says_falls() -> None:
    """Every generated bridge is offered to the engine: legal iff the model says it stands."""
    rng = Rng(7)
    for _ in range(30):
        poses = bridge(rng)
        state = position(f"sticks: 0:{poses[0]} 1:{poses[1]}")
        sticks = structure(poses)
        legal = isinstance(state.judge(poses[2], 0), Verdict)
        assert legal == (margins(sticks)[2] >= SPEC.margin - 1e-9), str(poses[2])
