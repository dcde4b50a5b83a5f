"""Aztack throughput: random playouts per second and legal-move generation rate, on one core.

Run: python -m benchmarks.bench_aztack [--games N]
"""

from __future__ import annotations

import argparse

import teocalli

from .common import per_second, random_playouts, sample_positions


def legal_generation(players: int, positions: int) -> float:
    """Legal-move generations per second over positions sampled from random games."""
    sample = sample_positions(teocalli.load("aztack", players=players), positions)
    return per_second(lambda state: state.legal_actions(state.to_move()[0]), sample, reps=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    for players in (2, 4):
        gps, sps = random_playouts(teocalli.load("aztack", players=players), args.games)
        print(f"aztack {players}p random playouts: {gps:8.0f} games/s  {sps:9.0f} steps/s")
    gps, sps = random_playouts(teocalli.load("aztack", players=4, speed=True), args.games // 2)
    print(f"aztack 4p speed stack playouts: {gps:8.0f} games/s  {sps:9.0f} steps/s")
    print(f"aztack 4p legal-move generation: {legal_generation(4, 2000):8.0f} positions/s")


if __name__ == "__main__":
    main()
