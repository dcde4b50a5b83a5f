"""The Aztack position and its rules (docs/games/aztack.md), on bit sets and precomputed tables.

Hands are 60-bit sets of stone ids. For every cell pair with equal heights and two different top
stones, the ordered pair of top halves keys the tables FIT0/FIT1 (components.py), so the stones a
hand can place there are one AND away. The open pairs and their keys are recomputed after each
placement (38 pairs) and shared by every player's move generation.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from teocalli.core import Decision, Effect, Outcome, Rng, State, ranks_from_keys
from teocalli.core.outcome import TIE_BREAK, Part

from .actions import Action, Discard, Keep, Match, Pass, Place, malformed
from .components import (
    BASE_CELLS,
    BASE_STONES,
    BONUS0,
    BONUS1,
    CELLS,
    FIT0,
    FIT1,
    FIT_ANY,
    HALF0,
    HALF1,
    HAND_SIZE,
    NUM_COLOURS,
    NUM_GLYPHS,
    NUM_HALVES,
    NUM_STONES,
    PAIRS,
    SLOTS,
    STONE_COLOURS,
    cell_text,
    half_text,
    stone_text,
)

if TYPE_CHECKING:
    from .game import Aztack


class EndReason(enum.Enum):
    EMPTIED_HAND = "a player placed their last stone"
    BLOCKED = "no player can place a stone"


def stones_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class AztackState(State):
    game: Aztack

    # --- set-up -------------------------------------------------------------------------------
    def _setup(self) -> None:
        n = self.game.num_players
        self.speed: bool = self.game.options["speed"]
        self.declare: bool = self.game.options["declare"]
        stones = list(range(NUM_STONES))
        self.rng.shuffle(stones)
        base, rest = stones[:BASE_STONES], stones[BASE_STONES:]
        flips = [self.rng.randrange(2) for _ in range(BASE_STONES)]
        _fix_base_colours(base, rest, flips, self.rng)
        self.height = [0] * CELLS
        self.top_half = [0] * CELLS
        self.top_stone = [-1] * CELLS
        self.placed: list[tuple[int, int, int, int]] = []  # (stone, p, q, level), base first
        for i, stone in enumerate(base):
            p, q = BASE_CELLS[i]
            if flips[i]:
                p, q = q, p
            self._lay(stone, p, q)
        self.hands = [_mask(rest[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(n)]
        self.out_of_play = _mask(rest[n * HAND_SIZE :])  # never dealt (2-3 players): face down
        self.discarded = 0  # bonus discards, face up
        self.turn = 0
        self.pending = 0  # bit set of players owed a bonus decision
        self.last_placed = [-1] * n  # step number of each player's latest placement
        self.bonuses = 0
        self.winner = -1
        self.over = False
        self._refresh()

    def _lay(self, stone: int, p: int, q: int) -> None:
        level = self.height[p] + 1
        self.height[p] = self.height[q] = level
        self.top_half[p], self.top_half[q] = HALF0[stone], HALF1[stone]
        self.top_stone[p] = self.top_stone[q] = stone
        self.placed.append((stone, p, q, level))

    def _refresh(self) -> None:
        """Recompute the open pairs and the union of stones that fit anywhere."""
        height, top_stone, top_half = self.height, self.top_stone, self.top_half
        open_pairs = []
        fits_anywhere = 0
        for i, (p, q) in enumerate(PAIRS):
            if height[p] == height[q] and top_stone[p] != top_stone[q]:
                key = top_half[p] * NUM_HALVES + top_half[q]
                open_pairs.append((i, key))
                fits_anywhere |= FIT_ANY[key]
        self.open_pairs = open_pairs
        self.fits_anywhere = fits_anywhere

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, AztackState)
        other.height = self.height.copy()
        other.top_half = self.top_half.copy()
        other.top_stone = self.top_stone.copy()
        other.placed = self.placed.copy()
        other.hands = self.hands.copy()
        other.last_placed = self.last_placed.copy()

    # --- whose move ---------------------------------------------------------------------------
    def can_place(self, player: int) -> bool:
        return bool(self.hands[player] & self.fits_anywhere)

    def _to_move(self) -> tuple[int, ...]:
        if not self.speed:
            return (self.turn,)
        return tuple(
            p for p in range(self.game.num_players) if self.pending >> p & 1 or self.can_place(p)
        )

    def _decision(self) -> Decision:
        return Decision.RACE if self.speed else Decision.TURN

    def _is_terminal(self) -> bool:
        return self.over

    # --- legal actions ------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[Any]:
        table = self.game.codec.table
        return [table[i] for i in self.legal_ids(player)]

    def _legal_action_ints(self, player: int) -> list[int]:
        """The move generator, by action id (actions.py's Codec numbering): `_legal_actions`
        and the adapters' masks both read it, through the per-step `legal_ids`."""
        hand = self.hands[player]
        codec = self.game.codec
        places = codec.places
        if self.pending >> player & 1:
            return [*(places + s for s in stones_of(hand)), places + NUM_STONES]  # discard, keep
        per = len(codec.kinds)
        out: list[int] = []
        if hand & self.fits_anywhere:
            for pair, key in self.open_pairs:
                for flipped, fit, bonus in ((0, FIT0, BONUS0), (1, FIT1, BONUS1)):
                    stones = fit[key] & hand
                    while stones:
                        low = stones & -stones
                        stones ^= low
                        s = low.bit_length() - 1
                        base = ((s * SLOTS) + 2 * pair + flipped) * per
                        if per == 1:
                            out.append(base)
                        else:
                            out.append(base + self._match_kind(s, key, flipped, bonus))
        if not out:
            out.append(places + NUM_STONES + 1)  # pass
        return out

    def _match_kind(self, stone: int, key: int, flipped: int, bonus: list[int]) -> int:
        if bonus[key] >> stone & 1:
            return 2
        a, b = (HALF1[stone], HALF0[stone]) if flipped else (HALF0[stone], HALF1[stone])
        hp, hq = divmod(key, NUM_HALVES)
        colours = a // NUM_GLYPHS == hp // NUM_GLYPHS and b // NUM_GLYPHS == hq // NUM_GLYPHS
        return 0 if colours else 1

    _malformed = staticmethod(malformed)  # one check of an object's fields, in actions.py

    def _illegal_reason(self, action: Action, player: int) -> str | None:
        hand = self.hands[player]
        if self.pending >> player & 1:
            if isinstance(action, Keep):
                return None
            if isinstance(action, Discard):
                return (
                    None
                    if hand >> action.stone & 1
                    else f"{stone_text(action.stone)} is not in your hand"
                )
            return "you placed a bonus: first discard a stone from your hand or keep them all"
        if isinstance(action, (Keep, Discard)):
            return (
                "you may discard only right after a placement that matches both colours and glyphs"
            )
        if isinstance(action, Pass):
            if self.can_place(player):
                return "you must place a stone when you can; you may pass only when none fits"
            return None
        if not isinstance(action, Place):
            return f"{action!r} is not an Aztack action"
        return self.placement_reason(action, player)

    def placement_reason(self, action: Place, player: int) -> str | None:
        """Why this placement breaks a rule of placing stones (None: it is legal)."""
        s, p, q = action.stone, action.p, action.q
        if not self.hands[player] >> s & 1:
            return f"{stone_text(s)} is not in your hand"
        hp, hq = self.height[p], self.height[q]
        if hp != hq:
            return (
                f"a stone must lie flat: {cell_text(p)} is at level {hp} and {cell_text(q)} at "
                f"level {hq}"
            )
        if self.top_stone[p] == self.top_stone[q]:
            return (
                f"a stone must bridge two stones: {cell_text(p)} and {cell_text(q)} are both "
                f"on {stone_text(self.top_stone[p])}"
            )
        tp, tq = self.top_half[p], self.top_half[q]
        a, b = HALF0[s], HALF1[s]
        colours = a // NUM_GLYPHS == tp // NUM_GLYPHS and b // NUM_GLYPHS == tq // NUM_GLYPHS
        glyphs = a % NUM_GLYPHS == tp % NUM_GLYPHS and b % NUM_GLYPHS == tq % NUM_GLYPHS
        if not (colours or glyphs):
            mixed = (a // NUM_GLYPHS == tp // NUM_GLYPHS or a % NUM_GLYPHS == tp % NUM_GLYPHS) and (
                b // NUM_GLYPHS == tq // NUM_GLYPHS or b % NUM_GLYPHS == tq % NUM_GLYPHS
            )
            under = f"{half_text(tp)} and {half_text(tq)}"
            if mixed:
                return (
                    f"a stone must match both colours or both glyphs below it ({under}); one "
                    "half by colour and the other only by glyph is not allowed"
                )
            return f"a stone must match both colours or both glyphs below it ({under})"
        if self.declare:
            actual = (
                Match.BOTH if colours and glyphs else Match.COLOURS if colours else Match.GLYPHS
            )
            if action.declared is None:
                return "declare the match type with the placement (=c, =g or =cg)"
            if action.declared is not actual:
                said, real = action.declared.name.lower(), actual.name.lower()
                return f"wrong shout: this is a {real} match, not {said}"
        elif action.declared is not None:
            return "this game takes no declaration of the match type"
        return None

    # --- applying -----------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> Effect:
        n = self.game.num_players
        if isinstance(action, Place):
            s, p, q = action.stone, action.p, action.q
            bonus = HALF0[s] == self.top_half[p] and HALF1[s] == self.top_half[q]
            self._lay(s, p, q)
            self.hands[player] &= ~(1 << s)
            self.last_placed[player] = len(self.history)
            if not self.hands[player]:
                self.winner, self.over = player, True
                return Effect.NONE
            if bonus:
                self.bonuses += 1
                self.pending |= 1 << player
            self._refresh()
        elif isinstance(action, Discard):
            self.hands[player] &= ~(1 << action.stone)
            self.discarded |= 1 << action.stone
            self.pending &= ~(1 << player)
            if not self.hands[player]:
                self.winner, self.over = player, True
                return Effect.NONE
        elif isinstance(action, Keep):
            self.pending &= ~(1 << player)
        if not self.pending and not any(self.hands[p] & self.fits_anywhere for p in range(n)):
            self.over = True
            return Effect.NONE
        if not self.speed and not self.pending:
            self.turn = (self.turn + 1) % n
        return Effect.NONE

    # --- the end ------------------------------------------------------------------------------
    def _outcome(self) -> Outcome:
        n = self.game.num_players
        left = [h.bit_count() for h in self.hands]
        last = -1  # Speed Stack, everyone stuck: the last placer wins whatever the counts
        if self.speed and self.winner < 0:
            latest = max(range(n), key=lambda p: self.last_placed[p])
            last = first = latest if self.last_placed[latest] >= 0 else -1
            keys = [(p == first, -left[p], self.last_placed[p]) for p in range(n)]
        else:
            keys = [(p == self.winner, -left[p], self.last_placed[p]) for p in range(n)]
        reason = EndReason.EMPTIED_HAND if self.winner >= 0 else EndReason.BLOCKED
        return Outcome(
            tuple(float(x) for x in left),
            ranks_from_keys(keys),
            reason,
            breakdown=tuple(self._breakdown(p, left, last) for p in range(n)),
            lower_is_better=True,
        )

    def _breakdown(self, player: int, left: list[int], last: int) -> tuple[Part, ...]:
        """Stones left, and what broke a tie: who placed most recently (or the last placer)."""
        parts = [Part("pieces left", float(left[player]))]
        if player == last:
            parts.append(Part(f"{TIE_BREAK}: placed the last stone", 0.0))
        elif left.count(left[player]) > 1:
            step = self.last_placed[player]
            when = f"last placed at step {step}" if step >= 0 else "never placed"
            parts.append(Part(f"{TIE_BREAK}: {when}", 0.0))
        return tuple(parts)

    def _stats(self) -> dict[str, float | list[float]]:
        placements = len(self.placed) - BASE_STONES
        return {
            "stones_left": [float(h.bit_count()) for h in self.hands],
            "placements": float(placements),
            "bonuses": float(self.bonuses),
            "bonus_rate": self.bonuses / placements if placements else 0.0,
            "height": float(max(self.height)),
            "emptied_hand": float(self.winner >= 0),
        }

    # --- views --------------------------------------------------------------------------------
    def _view(self, player: int | None) -> dict[str, Any]:
        return {
            "pyramid": [
                {
                    "stone": stone_text(s, flipped=p > q),
                    "cells": [cell_text(min(p, q)), cell_text(max(p, q))],
                    "level": lv,
                }
                for s, p, q, lv in self.placed
            ],
            "heights": list(self.height),
            "tops": [half_text(h) for h in self.top_half],
            "hands": [[stone_text(s) for s in stones_of(h)] for h in self.hands],
            "discarded": [stone_text(s) for s in stones_of(self.discarded)],
            "turn": None if self.speed else self.turn,
            "bonus_pending": [p for p in range(self.game.num_players) if self.pending >> p & 1],
            "last_placed": list(self.last_placed),
            "out_of_play": self.out_of_play.bit_count(),
        }

    def _full(self) -> dict[str, Any]:
        return {
            **self._view(None),
            "out_of_play_stones": [stone_text(s) for s in stones_of(self.out_of_play)],
        }

    def _render(self, player: int | None) -> str:
        from .render import render

        return render(self, player)

    def hand_size(self, player: int) -> int:
        return int(self.hands[player].bit_count())

    def bonus_pending(self) -> list[int]:
        """Players who owe a discard-or-keep decision after a bonus."""
        return [p for p in range(self.game.num_players) if self.pending >> p & 1]

    def top_texts(self, *cells: str) -> tuple[str, ...]:
        """The top halves showing at the named cells."""
        from .components import parse_cell

        return tuple(half_text(self.top_half[parse_cell(c) or 0]) for c in cells)


def _mask(stones: list[int]) -> int:
    mask = 0
    for s in stones:
        mask |= 1 << s
    return mask


def _fix_base_colours(base: list[int], rest: list[int], flips: list[int], rng: Rng) -> None:
    """The set-up colour check: every colour on at least 2 different base stones (ruling)."""
    while True:
        counts = [sum(1 for s in base if STONE_COLOURS[s] >> c & 1) for c in range(NUM_COLOURS)]
        missing = next((c for c in range(NUM_COLOURS) if counts[c] < 2), None)
        if missing is None:
            return
        removable = [
            i
            for i, s in enumerate(base)
            if not STONE_COLOURS[s] >> missing & 1
            and all(
                counts[c] - (STONE_COLOURS[s] >> c & 1) >= 2
                for c in range(NUM_COLOURS)
                if c != missing and counts[c] >= 2
            )
        ]
        supply = [j for j, s in enumerate(rest) if STONE_COLOURS[s] >> missing & 1]
        i, j = rng.choice(removable), rng.choice(supply)
        base[i], rest[j] = rest[j], base[i]
        flips[i] = rng.randrange(2)


__all__ = ["AztackState", "EndReason", "stones_of"]
