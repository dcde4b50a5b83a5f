"""Tournaments: round-robin or Swiss between bots, seats rotated, rated with openskill.

Every game is a `Job` with its own index, seed and seating, so a tournament is reproducible and
resumable: ratings are always recomputed from the results in job order, whatever order (or
backend, or session) played them. A bot listed twice is told apart as `name#2`.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from teocalli.agents import make_agent
from teocalli.core import Game, InvalidOption

from .backend import Job, run_jobs
from .results import GameResult


def labels(bots: Sequence[str]) -> list[str]:
    """Unique names for the entrants: a repeated spec gets #2, #3, ..."""
    seen: dict[str, int] = {}
    out = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        out.append(bot if seen[bot] == 1 else f"{bot}#{seen[bot]}")
    return out


@dataclass
class Entry:
    bot: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating openskill ranks by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "wins": self.wins,
            "ordinal": self.ordinal,
            "interval95": [self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma],
        }


@dataclass
class Tournament:
    """The plan and the results so far (`results[i]` belongs to `jobs[i]`)."""

    game: Game
    bots: list[str]
    games_per_pairing: int
    seed: int
    fmt: str = "roundrobin"
    rounds: int = 0
    jobs: list[Job] = field(default_factory=list)
    results: dict[int, GameResult] = field(default_factory=dict)

    def config(self) -> dict[str, Any]:
        return {
            "game": self.game.info.name,
            "options": dict(self.game.options),
            "bots": self.bots,
            "games": self.games_per_pairing,
            "seed": self.seed,
            "format": self.fmt,
            "rounds": self.rounds,
        }

    # --- planning -----------------------------------------------------------------------------
    def _job(self, seating: Sequence[str]) -> Job:
        options = tuple(sorted(self.game.options.items()))
        return Job(self.game.info.name, options, tuple(seating), self.seed, len(self.jobs))

    def plan_round_robin(self) -> None:
        """Every group of k entrants plays; each game rotates the seats of its group."""
        k = self.game.num_players
        for group in itertools.combinations(labels(self.bots), k):
            for g in range(self.games_per_pairing):
                shift = g % k
                self.jobs.append(self._job(group[shift:] + group[:shift]))

    def plan_swiss_round(self) -> None:
        """Pair entrants of similar rating who have met least, for one more round (2 players)."""
        board = self.leaderboard()
        order = [e.bot for e in board]
        met: dict[frozenset[str], int] = {}
        for i in self.results:
            key = frozenset(self.jobs[i].seats)
            met[key] = met.get(key, 0) + 1
        unpaired = order[:]
        while len(unpaired) >= 2:
            a = unpaired.pop(0)
            b = min(unpaired, key=lambda x: (met.get(frozenset((a, x)), 0), unpaired.index(x)))
            unpaired.remove(b)
            for g in range(self.games_per_pairing):
                self.jobs.append(self._job((a, b) if g % 2 == 0 else (b, a)))

    # --- ratings ------------------------------------------------------------------------------
    def leaderboard(self) -> list[Entry]:
        """Ratings from every result so far, in job order; best (highest ordinal) first."""
        model = PlackettLuce()
        ratings = {b: model.rating(name=b) for b in labels(self.bots)}
        entries = {b: Entry(b, ratings[b].mu, ratings[b].sigma) for b in ratings}
        for i in sorted(self.results):
            result = self.results[i]
            seats = result.seats
            teams = [[ratings[s]] for s in seats]
            rated = model.rate(teams, ranks=[float(r) for r in result.ranks])
            for s, team in zip(seats, rated, strict=True):
                ratings[s] = team[0]
                entries[s].games += 1
            for w in result.winners:
                entries[seats[w]].wins += 1.0 / len(result.winners)
        for b, r in ratings.items():
            entries[b].mu, entries[b].sigma = r.mu, r.sigma
        return sorted(entries.values(), key=lambda e: (-e.ordinal, e.bot))

    def to_json(self) -> dict[str, Any]:
        return {
            **self.config(),
            "played": len(self.results),
            "leaderboard": [e.to_json() for e in self.leaderboard()],
            "results": [{"index": i, **self.results[i].to_json()} for i in sorted(self.results)],
        }

    # --- saving -------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json()))
        tmp.replace(path)  # atomic: a killed run never leaves half a file

    def load_results(self, path: Path) -> None:
        """Resume: take the results of an earlier run of the same tournament."""
        data = json.loads(path.read_text())
        saved = {k: data.get(k) for k in self.config()}
        if saved != self.config():
            raise InvalidOption(
                f"{path} holds a different tournament ({saved}); use another --save file"
            )
        for entry in data["results"]:
            i = entry.pop("index")
            self.results[i] = GameResult.from_json(entry)


def run_tournament(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    fmt: str | None = None,
    rounds: int | None = None,
    save: Path | None = None,
    workers: int | None = 1,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Tournament:
    """Play (or finish) a tournament; `progress(done, total)` after each game."""
    if len(bots) < game.num_players:
        raise InvalidOption(
            f"{game.num_players}-player games need at least {game.num_players} bots"
        )
    for bot in bots:
        make_agent(bot, game, 0)
    fmt = fmt or ("swiss" if len(bots) > 6 and game.num_players == 2 else "roundrobin")
    if fmt not in ("roundrobin", "swiss"):
        raise InvalidOption(f"format {fmt!r}: choose roundrobin or swiss")
    if fmt == "swiss" and game.num_players != 2:
        raise InvalidOption("Swiss pairings are for 2-player games; use roundrobin")
    if fmt == "swiss":
        rounds = rounds or math.ceil(math.log2(len(bots))) + 1
    t = Tournament(game, list(bots), games, seed, fmt, rounds or 0)
    if save is not None and save.exists():
        t.load_results(save)

    def play_planned() -> None:
        todo = [j for j in t.jobs if j.index not in t.results]
        done0 = len(t.jobs) - len(todo)

        def tick(k: int) -> None:
            if progress:
                progress(done0 + k, len(t.jobs))

        for job, result in zip(
            todo,
            run_jobs(todo, workers=workers, ray_address=ray_address, progress=tick),
            strict=True,
        ):
            t.results[job.index] = result
        if save is not None:
            t.save(save)

    if fmt == "roundrobin":
        t.plan_round_robin()
        play_planned()
    else:
        for _ in range(t.rounds):
            t.plan_swiss_round()
            play_planned()
    return t
