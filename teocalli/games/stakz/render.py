"""Text rendering for a person at a terminal (`teocalli play stakz`).

Stacks are drawn bottom to top in the notation players type (`Rc` = red circle), with a mark on
the stacks that already took a tile this turn; the viewer's hand shows its tiles, other hands and
the pile only their colours, as the tile backs do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import (
    COLOUR,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    NUM_TILES,
    SYMBOL,
    SYMBOL_GLYPHS,
    SYMBOL_LETTERS,
    SYMBOL_NAMES,
    TILE_TEXT,
)

if TYPE_CHECKING:
    from .state import StakzState


def _colours(counts: list[int]) -> str:
    return " ".join(f"{letter}{n}" for letter, n in zip(COLOUR_LETTERS, counts, strict=True))


def _hand_colours(hand: list[int]) -> list[int]:
    out = [0] * len(COLOUR_LETTERS)
    for t in range(NUM_TILES):
        out[COLOUR[t]] += hand[t]
    return out


def render(state: StakzState, viewer: int | None) -> str:
    """The position as `viewer` sees it (None: a spectator; at the end everything is shown)."""
    n = state.num_players
    over = state.is_terminal()
    legend = "  ".join(
        f"{letter}={name}" for letter, name in zip(COLOUR_LETTERS, COLOUR_NAMES, strict=True)
    )
    symbols = "  ".join(
        f"{letter}={glyph} {name}"
        for letter, glyph, name in zip(SYMBOL_LETTERS, SYMBOL_GLYPHS, SYMBOL_NAMES, strict=True)
    )
    scores = "  ".join(f"P{p}:{s}" for p, s in enumerate(state.scores))
    lines = [
        f"Stakz, round {len(state.rounds) + (0 if over else 1)}, "
        f"match to {state.target} points (lowest wins). Totals: {scores}",
        f"Colours: {legend}",
        f"Symbols: {symbols}",
    ]
    if state.rounds:
        points, winner = state.rounds[-1]
        who = "nobody could place (stuck)" if winner < 0 else f"P{winner} emptied their hand"
        lines.append(f"Last round: {who}; points {' '.join(map(str, points))}")
    if over:
        out = state.outcome()
        lines.append(f"Match over: winner(s) {', '.join(f'P{p}' for p in out.winners)}")
    lines.append(f"Pile: {len(state.pile)} tiles ({_colours(state.pile_colours)})")
    lines.append("Stacks, bottom to top (* took a tile this turn):")
    for s, stack in enumerate(state.stacks):
        mark = "*" if state.used >> s & 1 else " "
        tiles = " ".join(TILE_TEXT[t] for t in stack)
        glyphs = "".join(SYMBOL_GLYPHS[SYMBOL[t]] for t in stack)
        lines.append(f" {mark}{s:>2}: {tiles:<27} {glyphs}")
    lines.append("Hands:")
    for p in range(n):
        hand = state.hands[p]
        size = state.hand_size[p]
        turn = " <- to move" if not over and p == state.player else ""
        if over or p == viewer:
            tiles = " ".join(TILE_TEXT[t] for t in range(NUM_TILES) for _ in range(hand[t]))
            you = " (you)" if p == viewer else ""
            lines.append(f"  P{p}{you}: {tiles} [{size}]{turn}")
        else:
            lines.append(f"  P{p}: {_colours(_hand_colours(hand))} [{size}]{turn}")
    if not over:
        lines.append(
            f"P{state.player} has placed {state.placed} tile(s) this turn. "
            "Place with Rc@0 (tile@stack); end the turn with `end R` (draw a red) or `end`."
        )
    return "\n".join(lines)
