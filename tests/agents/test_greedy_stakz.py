"""The Stakz greedy bot beats random play by a wide margin (seeded, deterministic)."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.heuristics.stakz import choose
from teocalli.core import Rng
from teocalli.core.match import play_game


def win_rate(players: int, games: int) -> float:
    game = teocalli.load("stakz", players=players)
    wins = 0.0
    for seed in range(games):
        seat = seed % players
        actors = [
            make_agent("greedy" if p == seat else "random", game, seed * 10 + p)
            for p in range(players)
        ]
        winners = play_game(game, actors, seed).outcome().winners
        if seat in winners:
            wins += 1 / len(winners)
    return wins / games


@pytest.mark.parametrize(("players", "games", "floor"), [(2, 30, 0.9), (4, 20, 0.75)])
def test_greedy_beats_random(players: int, games: int, floor: float) -> None:
    # chance is 1 / players; the greedy seat rotates so no seat advantage helps it
    assert win_rate(players, games) >= floor


def test_greedy_plays_legal_actions_and_ignores_what_it_cannot_know() -> None:
    """In every world consistent with its knowledge the bot makes the same choice."""
    game = teocalli.load("stakz", players=3)
    state = game.new_state(5)
    bot = make_agent("greedy", game, 1)
    for step in range(80):
        if state.is_terminal():
            break
        player = state.to_move()[0]
        expected = choose(state, player, Rng(step))
        for k in range(3):
            world = state.determinize(player, Rng(1000 + k))
            assert choose(world, player, Rng(step)) == expected
        action = bot.act(state, player)
        assert action in state.legal_actions(player)
        state.apply(action, player)
