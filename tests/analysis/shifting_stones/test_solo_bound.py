"""The solo bound: clairvoyant lines are real wins, the quick search wins wherever the greedy bot
does, and node budgets alone decide every verdict (a seed no budget decides is unknown)."""

from __future__ import annotations

import math

import teocalli
from teocalli.agents import make_agent
from teocalli.analysis.shifting_stones.solo_bound import (
    clairvoyant_line,
    clairvoyant_verdicts,
    clairvoyant_wins,
    solo_bound,
)
from teocalli.analysis.shifting_stones.solo_search import Verdict
from teocalli.core.match import play_game
from teocalli.games.shifting_stones.state import EndReason, ShiftingStonesState

NO_EXACT = {"beam_nodes": 0, "exact_nodes": 0, "wide_nodes": 0}
"""Budgets that leave solo_search out: the verdict comes from the quick search alone."""


def test_a_clairvoyant_line_replays_to_a_solo_win() -> None:
    line = clairvoyant_line(0, nodes=300)
    assert line is not None
    game = teocalli.load("shifting-stones", players=1)
    final = game.replay(0, [(0, a) for a in line])
    assert final.outcome().reason is EndReason.SOLO_WIN


def test_the_quick_search_wins_wherever_the_greedy_bot_does() -> None:
    # The greedy bot rarely wins solo (1 seed in 300 from 0: seed 258); the clairvoyant tries the
    # greedy turn first, so a budget of one search node per turn of the greedy game (plus the
    # position it wins from) replays exactly the greedy bot's winning game.
    game = teocalli.load("shifting-stones", players=1)
    greedy_wins = 0
    for seed in range(255, 261):
        final = play_game(game, [make_agent("greedy", game, seed)], seed)
        assert isinstance(final, ShiftingStonesState)
        if final.outcome().reason is not EndReason.SOLO_WIN:
            continue
        greedy_wins += 1
        greedy_line = [step.action for step in final.history]
        assert clairvoyant_line(seed, nodes=final.turns + 1) == greedy_line
        assert clairvoyant_wins([seed], nodes=final.turns + 1, **NO_EXACT) == [True]
    assert greedy_wins == 1


def test_the_node_budgets_alone_decide_the_verdict() -> None:
    # The quick search's first win on seed 0 needs `first` turns of search: one fewer finds none.
    first = next((n for n in range(1, 500) if clairvoyant_line(0, nodes=n) is not None), None)
    assert first is not None and first > 15
    assert clairvoyant_line(0, nodes=first) == clairvoyant_line(0, nodes=first + 100)
    # solo_bound's second quick search gets 15 times the turns: just enough wins, one less not
    enough = math.ceil(first / 15)
    bound = solo_bound(0, nodes=enough, **NO_EXACT)
    assert bound.verdict is Verdict.WINNABLE and bound.line == clairvoyant_line(0, nodes=first)
    assert solo_bound(0, nodes=enough - 1, **NO_EXACT).verdict is Verdict.UNKNOWN


def test_a_seed_the_budget_cannot_decide_is_unknown_never_not_winnable() -> None:
    # seed 1: no win in 1 + 15 quick turns, 1 position of each beam or the exhaustive search
    [bound] = clairvoyant_verdicts([1], nodes=1, beam_nodes=1, exact_nodes=1, wide_nodes=1)
    assert bound.verdict is Verdict.UNKNOWN and bound.line is None
    assert clairvoyant_wins([1], nodes=1, beam_nodes=1, exact_nodes=1, wide_nodes=1) == [None]
