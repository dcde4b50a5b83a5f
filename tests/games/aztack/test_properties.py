"""Aztack invariants over many random games (hypothesis picks seeds, options and moves)."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

import teocalli
from teocalli.core import Rng
from teocalli.games.aztack.actions import parse
from teocalli.games.aztack.state import AztackState, stones_of

games = st.sampled_from(
    [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 3, "speed": True},
        {"players": 4, "speed": True, "declare": True},
    ]
)


def conserved(state: AztackState) -> bool:
    every = [s for s, *_ in state.placed]
    for hand in state.hands:
        every += stones_of(hand)
    every += stones_of(state.discarded) + stones_of(state.out_of_play)
    return sorted(every) == list(range(60))


def play(options: dict, seed: int, moves: int = 10_000) -> AztackState:  # type: ignore[type-arg]
    game = teocalli.load("aztack", **options)
    state = game.new_state(seed)
    rng = Rng(seed)
    while not state.is_terminal() and len(state.history) < moves:
        movers = state.to_move()
        player = movers[rng.randrange(len(movers))]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
        assert conserved(state)
        assert all(h >= 1 for h in state.height)
    assert isinstance(state, AztackState)
    return state


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32))
def test_random_games_conserve_stones_and_end(options: dict, seed: int) -> None:  # type: ignore[type-arg]
    state = play(options, seed)
    assert state.is_terminal()
    out = state.outcome()
    if out.reason.name == "EMPTIED_HAND":
        assert 0.0 in out.scores and out.winners == (out.scores.index(0.0),)
    else:
        assert not any(state.can_place(p) for p in range(state.num_players))


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 60))
def test_saves_and_replays_reproduce_the_game(options: dict, seed: int, moves: int) -> None:  # type: ignore[type-arg]
    state = play(options, seed, moves)
    game = state.game
    loaded = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded._full() == state._full()
    replayed = game.replay(seed, [(s.player, str(s.action)) for s in state.history])
    assert replayed._full() == state._full()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60 * 76 * 3 + 61))
def test_every_action_index_round_trips_through_notation(index: int) -> None:
    game = teocalli.load("aztack", players=2, speed=True, declare=True)
    action = game.action_from_int(index)
    assert parse(str(action)) == action
    assert game.action_to_int(action) == index
    assert (
        eval(repr(action), vars(__import__("teocalli.games.aztack.actions", fromlist=["x"])))
        == action
    )


NOTATION = teocalli.load("aztack", players=2, speed=True, declare=True)
TEXTS = st.one_of(
    st.text(max_size=20),  # nearly always refused
    st.integers(0, NOTATION.num_distinct_actions - 1).map(
        lambda i: str(NOTATION.action_from_int(i))
    ),  # read: so the round trip below is checked too
)


@given(TEXTS)
@example("Gf/Ow@a1-b1=c")
@example("~ not a move ~")
def test_parser_never_fails_except_with_invalid_action(text: str) -> None:
    from teocalli.core import InvalidAction

    try:
        action = parse(text)
    except InvalidAction as err:
        action = err
    if isinstance(action, InvalidAction):
        assert str(action).strip(), "a refusal says why"
    else:
        assert parse(str(action)) == action
