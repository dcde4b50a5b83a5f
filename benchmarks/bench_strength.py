"""Bot strength: a bot against others in 2-player games, seats alternated, 95% intervals.

Run: python -m benchmarks.bench_strength GAME --bot ismcts:iterations=200 --against greedy,random
     [--games 100] [--workers 2] [-o key=value]
Each game's seed and seating are fixed, so a run is reproducible (except with `time=` budgets).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import teocalli
from teocalli.arena.simulate import simulate
from teocalli.arena.stats import wilson_interval


def duel(
    game_name: str, bot: str, other: str, games: int, *, workers: int, options: dict[str, Any]
) -> tuple[float, tuple[float, float], float]:
    """The bot's win share (draws and shared wins count their share) and seconds taken."""
    game = teocalli.load(game_name, players=2, **options)
    start = time.perf_counter()
    first = simulate(game, [bot, other], games // 2, seed=1000, workers=workers)
    second = simulate(game, [other, bot], games - games // 2, seed=1000, workers=workers)
    wins = first.wins[0] + second.wins[1]
    return wins / games, wilson_interval(wins, games), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--bot", required=True)
    parser.add_argument("--against", default="greedy,random")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-o", "--option", action="append", default=[])
    args = parser.parse_args()
    options = dict(kv.split("=", 1) for kv in args.option)
    for other in args.against.split(","):
        rate, (lo, hi), secs = duel(
            args.game, args.bot, other, args.games, workers=args.workers, options=options
        )
        print(
            f"{args.game}: {args.bot} vs {other}: {rate:.1%} (95% CI {lo:.1%}-{hi:.1%}) "
            f"over {args.games} games, {secs:.0f}s"
        )


if __name__ == "__main__":
    main()
