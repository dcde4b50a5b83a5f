"""Property tests over random games: cards are conserved, no view shows a hidden choice or
another's pile, saves, replays and positions round-trip, and every game ends."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teocalli.core import Rng
from teocalli.games.space_aztecs.components import CARD_ID, NUM_CARDS, NUM_PILES
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.state import CHOSEN, CITY, OUT, Phase, SpaceAztecsState

CARD = re.compile(r"[A-Z]{3}-[A-Z0-9]+")

games = st.builds(
    lambda players, codex: SpaceAztecs(players=players, codex=codex),
    st.integers(2, 6),
    st.booleans(),
)
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_states(game: SpaceAztecs, seed: int) -> list[SpaceAztecsState]:
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    states = [state.clone()]
    while not state.is_terminal():
        movers = state.to_move()
        player = movers[rng.randrange(len(movers))]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
        states.append(state.clone())
        assert len(state.history) <= game.max_length
    return [s for s in states if isinstance(s, SpaceAztecsState)]


def known_cards(state: SpaceAztecsState, player: int | None) -> set[str]:
    """Every card the player may know the place of: played cards, announced choices, their
    own choice, and the piles they hold or once held (a pending choice from one included)."""
    known = {CARD_ID[c] for c in range(NUM_CARDS) if state.where[c] >= CITY}
    if state.phase is not Phase.CHOOSE:
        known |= {CARD_ID[c] for c in state.chosen if c >= 0}
    if player is None:
        return known
    if state.chosen[player] >= 0:
        known.add(CARD_ID[state.chosen[player]])
    for x in range(NUM_PILES):
        if state.knows_pile(player, x):
            known |= {CARD_ID[c] for c in state.pile_cards(x)}
            if state.pending_choice(x) >= 0:
                known.add(CARD_ID[state.pending_choice(x)])
    return known


@FAST
@given(games, st.integers(0, 10_000))
def test_cards_are_conserved_and_views_leak_nothing(game: SpaceAztecs, seed: int) -> None:
    states = random_states(game, seed)
    deck = game.deck_size
    for s in states:
        assert sum(1 for w in s.where if w != OUT) == deck
        assert [len(s.pile_cards(x)) for x in range(NUM_PILES)] == s.pile_size
        for p, c in enumerate(s.chosen):  # face down, or already played this round
            assert c < 0 or s.where[c] == CHOSEN + p or s.where[c] >= CITY
        if s.phase in (Phase.PICK, Phase.CHOOSE):
            face_down = sum(1 for w in s.where if CHOSEN <= w < CITY)
            assert face_down == sum(1 for c in s.chosen if c >= 0)
        if s.is_terminal():
            continue
        for p in [None, *range(game.num_players)]:
            shown = set(CARD.findall(json.dumps(s.view(p))))
            assert shown <= known_cards(s, p), f"player {p} sees {shown - known_cards(s, p)}"
    assert states[-1].is_terminal()


@FAST
@given(games, st.integers(0, 10_000))
def test_every_game_ends_and_saves_and_replays_round_trip(game: SpaceAztecs, seed: int) -> None:
    states = random_states(game, seed)
    final = states[-1]
    assert final.is_terminal() and final.to_move() == ()
    played = sum(1 for c in range(NUM_CARDS) if final.where[c] >= CITY)
    assert played == final.round * game.num_players  # one card per player per round
    outcome = final.outcome()
    assert sum(outcome.scores) == sum(s.total for s in final.sheets())
    for s in (states[len(states) // 3], final):
        loaded = game.state_from_json(json.loads(json.dumps(s.to_json())))
        assert loaded._full() == s._full()
        replayed = game.replay(seed, [(st_.player, str(st_.action)) for st_ in s.history])
        assert replayed._full() == s._full()
