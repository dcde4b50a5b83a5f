"""Positions along seeded games of the greedy bot, for tests that check bots on many states."""

from __future__ import annotations

from collections.abc import Callable

from teocalli.agents.search import game_policies
from teocalli.core import Game, Rng, State


def greedy_positions(
    game: Game, seeds: range, every: int = 1, also: Callable[[State], bool] | None = None
) -> list[tuple[State, int]]:
    """(position, player to move) at every `every`-th step of each seeded greedy game, and at any
    step `also` picks (mid-turn positions, say)."""
    choose = game_policies(game.info.name)[2]
    assert choose is not None, f"{game.info.name} has no greedy bot"
    out: list[tuple[State, int]] = []
    for seed in seeds:
        state = game.new_state(seed)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            player = state.to_move()[0]
            if step % every == 0 or (also is not None and also(state)):
                out.append((state.clone(), player))
            state.apply(choose(state, player, rng), player)
            step += 1
    return out
