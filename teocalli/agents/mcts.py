"""The search bots: `mcts` (UCT, perfect information) and `ismcts` (information sets).

Both take `iterations=N` or `time=SECONDS` (think time per move; it overrides iterations),
`c=` (exploration), `depth=` (rollout steps before the game's evaluation, 0 = play to the end),
`guide=` (weight of the greedy heuristic's move as a prior; 0 = pure UCT), and `turns=`: `auto`
(default: in games whose heuristics propose whole turns, Stakz, Shifting Stones and Stack Back,
choose among those by sequential halving, `turn_search.py`; there `depth=` counts turns, `width=`
caps the candidates, `confidence=` is the standard errors by which a turn must beat the greedy
one, and options the spec leaves out come from the game's measured `TURN_SEARCH` defaults),
`1` (the same, an error where no turns are proposed) or `0` (single steps).
"""

from __future__ import annotations

from typing import Any, ClassVar

from teocalli.core import Action, Game, Information, InvalidOption, State

from .base import Agent
from .search import Search, game_hook, game_policies, game_turns
from .turn_search import TurnSearch

TURN_MODES: dict[str, bool | None] = {
    "auto": None,
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off"), False),
}
"""`turns=`: auto (whole turns where the game proposes them), forced on, or off (single steps)."""


class MCTSAgent(Agent):
    """UCT on the true state: for games where every player knows everything."""

    name = "mcts"
    options: ClassVar[dict[str, Any]] = {
        "iterations": 1000,
        "time": 0.0,
        "c": 0.8,
        "depth": 0,
        "guide": 1.0,
        "turns": "auto",
        "width": 24,
        "confidence": 1.0,
    }
    hidden_allowed = False

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        if game.info.information is Information.HIDDEN and not self.hidden_allowed:
            raise InvalidOption(
                f"{game.info.name} has hidden information: use ismcts, which searches only what "
                "the player may know"
            )
        rollout, evaluate, policy = game_policies(game.info.name)
        turns = game_turns(game.info.name)
        self.search: Search | TurnSearch
        mode = str(self.settings["turns"]).lower()
        if mode not in TURN_MODES:
            raise InvalidOption(f"bot option turns is one of auto, 1, 0, not {mode!r}")
        wanted = TURN_MODES[mode]
        if wanted and (turns is None or policy is None):
            raise InvalidOption(f"{game.info.name} has no turn proposals: use turns=0 or auto")
        if wanted or (wanted is None and turns is not None and policy is not None):
            assert turns is not None and policy is not None
            # the game's own defaults (measured per game) for what the spec leaves out
            tuned = game_hook(game.info.name, "TURN_SEARCH") or {}
            settings = {**self.settings, **{k: v for k, v in tuned.items() if k not in options}}
            self.search = TurnSearch(
                self.rng,
                turns=turns,
                policy=policy,
                iterations=int(settings["iterations"]),
                seconds=float(settings["time"]),
                rollout_depth=int(settings["depth"]),
                rollout=rollout,
                evaluate=evaluate,
                width=int(settings["width"]),
                confidence=float(settings["confidence"]),
            )
            return
        self.search = Search(
            self.rng,
            iterations=int(self.settings["iterations"]),
            seconds=float(self.settings["time"]),
            exploration=float(self.settings["c"]),
            rollout_depth=int(self.settings["depth"]),
            rollout=rollout,
            evaluate=evaluate,
            guide=float(self.settings["guide"]),
            policy=policy,
        )

    def act(self, state: State, player: int) -> Action:
        return self.search.choose(state, player)


class ISMCTSAgent(MCTSAgent):
    """Single-observer information-set MCTS: each iteration searches a determinized world."""

    name = "ismcts"
    hidden_allowed = True
