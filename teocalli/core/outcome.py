"""Typed endings: scores as the game counts them, a full ranking, winners and why it ended."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranks (0 = first) where a larger key is better and equal keys share a place."""
    order = sorted(range(len(keys)), key=lambda p: keys[p], reverse=True)
    ranks = [0] * len(keys)
    for pos, p in enumerate(order):
        if pos and keys[p] == keys[order[pos - 1]]:
            ranks[p] = ranks[order[pos - 1]]
        else:
            ranks[p] = pos
    return tuple(ranks)


class Part(NamedTuple):
    """One labelled line of a player's score, in the game's units (JSON `[label, points]`)."""

    label: str
    points: float


TIE_BREAK = "tie-break"
"""Labels that start with this carry 0 points and say what ordered players beyond their scores
(Aztack: who placed last); the value that decided is in the label itself."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    `scores` are in the game's own units (stones left, points); `ranks` are authoritative
    (0 = first, ties share the better place); `lower_is_better` says whether a smaller score is the
    better one (stones or points to get rid of), for display: ranks already account for it.

    `won` says per player whether they won; it defaults to `rank == 0`. A game sets it otherwise
    only where winning is not a matter of ranks: a solo game ranks its one player 0 of 1 and says
    in `won` whether the solo goal was met (Shifting Stones solo: all 16 cards scored), so a solo
    loss has no winner. `winners` are the players who won.

    `breakdown` explains every score: per player, labelled `Part`s whose points add up exactly to
    that player's score (labels are short, stable English phrases: "card points", "pink penalty",
    "round 2"). Parts labelled `tie-break: ...` carry 0 points and say what decided between equal
    (or, in Aztack's Speed Stack, any) scores. Left out, it defaults to one part "score" per
    player, so an Outcome built without it still obeys the sum rule; every built-in game fills it.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: enum.Enum
    breakdown: tuple[tuple[Part, ...], ...] = ()
    lower_is_better: bool = False
    won: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        if not self.breakdown:
            object.__setattr__(self, "breakdown", tuple((Part("score", s),) for s in self.scores))
        if not self.won:
            object.__setattr__(self, "won", tuple(r == 0 for r in self.ranks))
        if not len(self.scores) == len(self.ranks) == len(self.breakdown) == len(self.won):
            raise ValueError("an outcome needs a score, rank, breakdown and won flag per player")

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, w in enumerate(self.won) if w)

    def returns(self) -> tuple[float, ...]:
        """Per-player reward in [-1, 1] from ranks: first 1, last -1, tied players share the mean.

        A two-player draw gives 0 to both, so zero-sum searches and RL see a draw as a draw. A solo
        game gives 1 for a win and -1 for a loss (`won`).
        """
        n = len(self.ranks)
        if n == 1:
            return (1.0 if self.won[0] else -1.0,)
        out = []
        for r in self.ranks:
            tied = sum(1 for x in self.ranks if x == r)
            positions = range(r, r + tied)
            out.append(sum(1.0 - 2.0 * pos / (n - 1) for pos in positions) / tied)
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "won": list(self.won),
            "reason": self.reason.value,
            "lower_is_better": self.lower_is_better,
            "breakdown": [[[p.label, p.points] for p in parts] for parts in self.breakdown],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], reasons: type[enum.Enum]) -> Outcome:
        """Read back `to_json` (the game's end-reason enum turns the reason's value back)."""
        return cls(
            scores=tuple(float(s) for s in data["scores"]),
            ranks=tuple(int(r) for r in data["ranks"]),
            reason=reasons(data["reason"]),
            breakdown=tuple(
                tuple(Part(str(label), float(points)) for label, points in parts)
                for parts in data.get("breakdown", ())
            ),
            lower_is_better=bool(data.get("lower_is_better", False)),
            won=tuple(bool(w) for w in data.get("won", ())),
        )
