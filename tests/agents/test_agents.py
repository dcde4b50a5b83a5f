"""Bot names, options and the Aztack greedy bot's strength against random."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.agents import make_agent, parse_spec
from teocalli.arena.simulate import simulate
from teocalli.core import InvalidOption


def test_bot_specs_parse_names_and_options() -> None:
    assert parse_spec("mcts:iterations=2000,time=1.0") == (
        "mcts",
        {"iterations": "2000", "time": "1.0"},
    )
    assert parse_spec("greedy") == ("greedy", {})
    with pytest.raises(InvalidOption, match="key=value"):
        parse_spec("mcts:fast")


def test_unknown_bots_and_options_are_named() -> None:
    game = teocalli.load("aztack")
    with pytest.raises(InvalidOption, match="no bot 'oracle'"):
        make_agent("oracle", game)
    with pytest.raises(InvalidOption, match="no option 'depth'"):
        make_agent("random:depth=3", game)


@pytest.mark.parametrize("players", [2, 4])
def test_aztack_greedy_beats_random(players: int) -> None:
    game = teocalli.load("aztack", players=players)
    seats = ["greedy"] + ["random"] * (players - 1)
    sim = simulate(game, seats, 120, seed=1)
    rate = sim.wins[0] / 120
    chance = 1 / players
    assert rate > chance + 0.25, f"greedy won {rate:.0%} of {players}-player games"
