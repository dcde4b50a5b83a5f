"""Shifting Stones test material shared by the turn search's and the `duel` bot's tests: two
positions where the race to the trigger decides the turn, and a position's other worlds (what
the player cannot see dealt again)."""

from __future__ import annotations

from teocalli.core import Rng
from teocalli.games.shifting_stones.state import ShiftingStonesState

LOST_IF_ENDED = """
grid: Tr Tr Tr / Fi Bi Su / Ho Bo Ho
hands: 40 41 42 43 | 20 21
scored: 33 35 66 | 9 10 11 12 13 14 15 16 24
deck: rest
turn: 1
"""
"""Seat 1, the last seat, holds card 21 (1 point, matches now) and card 20 (5 points, two moves
away, out of reach with one spare card). Seat 0 has 15 points; seat 1 has nine 1-point cards
(9 points, +3 for the most 1-point cards). Scoring 21 makes ten cards: the game ends at once,
13 to 15, lost. Keeping the game going leaves a chance (card 20 next turn makes 17)."""

WON_IF_ENDED = LOST_IF_ENDED.replace("scored: 33 35 66 |", "scored: 33 |")
"""The same with seat 0 on 3 points: scoring 21 ends the game at once, 13 to 3, won."""


def redealt(state: ShiftingStonesState, player: int, seed: int) -> ShiftingStonesState:
    """The same position for `player` with what it cannot see dealt again: the other hands and
    the deck (same sizes), and the reshuffle generator."""
    other = state.clone()
    assert isinstance(other, ShiftingStonesState)
    unknown = other.deck + [c for p, h in enumerate(other.hands) if p != player for c in h]
    Rng(seed).shuffle(unknown)
    for p, hand in enumerate(other.hands):
        if p != player:
            other.hands[p] = sorted(unknown[: len(hand)])
            unknown = unknown[len(hand) :]
    other.deck = unknown
    other.rng = Rng(seed + 1)
    return other
