"""Shifting Stones (Gamewright, 2020), 1-5 players with the solo variant: metadata and options."""

from __future__ import annotations

from teocalli.core import Decision, FunctionCodec, Game, GameInfo, Information, Option

from . import actions
from .components import NUM_CARDS, SOLO_DECK
from .state import SOLO_STRIKES, ShiftingStonesState


class ShiftingStones(Game[ShiftingStonesState]):
    """Shift and flip the 3 x 3 stone grid, paying with pattern cards, to score the others."""

    info = GameInfo(
        name="shifting-stones",
        title="Shifting Stones",
        min_players=1,
        max_players=5,
        default_players=2,
        information=Information.HIDDEN,
        decisions=frozenset({Decision.TURN}),
        version=1,
        options=(
            Option(
                "skip_mode",
                "draw2",
                "what a skip draws: 'draw2' (the rulebook: 2 cards) or 'upto6' (up to 6 cards)",
                choices=("draw2", "upto6"),
            ),
            Option(
                "solo_skip_strikes",
                True,
                "solo: a skip also gives a strike (ruling), since it ends a turn without scoring",
            ),
            Option(
                "round_limit",
                50,
                "engine safeguard, not in the rulebook: with 2+ players the game also ends after "
                "this many rounds if nobody reached the end trigger",
                minimum=1,
                maximum=1000,
            ),
        ),
        variants={
            "solo": {"players": 1},
            "solo-skip-free": {"players": 1, "solo_skip_strikes": False},
            "2p": {"players": 2},
            "3p": {"players": 3},
            "4p": {"players": 4},
            "5p": {"players": 5},
            "2p-skip-upto6": {"players": 2, "skip_mode": "upto6"},
        },
        passes=frozenset({"end"}),
    )
    state_class = ShiftingStonesState
    codec = FunctionCodec(actions.parse, actions.to_int, actions.from_int, actions.NUM_ACTIONS)

    @property
    def max_length(self) -> int:
        # Every step of a turn but its last (end or skip) uses up a hand card, and no hand ever
        # holds more than the cards in play, so a turn is at most (cards in play + 1) steps.
        if self.num_players == 1:
            cards = sum(SOLO_DECK.values())
            # Each non-skip turn scores or strikes (16 scores end the game; so do 4 strikes);
            # skips never come twice in a row, so there is at most one more skip than the rest.
            turns = 2 * (cards + SOLO_STRIKES) + 1
            return turns * (cards + 1)
        return self.options["round_limit"] * self.num_players * (NUM_CARDS + 1)
