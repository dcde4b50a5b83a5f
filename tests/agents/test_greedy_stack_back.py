"""The Stack Back greedy bot beats random play by a wide margin (seeded, deterministic)."""

from __future__ import annotations

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.heuristics.stack_back import choose
from teocalli.core import Rng
from teocalli.core.match import play_game


def test_greedy_beats_random() -> None:
    game = teocalli.load("stack-back")
    wins = 0.0
    games = 20
    for seed in range(games):
        seat = seed % 2  # the greedy seat alternates so no seat advantage helps it
        actors = [
            make_agent("greedy" if p == seat else "random", game, seed * 10 + p) for p in range(2)
        ]
        winners = play_game(game, actors, seed).outcome().winners
        if seat in winners:
            wins += 1 / len(winners)
    assert wins / games >= 0.85  # chance is 0.5; measured 20 of 20


def test_greedy_piles_when_it_can_and_plays_only_legal_actions() -> None:
    game = teocalli.load("stack-back")
    state = game.new_state(3)
    bot = make_agent("greedy", game, 1)
    while not state.is_terminal():
        player = state.to_move()[0]
        action = bot.act(state, player)
        assert action in state.legal_actions(player)
        piles = [
            a for a in state.legal_actions(player) if str(a) != "pass" and not state.is_free_wood(a)
        ]
        if piles:
            assert not state.is_free_wood(action), (
                "a pile was possible but the bot laid on the wood"
            )
        assert choose(state.clone(), player, Rng(5)) == choose(state, player, Rng(5))
        state.apply(action, player)
