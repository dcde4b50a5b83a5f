"""The piled candidates kept along a game (piles.py) are those judged from nothing
(`candidates.pile_moves`): the same poses in the same order, with the same placements (level,
supports, contact points, support polygon, load deltas), for both players, at every step of
seeded random games, on clones that play on after their original did (the table and its kept
verdicts are shared until replaced), and on clones of a much earlier position."""

from __future__ import annotations

from typing import Any

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back.candidates import Move
from teocalli.games.stack_back.state import StackBackState


def _kept(state: StackBackState, player: int) -> list[Move]:
    piles = state._piles.with_sticks(state.sticks, state.layout, state._owner)
    moves, state._piles = piles.moves(
        state.sticks,
        state.layout,
        state.carries,
        state.force,
        state.moment,
        state._stamps,
        state.supply[player],
        state.floor[player],
        player,
    )
    return moves


def _fields(moves: list[Move]) -> list[tuple[Any, ...]]:
    return [(i, p, v.stick, sorted(v.deltas.items())) for i, p, v in moves]


def _check(state: StackBackState) -> int:
    """Both players' piled candidates, kept against from nothing; how many there were."""
    count = 0
    for player in (0, 1):
        kept = _fields(_kept(state, player))
        assert kept == _fields(state.piles_from_nothing(player)), (player, len(state.sticks))
        count += len(kept)
    return count


def test_kept_piles_match_piles_judged_from_nothing() -> None:
    game = teocalli.load("stack-back")
    seen = 0
    for seed in (5, 6, 7):
        state = game.new_state(seed)
        assert isinstance(state, StackBackState)
        early = state.clone()
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            seen += _check(state)
            actions = state.legal_actions()
            if len(actions) > 1 and step % 4 == 1:  # a sibling plays another action, on the table
                sibling = state.clone()
                sibling.apply(actions[-1 - rng.randrange(len(actions) - 1)])
                if not sibling.is_terminal():
                    seen += _check(sibling)
            state.apply(actions[rng.randrange(len(actions))])
            if step == 12:
                early = state.clone()
            step += 1
        # the early clone still holds the table of its own position, not the game's end
        seen += _check(early)
    assert seen > 500  # the games piled: the comparison covered many candidates
