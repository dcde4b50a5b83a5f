"""Stakz throughput: `python -m benchmarks.bench_stakz`.

Prints random playouts (whole matches to 12 points) per second and steps per second for 2-4
players, legal-move generation, clone and determinize rates over positions from random matches,
and greedy-vs-random match speed. Figures are for comparison within one run on one machine.
"""

from __future__ import annotations

import time

import teocalli
from teocalli.agents import make_agent
from teocalli.core import Rng
from teocalli.core.match import play_game

from .common import per_second, sample_positions


def random_playouts(players: int, seconds: float = 2.0) -> tuple[float, float, float]:
    """(matches per second, steps per second, mean steps per match)."""
    game = teocalli.load("stakz", players=players)
    matches = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(matches)
        rng = Rng(matches)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        matches += 1
        steps += len(state.history)
    elapsed = time.perf_counter() - start
    return matches / elapsed, steps / elapsed, steps / matches


def greedy_matches(players: int, games: int) -> tuple[float, float]:
    """(greedy win rate vs random, matches per second)."""
    game = teocalli.load("stakz", players=players)
    wins = 0.0
    start = time.perf_counter()
    for seed in range(games):
        seat = seed % players
        actors = [
            make_agent("greedy" if p == seat else "random", game, seed * 10 + p)
            for p in range(players)
        ]
        winners = play_game(game, actors, seed).outcome().winners
        wins += (seat in winners) / len(winners)
    return wins / games, games / (time.perf_counter() - start)


def main() -> None:
    for players in (2, 3, 4):
        per_s, steps_s, length = random_playouts(players)
        print(
            f"{players}p random playouts: {per_s:8.1f} matches/s  {steps_s:9.0f} steps/s  "
            f"({length:.0f} steps per match)"
        )
    positions = sample_positions(teocalli.load("stakz", players=3), 500, every=10)
    legal = per_second(lambda s: s.legal_actions(s.to_move()[0]), positions, 20)
    clone = per_second(lambda s: s.clone(), positions, 20)
    world = per_second(lambda s: s.determinize(s.to_move()[0], Rng(1)), positions, 5)
    print(f"3p legal-move generation: {legal:9.0f} positions/s")
    print(f"3p clone:                 {clone:9.0f} states/s")
    print(f"3p determinize:           {world:9.0f} worlds/s")
    for players in (2, 3, 4):
        win, speed = greedy_matches(players, 200)
        print(
            f"{players}p greedy vs random: greedy wins {win:.1%} of 200 matches "
            f"(chance {1 / players:.0%}); {speed:.1f} matches/s"
        )


if __name__ == "__main__":
    main()
