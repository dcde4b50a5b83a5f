"""The planning bot is clearly stronger than random (seeded, deterministic)."""

from __future__ import annotations

import teocalli
from teocalli.agents import make_agent
from teocalli.core.match import play_game


def test_greedy_beats_random_in_two_and_three_player_games() -> None:
    for players in (2, 3):
        game = teocalli.load("shifting-stones", players=players)
        wins = 0
        for seed in range(10):
            seats = ["greedy"] + ["random"] * (players - 1)
            actors = [make_agent(s, game, seed * 7 + i) for i, s in enumerate(seats)]
            final = play_game(game, actors, seed)
            wins += 0 in final.outcome().winners
        assert wins >= 9, f"greedy won only {wins}/10 {players}-player games against random"


def test_greedy_scores_far_more_cards_than_random_in_solo() -> None:
    game = teocalli.load("shifting-stones", players=1)
    greedy = random = 0.0
    for seed in range(5):
        for name in ("greedy", "random"):
            final = play_game(game, [make_agent(name, game, seed)], seed)
            cards = final.stats()["cards_scored"]
            assert isinstance(cards, list)
            if name == "greedy":
                greedy += cards[0]
            else:
                random += cards[0]
    assert greedy >= 10 * 5 and random <= 2 * 5
