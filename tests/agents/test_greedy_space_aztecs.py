"""The greedy Space Aztecs bot beats random players far more often than chance (seeded games)."""

from __future__ import annotations

import teocalli
from teocalli.agents import make_agent
from teocalli.core.match import play_game


def greedy_share(players: int, games: int) -> float:
    """Greedy's share of wins (a shared win counts its share) over seeded games, rotating seats."""
    game = teocalli.load("space-aztecs", players=players)
    won = 0.0
    for seed in range(games):
        seat = seed % players
        actors = [
            make_agent("greedy" if p == seat else "random", game, seed * 10 + p)
            for p in range(players)
        ]
        outcome = play_game(game, actors, seed).outcome()
        if seat in outcome.winners:
            won += 1 / len(outcome.winners)
    return won / games


def test_greedy_beats_one_random_player() -> None:
    assert greedy_share(2, 30) >= 0.85  # chance: 0.5


def test_greedy_beats_three_random_players() -> None:
    assert greedy_share(4, 40) >= 0.6  # chance: 0.25


def test_greedy_answers_every_kind_of_question() -> None:
    game = teocalli.load("space-aztecs", players=5)
    actors = [make_agent("greedy", game, p) for p in range(5)]
    final = play_game(game, actors, 3)  # a seed where Saucers and Agents ask their questions
    kinds = {type(step.action).__name__ for step in final.history}
    assert kinds == {"Take", "Choose", "Capture", "Tuck"}
    assert final.is_terminal()
