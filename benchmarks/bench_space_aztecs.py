"""Space Aztecs throughput: random playouts per second, legal-move generation, clone and
determinize rates, and greedy's cost per decision, on one core.

Run: python -m benchmarks.bench_space_aztecs [--games N]
"""

from __future__ import annotations

import argparse
import time

import teocalli
from teocalli.agents import make_agent
from teocalli.core import Rng, State

from .common import per_second, random_playouts, sample_positions


def rate(sample: list[State], work: str, reps: int = 10) -> float:
    """Operations per second of `work` over the sampled positions."""
    rng = Rng(1)
    if work == "legal":
        return per_second(lambda s: s.legal_actions(s.to_move()[0]), sample, reps)
    if work == "clone":
        return per_second(lambda s: s.clone(), sample, reps)
    return per_second(lambda s: s.determinize(s.to_move()[0], rng), sample, reps)


def greedy_rate(players: int, games: int) -> float:
    """Greedy decisions per second in greedy-only games."""
    game = teocalli.load("space-aztecs", players=players)
    agents = [make_agent("greedy", game, p) for p in range(players)]
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_terminal():
            player = state.to_move()[0]
            state.apply(agents[player].act(state, player), player)
            decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    for players in (2, 4, 6):
        games, steps = random_playouts(teocalli.load("space-aztecs", players=players), args.games)
        print(f"{players} players: {games:8.0f} random playouts/s  ({steps:,.0f} steps/s)")
    games, steps = random_playouts(
        teocalli.load("space-aztecs", players=4, codex=False), args.games
    )
    print(f"4 players, no Codex: {games:8.0f} random playouts/s  ({steps:,.0f} steps/s)")
    sample = sample_positions(teocalli.load("space-aztecs", players=4), 500, every=3)
    print(f"legal-move generation: {rate(sample, 'legal'):,.0f} positions/s (4 players)")
    print(f"clone:                 {rate(sample, 'clone'):,.0f} /s")
    print(f"determinize:           {rate(sample, 'determinize'):,.0f} /s")
    print(f"greedy decisions:      {greedy_rate(4, max(args.games // 20, 5)):,.0f} /s")


if __name__ == "__main__":
    main()
