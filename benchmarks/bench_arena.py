"""Arena throughput: search iterations per second per game (and, for games with turn proposals,
the turn search's playouts per second), and random playouts per second on one and on two local
processes (the same seeded jobs, so the ratio is the parallel speed-up).

Run: python -m benchmarks.bench_arena [--games N] [--seconds S] [--iterations N]
"""

from __future__ import annotations

import argparse
import time

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.search import game_turns
from teocalli.arena.backend import Job, run_jobs
from teocalli.core import Information, Rng, game_class

PLAYOUT_SECONDS = 2.0
"""About how long one process's random playouts of a game last (slow games play fewer)."""


def two_players(name: str) -> int:
    """Searches are timed in 2-player games (or the nearest count the game allows)."""
    info = game_class(name).info
    return min(max(2, info.min_players), info.max_players)


def search_rate(name: str, iterations: int, positions: int = 5, extra: str = "") -> float:
    """Search iterations (turn search: playouts) per second from positions part-way into random
    games."""
    game = teocalli.load(name, players=two_players(name))
    kind = "ismcts" if game.info.information is Information.HIDDEN else "mcts"
    agent = make_agent(f"{kind}:iterations={iterations}{extra}", game, seed=1)
    rng = Rng(3)
    done = 0
    elapsed = 0.0
    for seed in range(positions):
        state = game.new_state(seed)
        for _ in range(6):
            if state.is_terminal():
                break
            p = state.to_move()[0]
            actions = state.legal_actions(p)
            state.apply(actions[rng.randrange(len(actions))], p)
        if state.is_terminal():
            continue
        start = time.perf_counter()
        agent.act(state, state.to_move()[0])
        elapsed += time.perf_counter() - start
        done += agent.search.last_iterations  # type: ignore[attr-defined]
    return done / elapsed if elapsed else 0.0


def playout_count(name: str, most: int, seconds: float = PLAYOUT_SECONDS) -> int:
    """How many random playouts (at most `most`, at least 4) take about `seconds` on one process,
    from three timed games: slow games play fewer, without a list of which games are slow."""
    game = teocalli.load(name)
    seats = tuple(["random"] * game.num_players)
    jobs = [Job(name, tuple(sorted(game.options.items())), seats, 1, i) for i in range(3)]
    start = time.perf_counter()
    run_jobs(jobs, workers=1)
    each = (time.perf_counter() - start) / len(jobs)
    return max(4, min(most, int(seconds / max(each, 1e-6))))


def playout_rate(name: str, games: int, workers: int) -> float:
    game = teocalli.load(name)
    seats = tuple(["random"] * game.num_players)
    jobs = [Job(name, tuple(sorted(game.options.items())), seats, 0, i) for i in range(games)]
    start = time.perf_counter()
    run_jobs(jobs, workers=workers)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--games", type=int, default=400, help="random playouts per game at most (see --seconds)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=PLAYOUT_SECONDS,
        help="about how long one process plays each game's random playouts",
    )
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    for name in teocalli.games():
        rate = search_rate(name, args.iterations)
        print(f"{name:16s} search: {rate:9.0f} iterations/s")
        if game_turns(name) is not None:
            rate = search_rate(name, args.iterations * 5, extra=",turns=1")
            print(f"{name:16s} turn search: {rate:9.0f} playouts/s")
    for name in teocalli.games():
        games = playout_count(name, args.games, args.seconds)
        one = playout_rate(name, games, 1)
        two = playout_rate(name, games, 2)
        print(
            f"{name:16s} random playouts: {one:8.1f} games/s on 1 process, {two:8.1f} on 2 "
            f"(x{two / one:.2f})"
        )


if __name__ == "__main__":
    main()
