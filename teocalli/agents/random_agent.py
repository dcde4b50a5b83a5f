"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

from teocalli.core import Action, State

from .base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        return actions[self.rng.randrange(len(actions))]
