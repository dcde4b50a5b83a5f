"""Turns that leave the opponent a poor grid: proposals for the turn search in 2+ player games.

The greedy planner scores the most points and ends the turn wherever its first shortest path
stops; the grid it leaves is the next player's. With the same points (or a little less) other
walks end on other grids, and spare cards can pay for more moves. Every outcome of the turn
(`walks.py`: cards scored, walk length, end grid) is rated

    points scored - threat(end grid) + half the kept cards' worth there,

where the threat is what a hand of fresh cards could score on that grid: the mean, over the cards
the player has not seen, of a card's points weighted by how likely a 4-card hand reaches it
(`REACH[distance]`), times the hand size. The best few go to the turn search, which judges them in
its determinized worlds against the greedy turn (the next player's true reply is played there).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from teocalli.core import State
from teocalli.games.shifting_stones.actions import Action
from teocalli.games.shifting_stones.components import HAND_SIZE, NUM_CARDS, POINTS
from teocalli.games.shifting_stones.grid import grid_index, parse_grid
from teocalli.games.shifting_stones.solver import SOLVER

from .walks import TABLES, scorings, turn_actions, walks

REACH = np.array([1.0, 0.9, 0.7, 0.4, 0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], dtype=np.float64)
"""How likely a card at each exact distance scores next turn for a hand of 4 (3 cards can pay)."""


def unseen_cards(state: State, player: int) -> list[int]:
    """The cards `player` has not seen: not in its hand, the discard pile or anyone's scored."""
    view = state.view(player)["state"]
    seen = set(view["hand"]) | set(view["discard"])
    for pile in view["scored"]:
        seen.update(pile)
    return [c for c in range(1, NUM_CARDS + 1) if c not in seen]


def threat(grids: npt.NDArray[np.int64], cards: Sequence[int]) -> npt.NDArray[np.float64]:
    """Per grid: the points a fresh hand of `HAND_SIZE` cards drawn from `cards` is expected to
    reach (a proxy: each card's points times its `REACH`, summed over the hand)."""
    if not cards:
        return np.zeros(grids.size)
    total = np.zeros(grids.size)
    half, odd = grids >> 1, (grids & 1).astype(bool)
    for card in cards:
        # the packed table read in place (unpacking all 72 would hold 190 MB per process)
        byte = np.frombuffer(SOLVER.table(card), dtype=np.uint8)[half]
        total += POINTS[card] * REACH[np.where(odd, byte >> 4, byte & 15)]
    return total * (HAND_SIZE / len(cards))


def denial_turns(state: State, player: int, count: int) -> list[tuple[Action, ...]]:
    """The `count` best turns by points - threat + half the kept worth (see the module), best
    first: per scored set and walk length, the end grid of least threat, paid for by the cards
    least worth keeping there."""
    view = state.view(player)["state"]
    hand = tuple(sorted(view["hand"]))
    if not hand or count <= 0:
        return []
    grid = parse_grid(view["grid"])
    cards = unseen_cards(state, player)
    w = walks(grid_index(grid), hand, len(hand))
    rated: list[tuple[float, int, tuple[Action, ...]]] = []
    for sc in scorings(w):
        if sc.m == 0 and not sc.scored:
            continue  # ending at once: the turn search has it already
        value = threat(sc.grids, cards)
        best = int(np.argmin(value))
        end = int(sc.grids[best])
        order = sorted(sc.rest, key=lambda c: (POINTS[c] / (1 + int(TABLES(c)[end])), c))
        payers, kept = order[: sc.m], order[sc.m :]
        worth = sum(POINTS[c] / (1 + int(TABLES(c)[end])) for c in kept)
        score = sum(POINTS[c] for c in sc.scored) - float(value[best]) + 0.5 * worth
        moves = w.path(sc.m, int(sc.where[best]))
        actions = tuple(turn_actions(grid, sc.scored, payers, moves))
        rated.append((-score, len(rated), actions))
    rated.sort()
    return [actions for _, _, actions in rated[:count]]
