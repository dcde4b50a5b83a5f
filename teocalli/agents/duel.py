"""The `duel` bot: two-player Shifting Stones by exact turn enumeration, the opponent's threat on
the grid we leave, and short playouts of the best few turns in shared sampled worlds.

In 2-player Shifting Stones it plays the turn `heuristics.shifting_stones.duel` chooses (every
outcome of the turn scored statically, the best `candidates` played out in `worlds` sampled
worlds for `depth` more turns); it reads only the player's knowledge (its hand, the grid, the
public piles, and `determinize`). In any other game or player count it plays as `ismcts` with
`iterations` playouts a turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from teocalli.core import Action, Game, State

from .turn_plan import TurnPlanAgent


class DuelAgent(TurnPlanAgent):
    name = "duel"
    options: ClassVar[dict[str, Any]] = {
        "worlds": 24,
        "candidates": 12,
        "per_set": 2,
        "depth": 2,
        "confidence": 0.5,
        "keep": 0.5,
        "threat": 1.0,
        "skip": 0.5,
        "leaf": 0.0,
        "race": 0.0,
        "finish": 0,
        "finish_worlds": 0,
        "iterations": 1500,
    }

    @staticmethod
    def plays(game: Game) -> bool:
        return game.info.name == "shifting-stones" and game.num_players == 2

    def budget(self) -> Any:
        from .heuristics.shifting_stones.duel import Budget

        s = self.settings
        return Budget(
            worlds=max(1, int(s["worlds"])),
            candidates=int(s["candidates"]),
            per_set=max(1, int(s["per_set"])),
            depth=int(s["depth"]),
            confidence=float(s["confidence"]),
            keep=float(s["keep"]),
            threat=float(s["threat"]),
            skip=float(s["skip"]),
            leaf=float(s["leaf"]),
            race=float(s["race"]),
            finish=max(0, int(s["finish"])),
            finish_worlds=max(0, int(s["finish_worlds"])),
        )

    def plan(self, state: State, player: int) -> Sequence[Action]:
        from .heuristics.shifting_stones.duel import duel_turn

        return duel_turn(state, player, self.rng, self.budget())


__all__ = ["DuelAgent"]
