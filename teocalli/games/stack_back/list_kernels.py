"""The candidate list's compiled merge (listing.py): the free wood candidates with the legal
piled ones, in pose-key order, each pose once. `cand_kernels.pile_candidates` calls it at the
end of judging a fresh position's piles (one compiled call for the whole list: a second call
from Python cost about 10 us a position, its dispatch and conversions on cold caches), and
listing.py calls it with the kept table's piles."""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]


@numba.njit(cache=True)
def merged(free: Mask, held: Mask, wood: Ints, piled: Ints) -> Ints:
    """The keys of the wood candidates free and `held` (`wood`: their keys, ascending) and of
    `piled` (any order), ascending, each once (a wood candidate before a piled one of the same
    key, else the first listed: a stable sort's first), with where each comes from (below
    len(wood): the wood candidate; else len(wood) + its position in `piled`): rows (key,
    origin), one array (each array a compiled call returns costs a conversion)."""
    nw, npl = len(wood), len(piled)
    by = np.argsort(piled, kind="mergesort")
    out = np.empty((2, nw + npl), dtype=np.int64)
    keys, origin = out[0], out[1]
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
    return out[:, :n]
