"""A position's candidate list: the free wood candidates and the legal piled ones merged in
pose-key order, each pose once, with the placement of each made only when it is read.

A fresh position's `legal_actions` lists some 60 candidates, and a game places one of them. So
the list's order is one compiled merge of the wood's free mask with the piled candidates' keys
(`list_kernels.merged`: for a fresh position, within the call that judges the piles), the poses
one numpy indexing (`candidates.places`), and a candidate's placement is looked up (the wood's,
made once per process) or made (a piled one, by its source) only when asked for, then kept.
docs/games/stack-back.md, "The candidates' Python".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from .actions import Place
from .candidates import Source, places, wood_lattice
from .rules import Verdict

Ints = npt.NDArray[np.int64]
Listed = tuple[tuple[Place, ...], Callable[[int], Verdict]]
"""The candidates in order and the placement of the k-th."""


def listed(order: Ints, piled: Source, owner: int) -> Listed:
    """The candidates in `order` (`candidates.order_of`: keys and origins): the wood's with
    `owner`'s placements (`candidates.wood_lattice`), the others `piled`'s."""
    keys, origin = order
    actions = tuple(places(keys))
    wood = wood_lattice().verdicts[owner]
    split = len(wood)
    piled_verdict = piled[1]
    made: dict[int, Verdict] = {}

    def verdict(k: int) -> Verdict:
        """The placement of actions[k], kept once made (a listing is never changed: the same
        verdict each time)."""
        known = made.get(k)
        if known is None:
            at = int(origin[k])
            known = made[k] = wood[at] if at < split else piled_verdict(at - split)
        return known

    return actions, verdict


def found(poses: Sequence[tuple[Place, Verdict]], key: Callable[[Place], int]) -> Listed:
    """The search's poses (search.find: a few, some off the lattice) in the order of `key`
    (stable), each pose once (its first placement)."""
    first: dict[Place, Verdict] = {}
    for pose, made in sorted(poses, key=lambda found: key(found[0])):
        first.setdefault(pose, made)
    verdicts = tuple(first.values())

    def verdict(k: int) -> Verdict:
        return verdicts[k]

    return tuple(first), verdict
