"""Golden files: every registered game has a playthrough and perft table, and the engine matches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import teocalli
from teocalli.core.golden import PLAYTHROUGH_SEED, golden_paths, perft_table
from teocalli.core.playthrough import playthrough

ROOT = Path(__file__).resolve().parent.parent / "golden"


@pytest.mark.parametrize("name", teocalli.games())
def test_playthrough_matches_golden(name: str) -> None:
    text_path, _ = golden_paths(ROOT, name)
    assert text_path.exists(), (
        f"{name} has no golden playthrough: run scripts/regen_golden.py {name}"
    )
    expected = text_path.read_text()
    actual = playthrough(teocalli.load(name), PLAYTHROUGH_SEED)
    assert actual == expected, (
        "the engine's behaviour changed: review and regenerate the golden file"
    )


@pytest.mark.parametrize("name", teocalli.games())
def test_perft_matches_golden(name: str) -> None:
    _, perft_path = golden_paths(ROOT, name)
    assert perft_path.exists(), (
        f"{name} has no golden perft table: run scripts/regen_golden.py {name}"
    )
    assert perft_table(name) == json.loads(perft_path.read_text())


@pytest.mark.parametrize("name", teocalli.games())
def test_every_game_has_a_greedy_heuristic(name: str) -> None:
    from teocalli.agents.greedy import heuristic_for

    assert callable(heuristic_for(name))
