"""Property tests: random games keep every card exactly once, grids legal, hands private."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import teocalli
from teocalli.core import Rng
from teocalli.games.shifting_stones.components import CARD_IDS, matches
from teocalli.games.shifting_stones.grid import grid_error
from teocalli.games.shifting_stones.state import ShiftingStonesState


def _check(state: ShiftingStonesState) -> None:
    every = [c for h in state.hands for c in h] + state.deck + state.discard
    every += [c for s in state.scored for c in s]
    assert sorted(every) == sorted(state.pool), "every card in play is in exactly one place"
    assert set(state.pool) <= set(CARD_IDS)
    assert grid_error(state.grid) is None
    assert all(h == sorted(h) for h in state.hands)
    if not state.is_terminal():
        scores = {a.card for a in state.legal_actions(state.turn) if type(a).__name__ == "Score"}
        assert scores == {c for c in state.hands[state.turn] if matches(c, state.grid)}
    if state.solo:
        assert state.strikes <= 4
    else:
        assert len(state.pool) == 72


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10**6))
def test_random_games_keep_the_invariants(players: int, seed: int) -> None:
    game = teocalli.load("shifting-stones", players=players, round_limit=8)
    state = game.new_state(seed)
    assert isinstance(state, ShiftingStonesState)
    rng = Rng(seed)
    scored_before = [0] * players
    while not state.is_terminal():
        _check(state)
        player = state.turn
        actions = state.legal_actions(player)
        action = actions[rng.randrange(len(actions))]
        state.apply(action, player)
        scored_now = [len(s) for s in state.scored]
        assert all(a >= b for a, b in zip(scored_now, scored_before, strict=True))
        scored_before = scored_now
    _check(state)
    out = state.outcome()
    assert len(state.history) <= game.max_length
    if players > 1:
        assert out.scores == tuple(float(x) for x in state.final_scores())


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.integers(0, 40))
def test_views_hide_other_hands_and_the_deck(players: int, seed: int, steps: int) -> None:
    game = teocalli.load("shifting-stones", players=players)
    state = game.new_state(seed)
    assert isinstance(state, ShiftingStonesState)
    rng = Rng(seed)
    for _ in range(steps):
        actions = state.legal_actions(state.turn)
        state.apply(actions[rng.randrange(len(actions))], state.turn)
    for p in range(players):
        view = state.view(p)["state"]
        assert view["hand"] == state.hands[p]
        assert "hands" not in view and "deck_order" not in view
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        world = state.determinize(p, Rng(seed + 1))
        assert isinstance(world, ShiftingStonesState)
        assert world.hands[p] == state.hands[p] and world.grid == state.grid
        assert Counter(len(h) for h in world.hands) == Counter(len(h) for h in state.hands)
    assert "hand" not in state.view(None)["state"]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_solo_determinize_resamples_unseen_cards_by_point_class(seed: int) -> None:
    from teocalli.games.shifting_stones.components import POINTS

    state = teocalli.load("shifting-stones", players=1).new_state(seed)
    assert isinstance(state, ShiftingStonesState)
    world = state.determinize(0, Rng(seed))
    assert isinstance(world, ShiftingStonesState)
    assert Counter(POINTS[c] for c in world.deck) == Counter(POINTS[c] for c in state.deck)
    assert world.hands == state.hands and world.view(0) == state.view(0)
