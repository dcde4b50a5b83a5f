"""The Space Aztecs game: metadata, options and variants, notation and dense indices."""

from __future__ import annotations

from typing import Any, ClassVar

from teocalli.core import (
    Decision,
    FunctionCodec,
    Game,
    GameInfo,
    Information,
    InvalidOption,
    Option,
)

from . import actions
from .components import COLOURS, NUM_CARDS, NUM_CODEX, NUM_PILES
from .state import SpaceAztecsState


class SpaceAztecs(Game[SpaceAztecsState]):
    """Space Aztecs for 2-6 players, with or without the Codex cards (younger-players variant)."""

    info: ClassVar[GameInfo] = GameInfo(
        name="space-aztecs",
        title="Space Aztecs",
        min_players=2,
        max_players=6,
        default_players=4,
        information=Information.HIDDEN,
        decisions=frozenset({Decision.TURN, Decision.SIMULTANEOUS}),
        version=1,
        options=(
            Option("codex", True, "play with the 8 Codex cards (false: younger-players variant)"),
            Option(
                "removed_set",
                "random",
                "with 2-4 players, the set taken out: random, or pink, yellow, blue, green",
                choices=("random", *COLOURS),
            ),
        ),
        variants={
            "2p": {"players": 2},
            "3p-no-pink": {"players": 3, "removed_set": "pink"},
            "4p": {"players": 4},
            "5p": {"players": 5},
            "6p": {"players": 6},
            "younger-3p": {"players": 3, "codex": False},
            "younger-6p": {"players": 6, "codex": False},
        },
        passes=frozenset({"keep"}),
    )
    state_class = SpaceAztecsState
    codec = FunctionCodec(actions.parse, actions.to_int, actions.from_int, actions.NUM_ACTIONS)

    def _check_options(self) -> None:
        if self.num_players >= 5 and self.options["removed_set"] != "random":
            raise InvalidOption(
                "option 'removed_set': with 5-6 players all four sets are used, so none is removed"
            )

    @property
    def deck_size(self) -> int:
        sets = 4 if self.num_players >= 5 else 3
        return sets * 16 + (NUM_CODEX if self.options["codex"] else 0)

    # --- actions ------------------------------------------------------------------------------

    @property
    def max_length(self) -> int:
        """Each round uses one card per player, so at most deck/players rounds; a round is one
        take and one choose each, then per card at most one question per victim (Saucer) or one
        tuck question (Aztec)."""
        n = self.num_players
        rounds = self.deck_size // n
        return rounds * (2 * n + n * max(n - 1, 1))

    def describe(self) -> dict[str, Any]:
        return {"cards": NUM_CARDS, "piles": NUM_PILES, "deck": self.deck_size}
