"""Bots that plan a whole Shifting Stones turn at once and then play it step by step.

`solo` and `duel` each plan for one kind of game (solo, or two players) and hand every other game
to `ismcts`; this base keeps the plan between steps and drops it when the position is not the
one it was made for (an undo, a takeover, a step it did not expect).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from teocalli.core import Action, Game, State

from .base import Agent


class TurnPlanAgent(Agent):
    """Plays the steps of a planned turn in `plays(game)` games; elsewhere plays as `ismcts`
    with the `iterations` option's playouts a turn."""

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self._plan: list[Action] = []
        self._expect: int | None = None
        self._fallback: Agent | None = None
        if not self.plays(game):
            from .mcts import ISMCTSAgent

            self._fallback = ISMCTSAgent(game, seed, iterations=int(self.settings["iterations"]))

    @staticmethod
    @abstractmethod
    def plays(game: Game) -> bool:
        """Whether this bot plans turns in `game` (else it plays as `ismcts`)."""

    @abstractmethod
    def plan(self, state: State, player: int) -> Sequence[Action]:
        """The steps of the turn to play from `state`."""

    def act(self, state: State, player: int) -> Action:
        if self._fallback is not None:
            return self._fallback.act(state, player)
        step = len(state.history)
        if not (
            self._plan and self._expect == step and self._plan[0] in state.legal_actions(player)
        ):
            self._plan = list(self.plan(state, player))
        self._expect = step + 1
        return self._plan.pop(0)


__all__ = ["TurnPlanAgent"]
