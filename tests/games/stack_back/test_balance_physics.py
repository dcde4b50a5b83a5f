"""The balance model against MuJoCo's rigid bodies on generated scenes.

Each scene of teocalli/analysis/stack_back/balance_scenes.py (bridges, edge rests, overhangs,
counterweights, three-level towers, overhangs of the wood, straddles) is built as boxes: 6 x 6 mm
sections, lengths yellow 72, mauve 54, green 36 mm, one density, the boards as static boxes, every
stick at rest at its level's height. MuJoCo runs it for a fixed number of steps; the scene stands
in physics when no stick's centre has moved more than `MOVED` mm nor turned more than `TILTED`
degrees. The engine says a scene stands when every stick's resultant lies at least 1 mm inside
its support polygon. They must agree on every scene whose engine margin (the smallest depth of a
resultant inside its polygon) lies more than 1 mm from the polygon's edge: margin > 1 mm or
< -1 mm. Scenes in that band are left out (the physics may go either way there; the engine's own
1 mm safety margin sits inside it).

Physics settings: ten times life size (lengths in centimetres read as decimetres), which rigid
statics ignore and MuJoCo's contact solver prefers; a 0.5 ms step (with that scale, a fall of a
stick 1 mm beyond an edge turns it past `TILTED` within a few hundred steps); friction 0.6 (wood
on wood); stiff contacts (solref 2 ms, critically damped); the Newton solver with up to 50
iterations; `STEPS` steps, 1.5 simulated seconds (about 0.5 s at life size).
"""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from teocalli.analysis.stack_back.balance_scenes import Scene, scenes
from teocalli.games.stack_back.components import SPEC

SCALE = 0.01  # metres per mm: ten times life size
STEPS = 3000
TIMESTEP = 0.0005
MOVED = 2.0  # mm (life size): a stick that has slid or dropped this far has fallen
TILTED = 4.0  # degrees
BAND = 1.0  # mm either side of the support polygon's edge where the two may disagree
PER_FAMILY = 30


def model_xml(scene: Scene) -> str:
    k = SCALE
    xml = [
        f'<mujoco><option timestep="{TIMESTEP}" iterations="50" solver="Newton"/>'
        '<default><geom friction="0.6 0.005 0.0001" solref="0.002 1" density="700"/></default>'
        "<worldbody>"
    ]
    for x0, y0, x1, y1 in SPEC.boards:
        xml.append(
            f'<geom type="box" pos="{(x0 + x1) / 2 * k} {(y0 + y1) / 2 * k} {-5 * k}" '
            f'size="{(x1 - x0) / 2 * k} {(y1 - y0) / 2 * k} {5 * k}"/>'
        )
    for s in scene.sticks:
        a = math.radians(s.pose.angle) / 2
        xml.append(
            f'<body pos="{s.cx * k} {s.cy * k} {(SPEC.width * s.level + SPEC.width / 2) * k}" '
            f'quat="{math.cos(a)} 0 0 {math.sin(a)}"><freejoint/>'
            f'<geom type="box" size="{s.half * k} {SPEC.width / 2 * k} {SPEC.width / 2 * k}"/>'
            "</body>"
        )
    xml.append("</worldbody></mujoco>")
    return "".join(xml)


def simulate(scene: Scene) -> tuple[float, float]:
    """(the largest displacement in mm, the largest turn in degrees) of any stick after STEPS."""
    model = mujoco.MjModel.from_xml_string(model_xml(scene))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    pos, quat = data.xpos[1:].copy(), data.xquat[1:].copy()
    for _ in range(STEPS):
        mujoco.mj_step(model, data)
    moved = np.linalg.norm(data.xpos[1:] - pos, axis=1).max() / SCALE
    dots = np.abs(np.sum(quat * data.xquat[1:], axis=1)).clip(0.0, 1.0)
    turned = math.degrees(2 * math.acos(float(dots.min())))
    return float(moved), turned


def physics_stands(scene: Scene) -> bool:
    moved, turned = simulate(scene)
    return moved < MOVED and turned < TILTED


SCENES = scenes(PER_FAMILY)


def test_the_scenes_cover_standing_and_falling_in_every_family_that_can_fall() -> None:
    for family in {s.family for s in SCENES}:
        own = [s for s in SCENES if s.family == family]
        assert sum(s.margin > BAND for s in own) >= 3, family
        if family != "straddle":  # sticks across the gap on both boards never fall
            assert sum(s.margin < -BAND for s in own) >= 3, family


@pytest.mark.slow
def test_the_engine_and_the_physics_agree_away_from_the_edge() -> None:
    checked = [s for s in SCENES if abs(s.margin) > BAND]
    assert len(checked) >= 150
    wrong = [
        f"{s.describe()} (margin {s.margin:.2f} mm)"
        for s in checked
        if physics_stands(s) != (s.margin >= SPEC.margin)
    ]
    assert not wrong, f"{len(wrong)} of {len(checked)} disagree:\n" + "\n".join(wrong)
