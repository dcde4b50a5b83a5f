"""Typed endings: scores as the game counts them, a full ranking, winners and why it ended."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


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


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    `scores` are in the game's own units (stones left, points); `ranks` are authoritative
    (0 = first, ties share the better place); `winners` are the players ranked first.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: enum.Enum

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, r in enumerate(self.ranks) if r == 0)

    def returns(self) -> tuple[float, ...]:
        """Per-player reward in [-1, 1] from ranks: first 1, last -1, tied players share the mean.

        A two-player draw gives 0 to both, so zero-sum searches and RL see a draw as a draw.
        """
        n = len(self.ranks)
        if n == 1:
            return (1.0 if self.ranks[0] == 0 else -1.0,)
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
            "reason": self.reason.value,
        }
