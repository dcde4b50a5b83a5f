"""The `solo` bot and `hint`: a Shifting Stones solo player that plans whole turns over the
deck orders it cannot see, and a suggestion for people.

`solo` (players=1 Shifting Stones) plays the turn `heuristics.shifting_stones.solo` chooses:
every outcome of the turn (cards scored, cards paying, end grid) judged by expectimax over
`worlds` determinized deck orders with the exact distance tables, the best `deep` looked at up
to `depth` turns deep once at most `endgame` cards are left, and once every card left is in the
hand the exact endgame solver's winning turn (`endgame_nodes` positions). It reads only the player's
knowledge (the hand, the grid, the public piles, strikes, and `determinize`). In any other game,
or with more players, it plays as `ismcts` (the turn search where the game proposes turns) with
`iterations` playouts a turn.

`hint(state, player)` is the suggestion for a person: the solo bot's choice in solo Shifting
Stones, the search bot's at a modest budget otherwise, seeded from the public history only (the
actions taken so far, never the deal), so the same visible game gives the same hint.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any, ClassVar

from teocalli.core import Action, Game, Information, State

from .turn_plan import TurnPlanAgent

HINT_ITERATIONS = 300
"""The search bot's playouts for a hint outside solo (about 0.2 s a turn in Shifting Stones)."""


def _is_solo_stones(game: Game) -> bool:
    return game.info.name == "shifting-stones" and game.num_players == 1


class SoloAgent(TurnPlanAgent):
    name = "solo"
    options: ClassVar[dict[str, Any]] = {
        "worlds": 16,
        "deep": 6,
        "depth": 2,
        "endgame": 7,
        "deep_worlds": 6,
        "endgame_nodes": 400,
        "iterations": 1500,
    }

    plays = staticmethod(_is_solo_stones)

    def budget(self) -> Any:
        from .heuristics.shifting_stones.solo import Budget

        s = self.settings
        return Budget(
            worlds=int(s["worlds"]),
            deep=int(s["deep"]),
            depth=int(s["depth"]),
            endgame=int(s["endgame"]),
            deep_worlds=int(s["deep_worlds"]),
            endgame_nodes=int(s["endgame_nodes"]),
        )

    def plan(self, state: State, player: int) -> Sequence[Action]:
        from .heuristics.shifting_stones.solo import solo_turn

        return solo_turn(state, self.rng, self.budget())


def public_seed(state: State) -> int:
    """A seed from what every player has seen: the game, the seats and the actions so far."""
    text = "|".join(
        [state.game.info.name, str(state.game.num_players)]
        + [f"{s.player}:{s.action}" for s in state.history]
    )
    return zlib.crc32(text.encode())


def hint_with_reason(state: State, player: int) -> tuple[Action, str]:
    """The suggested action and a short reason."""
    seed = public_seed(state)
    game = state.game
    if _is_solo_stones(game):
        from .heuristics.shifting_stones.solo import describe, solo_turn

        bot = SoloAgent(game, seed)
        turn = solo_turn(state, bot.rng, bot.budget())
        return turn[0], describe(turn)
    from .mcts import ISMCTSAgent, MCTSAgent

    cls = ISMCTSAgent if game.info.information is Information.HIDDEN else MCTSAgent
    agent = cls(game, seed, iterations=HINT_ITERATIONS)
    return agent.act(state, player), f"the search bot's move ({HINT_ITERATIONS} playouts)"


def hint(state: State, player: int) -> Action:
    """The action the bots suggest for `player` now (deterministic for a visible position)."""
    return hint_with_reason(state, player)[0]


__all__ = ["HINT_ITERATIONS", "SoloAgent", "hint", "hint_with_reason", "public_seed"]
