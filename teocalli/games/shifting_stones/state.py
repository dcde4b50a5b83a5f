"""The Shifting Stones position and its rules (docs/games/shifting-stones.md).

The grid is a list of 9 symbols (components.py); hands are sorted lists of card ids; the deck is a
list whose top is its last element; the discard pile lists cards bottom first. Component tables
(card patterns and points) are shared module constants, so a clone copies only these lists.
"""

from __future__ import annotations

import enum
from bisect import insort
from typing import TYPE_CHECKING, Any

from teocalli.core import Effect, Outcome, Rng, State, ranks_from_keys
from teocalli.core.outcome import Part

from .actions import (
    END,
    END_INDEX,
    SCORE_BASE,
    SKIP,
    SKIP_INDEX,
    Action,
    End,
    Flip,
    Score,
    Shift,
    Skip,
    malformed,
    to_int,
)
from .components import CARD_IDS, CELLS, HAND_SIZE, NUM_CARDS, POINTS, SOLO_DECK, SWAPS, matches
from .grid import grid_text, random_grid

if TYPE_CHECKING:
    from .game import ShiftingStones

TRIGGER = {2: 10, 3: 9, 4: 8, 5: 7}
"""Cards scored by one player that end the game (after the round), by player count."""
SOLO_STRIKES = 4
SKIP_DRAW = 2
SKIP_UP_TO = 6

_PAY: dict[int, tuple[Action, ...]] = {
    card: (
        *(Shift(card, p, q) for p, q in SWAPS),
        *(Flip(card, cell) for cell in range(CELLS)),
    )
    for card in CARD_IDS
}
"""Per card, its 12 shifts then 9 flips: the moves it can pay for (legal-move order)."""
_PAY_IDS: dict[int, tuple[int, ...]] = {card: tuple(map(to_int, pay)) for card, pay in _PAY.items()}
"""The action ids of `_PAY`, in its order."""
_SCORES: tuple[Score, ...] = tuple(Score(card) for card in range(1, NUM_CARDS + 1))
"""The score of card id k, at k - 1."""


class EndReason(enum.Enum):
    TRIGGER = "a player scored enough cards and the round was finished"
    ROUND_LIMIT = "the round limit was reached (engine safeguard: nobody reached the trigger)"
    SOLO_WIN = "all 16 cards of the solo deck were scored"
    SOLO_STRIKES = "the solo player collected 4 strikes"


class ShiftingStonesState(State):
    game: ShiftingStones

    def _setup(self) -> None:
        n = self.game.num_players
        rng = self.rng
        if n == 1:
            chosen: list[int] = []
            for points, count in sorted(SOLO_DECK.items()):
                candidates = [c for c in CARD_IDS if POINTS[c] == points]
                rng.shuffle(candidates)
                chosen += candidates[:count]
            self.pool: tuple[int, ...] = tuple(sorted(chosen))
        else:
            self.pool = CARD_IDS
        self.grid: list[int] = random_grid(rng)
        self.deck: list[int] = list(self.pool)
        rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.reshuffles = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for hand in self.hands:
            self._draw(hand, HAND_SIZE)
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.turn = 0
        self.turns = 0
        self.acted = False
        self.turn_scored = 0
        self.last_skip: list[bool] = [False] * n
        self.skips: list[int] = [0] * n
        self.strikes = 0
        self.ended: EndReason | None = None

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, ShiftingStonesState)
        other.grid = self.grid.copy()
        other.deck = self.deck.copy()
        other.discard = self.discard.copy()
        other.hands = [h.copy() for h in self.hands]
        other.scored = [s.copy() for s in self.scored]
        other.last_skip = self.last_skip.copy()
        other.skips = self.skips.copy()

    # --- queries ------------------------------------------------------------------------------
    @property
    def solo(self) -> bool:
        return self.game.num_players == 1

    def points(self, player: int) -> int:
        return sum(POINTS[c] for c in self.scored[player])

    def ones(self, player: int) -> int:
        return sum(1 for c in self.scored[player] if POINTS[c] == 1)

    def can_skip(self, player: int) -> bool:
        return not self.acted and not self.last_skip[player]

    def _to_move(self) -> tuple[int, ...]:
        return (self.turn,)

    def _is_terminal(self) -> bool:
        return self.ended is not None

    _score_memo: tuple[list[int], list[int], list[int]] | None = None
    """(hand, grid, the hand's cards whose pattern is on that grid): the last `scorable`
    listing, checked by value (so any state may reuse it, a clone or a changed position too)."""

    def scorable(self, player: int) -> list[int]:
        """The player's cards whose pattern is on the grid now, in hand order. Kept (by value)
        for the step's other listings: an adapter's mask and `legal_actions` share one search
        of the patterns. The list is the state's own: read it, never change it."""
        hand, grid = self.hands[player], self.grid
        memo = self._score_memo
        if memo is not None and memo[0] == hand and memo[1] == grid:
            return memo[2]
        cards = [c for c in hand if matches(c, grid)]
        self._score_memo = (hand.copy(), grid.copy(), cards)
        return cards

    def _legal_actions(self, player: int) -> list[Any]:
        hand, grid = self.hands[player], self.grid
        memo = self._score_memo  # listed this step (by a mask)? A playout never lists it
        if memo is not None and memo[0] == hand and memo[1] == grid:
            actions: list[Any] = [_SCORES[c - 1] for c in memo[2]]
        else:
            actions = [_SCORES[c - 1] for c in hand if matches(c, grid)]
        for c in hand:
            actions.extend(_PAY[c])
        actions.append(END)
        if self.can_skip(player):
            actions.append(SKIP)
        return actions

    def _legal_action_ints(self, player: int) -> list[int]:
        """`_legal_actions` by action id, in the same order, from the same prebuilt tables
        (the object list stays the playouts' own: its tuples cost less than ids to objects)."""
        ids = [SCORE_BASE + c - 1 for c in self.scorable(player)]
        for c in self.hands[player]:
            ids.extend(_PAY_IDS[c])
        ids.append(END_INDEX)
        if self.can_skip(player):
            ids.append(SKIP_INDEX)
        return ids

    _malformed = staticmethod(malformed)  # one check of an object's fields, in actions.py

    def _illegal_reason(self, action: Any, player: int) -> str | None:
        if isinstance(action, Shift | Flip | Score):
            if action.card not in self.hands[player]:
                return f"card {action.card} is not in your hand"
            if isinstance(action, Score) and not matches(action.card, self.grid):
                return (
                    f"card {action.card}'s pattern is not on the grid: every symbol must match "
                    "with the same orientation (cards are never rotated), and grey squares must "
                    "fall on the grid"
                )
            return None
        if isinstance(action, Skip):
            if self.acted:
                return "you may skip only instead of any other action, before acting this turn"
            if self.last_skip[player]:
                return "you may not skip your turn twice in a row"
            return None
        if isinstance(action, End):
            return None
        return f"{action!r} is not a Shifting Stones action"

    # --- changes ------------------------------------------------------------------------------
    def _draw(self, hand: list[int], count: int) -> bool:
        """Draw `count` cards, reshuffling the discard pile when the deck runs out."""
        drew = False
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    break  # both empty: the hand stays short
                # Sorting first makes the new order depend only on which cards were discarded.
                self.deck = sorted(self.discard)
                self.discard = []
                self.rng.shuffle(self.deck)
                self.reshuffles += 1
            insort(hand, self.deck.pop())
            drew = True
        return drew

    def _apply(self, action: Any, player: int) -> Effect:
        hand = self.hands[player]
        if isinstance(action, Shift):
            hand.remove(action.card)
            self.discard.append(action.card)
            self.grid[action.p], self.grid[action.q] = self.grid[action.q], self.grid[action.p]
            self.acted = True
            return Effect.REVEALED
        if isinstance(action, Flip):
            hand.remove(action.card)
            self.discard.append(action.card)
            self.grid[action.cell] ^= 1
            self.acted = True
            return Effect.REVEALED
        if isinstance(action, Score):
            hand.remove(action.card)
            self.scored[player].append(action.card)
            self.acted = True
            self.turn_scored += 1
            if self.solo and len(self.scored[0]) == len(self.pool):
                self.ended = EndReason.SOLO_WIN
            return Effect.REVEALED
        drew = False
        if isinstance(action, Skip):
            self.last_skip[player] = True
            self.skips[player] += 1
            if self.solo and self.game.options["solo_skip_strikes"]:
                self.strikes += 1
            upto = self.game.options["skip_mode"] == "upto6"
            drew = self._draw(hand, max(0, SKIP_UP_TO - len(hand)) if upto else SKIP_DRAW)
        else:
            self.last_skip[player] = False
            if self.solo and self.turn_scored == 0:
                self.strikes += 1
            drew = self._draw(hand, max(0, HAND_SIZE - len(hand)))
        self._finish_turn()
        return Effect.DREW if drew else Effect.NONE

    def _finish_turn(self) -> None:
        n = self.game.num_players
        self.turns += 1
        self.acted = False
        self.turn_scored = 0
        self.turn = (self.turn + 1) % n
        if n == 1:
            if self.strikes >= SOLO_STRIKES:
                self.ended = EndReason.SOLO_STRIKES
        elif self.turn == 0:
            if max(len(s) for s in self.scored) >= TRIGGER[n]:
                self.ended = EndReason.TRIGGER
            elif self.turns // n >= self.game.options["round_limit"]:
                self.ended = EndReason.ROUND_LIMIT

    # --- endings ------------------------------------------------------------------------------
    def bonus(self) -> list[int]:
        """3 points to each player with the most 1-point cards (none if nobody has one)."""
        ones = [self.ones(p) for p in range(self.game.num_players)]
        top = max(ones)
        return [3 if top > 0 and k == top else 0 for k in ones]

    def final_scores(self) -> list[int]:
        if self.solo:
            return [self.points(0)]
        return [self.points(p) + b for p, b in enumerate(self.bonus())]

    def _outcome(self) -> Outcome:
        """Most points wins, ties share. Solo: the one player ranks 0 of 1 and `won` says whether
        all 16 cards were scored (a loss by strikes has no winner)."""
        assert self.ended is not None
        scores = self.final_scores()
        if self.solo:
            return Outcome(
                (float(scores[0]),),
                (0,),
                self.ended,
                breakdown=((Part("card points", float(self.points(0))),),),
                won=(self.ended is EndReason.SOLO_WIN,),
            )
        return Outcome(
            tuple(float(s) for s in scores),
            ranks_from_keys(scores),
            self.ended,
            breakdown=tuple(
                (Part("card points", float(self.points(p))), Part("one-point bonus", float(b)))
                for p, b in enumerate(self.bonus())
            ),
        )

    def turns_of(self, player: int) -> int:
        n = self.game.num_players
        return self.turns // n + (1 if player < self.turns % n else 0)

    def _stats(self) -> dict[str, float | list[float]]:
        n = self.game.num_players
        stats: dict[str, float | list[float]] = {
            "points_per_turn": [self.points(p) / max(1, self.turns_of(p)) for p in range(n)],
            "cards_scored": [float(len(self.scored[p])) for p in range(n)],
            "skips": [float(k) for k in self.skips],
            "rounds": float(-(-self.turns // n)),
            "reshuffles": float(self.reshuffles),
        }
        if self.solo:
            stats["strikes"] = float(self.strikes)
            stats["win"] = 1.0 if self.ended is EndReason.SOLO_WIN else 0.0
        else:
            stats["bonus_winners"] = [1.0 if b else 0.0 for b in self.bonus()]
        return stats

    # --- views --------------------------------------------------------------------------------
    def _view(self, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "grid": grid_text(self.grid),
            "turn": self.turn,
            "round": self.turns // self.game.num_players,
            "acted": self.acted,
            "scored_this_turn": self.turn_scored,
            "hand_sizes": [len(h) for h in self.hands],
            "deck": len(self.deck),
            "discard": self.discard.copy(),
            "scored": [s.copy() for s in self.scored],
            "points": [self.points(p) for p in range(self.game.num_players)],
            "skipped_last_turn": self.last_skip.copy(),
        }
        if self.solo:
            view["strikes"] = self.strikes
        if player is not None:
            view["hand"] = self.hands[player].copy()
        return view

    def _full(self) -> dict[str, Any]:
        full = self._view(None)
        full["hands"] = [h.copy() for h in self.hands]
        full["deck_order"] = self.deck[::-1]
        full["pool"] = list(self.pool)
        return full

    def _determinize(self, player: int, rng: Rng) -> ShiftingStonesState:
        """Re-deal what `player` cannot know: other hands and the deck (same sizes), and, in a
        solo game before the first reshuffle, which cards of each point class the deck holds."""
        world = self.clone()
        assert isinstance(world, ShiftingStonesState)
        world.rng = Rng(rng.next64())
        if self.solo and self.reshuffles == 0:
            seen = set(self.hands[0]) | set(self.discard) | set(self.scored[0])
            deck: list[int] = []
            for points in sorted(SOLO_DECK):
                need = sum(1 for c in self.deck if POINTS[c] == points)
                candidates = [c for c in CARD_IDS if POINTS[c] == points and c not in seen]
                rng.shuffle(candidates)
                deck += candidates[:need]
            rng.shuffle(deck)
            world.deck = deck
            world.pool = tuple(sorted(seen | set(deck)))
            return world
        unknown = self.deck.copy()
        others = [p for p in range(self.game.num_players) if p != player]
        for p in others:
            unknown += self.hands[p]
        unknown.sort()  # the unseen cards as a set: the sample must not depend on where they are
        rng.shuffle(unknown)
        for p in others:
            k = len(self.hands[p])
            world.hands[p] = sorted(unknown[:k])
            unknown = unknown[k:]
        world.deck = unknown
        return world

    def _render(self, player: int | None) -> str:
        from .render import render

        return render(self, player)


__all__ = ["END", "SKIP", "TRIGGER", "EndReason", "ShiftingStonesState"]
