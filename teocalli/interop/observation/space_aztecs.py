"""Space Aztecs observations (view layout: teocalli/games/space_aztecs/state.py `_view`).

After the common header (base.py), with n players, the 72 cards (components.json order, as the dense
actions use) and the 8 piles A-H:

| field | shape | meaning |
| --- | --- | --- |
| round | 1 | the round / 20 |
| phase | 6 | one-hot: pick, choose, resolve, capture, tuck, over |
| starting_player | n | one-hot |
| removed_set | 4 | one-hot colour taken out (pink, yellow, blue, green; 0 with 5-6 players) |
| codex | 1 | 1 when the Codex cards are in play |
| saucers | 2 | Saucers played / the limit, and the limit / 9 |
| pile_size | 8 | cards in each pile / 10 |
| pile_holder | 8 x n | one-hot: who holds each pile this round |
| city | n x 72 | cards in view in each city (Aztecs, Temples, Saucers, Codex) |
| tucked | n x 72 | cards under a Temple or a Saucer in each city |
| score_now | n | each city's running total / 100 (in [-1, 1]) |
| has_chosen | n | during the choice: who has chosen (not what) |
| announced | n x 72 | the revealed choices, one card per player |
| announced_order | n | (position in playing order + 1) / n |
| announced_played | n | which revealed cards were played already |
| last_round | 72 | the cards played last round |
| pending_kind | 2 | one-hot: a Saucer capture, or an Agent's tuck, awaits |
| pending_player | n | one-hot: who decides it |
| pending_card | 72 | the Saucer capturing, or the Aztec to tuck |
| pending_victim | n | one-hot: whose city the Saucer raids |
| pending_choices | 72 | the Aztecs the Saucer may take |
| your_pile | 8 | one-hot: the pile the observer holds |
| your_pile_cards | 72 | its cards |
| your_choice | 72 | the observer's hidden choice, until all have chosen |
| memory_round | 8 | per pile the observer held: the round they held it / 20 |
| memory_cards | 8 x 72 | per such pile, the cards they know are in it |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from teocalli.games.space_aztecs.components import (
    CARD_BY_ID,
    COLOURS,
    NUM_CARDS,
    NUM_PILES,
    PILE_LETTERS,
)

from .base import Array, Encoder, Layout, one_hot, scaled

PHASES = ("pick", "choose", "resolve", "capture", "tuck", "over")
PENDING = ("capture", "tuck")
MAX_ROUND = 20


def _card(card_id: str) -> int:
    return CARD_BY_ID[card_id]


class SpaceAztecsEncoder(Encoder):
    """Space Aztecs: piles, cities, revealed and pending choices, the observer's pile and memory."""

    def _build(self, layout: Layout) -> None:
        n, c = self.num_players, NUM_CARDS
        self.f_round = layout.add("round", 1, "the round / 20")
        self.f_phase = layout.add("phase", len(PHASES), "one-hot phase")
        self.f_start = layout.add("starting_player", n, "one-hot starting player")
        self.f_removed = layout.add("removed_set", len(COLOURS), "one-hot colour taken out")
        self.f_codex = layout.add("codex", 1, "Codex cards in play")
        self.f_saucers = layout.add("saucers", 2, "Saucers played / limit, limit / 9")
        self.f_pile_size = layout.add("pile_size", NUM_PILES, "cards per pile / 10")
        self.f_holder = layout.add("pile_holder", (NUM_PILES, n), "who holds each pile")
        self.f_city = layout.add("city", (n, c), "cards in view in each city")
        self.f_tucked = layout.add("tucked", (n, c), "cards under Temples and Saucers")
        self.f_score = layout.add("score_now", n, "running totals / 100", low=-1.0)
        self.f_chosen = layout.add("has_chosen", n, "who has chosen (not what)")
        self.f_announced = layout.add("announced", (n, c), "revealed choices")
        self.f_order = layout.add("announced_order", n, "(playing position + 1) / n")
        self.f_played = layout.add("announced_played", n, "revealed cards already played")
        self.f_last = layout.add("last_round", c, "cards played last round")
        self.f_pending_kind = layout.add("pending_kind", len(PENDING), "capture or tuck awaits")
        self.f_pending_player = layout.add("pending_player", n, "who decides it")
        self.f_pending_card = layout.add("pending_card", c, "the Saucer, or the Aztec to tuck")
        self.f_victim = layout.add("pending_victim", n, "whose city the Saucer raids")
        self.f_choices = layout.add("pending_choices", c, "Aztecs the Saucer may take")
        self.f_your_pile = layout.add("your_pile", NUM_PILES, "the observer's pile")
        self.f_your_cards = layout.add("your_pile_cards", c, "its cards")
        self.f_your_choice = layout.add("your_choice", c, "the observer's hidden choice")
        self.f_memory_round = layout.add("memory_round", NUM_PILES, "round a pile was held / 20")
        self.f_memory = layout.add("memory_cards", (NUM_PILES, c), "cards known in that pile")

    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        n = self.num_players
        out[self.f_round.start] = scaled(state["round"], MAX_ROUND)
        one_hot(self.f_phase, out, PHASES.index(state["phase"]))
        one_hot(self.f_start, out, state["starting_player"])
        removed = state["removed_set"]
        one_hot(self.f_removed, out, None if removed is None else COLOURS.index(removed))
        out[self.f_codex.start] = float(state["codex"])
        limit = state["saucer_limit"]
        out[self.f_saucers.start] = scaled(state["saucers_played"], limit)
        out[self.f_saucers.start + 1] = scaled(limit, 9)
        for x, pile in enumerate(state["piles"]):
            out[self.f_pile_size.start + x] = scaled(pile["size"], 10)
            one_hot(self.f_holder, out, pile["holder"], x)
        for p, city in enumerate(state["cities"]):
            for card_id in (*city["aztecs"], *city["codex"]):
                one_hot(self.f_city, out, _card(card_id), p)
            for key, top in (("temples", "temple"), ("saucers", "saucer")):
                for entry in city[key]:
                    one_hot(self.f_city, out, _card(entry[top]), p)
                    for card_id in entry["under"]:
                        one_hot(self.f_tucked, out, _card(card_id), p)
            out[self.f_score.start + p] = max(-1.0, min(1.0, city["score_now"]["total"] / 100))
        for p, chosen in enumerate(state.get("has_chosen", ())):
            out[self.f_chosen.start + p] = float(chosen)
        for i, entry in enumerate(state.get("announced", ())):
            p = entry["player"]
            one_hot(self.f_announced, out, _card(entry["card"]), p)
            out[self.f_order.start + p] = (i + 1) / n
            out[self.f_played.start + p] = float(entry["played"])
        for card_id in state.get("last_round", ()):
            one_hot(self.f_last, out, _card(card_id))
        pending = state.get("pending")
        if pending is not None:
            one_hot(self.f_pending_kind, out, PENDING.index(pending["kind"]))
            one_hot(self.f_pending_player, out, pending["player"])
            card_id = pending["saucer"] if pending["kind"] == "capture" else pending["card"]
            one_hot(self.f_pending_card, out, _card(card_id))
            if pending["kind"] == "capture":
                one_hot(self.f_victim, out, pending["victim"])
                for choice in pending["choices"]:
                    one_hot(self.f_choices, out, _card(choice))
        your_pile = state.get("your_pile")
        if your_pile is not None:
            one_hot(self.f_your_pile, out, PILE_LETTERS.index(your_pile["pile"]))
            for card in your_pile["cards"]:
                one_hot(self.f_your_cards, out, _card(card["id"]))
        your_choice = state.get("your_choice")
        if your_choice is not None:
            one_hot(self.f_your_choice, out, _card(your_choice["id"]))
        for entry in state.get("memory", ()):
            x = PILE_LETTERS.index(entry["pile"])
            out[self.f_memory_round.start + x] = scaled(entry["held_in_round"], MAX_ROUND)
            for card_id in entry["cards"]:
                one_hot(self.f_memory, out, _card(card_id), x)


ENCODER = SpaceAztecsEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
