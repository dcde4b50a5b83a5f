"""Aztack greedy: take bonuses, keep your own stones playable, starve the next player.

Each placement is tried on a clone and scored by how many of your remaining stones still fit
somewhere, minus half of what the next player can place, plus a large reward for a bonus (a
free discard). After a bonus it discards the stone with the fewest places to go.
"""

from __future__ import annotations

from typing import Any

from teocalli.core import Rng, State
from teocalli.games.aztack import AztackState, Discard, Keep, Pass, Place
from teocalli.games.aztack.components import FIT_ANY


def _fits(state: AztackState, stone: int) -> int:
    """How many open pairs the stone fits (either way round)."""
    return sum(1 for _, key in state.open_pairs if FIT_ANY[key] >> stone & 1)


def choose(state: State, player: int, rng: Rng) -> Any:
    assert isinstance(state, AztackState)
    actions = state.legal_actions(player)
    if len(actions) == 1:
        return actions[0]
    if isinstance(actions[0], (Discard, Keep)):
        discards = [a for a in actions if isinstance(a, Discard)]
        return min(discards, key=lambda a: (_fits(state, a.stone), rng.random()))
    n = state.num_players
    nxt = (player + 1) % n
    best: Any = None
    best_score = float("-inf")
    for action in actions:
        if isinstance(action, Pass):
            return action
        assert isinstance(action, Place)
        child = state.clone()
        child.apply(action, player)
        if child.is_terminal() and child.winner == player:
            return action
        score = 20.0 * (child.pending >> player & 1)
        score += (child.hands[player] & child.fits_anywhere).bit_count()
        if n > 1:
            score -= 0.5 * (child.hands[nxt] & child.fits_anywhere).bit_count()
        score += 0.01 * rng.random()
        if score > best_score:
            best, best_score = action, score
    return best


def rollout(state: State, player: int, rng: Rng) -> Any:
    """A cheap playout policy for search: random placements, and always take the discard."""
    actions = state.legal_actions(player)
    if isinstance(actions[-1], Keep) and len(actions) > 1:
        return actions[rng.randrange(len(actions) - 1)]  # a random discard, never keep
    return actions[rng.randrange(len(actions))]
