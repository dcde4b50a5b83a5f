"""The `solo` bot and `hint`: decisions from the player's knowledge only, legal play, fallbacks."""

from __future__ import annotations

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.solo import hint, hint_with_reason, public_seed
from teocalli.cli import TerminalTable
from teocalli.core import Rng
from teocalli.games.shifting_stones.state import ShiftingStonesState

SMALL = "solo:worlds=4,deep=2,deep_worlds=2"


def _reordered(state: ShiftingStonesState, keep_top: int, seed: int) -> ShiftingStonesState:
    """The same visible position with the hidden deck order (below the top `keep_top` cards)
    and the reshuffle generator changed."""
    other = state.clone()
    assert isinstance(other, ShiftingStonesState)
    rest = other.deck[: len(other.deck) - keep_top]
    Rng(seed).shuffle(rest)
    other.deck = rest + other.deck[len(other.deck) - keep_top :]
    other.rng = Rng(seed + 1)
    return other


def test_solo_bot_uses_only_what_the_player_knows() -> None:
    game = teocalli.load("shifting-stones", players=1)
    a = game.new_state(3)
    assert isinstance(a, ShiftingStonesState)
    b = _reordered(a, keep_top=4, seed=11)
    assert a.deck != b.deck and a.view(0) == b.view(0)
    bot_a, bot_b = make_agent(SMALL, game, 7), make_agent(SMALL, game, 7)
    steps = 0
    while not a.is_terminal() and a.view(0) == b.view(0):
        action = bot_a.act(a, 0)
        assert bot_b.act(b, 0) == action
        a.apply(action, 0)
        b.apply(action, 0)
        steps += 1
    assert steps >= 5  # at least the first whole turn was played in both worlds


def test_solo_bot_plays_a_legal_game() -> None:
    game = teocalli.load("shifting-stones", players=1)
    state = game.new_state(0)
    bot = make_agent(SMALL, game, 1)
    while not state.is_terminal():
        action = bot.act(state, 0)
        assert action in state.legal_actions(0)
        state.apply(action, 0)
    assert state.outcome().ranks == (0,)


def test_solo_bot_falls_back_to_the_search_bot() -> None:
    game = teocalli.load("shifting-stones", players=2)
    bot = make_agent("solo:iterations=40", game, 1)
    state = game.new_state(1)
    action = bot.act(state, 0)
    assert action in state.legal_actions(0)


def test_hint_is_legal_and_depends_on_visible_facts_only() -> None:
    game = teocalli.load("shifting-stones", players=1)
    state = game.new_state(5)
    assert isinstance(state, ShiftingStonesState)
    other = _reordered(state, keep_top=0, seed=2)
    action, why = hint_with_reason(state, 0)
    assert action in state.legal_actions(0) and why
    assert hint(other, 0) == action == hint(state, 0)
    assert public_seed(state) == public_seed(other)
    two = teocalli.load("shifting-stones", players=2).new_state(5)
    assert hint(two, 0) in two.legal_actions(0)


def test_play_prints_a_hint() -> None:
    lines: list[str] = []
    answers = iter(["hint", "quit"])
    game = teocalli.load("shifting-stones", players=1)
    TerminalTable(game, ["human"], 4, read=lambda _: next(answers), write=lines.append).run()
    assert any(line.startswith("hint: ") for line in lines)
