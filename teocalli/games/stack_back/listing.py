"""A position's candidate list: the free wood candidates and the legal piled ones merged in
pose-key order, each pose once, with the placement of each made only when it is read.

A fresh position's `legal_actions` lists some 60 candidates, and a game places one of them. So
the list's order is one compiled merge of the wood's free mask with the piled candidates' keys
(`list_kernels.merged`: for a fresh position, within the call that judges the piles), the poses
one numpy indexing (`candidates.places`), and a candidate's placement is looked up (the wood's,
made once per process) or made (a piled one, by its source) only when asked for.
docs/games/stack-back.md, "The candidates' Python".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .actions import Place
from .candidates import Nth, Source, places, wood_lattice
from .rules import Verdict

Ints = npt.NDArray[np.int64]


class Placements(Protocol):
    """The placements of a candidate list: the k-th's, or all of them in order (a bot reads
    every one at each step: one list comprehension, not a call per candidate)."""

    def __call__(self, k: int, /) -> Verdict: ...

    def every(self) -> list[Verdict]: ...


Listed = tuple[tuple[Place, ...], Placements]
"""The candidates in order and their placements."""


def listed(order: Ints, piled: Source, owner: int) -> Listed:
    """The candidates in `order` (`candidates.order_of`: keys and origins): the wood's with
    `owner`'s placements (`candidates.wood_lattice`), the others `piled`'s."""
    keys, origin = order
    return tuple(places(keys)), _Verdicts(origin, wood_lattice().verdicts[owner], piled[1])


class _Verdicts:
    """The placement of the k-th listed candidate: the wood candidate `origin[k]`'s, else the
    piled one's (`piled(origin[k] - len(wood))`). A plain object, never changed: a state's
    cache pickles and deep-copies with it."""

    __slots__ = ("origin", "piled", "wood")

    def __init__(self, origin: Ints, wood: tuple[Verdict, ...], piled: Callable[[int], Verdict]):
        self.origin, self.wood, self.piled = origin, wood, piled

    def __call__(self, k: int) -> Verdict:
        at, split = int(self.origin[k]), len(self.wood)
        return self.wood[at] if at < split else self.piled(at - split)

    def every(self) -> list[Verdict]:
        """Every listed candidate's placement, in order."""
        wood, piled, split = self.wood, self.piled, len(self.wood)
        return [wood[at] if at < split else piled(at - split) for at in self.origin.tolist()]


def found(poses: Sequence[tuple[Place, Verdict]], key: Callable[[Place], int]) -> Listed:
    """The search's poses (search.find: a few, some off the lattice) in the order of `key`
    (stable), each pose once (its first placement)."""
    first: dict[Place, Verdict] = {}
    for pose, made in sorted(poses, key=lambda found: key(found[0])):
        first.setdefault(pose, made)
    return tuple(first), Nth(tuple(first.values()))
