"""Text rendering for `teocalli play`: the grid, the hands as the player may see them, the piles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import POINTS, SYMBOLS, pattern_text

if TYPE_CHECKING:
    from .state import ShiftingStonesState


def render(state: ShiftingStonesState, viewer: int | None) -> str:
    """The grid, the piles and hand sizes; `viewer`'s own hand in full (None: a spectator)."""
    n = state.game.num_players
    top = state.discard[-1] if state.discard else None
    lines = [
        f"round {state.turns // n + 1}, player {state.turn} to move"
        + (" (has acted)" if state.acted else "")
        + f"; deck {len(state.deck)}, discard {len(state.discard)}"
        + (f" (top: {top})" if top is not None else ""),
        "        1    2    3",
    ]
    for r in range(3):
        cells = " | ".join(f"{SYMBOLS[state.grid[r * 3 + c]]:>2}" for c in range(3))
        lines.append(f"  row {r + 1}: {cells}   (cells {r * 3 + 1}-{r * 3 + 3})")
    for p in range(n):
        scored = " ".join(str(c) for c in state.scored[p]) or "-"
        lines.append(
            f"player {p}: {len(state.hands[p])} cards in hand; scored {scored} "
            f"({state.points(p)} points)" + ("; skipped last turn" if state.last_skip[p] else "")
        )
    if state.solo:
        lines.append(f"strikes: {state.strikes} of 4")
    if viewer is not None:
        lines.append(f"your hand (player {viewer}):")
        for c in state.hands[viewer]:
            lines.append(f"  card {c:>2} ({POINTS[c]} pt): {pattern_text(c)}")
    return "\n".join(lines)
