"""Shared helpers for the Shifting Stones tests: games and positions in the game's notation."""

from __future__ import annotations

from typing import Any

import teocalli
from teocalli.games.shifting_stones.position import from_position
from teocalli.games.shifting_stones.state import ShiftingStonesState

GRID = "Su Fi Ho / Bo Se Tr / Se Ho Bi"
"""A legal grid: cells 1-9 read Su Fi Ho, Bo Se Tr, Se Ho Bi."""


def position(text: str, players: int = 2, **options: Any) -> ShiftingStonesState:
    game = teocalli.load("shifting-stones", players=players, **options)
    return from_position(game, text)  # type: ignore[arg-type]
