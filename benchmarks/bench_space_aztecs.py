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


def random_playouts(players: int, games: int, codex: bool = True) -> tuple[float, float]:
    """Games per second and steps per second of uniformly random play through the protocol."""
    game = teocalli.load("space-aztecs", players=players, codex=codex)
    rng = Rng(12345)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_terminal():
            movers = state.to_move()
            player = movers[rng.randrange(len(movers))] if len(movers) > 1 else movers[0]
            actions = state.legal_actions(player)
            state.apply(actions[rng.randrange(len(actions))], player)
        steps += len(state.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed


def sample_positions(players: int, count: int) -> list[State]:
    game = teocalli.load("space-aztecs", players=players)
    rng = Rng(7)
    sample: list[State] = []
    seed = 0
    while len(sample) < count:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal():
            if rng.randrange(3) == 0:
                sample.append(state.clone())
            player = state.to_move()[0]
            actions = state.legal_actions(player)
            state.apply(actions[rng.randrange(len(actions))], player)
    return sample[:count]


def rate(sample: list[State], work: str, reps: int = 10) -> float:
    """Operations per second of `work` over the sampled positions."""
    rng = Rng(1)
    start = time.perf_counter()
    for _ in range(reps):
        for state in sample:
            player = state.to_move()[0]
            if work == "legal":
                state.legal_actions(player)
            elif work == "clone":
                state.clone()
            else:
                state.determinize(player, rng)
    return reps * len(sample) / (time.perf_counter() - start)


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
        games, steps = random_playouts(players, args.games)
        print(f"{players} players: {games:8.0f} random playouts/s  ({steps:,.0f} steps/s)")
    games, steps = random_playouts(4, args.games, codex=False)
    print(f"4 players, no Codex: {games:8.0f} random playouts/s  ({steps:,.0f} steps/s)")
    sample = sample_positions(4, 500)
    print(f"legal-move generation: {rate(sample, 'legal'):,.0f} positions/s (4 players)")
    print(f"clone:                 {rate(sample, 'clone'):,.0f} /s")
    print(f"determinize:           {rate(sample, 'determinize'):,.0f} /s")
    print(f"greedy decisions:      {greedy_rate(4, max(args.games // 20, 5)):,.0f} /s")


if __name__ == "__main__":
    main()
