"""End to end in real headless Chromium against a real `teocalli serve`: a table is created in the
lobby, then a full game of each registered game is played against bots by clicking the board,
and the final screen must show every player's score."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

import teocalli

from .play import create_table, final_scores, play_by_clicking

SEATS = ["human", "greedy"]
"""Every game is played by a person (the test) against the greedy bot."""

SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "stakz": {"target": 1},
    "space-aztecs": {"removed_set": "pink"},
}
"""Lobby options that keep a game short, only for games that need some (default: none)."""

PER_TURN: dict[str, int] = {"stakz": 1, "shifting-stones": 1}
"""Picked-up moves per turn, only for games whose turn goes on until ended (default: no limit)."""


def _summary(base: str, table_id: str) -> Any:
    with urllib.request.urlopen(f"{base}/api/tables/{table_id}", timeout=5) as response:
        return json.loads(response.read())


@pytest.mark.parametrize("game", teocalli.games())
def test_full_game_by_clicking(server: str, page: Any, game: str) -> None:
    seats, options, per_turn = SEATS, SHORT_OPTIONS.get(game, {}), PER_TURN.get(game)
    link = create_table(page, server, game, seats, options)
    page.goto(f"{server}{link}")
    page.wait_for_selector("#board svg")
    assert page.inner_text("#title")  # the game's title from the catalogue
    played = play_by_clicking(page, per_turn=per_turn)
    assert played.board_moves > 0, "every game is played on the board"
    assert not played.refusals, played.refusals
    rows = final_scores(page)
    assert len(rows) == len(seats)
    assert {r[0] for r in rows} <= {str(i + 1) for i in range(len(seats))}
    assert all(r[2].replace(".", "", 1).lstrip("-").isdigit() for r in rows)
    assert any("(you)" in r[1] for r in rows)
    assert page.inner_text("#turn") == "The game is over."
    table_id = link.split("/table/")[1].split("?")[0]
    assert _summary(server, table_id)["status"] == "finished"


def test_speed_stack_is_played_live_against_a_bot(server: str, page: Any) -> None:
    """No turns: the person places whenever a stone fits, the bot after its reaction delay."""
    link = create_table(page, server, "aztack", ["human", "greedy"], {"speed": True}, bot_delay=1)
    table_id = link.split("/table/")[1].split("?")[0]
    summary = _summary(server, table_id)
    assert summary["options"]["speed"] is True and summary["bot_delay"] == 1.0
    page.goto(f"{server}{link}")
    page.wait_for_selector("#board svg")
    played = play_by_clicking(page)
    assert played.board_moves > 0
    # a click can lose the race to the bot: the refusal then says which rule the new position
    # breaks, and play goes on
    assert all("Refused" in r for r in played.refusals)
    assert len(final_scores(page)) == 2
    assert _summary(server, table_id)["status"] == "finished"
