"""One game between bots and its result record (the unit every arena tool is built from)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from teocalli.agents import make_agent
from teocalli.core import Game
from teocalli.core.match import play_game


@dataclass
class GameResult:
    """What a finished game leaves: enough to score, rate, plot, and replay it."""

    seed: int
    seats: list[str]
    scores: list[float]
    ranks: list[int]
    winners: list[int]
    reason: str
    length: int
    stats: dict[str, Any]
    steps: list[list[Any]]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        return cls(**data)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """A bot's seed, derived from the run's seed, the game's index and the seat."""
    return (seed * 1_000_003 + index * 1009 + seat) & ((1 << 63) - 1)


def play_one(game: Game, seats: Sequence[str], seed: int, index: int) -> GameResult:
    """Game `index` of a run: dealt with `seed + index`, bots seeded from (seed, index, seat)."""
    # A tournament tells a repeated entrant apart as "spec#2": the bot is the spec before '#'.
    agents = [
        make_agent(spec.split("#", 1)[0], game, bot_seed(seed, index, k))
        for k, spec in enumerate(seats)
    ]
    final = play_game(game, agents, seed + index)
    out = final.outcome()
    return GameResult(
        seed=seed + index,
        seats=list(seats),
        scores=list(out.scores),
        ranks=list(out.ranks),
        winners=list(out.winners),
        reason=out.reason.name.lower(),
        length=len(final.history),
        stats=final.stats(),
        steps=[[s.player, str(s.action)] for s in final.history],
    )
