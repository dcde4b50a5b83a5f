"""The `duel` bot: two-player Shifting Stones by exact turn enumeration, the opponent's threat on
the grid we leave, and short playouts of the best few turns in shared sampled worlds.

In 2-player Shifting Stones it plays the turn `heuristics.shifting_stones.duel` chooses (every
outcome of the turn scored statically, the best `candidates` played out in `worlds` sampled
worlds for `depth` more turns); it reads only the player's knowledge (its hand, the grid, the
public piles, and `determinize`). In any other game or player count it plays as `ismcts` with
`iterations` playouts a turn.
"""

from __future__ import annotations

from typing import Any, ClassVar

from teocalli.core import Action, Game, State

from .base import Agent


def _is_duel_stones(game: Game) -> bool:
    return game.info.name == "shifting-stones" and game.num_players == 2


class DuelAgent(Agent):
    name = "duel"
    options: ClassVar[dict[str, Any]] = {
        "worlds": 24,
        "candidates": 12,
        "per_set": 2,
        "depth": 2,
        "confidence": 0.5,
        "iterations": 1500,
    }

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self._plan: list[Action] = []
        self._expect: int | None = None
        self._fallback: Agent | None = None
        if not _is_duel_stones(game):
            from .mcts import ISMCTSAgent

            self._fallback = ISMCTSAgent(game, seed, iterations=int(self.settings["iterations"]))

    def budget(self) -> Any:
        from .heuristics.shifting_stones.duel import Budget

        s = self.settings
        return Budget(
            worlds=max(1, int(s["worlds"])),
            candidates=int(s["candidates"]),
            per_set=max(1, int(s["per_set"])),
            depth=int(s["depth"]),
            confidence=float(s["confidence"]),
        )

    def act(self, state: State, player: int) -> Action:
        if self._fallback is not None:
            return self._fallback.act(state, player)
        from .heuristics.shifting_stones.duel import duel_turn

        step = len(state.history)
        if not (
            self._plan and self._expect == step and self._plan[0] in state.legal_actions(player)
        ):
            self._plan = duel_turn(state, player, self.rng, self.budget())
        self._expect = step + 1
        return self._plan.pop(0)


__all__ = ["DuelAgent"]
