"""Turn-level search (`turns=1`): proposals are whole legal turns built from the player's own
knowledge, the chosen turn is kept step by step, and the search sees what a turn leads to."""

from __future__ import annotations

import json

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.heuristics import shifting_stones as heuristic
from teocalli.agents.mcts import MCTSAgent
from teocalli.agents.turn_search import TurnSearch
from teocalli.core import InvalidOption, Rng
from teocalli.games.shifting_stones.position import from_position
from teocalli.games.shifting_stones.state import ShiftingStonesState

from .positions import greedy_positions
from .stones import LOST_IF_ENDED, redealt


def _positions(seeds: range) -> list[tuple[ShiftingStonesState, int]]:
    """Positions from greedy games: every decision, at turn starts and mid-turn."""
    game = teocalli.load("shifting-stones", players=2)
    return greedy_positions(game, seeds)


def test_every_proposed_turn_is_legal_and_ends_the_turn() -> None:
    positions = _positions(range(3))
    assert len(positions) > 100
    for state, player in positions[::3]:
        proposals = heuristic.turns(state, player, Rng(0))
        assert proposals, "there is always a turn to propose (at least ending it)"
        for turn in proposals:
            world = state.clone()
            for action in turn:
                assert player in world.to_move() and not world.is_terminal()
                world.apply(action, player)  # raises InvalidAction if illegal
            assert world.is_terminal() or player not in world.to_move(), turn


def test_proposals_use_only_what_the_player_knows() -> None:
    for state, player in _positions(range(1))[::5]:
        expected = heuristic.turns(state, player, Rng(0))
        for k in range(3):
            world = state.determinize(player, Rng(k))
            assert heuristic.turns(world, player, Rng(0)) == expected


def test_the_greedy_turn_is_always_a_candidate_and_comes_first() -> None:
    state, player = _positions(range(1))[0]
    search = TurnSearch(
        Rng(1),
        turns=heuristic.turns,
        policy=heuristic.choose,
        rollout=heuristic.rollout,
        iterations=10,
    )
    candidates = search.candidates(state, player)
    world, rng = state.clone(), Rng(1)
    greedy = []
    while player in world.to_move():
        action = heuristic.choose(world, player, rng)
        greedy.append(action)
        world.apply(action, player)
    assert candidates[0] == tuple(greedy)
    assert len(candidates) == len(set(candidates)) > 1


def test_the_chosen_turn_is_played_step_by_step_without_searching_again() -> None:
    game = teocalli.load("shifting-stones", players=2)
    state = game.new_state(0)
    agent = make_agent("ismcts:turns=1,iterations=60", game, seed=2)
    assert isinstance(agent, MCTSAgent) and isinstance(agent.search, TurnSearch)
    search = agent.search
    first = agent.act(state, 0)
    assert search.last_iterations > 0
    planned = list(search._plan)
    assert planned, "seed 0's chosen turn has more steps than its first (seed 3's was a skip)"
    state.apply(first, 0)
    for step in planned:
        assert agent.act(state, 0) == step
        assert search.last_iterations == 0
        state.apply(step, 0)
    assert state.to_move() == (1,), "the plan ended the turn"


def test_turn_search_is_reproducible_with_a_seed() -> None:
    game = teocalli.load("shifting-stones", players=2)
    state = game.new_state(5)
    a = make_agent("ismcts:turns=1,iterations=80", game, seed=4).act(state, 0)
    b = make_agent("ismcts:turns=1,iterations=80", game, seed=4).act(state, 0)
    assert a == b


def test_turns_are_refused_for_a_game_without_proposals() -> None:
    with pytest.raises(InvalidOption, match="turn proposals"):
        make_agent("ismcts:turns=1", teocalli.load("space-aztecs", players=2))


def test_the_turn_search_does_not_end_a_lost_game_that_greedy_ends() -> None:
    game = teocalli.load("shifting-stones", players=2)
    state = from_position(game, LOST_IF_ENDED)  # type: ignore[arg-type]
    greedy = heuristic.choose(state, 1, Rng(0))
    assert str(greedy) == "score 21"
    ended = state.clone()
    ended.apply(greedy, 1)
    ended.apply("end", 1)
    assert ended.is_terminal() and ended.outcome().winners == (0,)

    agent = make_agent("ismcts:turns=1,iterations=400", game, seed=1)
    assert isinstance(agent.search, TurnSearch)
    turn = [agent.act(state, 1), *agent.search._plan]
    assert "score 21" not in [str(a) for a in turn], turn


def test_turn_search_worlds_agree_with_what_the_player_knows_and_vary_the_rest() -> None:
    state, player = _positions(range(1))[30]
    worlds: list[ShiftingStonesState] = []
    real = state.determinize

    def recording(p: int, r: Rng) -> ShiftingStonesState:
        world = real(p, r)
        worlds.append(world.clone())
        return world

    state.determinize = recording  # type: ignore[method-assign]
    agent = make_agent("ismcts:iterations=60", state.game, seed=4)
    before = json.dumps(state._full(), sort_keys=True)
    agent.act(state, player)
    assert json.dumps(state._full(), sort_keys=True) == before, "the search changed the real state"
    assert len(worlds) >= 2
    view = state.view(player)
    assert all(w.view(player) == view for w in worlds), "a world contradicts the player's knowledge"
    assert len({(tuple(w.deck), tuple(w.hands[1 - player])) for w in worlds}) > 1


def test_the_default_budget_is_the_games_own_and_an_explicit_one_wins() -> None:
    game = teocalli.load("shifting-stones", players=2)
    default = make_agent("ismcts", game).search
    explicit = make_agent("ismcts:iterations=77", game).search
    step = make_agent("ismcts:turns=0", game).search
    assert isinstance(default, TurnSearch)
    assert (default.iterations, default.depth, default.width) == (1500, 4, 8)
    assert isinstance(explicit, TurnSearch) and explicit.iterations == 77
    assert (explicit.depth, explicit.width) == (4, 8)
    full = make_agent("ismcts:depth=0,width=24", game).search
    assert isinstance(full, TurnSearch) and (full.depth, full.width) == (0, 24)
    assert not isinstance(step, TurnSearch) and step.iterations == 1000
    with pytest.raises(InvalidOption, match="turns is one of"):
        make_agent("ismcts:turns=maybe", game)


def test_a_turn_replaces_the_greedy_one_only_on_evidence() -> None:
    game = teocalli.load("shifting-stones", players=2)
    state = from_position(game, LOST_IF_ENDED)  # type: ignore[arg-type]
    # beyond any evidence: the greedy turn (which ends the lost game) is kept
    stubborn = make_agent("ismcts:iterations=400,confidence=1000", game, seed=1)
    assert str(stubborn.act(state, 1)) == "score 21"
    # with no such rule the search departs as soon as another turn looks better
    eager = make_agent("ismcts:iterations=400,confidence=0", game, seed=1)
    assert str(eager.act(state, 1)) != "score 21"


@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "ismcts:iterations=60,depth=0,width=24"])
def test_two_player_search_uses_only_what_the_player_knows(spec: str) -> None:
    """Two worlds that differ only in the opponent's hand and the deck order give the same turn."""
    positions = _positions(range(2))[::40]
    assert len(positions) >= 4
    for state, player in positions:
        assert isinstance(state, ShiftingStonesState)
        other = redealt(state, player, 11)
        assert other.view(player) == state.view(player)
        assert (other.deck, other.hands) != (state.deck, state.hands)
        turns = []
        for world in (state, other):
            agent = make_agent(spec, state.game, seed=3)
            assert isinstance(agent, MCTSAgent) and isinstance(agent.search, TurnSearch)
            turns.append([agent.act(world, player), *agent.search._plan])
        assert turns[0] == turns[1]
