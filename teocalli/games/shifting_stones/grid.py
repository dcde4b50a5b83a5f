"""The 3 x 3 stone grid: its notation, validity, and a dense index of all 2,580,480 grids.

Notation: the nine faces in reading order, rows separated by '/', e.g.
`Su Fi Ho / Bo Se Tr / Se Tr Bi` (spaces optional: `SuFiHo/BoSeTr/SeTrBi`).

Index: a grid is (arrangement of tile kinds, faces). The 5040 arrangements of the kinds
(1 Sun/Moon, 2 Fish/Bird, 3 Horse/Boat, 3 Seed/Tree) are ranked in lexicographic order; bit c of
the face mask is 1 when cell c shows its kind's second face (Mo, Bi, Bo, Tr).
index = rank * 512 + mask, so a flip of cell c is `index ^ (1 << c)`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from teocalli.core import Rng

from .components import CELLS, SWAPS, SYMBOLS, TILE_COUNTS

NUM_MASKS = 1 << CELLS


def _arrangements() -> tuple[tuple[int, ...], ...]:
    kinds = [t for t, n in enumerate(TILE_COUNTS) for _ in range(n)]
    return tuple(sorted(set(itertools.permutations(kinds))))


ARRANGEMENTS = _arrangements()
NUM_ARRANGEMENTS = len(ARRANGEMENTS)
NUM_GRIDS = NUM_ARRANGEMENTS * NUM_MASKS
RANK = {a: i for i, a in enumerate(ARRANGEMENTS)}
SWAP_RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        RANK[tuple(a[q] if k == p else a[p] if k == q else a[k] for k in range(CELLS))]
        for p, q in SWAPS
    )
    for a in ARRANGEMENTS
)
"""SWAP_RANK[rank][s]: the arrangement's rank after swap s."""


def grid_index(grid: Sequence[int]) -> int:
    mask = 0
    for c in range(CELLS):
        mask |= (grid[c] & 1) << c
    return RANK[tuple(s >> 1 for s in grid)] * NUM_MASKS + mask


def grid_from_index(index: int) -> list[int]:
    rank, mask = divmod(index, NUM_MASKS)
    kinds = ARRANGEMENTS[rank]
    return [2 * kinds[c] + ((mask >> c) & 1) for c in range(CELLS)]


def swap_index(index: int, s: int) -> int:
    """The index after swap s (the faces travel with their tiles)."""
    rank, mask = divmod(index, NUM_MASKS)
    p, q = SWAPS[s]
    if ((mask >> p) ^ (mask >> q)) & 1:
        mask ^= (1 << p) | (1 << q)
    return SWAP_RANK[rank][s] * NUM_MASKS + mask


@lru_cache(maxsize=1 << 17)
def neighbours(index: int) -> tuple[int, ...]:
    """The 21 grids one action away: the 12 swaps, then the 9 flips (cell order).

    Cached: planning revisits the same few thousand grids around the table's grid many times.
    """
    return tuple(swap_index(index, s) for s in range(len(SWAPS))) + tuple(
        index ^ (1 << c) for c in range(CELLS)
    )


def random_grid(rng: Rng) -> list[int]:
    """Tiles shuffled into the grid, each showing a random face: uniform over all grids."""
    kinds = [t for t, n in enumerate(TILE_COUNTS) for _ in range(n)]
    rng.shuffle(kinds)
    return [2 * k + rng.randrange(2) for k in kinds]


def grid_text(grid: Sequence[int]) -> str:
    return " / ".join(" ".join(SYMBOLS[grid[r * 3 + c]] for c in range(3)) for r in range(3))


def grid_error(grid: Sequence[int]) -> str | None:
    """Why a list of 9 symbols is not a grid of the real tiles; None if it is one."""
    if len(grid) != CELLS:
        return f"a grid has 9 tiles, not {len(grid)}"
    counts = Counter(s >> 1 for s in grid)
    for t, n in enumerate(TILE_COUNTS):
        if counts.get(t, 0) != n:
            faces = f"{SYMBOLS[2 * t]}/{SYMBOLS[2 * t + 1]}"
            return f"the grid must have {n} {faces} tile(s), not {counts.get(t, 0)}"
    return None


def parse_grid(text: str) -> list[int]:
    """Read a grid's notation; ValueError naming what is wrong."""
    rows = [r.replace(" ", "") for r in text.strip().split("/")]
    if len(rows) != 3:
        raise ValueError(f"a grid is 3 rows separated by '/', not {text!r}")
    grid: list[int] = []
    for row in rows:
        tokens = [row[i : i + 2] for i in range(0, len(row), 2)]
        if len(tokens) != 3:
            raise ValueError(f"each grid row has 3 faces like 'Su Fi Ho', not {row!r}")
        for token in tokens:
            name = token[:1].upper() + token[1:].lower()
            if name not in SYMBOLS:
                raise ValueError(f"{token!r} is not a face (faces: {' '.join(SYMBOLS)})")
            grid.append(SYMBOLS.index(name))
    error = grid_error(grid)
    if error:
        raise ValueError(error)
    return grid
