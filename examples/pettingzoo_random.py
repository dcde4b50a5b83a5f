"""Play Space Aztecs through PettingZoo's AEC and Parallel APIs with masked random actions.

Run: .venv/bin/python examples/pettingzoo_random.py [games]
"""

from __future__ import annotations

import sys

import numpy as np

from teocalli.interop import pettingzoo


def play_aec(games: int, seed: int = 0) -> list[float]:
    """Random legal actions in the AEC env; returns player_0's final reward per game."""
    env = pettingzoo.env("space-aztecs", players=4)
    rng = np.random.default_rng(seed)
    results = []
    for g in range(games):
        env.reset(seed=seed + g)
        final = 0.0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _info = env.last()
            if agent == "player_0":
                final = reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        results.append(final)
    return results


def play_parallel(seed: int = 0) -> dict[str, float]:
    """One game in the Parallel env: every agent who may act sends an action each step."""
    env = pettingzoo.parallel_env("space-aztecs", players=3)
    rng = np.random.default_rng(seed)
    observations, _infos = env.reset(seed=seed)
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {
            agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            for agent, obs in observations.items()
            if obs["action_mask"].any()
        }
        observations, rewards, _term, _trunc, _infos = env.step(actions)
    return rewards


def main(games: int = 3) -> None:
    print("AEC, player_0's rewards:", play_aec(games))
    print("Parallel, final rewards:", play_parallel())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
