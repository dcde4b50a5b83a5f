"""Simulations: many seeded games between fixed seats, summarised per seat.

Game i is dealt with seed `seed + i`; seat k's bot is seeded from (seed, i, k), so a run is
reproducible whatever the backend, and any single game can be replayed from its result line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from teocalli.agents import make_agent
from teocalli.core import Game, Outcome
from teocalli.core.outcome import TIE_BREAK

from .backend import Job, run_jobs
from .results import GameResult
from .stats import mean, wilson_interval


@dataclass
class Simulation:
    game: Game
    seats: list[str]
    seed: int
    results: list[GameResult] = field(default_factory=list)

    @property
    def wins(self) -> list[float]:
        """Wins per seat; a shared win counts 1/k to each of the k winners."""
        wins = [0.0] * len(self.seats)
        for r in self.results:
            for w in r.winners:
                wins[w] += 1.0 / len(r.winners)
        return wins

    def win_intervals(self) -> list[tuple[float, float]]:
        return [wilson_interval(w, len(self.results)) for w in self.wins]

    def mean_length(self) -> float:
        return mean([r.length for r in self.results])

    def mean_stats(self) -> dict[str, float | list[float]]:
        """Each per-game measure averaged over the games (per seat where it is a list)."""
        out: dict[str, float | list[float]] = {}
        for key in self.results[0].stats if self.results else ():
            values = [r.stats[key] for r in self.results]
            if isinstance(values[0], list):
                out[key] = [mean([v[k] for v in values]) for k in range(len(values[0]))]
            else:
                out[key] = mean(values)
        return out

    def outcomes(self) -> list[Outcome]:
        """Each game's full outcome (with its breakdown), rebuilt by replaying the game from its
        result line: a result keeps the scores, not how they were made up."""
        return [
            self.game.replay(r.seed, [(p, a) for p, a in r.steps]).outcome() for r in self.results
        ]

    def mean_breakdown(self, outcomes: Sequence[Outcome] | None = None) -> list[dict[str, float]]:
        """Per seat, each breakdown label's mean points over the games, labels in the order they
        first appear (a label a game lacks, like a Stakz round it did not reach, counts 0 there).
        Tie-break parts carry no points and are left out. `outcomes` saves a second replay."""
        outs = self.outcomes() if outcomes is None else outcomes
        labels: dict[str, None] = {}
        for out in outs:
            for parts in out.breakdown:
                labels.update((p.label, None) for p in parts if not p.label.startswith(TIE_BREAK))
        means = []
        for seat in range(len(self.seats)):
            totals = dict.fromkeys(labels, 0.0)
            for out in outs:
                for part in out.breakdown[seat]:
                    if part.label in totals:
                        totals[part.label] += part.points
            means.append({k: v / max(1, len(outs)) for k, v in totals.items()})
        return means

    def to_json(self) -> dict[str, Any]:
        outcomes = self.outcomes()
        return {
            "game": self.game.info.name,
            "options": dict(self.game.options),
            "games": len(self.results),
            "seed": self.seed,
            "seats": self.seats,
            "wins": self.wins,
            "win_rate_ci95": [list(ci) for ci in self.win_intervals()],
            "mean_length": self.mean_length(),
            "stats": self.mean_stats(),
            "lower_is_better": bool(outcomes) and outcomes[0].lower_is_better,
            "mean_breakdown": self.mean_breakdown(outcomes),
            "results": [r.to_json() for r in self.results],
        }


def simulate(
    game: Game,
    seats: Sequence[str],
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    *,
    workers: int | None = 1,
    ray_address: str | None = None,
) -> Simulation:
    """Play `games` games between the seats (bot specs) and collect the results in order."""
    if len(seats) != game.num_players:
        raise ValueError(f"{len(seats)} seats for a {game.num_players}-player game")
    for spec in seats:  # fail on a bad bot name before playing anything
        make_agent(spec, game, 0)
    options = tuple(sorted(game.options.items()))
    jobs = [Job(game.info.name, options, tuple(seats), seed, i) for i in range(games)]
    sim = Simulation(game, list(seats), seed)
    sim.results = run_jobs(jobs, workers=workers, ray_address=ray_address, progress=progress)
    return sim
