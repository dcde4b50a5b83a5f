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

import numpy as np

from teocalli.games.space_aztecs.components import (
    CARD_BY_ID,
    COLOUR,
    COLOURS,
    KIND,
    NUM_CARDS,
    NUM_PILES,
    PILE_LETTERS,
    PINK,
    PINK_PENALTY,
    Kind,
)
from teocalli.games.space_aztecs.scoring import Sheet, aztec_points, codex_points, pink_count
from teocalli.games.space_aztecs.state import (
    CAPTURED,
    CITY,
    TEMPLED,
    Phase,
    SpaceAztecsState,
)

from .base import ZEROS, Array, Encoder, FloatView, Layout, Memo, changed, one_hot, scaled

PHASES = ("pick", "choose", "resolve", "capture", "tuck", "over")
assert tuple(p.name.lower() for p in Phase) == PHASES, "PHASES must follow the engine's Phase"
PENDING = ("capture", "tuck")
MAX_ROUND = 20


def _card(card_id: str) -> int:
    return CARD_BY_ID[card_id]


_CACHE_SIZE = 4096
"""Entries kept by the score caches before they start again (positions of a few games)."""
assert CITY % 8 == TEMPLED % 8 == CAPTURED % 8 == 0, "a city's places are CITY + p, ..."
_TENTHS = tuple(scaled(k, 10) for k in range(NUM_CARDS + 1))
"""scaled(pile size, 10) by size, as the view path computes it."""
_TOPS = np.array([KIND[c] in (Kind.TEMPLE, Kind.SAUCER) for c in range(NUM_CARDS)] + [False])
"""Cards that hold others under them (index -1, no host, is False)."""


class _Cards:
    """One placement of the cards (the engine's `where` and `host`): the piles' cards, the city
    and tucked rows of the observation (every observer's) and the cities' keys. Read from the
    engine's lists in one Python pass (cheaper than making them arrays); the city rows are built
    with NumPy only when the cards in cities changed."""

    cities: Array

    def __init__(self, state: SpaceAztecsState, n: int, last: _Cards | None) -> None:
        where, host = state.where, state.host
        self.where_list, self.host_list = where.copy(), host.copy()
        piles: list[list[int]] = [[] for _ in range(NUM_PILES)]
        in_cities: list[list[int]] = [[] for _ in range(n)]  # per city: card, place, ...
        for c, x in enumerate(where):
            if x >= CITY:  # in view, templed or captured: in city x & 7
                in_cities[x & 7] += (c, x)
            elif 0 <= x < NUM_PILES:
                piles[x].append(c)
        self.piles = piles
        self.city_cards = [cards[0::2] for cards in in_cities]  # card ids, in card order
        # what scores and cities depend on: the cards in each city (in view, templed, captured)
        self.city_keys = tuple(bytes(cards) for cards in in_cities)
        if last is not None and last.city_keys == self.city_keys and last.host_list == host:
            self.cities = last.cities
            return
        w, h = np.array(where), np.array(host)
        places = CITY + np.arange(n)[:, None]
        city = w == places
        tucked = (w >= TEMPLED) & _TOPS[h] & (w[h] == places)
        self.cities = np.concatenate([city.ravel(), tucked.ravel()]).astype(np.float32)


class SpaceAztecsEncoder(Encoder):
    """Space Aztecs: piles, cities, revealed and pending choices, the observer's pile and memory."""

    def _build(self, layout: Layout) -> None:
        n, c = self.num_players, NUM_CARDS
        self._totals: dict[tuple[tuple[bytes, ...], int, int], list[float]] = {}
        self._cities: dict[tuple[bytes, bool], tuple[Any, ...]] = {}
        self._last_cards: _Cards | None = None
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

    incremental = True
    final_is_shared = True  # `_encode` never reads the player

    def _observe(
        self, state: SpaceAztecsState, player: int, out: Array, mv: FloatView, memo: Memo
    ) -> None:
        n = self.num_players
        phase = state.phase
        mv[self.f_round.start] = scaled(state.round, MAX_ROUND)
        head, stop = self.f_phase.start, self.f_pile_size.start  # phase to saucers
        mv[head:stop] = ZEROS[: stop - head]
        mv[head + int(phase)] = 1.0
        mv[self.f_start.start + state.start] = 1.0
        if state.removed >= 0:
            mv[self.f_removed.start + state.removed] = 1.0
        mv[self.f_codex.start] = 1.0 if self.game.options["codex"] else 0.0
        limit = state.saucer_limit
        mv[self.f_saucers.start] = scaled(state.saucers_played, limit)
        mv[self.f_saucers.start + 1] = scaled(limit, 9)
        if changed(memo, "pile_size", state.pile_size):
            sizes = self.f_pile_size.start
            for x, size in enumerate(state.pile_size):
                mv[sizes + x] = _TENTHS[size]
        if changed(memo, "holder", state.holder):
            holder = self.f_holder.start
            mv[holder : holder + NUM_PILES * n] = ZEROS[: NUM_PILES * n]
            for x, p in enumerate(state.holder):
                if p >= 0:
                    mv[holder + x * n + p] = 1.0
        cards = self._cards(state)
        if memo.get("cities") is not cards.cities:  # this buffer shows other cities
            memo["cities"] = cards.cities
            out[self.f_city.start : self.f_tucked.stop] = cards.cities
        self._scores(state, cards, out, memo)
        piles = cards.piles
        out[self.f_chosen.start :] = 0.0  # has_chosen to the end: rewritten every time
        if phase is Phase.CHOOSE:
            chosen = self.f_chosen.start
            for p, card in enumerate(state.chosen):
                mv[chosen + p] = 1.0 if card >= 0 else 0.0
            if state.chosen[player] >= 0:
                mv[self.f_your_choice.start + state.chosen[player]] = 1.0
        if state.order:
            announced, order, played = (
                self.f_announced.start,
                self.f_order.start,
                self.f_played.start,
            )
            for i, p in enumerate(state.order):
                mv[announced + p * NUM_CARDS + state.chosen[p]] = 1.0
                mv[order + p] = (i + 1) / n
                mv[played + p] = 1.0 if i <= state.playing else 0.0
        else:
            last = self.f_last.start
            for card in state.last_played:
                mv[last + card] = 1.0
        if phase is Phase.CAPTURE or phase is Phase.TUCK:
            mv[self.f_pending_player.start + state.order[state.playing]] = 1.0
            if phase is Phase.CAPTURE:
                mv[self.f_pending_kind.start] = 1.0
                mv[self.f_pending_card.start + state.saucer] = 1.0
                victim = state.victims[0]
                mv[self.f_victim.start + victim] = 1.0
                choices = self.f_choices.start
                for card in state.targets(victim, COLOUR[state.saucer]):
                    mv[choices + card] = 1.0
            else:
                mv[self.f_pending_kind.start + 1] = 1.0
                mv[self.f_pending_card.start + state.tuck_card] = 1.0
        held = state.held[player]
        if held >= 0:
            mv[self.f_your_pile.start + held] = 1.0
            cards_at = self.f_your_cards.start
            for card in piles[held]:
                mv[cards_at + card] = 1.0
        rounds, memory = self.f_memory_round.start, self.f_memory.start
        seen_round = state.seen_round
        for x in range(NUM_PILES):
            seen = seen_round[player * NUM_PILES + x]
            if seen:
                mv[rounds + x] = scaled(seen, MAX_ROUND)
                row = memory + x * NUM_CARDS
                for card in piles[x]:
                    mv[row + card] = 1.0
                pending = state.pending_choice(x)
                if pending >= 0 and state.holder[x] != player:
                    mv[row + pending] = 1.0

    def _cards(self, state: SpaceAztecsState) -> _Cards:
        """Where the cards are, as arrays: shared by every observer, rebuilt only when the
        engine's `where` or `host` differ from the last ones (a value diff)."""
        cards = self._last_cards
        if cards is None or cards.where_list != state.where or cards.host_list != state.host:
            cards = self._last_cards = _Cards(state, self.num_players, cards)
        return cards

    def _scores(self, state: SpaceAztecsState, cards: _Cards, out: Array, memo: Memo) -> None:
        """score_now: each city's running total (the engine's Sheet). Totals depend only on where
        the cards are, the Starting Player and the removed set, so they are cached by those for
        every observer (the AEC env observes each player in turn: one computes, the rest look up).
        """
        key = (cards.city_keys, state.start, state.removed)
        if memo.get("score_key") == key:
            return
        memo["score_key"] = key
        totals = self._totals.get(key)
        if totals is None:
            totals = self._score_totals(state, cards)
            if len(self._totals) >= _CACHE_SIZE:
                self._totals.clear()
            self._totals[key] = totals
        out[self.f_score.start : self.f_score.stop] = totals

    def _score_totals(self, state: SpaceAztecsState, cards: _Cards) -> list[float]:
        """`state.sheets()` totals / 100 in [-1, 1], each city's lines cached by its cards."""
        parts = []
        for p, city_key in enumerate(cards.city_keys):
            key = (city_key, state.start == p)
            lines = self._cities.get(key)
            if lines is None:
                city = state.city(p, cards.city_cards[p])
                lines = (codex_points(city), aztec_points(city), pink_count(city), city.captured)
                if len(self._cities) >= _CACHE_SIZE:
                    self._cities.clear()
                self._cities[key] = lines
            parts.append(lines)
        pink_in_game = state.removed != PINK
        fewest = min(part[2] for part in parts)
        totals = []
        for codex, aztecs, pinks, captured in parts:
            penalty = -PINK_PENALTY if pink_in_game and pinks == fewest else 0
            total = Sheet(codex, aztecs, penalty, captured).total
            totals.append(max(-1.0, min(1.0, total / 100)))
        return totals


ENCODER = SpaceAztecsEncoder
"""The game's encoder, found by name (teocalli/parts.py)."""
