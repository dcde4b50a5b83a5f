"""The bins of a step's candidates, compiled (ids.py `_candidate_bins`).

A step lists some 150 candidates (up to 800 on bare boards); the action ids need the bins
holding one, each with its first candidate (the bin's snap). Read from the `Place` objects in
Python this cost 43 us a step, in NumPy (divisions, lookups, `np.unique`) 10-15 us: here one
call reads the listing's pose keys (`StackBackState.candidate_keys`).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]


@numba.njit(cache=True)
def key_bins(keys: Ints, parts: Ints) -> Ints:
    """The bin of each pose key ((cell * x cells + x) * y cells + y, `actions.lattice_index`):
    `(by_cell[cell] * x bins + by_x[x]) * y bins + by_y[y]`, `parts` holding x cells, y
    cells, x bins, y bins, then the tables by_x, by_y and by_cell (`ids._key_parts`: one
    array, as each argument costs the call a conversion)."""
    nx, ny, xbins, ybins = parts[0], parts[1], parts[2], parts[3]
    by_x, by_y, by_cell = parts[4 : 4 + nx], parts[4 + nx : 4 + nx + ny], parts[4 + nx + ny :]
    out = np.empty(len(keys), dtype=np.int64)
    for k in range(len(keys)):
        rest, y = divmod(keys[k], ny)
        cell, x = divmod(rest, nx)
        out[k] = (by_cell[cell] * xbins + by_x[x]) * ybins + by_y[y]
    return out


@numba.njit(cache=True)
def firsts(bins: Ints) -> Ints:
    """The distinct bins, ascending, each with where it first stands in `bins`: rows (bin,
    position), one array (each array a call returns costs a conversion). One sort of (bin,
    position) pairs packed in an integer each (measured: a stable argsort cost twice the time,
    a slot per bin as much, its reads mostly cache misses)."""
    packed = np.sort((bins << 32) | np.arange(len(bins)))
    out = np.empty((2, len(bins)), dtype=np.int64)
    n = 0
    for v in packed:
        b = v >> 32
        if n == 0 or out[0, n - 1] != b:
            out[0, n], out[1, n] = b, v & 0xFFFFFFFF
            n += 1
    return out[:, :n]


@numba.njit(cache=True)
def key_firsts(keys: Ints, parts: Ints) -> Ints:
    """`firsts` of `key_bins`, in one call."""
    return firsts(key_bins(keys, parts))
