"""Pictures of the position: a text top view (levels shaded), `render` as every game has it, and an
SVG top view (tests and debugging; the browser draws its own from the view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .components import SPEC

if TYPE_CHECKING:
    from .state import StackBackState

CELL = 4.0  # mm per character of the text view
SHADES = "-=+*#%@&$"
"""Level 0 to 8 and above, lightest to darkest; '.' is bare board, ' ' the gap."""
FILL = {"Y": "#e8c22a", "M": "#a05cb4", "G": "#4caf50"}


def _top_levels(state: StackBackState, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The highest level covering each point (-1: none)."""
    top = np.full(xs.shape, -1)
    for s in state.sticks:
        dx, dy = xs - s.cx, ys - s.cy
        along = np.abs(dx * s.ux + dy * s.uy) <= s.half
        across = np.abs(-dx * s.uy + dy * s.ux) <= SPEC.width / 2
        top = np.where(along & across, np.maximum(top, s.level), top)
    return top


def render(state: StackBackState, viewer: int | None) -> str:
    """Top view, y up: each character a 4 mm cell, shaded by the highest level over its centre.

    Stack Back hides nothing, so every viewer sees the same picture; `viewer`'s line is marked.
    """
    x0, y0, x1, y1 = SPEC.region
    cols = int((x1 - x0) / CELL)
    rows = int((y1 - y0) / CELL)
    xs, ys = np.meshgrid(x0 + CELL * (np.arange(cols) + 0.5), y1 - CELL * (np.arange(rows) + 0.5))
    top = _top_levels(state, xs, ys)
    on_board = np.zeros(xs.shape, dtype=bool)
    for bx0, by0, bx1, by1 in SPEC.boards:
        on_board |= (xs >= bx0) & (xs <= bx1) & (ys >= by0) & (ys <= by1)
    lines = []
    for r in range(rows):
        row = ""
        for c in range(cols):
            level = int(top[r, c])
            row += (
                SHADES[min(level, len(SHADES) - 1)]
                if level >= 0
                else ("." if on_board[r, c] else " ")
            )
        lines.append("|" + row + "|")
    border = "+" + "-" * cols + "+"
    out = [
        border,
        *lines,
        border,
        f"levels: {' '.join(f'{i}={ch}' for i, ch in enumerate(SHADES))}",
    ]
    for i, s in enumerate(state.sticks):
        rest = f" on {s.supports[0]},{s.supports[1]}" if s.supports else ""
        out.append(f"  #{i} {s.pose} level {s.level} by {s.owner}{rest}")
    for p in range(2):
        have = " ".join(f"{SPEC.keys[c]}{n}" for c, n in enumerate(state.supply[p]))
        you = " (you)" if p == viewer else ""
        out.append(f"player {p}: {have}  (floor {state.floor[p]}){you}")
    if not state.is_terminal():
        out.append(f"to move: player {state.turn} (placed {state.placed_this_turn} this turn)")
    return "\n".join(out)


def render_svg(state: StackBackState, scale: float = 3.0) -> str:
    """Top view as SVG: boards as wood, sticks in their colours, darker and outlined by level."""
    x0, y0, x1, y1 = SPEC.region
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" '
        f'viewBox="{x0:g} {-y1:g} {x1 - x0:g} {y1 - y0:g}">'
    ]
    for bx0, by0, bx1, by1 in SPEC.boards:
        parts.append(
            f'<rect x="{bx0:g}" y="{-by1:g}" width="{bx1 - bx0:g}" height="{by1 - by0:g}" '
            'fill="#deb887" stroke="#8b5a2b" stroke-width="0.5"/>'
        )
    order = sorted(range(len(state.sticks)), key=lambda i: (state.sticks[i].level, i))
    for i in order:
        s = state.sticks[i]
        shade = min(0.15 * s.level, 0.6)
        parts.append(
            f'<g transform="translate({s.cx:g} {-s.cy:g}) rotate({-s.pose.angle:g})">'
            f'<rect x="{-s.half:g}" y="{-SPEC.width / 2:g}" width="{2 * s.half:g}" '
            f'height="{SPEC.width:g}" fill="{FILL[SPEC.keys[s.colour]]}" stroke="#222" '
            f'stroke-width="{0.3 + 0.2 * s.level:g}"><title>#{i} {s.pose} level {s.level}</title>'
            f'</rect><rect x="{-s.half:g}" y="{-SPEC.width / 2:g}" width="{2 * s.half:g}" '
            f'height="{SPEC.width:g}" fill="#000" fill-opacity="{shade:g}"/>'
            f'<text x="0" y="1.5" font-size="4" text-anchor="middle">{s.level}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
