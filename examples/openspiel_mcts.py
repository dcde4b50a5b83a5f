"""OpenSpiel's own MCTSBot plays Aztack (one fixed deal) against OpenSpiel's uniform random bot.

Aztack is a perfect-information game, so plain MCTS is sound on it. `deals=1` makes the root
chance node a single deal. Run: .venv/bin/python examples/openspiel_mcts.py [games] [simulations]
(the defaults, 4 games at 100 simulations a move, take about 2 s and win them all)
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

from teocalli.interop import openspiel


def main(games: int = 4, simulations: int = 100, seed: int = 0) -> list[float]:
    game = openspiel.load("aztack", players=2, deals=1)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
    randomer = pyspiel.make_uniform_random_bot(1, seed)
    results = []
    for g in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == 0:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(randomer.step(state))
        results.append(state.returns()[0])
        print(f"game {g}: MCTS (player 0) return {state.returns()[0]:+.1f}")
    print(f"MCTS mean return against random: {sum(results) / len(results):+.2f}")
    return results


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
