"""A position's candidate list: the free wood candidates and the legal piled ones merged in
pose-key order, each pose once, with the placement of each made only when it is read.

A fresh position's `legal_actions` lists some 60 candidates, and a game places one of them. So
the list is one compiled merge of the wood's free mask with the piled candidates' sorted keys
(`merged`), then one dict lookup per pose (in C, `candidates.place`); a candidate's placement
is looked up (the wood's, made once per process) or made (a piled one, by its source) only when
asked for, then kept. docs/games/stack-back.md, "The candidates' Python".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numba
import numpy as np
import numpy.typing as npt

from .actions import Place
from .candidates import Source, have_bits, place, wood_keys, wood_lattice, wood_of_colours
from .geometry import Mask
from .rules import Verdict

Ints = npt.NDArray[np.int64]
Listed = tuple[tuple[Place, ...], Callable[[int], Verdict]]
"""The candidates in order and the placement of the k-th."""


@numba.njit(cache=True)
def merged(free: Mask, held: Mask, wood: Ints, piled: Ints) -> tuple[Ints, Ints]:
    """The keys of the wood candidates free and `held` (`wood`: their keys, ascending) and of
    `piled` (any order), ascending, each once (a wood candidate before a piled one of the same
    key, else the first listed: a stable sort's first), with where each comes from (below
    len(wood): the wood candidate; else len(wood) + its position in `piled`)."""
    nw, npl = len(wood), len(piled)
    by = np.argsort(piled, kind="mergesort")
    keys = np.empty(nw + npl, dtype=np.int64)
    origin = np.empty(nw + npl, dtype=np.int64)
    i = j = n = 0
    while True:
        while i < nw and not (free[i] and held[i]):
            i += 1
        if i < nw and (j == npl or wood[i] <= piled[by[j]]):
            key, source = wood[i], i
            i += 1
        elif j < npl:
            key, source = piled[by[j]], nw + by[j]
            j += 1
        else:
            break
        if n == 0 or keys[n - 1] != key:
            keys[n], origin[n] = key, source
            n += 1
    return keys[:n], origin[:n]


def listed(free: Mask, supply: Sequence[int], owner: int, piled: Source) -> Listed:
    """The wood candidates still free in colours `supply` holds, with `owner`'s placements
    (`candidates.wood_lattice`), and the `piled` ones, in pose-key order, each pose once."""
    piled_keys, piled_verdict = piled
    keys, origin = merged(free, wood_of_colours(have_bits(supply)), wood_keys(), piled_keys)
    actions = tuple(map(place, keys.tolist()))
    wood = wood_lattice().verdicts[owner]
    split = len(wood)
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
