"""The greedy bot: each game's best cheap heuristic, from `teocalli.agents.heuristics.<game>`.

A heuristic module defines `choose(state, player, rng) -> action`, using only what `player` may
know. Keeping heuristics here, not in the game packages, keeps games free of bot logic.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from teocalli.core import Action, Game, Rng, State

from .base import Agent

Heuristic = Callable[[State, int, Rng], Action]


def heuristic_for(game_name: str) -> Heuristic:
    module = importlib.import_module(f"teocalli.agents.heuristics.{game_name.replace('-', '_')}")
    choose: Heuristic = module.choose
    return choose


class GreedyAgent(Agent):
    """Plays the game's heuristic move."""

    name = "greedy"

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self._choose = heuristic_for(game.info.name)

    def act(self, state: State, player: int) -> Action:
        return self._choose(state, player, self.rng)
