"""Peeking worlds keep exactly the opponent's cards they name: its cards held since before its
latest draw ("kept") or its whole hand ("hand"), everything else re-dealt as `determinize` does."""

from __future__ import annotations

from collections import Counter

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.analysis.shifting_stones.peek import PeekingState, peeking
from teocalli.core import Rng
from teocalli.games.shifting_stones.actions import End, Skip
from teocalli.games.shifting_stones.state import ShiftingStonesState

GAME = teocalli.load("shifting-stones", players=2)


def _unseen(state: ShiftingStonesState, player: int) -> Counter[int]:
    """The cards `player` cannot see: the deck and the other hands, as a multiset."""
    return Counter(state.deck + [c for p, h in enumerate(state.hands) if p != player for c in h])


def _played_to_a_kept_card(seed: int) -> tuple[ShiftingStonesState, PeekingState, list[int]]:
    """Greedy play of deal `seed` until seat 1 ends a turn holding a card it had before its
    draw (on a plain state and a peeking one, in step): both states and those cards, read from
    the plain state's hand just before the draw."""
    plain = GAME.new_state(seed)
    assert isinstance(plain, ShiftingStonesState)
    peek = peeking(plain, "kept")
    bots = [make_agent("greedy", GAME, seed) for _ in range(2)]
    while not plain.is_terminal():
        player = plain.to_move()[0]
        action = bots[player].act(plain, player)
        before = list(plain.hands[player])
        plain.apply(action, player)
        peek.apply(action, player)
        if player == 1 and isinstance(action, End | Skip) and before:
            return plain, peek, before
    raise AssertionError(f"deal {seed}: seat 1 never kept a card")


def test_hand_keeps_the_whole_hand_and_re_deals_the_deck() -> None:
    state = GAME.new_state(3)
    assert isinstance(state, ShiftingStonesState)
    peek = peeking(state, "hand")
    decks = set()
    for s in range(8):
        world = peek.determinize(0, Rng(s))
        assert world.hands == state.hands
        assert sorted(world.deck) == sorted(state.deck)
        decks.add(tuple(world.deck))
    assert len(decks) > 1


def test_kept_re_deals_a_fresh_deal_whole() -> None:
    """At the deal every card in a hand is of its latest draw: nothing of seat 1's is shown."""
    state = GAME.new_state(4)
    assert isinstance(state, ShiftingStonesState)
    peek = peeking(state, "kept")
    hands = set()
    for s in range(8):
        world = peek.determinize(0, Rng(s))
        assert world.hands[0] == state.hands[0]
        assert _unseen(world, 0) == _unseen(state, 0)
        hands.add(tuple(world.hands[1]))
    assert len(hands) > 1
    assert not any(set(h) == set(state.hands[1]) for h in hands)


def test_kept_shows_the_cards_held_before_the_latest_draw_only() -> None:
    plain, peek, kept = _played_to_a_kept_card(7)
    drawn = Counter(plain.hands[1]) - Counter(kept)
    assert kept and drawn, (kept, plain.hands[1])
    redealt = set()
    for s in range(12):
        world = peek.determinize(0, Rng(s))
        assert world.hands[0] == plain.hands[0]
        assert _unseen(world, 0) == _unseen(plain, 0)
        rest = Counter(world.hands[1]) - Counter(kept)
        assert not Counter(kept) - Counter(world.hands[1]), (kept, world.hands[1])
        assert rest.total() == drawn.total()
        redealt.add(tuple(sorted(rest.elements())))
    assert len(redealt) > 1  # the cards of the latest draw are re-dealt, not shown


def test_show_nothing_deals_as_the_plain_state() -> None:
    plain, peek, _ = _played_to_a_kept_card(7)
    quiet = peeking(GAME.new_state(7), "")  # type: ignore[arg-type]
    for action_player in [(s.action, s.player) for s in plain.history]:
        quiet.apply(*action_player)
    for s in range(4):
        a, b = quiet.determinize(0, Rng(s)), plain.determinize(0, Rng(s))
        assert (a.hands, a.deck) == (b.hands, b.deck)
    assert isinstance(peek, PeekingState)


def test_peeking_needs_a_fresh_deal_and_a_known_show() -> None:
    plain, _, _ = _played_to_a_kept_card(7)
    with pytest.raises(ValueError, match="fresh deal"):
        peeking(plain, "kept")
    with pytest.raises(ValueError, match="show must be one of"):
        peeking(GAME.new_state(1), "all")  # type: ignore[arg-type]
