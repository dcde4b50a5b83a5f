"""Invariants over random seeded games, checked independently of the engine's own bookkeeping."""

from __future__ import annotations

import json

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import StackBackState
from teocalli.games.stack_back.balance import evaluate, margins
from teocalli.games.stack_back.components import SPEC
from teocalli.games.stack_back.geometry import quads
from teocalli.games.stack_back.render import render_svg

VARIANTS = [{}, {"level_rule": "game"}, {"dexterity": True, "steadiness_1": 2.0}]


def play(options: dict, seed: int, pick: int) -> StackBackState:
    game = teocalli.load("stack-back", **options)
    state = game.new_state(seed)
    rng = Rng(pick)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        assert len(state.history) <= game.max_length
    assert isinstance(state, StackBackState)
    return state


def polygons(state: StackBackState) -> list:
    return [
        shapely.Polygon(quads(*[np.array([v]) for v in (s.cx, s.cy, s.ux, s.uy, s.half)])[0])
        for s in state.sticks
    ]


def check_structure(state: StackBackState) -> None:
    sticks = state.sticks
    polys = polygons(state)
    tol = SPEC.touch_tolerance
    for i, s in enumerate(sticks):
        touching = [
            j for j in range(len(sticks)) if j != i and polys[i].intersection(polys[j]).area > tol
        ]
        same = [j for j in touching if sticks[j].level == s.level]
        assert not same, f"sticks {i} and {same} overlap at level {s.level}"
        if s.level == 0:
            assert not s.supports
            continue
        below = [j for j in touching if j < i and sticks[j].level == s.level - 1]
        assert sorted(below) == sorted(s.supports), f"stick {i} rests on {below}"
        for j in s.supports:
            assert sticks[j].colour != s.colour
            assert polys[i].intersection(polys[j]).area >= SPEC.rest_minimum - 1e-6
        assert all(sticks[j].level < s.level for j in touching if j < i)
    assert min(margins(sticks), default=1.0) >= SPEC.margin - 1e-9, "a stick would fall"
    force, moment = evaluate(sticks)
    assert force == pytest.approx(state.force) and moment == pytest.approx(state.moment, abs=1e-6)
    for s_i in range(len(sticks)):  # no support carries two sticks of one colour
        colours = [t.colour for t in sticks if s_i in t.supports]
        assert len(colours) == len(set(colours))


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(range(3)), st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_games_keep_every_invariant_and_end(variant: int, seed: int, pick: int) -> None:
    options = VARIANTS[variant]
    state = play(options, seed, pick)
    check_structure(state)
    placed = 2 * sum(SPEC.per_player) - state.left(0) - state.left(1)
    assert placed == len(state.sticks)
    json.dumps(state.view(None))
    assert render_svg(state).startswith("<svg")


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_saves_and_replays_round_trip_mid_game(seed: int, pick: int) -> None:
    game = teocalli.load("stack-back", dexterity=True)
    final = play({"dexterity": True}, seed, pick)
    steps = [(s.player, s.action) for s in final.history]
    cut = len(steps) // 2
    mid = game.replay(seed, steps[:cut])
    loaded = game.state_from_json(json.loads(json.dumps(mid.to_json())))
    assert loaded._full() == mid._full()
    for player, action in steps[cut:]:
        loaded.apply(str(action), player)
    assert loaded._full() == final._full()
    assert loaded.outcome() == final.outcome()


def test_a_state_and_its_clone_are_independent() -> None:
    state = play({}, 5, 5)
    game = state.game
    early = game.replay(5, [(s.player, s.action) for s in state.history[:10]])
    before = json.dumps(early._full())
    other = early.clone()
    player = other.to_move()[0]
    other.apply(other.legal_actions(player)[-1], player)
    assert json.dumps(early._full()) == before
    assert early.legal_actions(player) == early.clone().legal_actions(player)
