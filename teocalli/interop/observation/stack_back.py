"""Stack Back observations (view layout: teocalli/games/stack_back/state.py `_view`).

After the common header (base.py), with the 2 players, the 3 stick colours (Y M G) and K = 60
stick slots (every stick of both supplies, in the order they were placed):

| field | shape | meaning |
| --- | --- | --- |
| stick_present | K | 1 for each stick in play |
| stick_colour | K x 3 | one-hot colour |
| stick_xy | K x 2 | centre x / 236 mm and y / 100 mm |
| stick_angle | K x 2 | cos and sin of twice the angle (a stick turned half round is the same) |
| stick_owner | K x 2 | one-hot owner |
| stick_level | K | level / 10 (0 = on the wood) |
| stick_supports | K | number of sticks it rests on / 4 |
| supply | 2 x 3 | sticks of each colour left to each player / 10 |
| turn | 2 | one-hot: whose turn |
| placed_this_turn | 1 | sticks placed this turn / 10 |
| floor | 2 | each player's sticks on the floor / 10 |
| idle_turns | 1 | turns in a row that placed nothing / 2 |
| piled_plays | 2 | each player's placements on other sticks / 30 |
| passes | 2 | each player's passes / 30 |
| fumbles | 2 | each player's fumbled placements / 30 |
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from teocalli.games.stack_back import actions, ids
from teocalli.games.stack_back.components import SPEC

from .base import ZEROS, Array, Encoder, FloatView, Layout, Memo, one_hot, scaled

if TYPE_CHECKING:
    from teocalli.games.stack_back.balance import Stick
    from teocalli.games.stack_back.state import StackBackState

MAX_STICKS = 2 * sum(SPEC.per_player)
X_SPAN = max(b[2] for b in SPEC.boards)
Y_SPAN = max(b[3] for b in SPEC.boards)
MAX_LEVEL = 10


class StackBackEncoder(Encoder):
    """Stack Back: every stick's pose, colour, owner and level; supplies and counters.

    The fast path (`_observe`) writes a stick's slot once: a placed stick never changes, and a
    game's sticks are only ever appended, so the slots whose stick is the one last written stay
    (the sticks last written compared with the state's first ones in one list comparison, by
    identity or else by value, which is all a slot shows; when they differ, any other state, an
    earlier step, another deal, is rewritten where a stick object differs). The counters are a
    dozen values, written every step. Nothing depends on the observer but the seat, and a
    finished game's view shows what a player's does: one buffer for all, the end from the
    fields too."""

    incremental = True
    shared_buffer = True
    final_from_fields = True
    final_is_shared = True

    def _build(self, layout: Layout) -> None:
        k, colours = MAX_STICKS, len(SPEC.keys)
        self.f_present = layout.add("stick_present", k, "sticks in play")
        self.f_colour = layout.add("stick_colour", (k, colours), "one-hot colour")
        self.f_xy = layout.add("stick_xy", (k, 2), "centre x / 236 mm, y / 100 mm")
        self.f_angle = layout.add("stick_angle", (k, 2), "cos, sin of twice the angle", low=-1.0)
        self.f_owner = layout.add("stick_owner", (k, 2), "one-hot owner")
        self.f_level = layout.add("stick_level", k, "level / 10")
        self.f_supports = layout.add("stick_supports", k, "sticks it rests on / 4")
        self.f_supply = layout.add("supply", (2, colours), "sticks left per colour / 10")
        self.f_turn = layout.add("turn", 2, "one-hot: whose turn")
        self.f_placed = layout.add("placed_this_turn", 1, "sticks placed this turn / 10")
        self.f_floor = layout.add("floor", 2, "sticks on the floor / 10")
        self.f_idle = layout.add("idle_turns", 1, "turns in a row that placed nothing / 2")
        self.f_piled = layout.add("piled_plays", 2, "placements on other sticks / 30")
        self.f_passes = layout.add("passes", 2, "passes / 30")
        self.f_fumbles = layout.add("fumbles", 2, "fumbled placements / 30")

    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        xy, angle = self.f_xy.of(out), self.f_angle.of(out)
        for i, stick in enumerate(state["sticks"][:MAX_STICKS]):
            colour, x, y, c, s = _pose(stick["pose"])
            out[self.f_present.start + i] = 1.0
            one_hot(self.f_colour, out, colour, i)
            xy[i] = (x, y)
            angle[i] = (c, s)
            one_hot(self.f_owner, out, stick["owner"], i)
            out[self.f_level.start + i] = scaled(stick["level"], MAX_LEVEL)
            out[self.f_supports.start + i] = scaled(len(stick["supports"]), 4)
        supply = self.f_supply.of(out)
        for p, counts in enumerate(state["supply"]):
            for c, key in enumerate(SPEC.keys):
                supply[p, c] = scaled(counts[key], 10)
        one_hot(self.f_turn, out, state["turn"])
        out[self.f_placed.start] = scaled(state["placed_this_turn"], 10)
        out[self.f_idle.start] = scaled(state["idle_turns"], 2)
        for p in range(2):
            out[self.f_floor.start + p] = scaled(state["floor"][p], 10)
            out[self.f_piled.start + p] = scaled(state["piled_plays"][p], 30)
            out[self.f_passes.start + p] = scaled(state["passes"][p], 30)
            out[self.f_fumbles.start + p] = scaled(state["fumbles"][p], 30)

    def _observe(
        self, state: StackBackState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
        """`_encode` of the view, from the engine's fields: the slots of the sticks not last
        written, then every counter."""
        sticks = state.sticks[:MAX_STICKS]  # a new list: kept as written
        written: list[Stick] = memo.setdefault("sticks", [])
        n = len(written)
        if n <= len(sticks) and written == sticks[:n]:  # the usual step: one C comparison
            for i in range(n, len(sticks)):
                self._slot(mv, i, sticks[i])
        else:
            for i, stick in enumerate(sticks):
                if i >= n or written[i] is not stick:
                    self._slot(mv, i, stick)
            for i in range(len(sticks), n):
                self._clear(mv, i)
        memo["sticks"] = sticks
        at = self.f_supply.start
        for p in range(2):
            for n in state.supply[p]:
                mv[at] = scaled(n, 10)
                at += 1
        turn = self.f_turn.start
        mv[turn], mv[turn + 1] = (1.0, 0.0) if state.turn == 0 else (0.0, 1.0)
        mv[self.f_placed.start] = scaled(state.placed_this_turn, 10)
        mv[self.f_idle.start] = scaled(state.idle, 2)
        for p in range(2):
            mv[self.f_floor.start + p] = scaled(state.floor[p], 10)
            mv[self.f_piled.start + p] = scaled(state.piled_plays[p], 30)
            mv[self.f_passes.start + p] = scaled(state.passes[p], 30)
            mv[self.f_fumbles.start + p] = scaled(state.fumbles[p], 30)

    def mark_legal(self, state: Any, player: int, marks: bytearray) -> None:
        """`Encoder.mark_legal` from the id table's own mask (`ids.table`: the same ids as
        `State.legal_ids`, a byte each), copied whole: a mask holds some thousand ids."""
        marks[:] = ids.table(state, player).marks.data

    def _slot(self, mv: FloatView, i: int, stick: Stick) -> None:
        """Write stick slot i as `_encode` does, clipped to the fields' bounds as `encode`
        clips them."""
        colour, x, y, c, s = _pose_of(stick.pose)
        mv[self.f_present.start + i] = 1.0
        at = self.f_colour.start + 3 * i
        mv[at : at + 3] = _ONE_HOT3[colour]
        at = self.f_xy.start + 2 * i
        mv[at], mv[at + 1] = _clip(x, 0.0), _clip(y, 0.0)
        at = self.f_angle.start + 2 * i
        mv[at], mv[at + 1] = _clip(c, -1.0), _clip(s, -1.0)
        at = self.f_owner.start + 2 * i
        mv[at], mv[at + 1] = (1.0, 0.0) if stick.owner == 0 else (0.0, 1.0)
        mv[self.f_level.start + i] = scaled(stick.level, MAX_LEVEL)
        mv[self.f_supports.start + i] = scaled(len(stick.supports), 4)

    def _clear(self, mv: FloatView, i: int) -> None:
        """Empty stick slot i (a state with fewer sticks than last written)."""
        mv[self.f_present.start + i] = 0.0
        for f in (self.f_colour, self.f_xy, self.f_angle, self.f_owner):
            width = f.shape[-1]
            at = f.start + width * i
            mv[at : at + width] = ZEROS[:width]
        mv[self.f_level.start + i] = 0.0
        mv[self.f_supports.start + i] = 0.0


_ONE_HOT3 = [np.eye(3, dtype=np.float32)[c].data for c in range(3)]


def _clip(v: float, low: float) -> float:
    """v within [low, 1] (the fields' bounds, as `encode` clips)."""
    return low if v < low else 1.0 if v > 1.0 else v


_POSES: dict[str, tuple[int, float, float, float, float]] = {}
_POSES_MAX = 10_000


def _pose(text: str) -> tuple[int, float, float, float, float]:
    """A placed stick's pose as observed: colour, x / 236 mm, y / 100 mm, cos and sin of twice
    the angle. Kept per pose text: a stick keeps its pose, and every step shows every stick."""
    known = _POSES.get(text)
    if known is not None:
        return known
    pose = actions.parse(text)
    assert isinstance(pose, actions.Place), text
    made = _pose_of(pose)
    if len(_POSES) >= _POSES_MAX:
        _POSES.clear()
    _POSES[text] = made
    return made


def _pose_of(pose: actions.Place) -> tuple[int, float, float, float, float]:
    """`_pose` of a pose object (its text reads back as the same pose)."""
    theta = math.radians(2 * pose.angle)
    return (int(pose.colour), pose.x / X_SPAN, pose.y / Y_SPAN, math.cos(theta), math.sin(theta))


ENCODER = StackBackEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
