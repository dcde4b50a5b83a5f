"""Stakz as a Game: metadata, options, variants, notation and the length bound."""

from __future__ import annotations

from teocalli.core import Decision, FunctionCodec, Game, GameInfo, Information, Option

from . import actions as act
from .components import COPIES, HAND_PER_COLOUR, NUM_COLOURS, NUM_TILES
from .state import StakzState

TOTAL = NUM_TILES * COPIES


class Stakz(Game[StakzState]):
    """Match, stack, win: rounds of shedding tiles onto stacks until a total reaches 12."""

    info = GameInfo(
        name="stakz",
        title="Stakz",
        min_players=2,
        max_players=4,
        default_players=2,
        information=Information.HIDDEN,
        decisions=frozenset({Decision.TURN}),
        version=1,
        options=(
            Option(
                "target",
                12,
                "the match ends after a round in which some total reaches this many points; "
                "the lowest total wins",
                minimum=1,
                maximum=100,
            ),
        ),
        variants={
            "2p": {"players": 2},
            "3p": {"players": 3},
            "4p": {"players": 4},
        },
        passes=frozenset({"end"}),
    )
    state_class = StakzState
    codec = FunctionCodec(act.parse, act.to_int, act.from_int, act.NUM_DISTINCT_ACTIONS)

    @property
    def max_length(self) -> int:
        """A true bound on the steps of a whole match.

        Rounds: every round scores at least one point to each of the n-1 (or n) players who did
        not empty their hand, and the match ends once a total reaches the target, so before the
        last round the n totals sum to at most n * (target - 1): at most
        n * (target - 1) // (n - 1) + 1 rounds.
        Steps in a round: placements P <= TOTAL - 2 (every placed tile came from a hand); turn
        ends: at most one per draw (D = the pile at the deal) and per placing turn (<= P), and
        between two such turns (and before the round ends) at most n - 1 idle turns, since n idle
        turns in a row end the round: ends <= n * (D + P + 1).
        """
        n = self.num_players
        rounds = n * (self.options["target"] - 1) // (n - 1) + 1
        placements = TOTAL - 2
        draws = TOTAL - 2 - HAND_PER_COLOUR * NUM_COLOURS * n
        per_round = placements + n * (draws + placements + 1)
        return rounds * per_round
