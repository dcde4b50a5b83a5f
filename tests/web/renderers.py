"""What both renderer test files share: a table against the greedy bot made through the API, the
page opened on it, and the engine's views around the first step where some event happens."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

import teocalli
from teocalli.agents import make_agent

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


def create_against_greedy(
    server: str, game: str, *, seed: int | None = None, **options: Any
) -> str:
    """A table of a person (seat 1) and the greedy bot, made through the API; seat 1's link."""
    body: dict[str, Any] = {"game": game, "seats": SEATS, "options": options}
    if seed is not None:
        body["seed"] = seed
    request = urllib.request.Request(
        f"{server}/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.loads(response.read())
    link: str = next(s["link"] for s in created["seats"] if s["seat"] == 0)
    return link


def open_table(page: Any, server: str, link: str) -> None:
    """Open a seat's link and wait until the board is drawn with its step."""
    page.goto(f"{server}{link}")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.body.dataset.step !== undefined")


def step_where(
    name: str, seed: int, event: Callable[[dict[str, Any], dict[str, Any]], bool], **options: Any
) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """Seat 1's views before and after the first step of a greedy game where `event` holds."""
    game = teocalli.load(name, **options)
    state = game.new_state(seed)
    bots = [make_agent("greedy", game, seed + p) for p in range(game.num_players)]
    while not state.is_terminal():
        player = state.to_move()[0]
        before = state.view(0)
        state.apply(bots[player].act(state, player), player)
        after = state.view(0)
        if event(before, after):
            return before, after, list(state.log(0)[-1])
    raise AssertionError(f"no such step in {name} seed {seed}")
