"""One learning seat of Stakz against the greedy bot, here played by a masked random policy.

Swap the policy for your learner: the observation is a float32 vector, the legal actions are
`info["action_mask"]`. Run: .venv/bin/python examples/gymnasium_vs_greedy.py [episodes]
"""

from __future__ import annotations

import sys

import numpy as np

from teocalli.interop import gymnasium


def main(episodes: int = 3, seed: int = 0) -> float:
    env = gymnasium.env("stakz", opponents="greedy", players=2)
    rng = np.random.default_rng(seed)
    total = 0.0
    for episode in range(episodes):
        _obs, info = env.reset(seed=seed + episode)
        terminated = False
        reward = 0.0
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, reward, terminated, _truncated, info = env.step(action)
        total += reward
        print(f"episode {episode}: reward {reward:+.1f}, ranks {info['outcome']['ranks']}")
    mean = total / episodes
    print(f"mean reward against greedy: {mean:+.2f}")
    return mean


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
