"""Text rendering for `teocalli play space-aztecs`: the table as one player sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import (
    CARD_ID,
    CARD_NAME,
    CARD_TIME,
    COLOUR,
    COLOURS,
    KIND,
    NUM_CARDS,
    NUM_PILES,
    Kind,
)
from .components import pile_text as _pile

if TYPE_CHECKING:
    from .state import SpaceAztecsState


def card_label(card: int) -> str:
    """`PNK-05 Axolotl 06:00`: id, name and time, enough to decide without the card list."""
    return f"{CARD_ID[card]} {CARD_NAME[card]} {CARD_TIME[card]}"


def render(state: SpaceAztecsState, viewer: int | None) -> str:
    """The public table, then (for a player) their pile, their choice and their memory."""
    from .state import CAPTURED, CITY, TEMPLED, Phase

    n = state.num_players
    over = state.phase is Phase.OVER
    removed = f", {COLOURS[state.removed]} set removed" if state.removed >= 0 else ""
    lines = [
        f"Space Aztecs, round {state.round}{removed}: "
        f"{state.saucers_played} of {state.saucer_limit} Flying Saucers played, "
        f"Starting Player {state.start}"
    ]
    piles = []
    for x in range(NUM_PILES):
        holder = state.holder[x]
        taken = f" (player {holder})" if holder >= 0 else ""
        piles.append(f"{_pile(x)}:{state.pile_size[x]}{taken}")
    lines.append("Piles: " + "  ".join(piles))
    sheets = state.sheets()
    for p in range(n):
        token = " *" if state.start == p else ""
        lines.append(f"Player {p}{token}: {sheets[p].total} points so far")
        parts = []
        for c in state.cards_at(CITY + p):
            under = [
                u for u in range(NUM_CARDS) if state.host[u] == c and state.where[u] >= TEMPLED
            ]
            if KIND[c] in (Kind.TEMPLE, Kind.SAUCER):
                inside = ", ".join(CARD_ID[u] for u in under)
                parts.append(f"{CARD_ID[c]}[{inside}]")
            else:
                parts.append(f"{CARD_ID[c]} {CARD_NAME[c]}")
        lines.append("  city: " + ("; ".join(parts) if parts else "(empty)"))
        captured = len(state.cards_at(CAPTURED + p))
        if captured:
            lines.append(f"  {captured} card(s) under their Saucers")
    if state.phase is Phase.CHOOSE:
        waiting = [p for p in range(n) if state.chosen[p] < 0]
        lines.append(f"Choosing: players {waiting}")
    if state.order:
        played = ", ".join(f"{p}: {card_label(state.chosen[p])}" for p in state.order)
        lines.append(f"Announced (in play order): {played}")
    if state.phase is Phase.CAPTURE:
        colour = COLOURS[COLOUR[state.saucer]]
        lines.append(
            f"Player {state.order[state.playing]}'s {colour} Saucer {CARD_ID[state.saucer]} "
            f"takes one of player {state.victims[0]}'s {colour} Aztecs"
        )
    if state.phase is Phase.TUCK:
        lines.append(
            f"Player {state.order[state.playing]} may tuck {card_label(state.tuck_card)} "
            "under their Temple (tuck) or keep it in view (keep)"
        )
    if over:
        reason = state.end_reason.value if state.end_reason else ""
        lines.append(f"The end of the world: {reason}.")
        for p, sheet in enumerate(sheets):
            aztecs = ", ".join(f"{c} {v}" for c, v in zip(COLOURS, sheet.aztecs, strict=True))
            lines.append(
                f"  player {p}: I codex {sheet.codex}; II aztecs {aztecs}, pink penalty "
                f"{sheet.pink_penalty}; III saucers {sheet.saucers}; total {sheet.total}"
            )
    elif viewer is not None:
        x = state.held[viewer]
        if x >= 0 and state.phase in (Phase.PICK, Phase.CHOOSE):
            cards = state.pile_cards(x)
            lines.append(f"Your pile {_pile(x)}: " + "; ".join(card_label(c) for c in cards))
        if state.phase is Phase.CHOOSE and state.chosen[viewer] >= 0:
            lines.append(f"Your choice: {card_label(state.chosen[viewer])}")
        for memo in state.memory(viewer):
            if memo["pile"] != (_pile(x) if x >= 0 else None):
                lines.append(
                    f"You remember pile {memo['pile']} (held in round {memo['held_in_round']}): "
                    + " ".join(memo["cards"])
                )
    return "\n".join(lines)
