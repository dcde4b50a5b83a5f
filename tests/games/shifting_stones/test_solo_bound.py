"""The solo bound: clairvoyant lines are real wins, never worse than the greedy bot, and a
seed the budget cannot decide is unknown."""

from __future__ import annotations

import teocalli
from teocalli.agents import make_agent
from teocalli.core.match import play_game
from teocalli.games.shifting_stones.solo_bound import clairvoyant_line, clairvoyant_wins
from teocalli.games.shifting_stones.state import EndReason


def test_a_clairvoyant_line_replays_to_a_solo_win() -> None:
    line = clairvoyant_line(0, node_limit=300)
    assert line is not None
    game = teocalli.load("shifting-stones", players=1)
    final = game.replay(0, [(0, a) for a in line])
    assert final.outcome().reason is EndReason.SOLO_WIN


def test_clairvoyant_wins_whenever_greedy_does_and_respects_the_node_limit() -> None:
    seeds = [0, 1]
    clair = clairvoyant_wins(seeds, node_limit=300, exact_seconds=4)
    game = teocalli.load("shifting-stones", players=1)
    for seed, won in zip(seeds, clair, strict=True):
        greedy = play_game(game, [make_agent("greedy", game, seed)], seed)
        if greedy.outcome().ranks == (0,):
            assert won is True
    # seed 1: no win found in this budget, and no proof either: unknown, never "not winnable"
    assert clairvoyant_wins([1], node_limit=1, exact_seconds=0.5) == [None]
