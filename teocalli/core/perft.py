"""Perft: counting legal-move sequences from a position, as chess engines test move generation."""

from __future__ import annotations

from .state import State


def perft(state: State, depth: int) -> int:
    """Leaf count of the tree of (player, action) steps `depth` deep (terminal nodes are leaves)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for player in state.to_move():
        for action in state.legal_actions(player):
            child = state.clone()
            child.apply(action, player)
            total += perft(child, depth - 1)
    return total
