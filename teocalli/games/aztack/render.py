"""A text picture of the pyramid, level by level, and of every hand (all hands are public)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import COLUMNS, HALF0, HALF1, ROWS, half_text, stone_text
from .state import stones_of

if TYPE_CHECKING:
    from .state import AztackState


def render_level(state: AztackState, level: int) -> list[str]:
    """One level as a grid: each half as colour+glyph, '=' or '|' joining the halves of a stone."""
    half_at: dict[int, int] = {}
    stone_at: dict[int, int] = {}
    for stone, p, q, lv in state.placed:
        if lv == level:
            half_at[p], half_at[q] = HALF0[stone], HALF1[stone]
            stone_at[p] = stone_at[q] = stone
    lines = ["     " + "   ".join(f" {c}" for c in "abcdef"[:COLUMNS])]
    for y in range(ROWS):
        row = f"  {y + 1}  "
        joins = "     "
        for x in range(COLUMNS):
            c = y * COLUMNS + x
            row += half_text(half_at[c]) if c in half_at else ". "
            if x + 1 < COLUMNS:
                right = c + 1
                same = c in stone_at and stone_at.get(right) == stone_at[c]
                row += " = " if same else "   "
            below = c + COLUMNS
            joins += (
                " |" if c in stone_at and stone_at.get(below) == stone_at[c] else "  "
            ) + "   "
        lines.append(row.rstrip())
        if y + 1 < ROWS:
            lines.append(joins.rstrip())
    return lines


def render(state: AztackState, viewer: int | None) -> str:
    """The pyramid and every hand (nothing is hidden); `viewer`'s own hand is marked."""
    out: list[str] = []
    top = max(state.height)
    for level in range(1, top + 1):
        out.append(f"level {level}" + (" (base)" if level == 1 else ""))
        out.extend(render_level(state, level))
    out.append("")
    for p, hand in enumerate(state.hands):
        marks = []
        if p == viewer:
            marks.append("you")
        if not state.speed and p == state.turn and not state.over:
            marks.append("to move")
        if state.pending >> p & 1:
            marks.append("may discard")
        label = f"player {p}" + (f" ({', '.join(marks)})" if marks else "")
        stones = " ".join(stone_text(s) for s in stones_of(hand))
        out.append(f"{label}, {hand.bit_count()} stones: {stones}")
    if state.discarded:
        out.append("discarded: " + " ".join(stone_text(s) for s in stones_of(state.discarded)))
    return "\n".join(out)
