"""The search bots: legal and reproducible choices, tactics found, worlds that respect knowledge."""

from __future__ import annotations

import json
from typing import Any

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.core import InvalidOption, Rng, State
from teocalli.games.aztack.position import from_position


def test_mcts_refuses_hidden_information_games() -> None:
    with pytest.raises(InvalidOption, match="use ismcts"):
        make_agent("mcts", teocalli.load("stakz"))


def test_mcts_is_reproducible_with_a_seed_and_plays_legally() -> None:
    game = teocalli.load("aztack", players=3)
    state = game.new_state(4)
    a = make_agent("mcts:iterations=60", game, seed=9).act(state, 0)
    b = make_agent("mcts:iterations=60", game, seed=9).act(state, 0)
    assert a == b and a in state.legal_actions(0)


def test_mcts_finds_the_bonus_that_empties_its_hand() -> None:
    """Bt/Rf on Bt/Rf is a bonus: discarding the last stone then wins at once; any other move
    lets player 1 place their only stone and win."""
    state = from_position(
        teocalli.load("aztack"),
        """
        A: Bt/Gw Rf/Yt Gt/Bw Yw/Gf Yt/Gw Rd/Gt
        B: Bw/Rd Of/Bw Od/Bt Ow/Rt Rd/Yf Bd/Gt
        hand 0: Bt/Rf Bd/Rt
        hand 1: Gd/Ot
        """,
    )
    agent = make_agent("mcts:iterations=300", state.game, seed=1)
    assert str(agent.act(state, 0)) == "Bt/Rf@a1-b1"


def test_search_by_think_time_runs_at_least_one_iteration() -> None:
    game = teocalli.load("aztack")
    agent = make_agent("mcts:time=0.05", game, seed=2)
    state = game.new_state(1)
    assert agent.act(state, 0) in state.legal_actions(0)
    assert agent.search.last_iterations >= 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "options"),
    [("stakz", {}), ("space-aztecs", {"players": 3}), ("shifting-stones", {"players": 2})],
)
def test_ismcts_worlds_agree_with_what_the_player_knows_and_vary_the_rest(
    name: str, options: dict[str, Any]
) -> None:
    game = teocalli.load(name, **options)
    state = game.new_state(3)
    rng = Rng(5)
    for _ in range(12):  # a position some way in
        movers = state.to_move()
        p = movers[0]
        actions = state.legal_actions(p)
        state.apply(actions[rng.randrange(len(actions))], p)
    player = state.to_move()[0]
    worlds: list[State] = []
    real = state.determinize

    def recording(p: int, r: Rng) -> State:
        world = real(p, r)
        worlds.append(world.clone())
        return world

    state.determinize = recording  # type: ignore[method-assign]
    agent = make_agent("ismcts:iterations=40,guide=0,turns=0", game, seed=4)
    before = json.dumps(state._full(), sort_keys=True)
    action = agent.act(state, player)
    assert action in state.legal_actions(player)
    assert json.dumps(state._full(), sort_keys=True) == before, "the search changed the real state"
    assert len(worlds) == 40
    view = state.view(player)
    assert all(w.view(player) == view for w in worlds), "a world contradicts the player's knowledge"
    fulls = {json.dumps(w._full(), sort_keys=True) for w in worlds}
    assert len(fulls) > 1, "the sampled worlds never vary what the player cannot know"


def test_ismcts_plays_a_simultaneous_choice_without_seeing_the_others() -> None:
    """At Space Aztecs' hidden choice the bot's pick cannot depend on an opponent's pending pick."""
    from teocalli.core import Decision

    game = teocalli.load("space-aztecs", players=2)
    state = game.new_state(8)
    while state.decision() is not Decision.SIMULTANEOUS:
        state.apply(state.legal_actions()[0])
    first, second = state.to_move()
    choices = state.legal_actions(first)
    picks = set()
    for choice in choices[:3]:
        world = state.clone()
        world.apply(choice, first)
        picks.add(str(make_agent("ismcts:iterations=60", game, seed=7).act(world, second)))
    assert len(picks) == 1, "the second chooser's pick changed with the first's hidden choice"
