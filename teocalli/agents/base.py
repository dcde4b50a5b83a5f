"""Agents: the bot interface and the one way every command names a bot (`name:key=value,...`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from teocalli.core import Action, Game, InvalidOption, Rng, State


class Agent(ABC):
    """A bot. It sees the game only through the protocol.

    An agent is handed the true state but may use only what `player` knows: `legal_actions`,
    `view(player)` and `determinize(player, rng)`. Search bots must search determinized worlds.
    """

    name: ClassVar[str]
    options: ClassVar[dict[str, Any]] = {}

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        self.game = game
        self.rng = Rng(seed)
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise InvalidOption(
                f"bot {self.name!r} has no option {unknown[0]!r} (its options: {known})"
            )
        self.settings = {**self.options, **options}

    @abstractmethod
    def act(self, state: State, player: int) -> Action:
        """Choose a legal action for `player` in `state`."""

    def __repr__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.settings.items())
        return f"{self.name}:{opts}" if opts else self.name
