"""Aztack (Blue Orange, 2014) with its Speed Stack variant: metadata and options."""

from __future__ import annotations

from teocalli.core import (
    Decision,
    Game,
    GameInfo,
    Information,
    InvalidOption,
    Option,
)

from .actions import Codec, codec_for
from .components import BASE_STONES, HAND_SIZE
from .state import AztackState


class Aztack(Game[AztackState]):
    """Stack stones on the pyramid matching both colours or both glyphs below; empty your hand."""

    info = GameInfo(
        name="aztack",
        title="Aztack",
        min_players=2,
        max_players=4,
        default_players=2,
        information=Information.PERFECT,
        decisions=frozenset({Decision.TURN, Decision.RACE}),
        version=1,
        options=(
            Option(
                "speed",
                False,
                "Speed Stack: no turns, the first legal placement to arrive is played",
            ),
            Option(
                "declare",
                False,
                "Speed Stack: declare the match type with each placement (=c, =g, =cg)",
            ),
        ),
        variants={
            "2p": {"players": 2},
            "3p": {"players": 3},
            "4p": {"players": 4},
            "speed-2p": {"players": 2, "speed": True},
            "speed-4p-declare": {"players": 4, "speed": True, "declare": True},
        },
        passes=frozenset({"pass", "keep"}),
    )
    state_class = AztackState
    codec: Codec

    def _check_options(self) -> None:
        if self.options["declare"] and not self.options["speed"]:
            raise InvalidOption("option 'declare' belongs to Speed Stack: set speed=true too")
        self.codec = codec_for(self.options["declare"])

    @property
    def max_length(self) -> int:
        # Every placement, discard or keep uses up a stone or follows one; a pass happens only
        # between placements, at most once per player per placement, plus one round at the start.
        stones = HAND_SIZE * self.num_players
        return 2 * stones + self.num_players * (stones + 1) + BASE_STONES
