"""The fixed example positions the how-to-play pages draw with the table's own renderers.

Each example is a seeded game played a few greedy steps in, seen by the seat to move together
with its legal moves, so the page shows a real position and real highlighted moves. Run this module
to rewrite `teocalli/web/examples/*.json` after an engine changes its views; a test checks that the
stored files are what the engines give now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import teocalli
from teocalli.agents import make_agent

WEB = Path(__file__).resolve().parents[2] / "teocalli" / "web"
EXAMPLES = WEB / "examples"

SEED = 7
DEFAULT: dict[str, Any] = {"players": 2, "steps": 6}
"""The picture of a game: its options (2 players), then 6 greedy steps from seed 7."""

OTHER_SETTINGS: dict[str, dict[str, Any]] = {
    "stakz": {"steps": 5},
    "shifting-stones": {"steps": 4},
    "space-aztecs": {"players": 3},
    "stack-back": {"steps": 8},
}
"""Only the games whose picture differs from the default (a new game needs no line here)."""


def setup(name: str) -> tuple[dict[str, Any], int, int]:
    """A game's example: (options, seed, greedy steps to play before taking the picture)."""
    settings = {**DEFAULT, **OTHER_SETTINGS.get(name, {})}
    steps = settings.pop("steps")
    return settings, SEED, steps


SETUPS: dict[str, tuple[dict[str, Any], int, int]] = {
    name: setup(name) for name in teocalli.games()
}
"""Every registered game's example setup."""


def example(name: str) -> dict[str, Any]:
    """The example for one game: its options, the view of the seat to move and its legal moves."""
    options, seed, steps = SETUPS[name]
    game = teocalli.load(name, **options)
    state = game.new_state(seed)
    agents = [make_agent("greedy", game, seed + p) for p in range(game.num_players)]
    for _ in range(steps):
        player = state.to_move()[0]
        state.apply(agents[player].act(state, player), player)
    seat = state.to_move()[0]
    return {
        "game": name,
        "options": dict(game.options),
        "seat": seat,
        "view": state.view(seat),
        "legal": [str(a) for a in state.legal_actions(seat)],
    }


def text(name: str) -> str:
    return json.dumps(example(name), indent=1, sort_keys=True) + "\n"


def main() -> None:
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    for name in SETUPS:
        (EXAMPLES / f"{name}.json").write_text(text(name))


if __name__ == "__main__":
    main()
