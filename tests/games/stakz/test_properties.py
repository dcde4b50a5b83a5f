"""Invariants over random seeded matches (hypothesis picks the seeds and the player counts)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import teocalli
from teocalli.core import Rng
from teocalli.games.stakz import StakzState
from teocalli.games.stakz.components import COLOUR, NUM_TILES

FULL_SET = dict.fromkeys(range(NUM_TILES), 3)
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tiles_everywhere(state: StakzState) -> Counter[int]:
    count: Counter[int] = Counter(state.pile)
    for hand in state.hands:
        count.update({t: hand[t] for t in range(NUM_TILES) if hand[t]})
    for stack in state.stacks:
        count.update(stack)
    return count


def check_invariants(state: StakzState) -> None:
    assert tiles_everywhere(state) == FULL_SET, "tiles are conserved"
    assert state.hand_size == [sum(h) for h in state.hands]
    assert state.pile_colours == [sum(1 for t in state.pile if COLOUR[t] == c) for c in range(5)]
    for stack in state.stacks:
        colours = Counter(COLOUR[t] for t in stack)
        assert max(colours.values()) <= 2, "no stack ever holds three of a colour"
        assert len(colours) < 5, "a stack with five colours has split"
    if not state.is_terminal():
        for viewer in range(state.num_players):
            hands = state.view(viewer)["state"]["hands"]
            for p, hand in enumerate(hands):
                assert ("tiles" in hand) == (p == viewer), "views never show another's symbols"
                assert sum(hand["colours"].values()) == state.hand_size[p]
    spectator = state.view(None)["state"]
    if not state.is_terminal():
        assert all("tiles" not in h for h in spectator["hands"])
        assert "tiles" not in spectator["pile"]


def random_match(players: int, seed: int) -> list[StakzState]:
    game = teocalli.load("stakz", players=players)
    state = game.new_state(seed)
    assert isinstance(state, StakzState)
    rng = Rng(seed + 1)
    states = [state.clone()]
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        assert len(state.history) <= game.max_length
        states.append(state.clone())
    return [s for s in states if isinstance(s, StakzState)]


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_random_matches_keep_every_invariant_and_end(players: int, seed: int) -> None:
    states = random_match(players, seed)
    final = states[-1]
    assert final.is_terminal()
    assert max(final.scores) >= 12
    for state in [*states[:: max(1, len(states) // 40)], final]:
        check_invariants(state)


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_json_and_replay_round_trip(players: int, seed: int) -> None:
    game = teocalli.load("stakz", players=players)
    states = random_match(players, seed)
    for state in (states[len(states) // 3], states[-1]):
        data = json.loads(json.dumps(state.to_json()))
        loaded = game.state_from_json(data)
        assert loaded._full() == state._full()
        replayed = game.replay(seed, [(s.player, str(s.action)) for s in state.history])
        assert replayed._full() == state._full()
        json.dumps(state.view(None))


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), k=st.integers(0, 2**32))
def test_determinized_worlds_keep_what_the_player_knows(players: int, seed: int, k: int) -> None:
    states = random_match(players, seed)
    state = states[len(states) // 2]
    if state.is_terminal():
        return
    for viewer in range(players):
        world = state.determinize(viewer, Rng(k))
        assert isinstance(world, StakzState)
        assert world.view(viewer) == state.view(viewer)
        assert tiles_everywhere(world) == FULL_SET
        assert world.hands[viewer] == state.hands[viewer]
        check_invariants(world)
