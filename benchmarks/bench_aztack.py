"""Aztack throughput: random playouts per second and legal-move generation rate, on one core.

Run: python -m benchmarks.bench_aztack [--games N]
"""

from __future__ import annotations

import argparse
import time

import teocalli
from teocalli.core import Rng, State


def random_playouts(players: int, games: int, speed: bool = False) -> tuple[float, float]:
    """Games per second and steps per second of uniformly random play through the protocol."""
    game = teocalli.load("aztack", players=players, speed=speed)
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


def legal_generation(players: int, positions: int) -> float:
    """Legal-move generations per second over positions sampled from random games."""
    game = teocalli.load("aztack", players=players)
    rng = Rng(7)
    sample: list[State] = []
    seed = 0
    while len(sample) < positions:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal():
            if rng.randrange(4) == 0:
                sample.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    sample = sample[:positions]
    reps = 20
    start = time.perf_counter()
    for _ in range(reps):
        for state in sample:
            state.legal_actions(state.to_move()[0])
    return reps * len(sample) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    for players in (2, 4):
        gps, sps = random_playouts(players, args.games)
        print(f"aztack {players}p random playouts: {gps:8.0f} games/s  {sps:9.0f} steps/s")
    gps, sps = random_playouts(4, args.games // 2, speed=True)
    print(f"aztack 4p speed stack playouts: {gps:8.0f} games/s  {sps:9.0f} steps/s")
    print(f"aztack 4p legal-move generation: {legal_generation(4, 2000):8.0f} positions/s")


if __name__ == "__main__":
    main()
