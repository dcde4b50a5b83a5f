"""Greedy Space Aztecs: take the card that adds most to your final count, plus a little foresight.

It reads only what the player knows, through a determinized world (`determinize(player)`): the
cities (public), its own pile and its memory of piles it held; the world's re-dealt unknowns are
never looked at. A card is valued by the score sheet it would leave (scoring.py), with small
allowances for what a card promises later (a lone Priest, a Temple's shelter, a Codex's growth);
a Saucer by what it takes and what its victims lose. A Saucer's victim card is the one its owner
would miss most; an offered tuck is always taken (a card under a Temple still scores, is safe from
Saucers and earns Archivist and Shelter bonuses).
"""

from __future__ import annotations

from typing import Any

from teocalli.core import Rng, State
from teocalli.games.space_aztecs.actions import TUCK, Capture, Choose, Take
from teocalli.games.space_aztecs.components import (
    COLOUR,
    IS_AGENT,
    IS_AZTEC,
    KIND,
    NUM_CARDS,
    PINK,
    PINK_PENALTY,
    RULE,
    Kind,
    Rule,
)
from teocalli.games.space_aztecs.scoring import City, aztec_points, codex_points, pink_count
from teocalli.games.space_aztecs.state import CITY, SpaceAztecsState


def city_points(city: City) -> int:
    """A city's count without the pink penalty (added separately: it depends on everyone)."""
    return codex_points(city) + sum(aztec_points(city)) + city.captured


def with_card(city: City, card: int, agent: bool, captures: int = 0) -> City:
    """The city after playing `card` (tucking an Aztec when an Agent allows it)."""
    kind = KIND[card]
    if kind is Kind.AZTEC:
        temple = any(COLOUR[t] == COLOUR[card] for t in city.temples)
        if agent and temple:
            return City(
                city.visible,
                (*city.templed, card),
                city.temples,
                city.codex,
                city.captured,
                city.token,
            )
        return City(
            (*city.visible, card), city.templed, city.temples, city.codex, city.captured, city.token
        )
    if kind is Kind.TEMPLE:
        colour = COLOUR[card]
        gathered = tuple(a for a in city.visible if COLOUR[a] == colour)
        return City(
            tuple(a for a in city.visible if COLOUR[a] != colour),
            city.templed + gathered,
            (*city.temples, card),
            city.codex,
            city.captured,
            city.token,
        )
    if kind is Kind.CODEX:
        return City(
            city.visible, city.templed, city.temples, (*city.codex, card), city.captured, city.token
        )
    return City(
        city.visible, city.templed, city.temples, city.codex, city.captured + captures, city.token
    )


def _without(city: City, card: int) -> City:
    return City(
        tuple(a for a in city.visible if a != card),
        city.templed,
        city.temples,
        city.codex,
        city.captured,
        city.token,
    )


def card_value(world: SpaceAztecsState, player: int, card: int) -> float:
    """How much playing `card` now is worth to `player` (score gained plus allowances)."""
    n = world.num_players
    cities = [world.city(p) for p in range(n)]
    mine = cities[player]
    agent = world.has_agent_in_view(player)
    kind = KIND[card]
    colour = COLOUR[card]
    pink_in_game = world.removed != PINK
    if kind is Kind.SAUCER:
        value = 0.0
        for v in range(n):
            if v == player:
                continue
            targets = world.targets(v, colour)
            if targets:
                loss = max(
                    city_points(cities[v]) - city_points(_without(cities[v], t)) for t in targets
                )
                value += 1.0 + 0.6 * loss / max(n - 1, 1)
        return value
    after = with_card(mine, card, agent)
    value = float(city_points(after) - city_points(mine))
    if pink_in_game and IS_AZTEC[card] and colour == PINK:
        others = min((pink_count(c) for p, c in enumerate(cities) if p != player), default=99)
        before, now = pink_count(mine), pink_count(after)
        if before <= others < now:
            value += PINK_PENALTY  # out of the fewest-pink penalty
        elif now <= others:
            value += 1.0  # closer to getting out of it
    rule = RULE[card]
    if rule is Rule.PRIEST:
        aliens = sum(1 for a in mine.aztecs if RULE[a] is Rule.ALIEN)
        priests = sum(1 for a in mine.aztecs if RULE[a] is Rule.PRIEST)
        if aliens <= priests:
            value += 2.5
    elif rule is Rule.WARRIOR:
        value += 1.0
    elif IS_AGENT[card]:
        value += 1.5 if mine.temples else 0.5
    if kind is Kind.TEMPLE:
        exposed = sum(
            city_points(mine) - city_points(_without(mine, a))
            for a in mine.visible
            if COLOUR[a] == colour
        )
        saucers_left = sum(
            1
            for c in range(NUM_CARDS)
            if KIND[c] is Kind.SAUCER and COLOUR[c] == colour and 0 <= world.where[c] < CITY
        )
        value += 0.25 * exposed * saucers_left + 0.5
    elif rule is Rule.SUN:
        value = 5.0 / n  # the token may change hands every round
    elif kind is Kind.CODEX:
        value += 1.0  # its count grows with the cards still to come
    return value


def choose(state: State, player: int, rng: Rng) -> Any:
    """The greedy action for `player` (see the module docstring)."""
    actions = state.legal_actions(player)
    if len(actions) == 1:
        return actions[0]
    if TUCK in actions:
        return TUCK
    world = state.determinize(player, rng)
    assert isinstance(world, SpaceAztecsState)
    chooses = [a for a in actions if isinstance(a, Choose)]
    if chooses:
        return max(chooses, key=lambda a: (card_value(world, player, a.card), -a.card))
    captures = [a for a in actions if isinstance(a, Capture)]
    if captures:
        city = world.city(world.victims[0])
        return max(
            captures,
            key=lambda a: (city_points(city) - city_points(_without(city, a.card)), -a.card),
        )

    def pile_value(action: Take) -> float:
        x = action.pile
        if world.knows_pile(player, x):
            cards = world.pile_cards(x)
            return max(card_value(world, player, c) for c in cards) if cards else -99.0
        return 3.0 + 0.2 * world.pile_size[x]

    takes = [a for a in actions if isinstance(a, Take)]
    return max(takes, key=lambda a: (pile_value(a), -a.pile))
