"""Worlds that show a bot part of its opponents' hands: what each part of a hidden hand is worth.

Analysis only, never a fair bot: a search bot samples its worlds with `State.determinize`, which
re-deals every card the player cannot see. A `PeekingState` (made by `peeking` from a fresh
deal) re-deals fewer of them, so that a bot playing on it searches as if it could see:

- `"kept"`: the cards each opponent held before its latest draw. Its play can reveal at most
  these (the greedy planner's choices depend on its hand; the cards it drew since are fresh
  from the shuffled deck and have told nothing yet), so a bot's strength with them shown bounds
  what any inference of an opponent's hand from its play could add;
- `"hand"`: each opponent's whole hand, its latest draw too (which no player can know: it came
  from the deck the server shuffled);
- `""`: nothing (plays as the plain state does).

The deck order is re-dealt in every case. `benchmarks/bench_shifting_stones.py --duel-peek`
plays the search bots against `greedy` on such states; the figures are in
docs/games/shifting-stones.md ("Bots").
"""

from __future__ import annotations

from typing import Literal

from teocalli.core import Rng
from teocalli.games.shifting_stones.state import ShiftingStonesState

Show = Literal["", "kept", "hand"]
SHOWS: tuple[Show, ...] = ("", "kept", "hand")


class PeekingState(ShiftingStonesState):
    """A Shifting Stones state whose worlds keep the opponents' cards `show` names (above)."""

    show: Show
    fresh: tuple[tuple[int, ...], ...]
    """Per player, the cards of its hand's latest draw (the deal counts as one)."""

    def _draw(self, hand: list[int], count: int) -> bool:
        """The rules' draw, noting which cards it brought into whose hand."""
        before = list(hand)
        drew = super()._draw(hand, count)
        for p, held in enumerate(self.hands):
            if held is hand:
                new = list(hand)
                for card in before:
                    new.remove(card)
                self.fresh = tuple(tuple(new) if q == p else f for q, f in enumerate(self.fresh))
        return drew

    def _determinize(self, player: int, rng: Rng) -> PeekingState:
        """The opponents' cards `show` names as they are; their other cards and the deck
        re-dealt from what is left, as `ShiftingStonesState._determinize` deals them."""
        if self.show == "" or self.solo:
            return super()._determinize(player, rng)  # type: ignore[return-value]
        world = self.clone()
        world.rng = Rng(rng.next64())
        others = [p for p in range(self.game.num_players) if p != player]
        shown: dict[int, list[int]] = {}
        unknown = self.deck.copy()
        for p in others:
            hidden = [c for c in self.fresh[p] if c in self.hands[p]] if self.show == "kept" else []
            shown[p] = [c for c in self.hands[p] if c not in hidden]
            unknown += hidden
        unknown.sort()  # as a set: the sample must not depend on where the cards lie
        rng.shuffle(unknown)
        for p in others:
            k = len(self.hands[p]) - len(shown[p])
            world.hands[p] = sorted(shown[p] + unknown[:k])
            unknown = unknown[k:]
        world.deck = unknown
        return world


def as_show(name: str) -> Show:
    """`name` as a `Show`, or ValueError naming the choices."""
    for show in SHOWS:
        if name == show:
            return show
    raise ValueError(f"show must be one of {SHOWS}, not {name!r}")


def peeking(state: ShiftingStonesState, show: Show) -> PeekingState:
    """A copy of a fresh deal (no step played: every card in a hand is then of its latest
    draw) whose worlds keep the opponents' cards `show` names."""
    show = as_show(show)
    if state.history:
        raise ValueError("peeking needs a fresh deal: which cards were drawn last is not kept")
    other = object.__new__(PeekingState)
    other.__dict__.update(state.clone().__dict__)
    other.show = show
    other.fresh = tuple(tuple(hand) for hand in state.hands)
    return other


__all__ = ["SHOWS", "PeekingState", "Show", "as_show", "peeking"]
