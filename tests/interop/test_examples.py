"""Every example in examples/ runs (small sizes) and says something sensible."""

from __future__ import annotations

import runpy
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> dict:
    return runpy.run_path(str(EXAMPLES / name), run_name="example")


def test_every_example_is_tested() -> None:
    tested = {"pettingzoo_random.py", "gymnasium_vs_greedy.py", "openspiel_mcts.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_pettingzoo_example() -> None:
    module = _load("pettingzoo_random.py")
    results = module["play_aec"](2)
    assert len(results) == 2 and all(-1.0 <= r <= 1.0 for r in results)
    rewards = module["play_parallel"]()
    assert abs(sum(rewards.values())) < 1e-9


def test_gymnasium_example() -> None:
    mean = _load("gymnasium_vs_greedy.py")["main"](episodes=2)
    assert -1.0 <= mean <= 1.0


def test_openspiel_mcts_example() -> None:
    results = _load("openspiel_mcts.py")["main"](games=1, simulations=10)
    assert len(results) == 1 and results[0] in (-1.0, 0.0, 1.0)
