"""Stack Back (Alpha Games / Talents Cachet): metadata, options and the action codec."""

from __future__ import annotations

from teocalli.core import Decision, FunctionCodec, Game, GameInfo, Information, Option

from . import actions, ids
from .components import SPEC
from .state import StackBackState

PLACEMENTS = 2 * sum(SPEC.per_player)


class StackBack(Game[StackBackState]):
    """Pile sticks on two boards without bringing the building down; place all yours first."""

    info = GameInfo(
        name="stack-back",
        title="Stack Back",
        min_players=2,
        max_players=2,
        default_players=2,
        information=Information.PERFECT,
        decisions=frozenset({Decision.TURN}),
        version=3,
        options=(
            Option(
                "level_rule",
                "turn",
                "piled sticks may not come back down a level: within one turn (the ruling) "
                "or for the whole game",
                choices=("turn", "game"),
            ),
            Option(
                "dexterity",
                False,
                "disturb each placement by the player's hand (Gaussian noise); a stick that then "
                "breaks a rule or falls goes back to the supply and the turn ends",
            ),
            Option(
                "steadiness_0",
                0.5,
                "with dexterity: seat 0's hand noise, the standard deviation in mm on x and y and "
                "in degrees on the angle (0 = perfectly steady)",
                minimum=0.0,
                maximum=10.0,
            ),
            Option(
                "steadiness_1",
                0.5,
                "with dexterity: seat 1's hand noise (as steadiness_0)",
                minimum=0.0,
                maximum=10.0,
            ),
        ),
        variants={
            "standard": {},
            "level-rule-game": {"level_rule": "game"},
            "dexterity": {"dexterity": True, "steadiness_0": 0.3, "steadiness_1": 1.5},
        },
        passes=frozenset({"pass"}),
    )
    state_class = StackBackState
    codec = FunctionCodec(actions.parse, ids.to_int, ids.from_int, ids.NUM_IDS)
    positional_ids = True  # an id is a bin of poses, played as a legal pose of it (ids.py)

    @property
    def max_length(self) -> int:
        """A true bound. Every turn either places at least one stick or places none (a pass, or
        a first placement that slipped). At most 60 sticks are placed, so at most 60 placing
        turns, each ended by at most one extra action (a pass or a slip after its piles). Two
        non-placing turns in a row end the game, so there are at most (placing turns + 2) of
        them, one action each: 60 + 60 + 62.
        """
        return PLACEMENTS + PLACEMENTS + (PLACEMENTS + 2)
