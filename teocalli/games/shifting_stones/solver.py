"""The exact solver: how many shift/flip actions any grid needs before a given card scores.

The 2,580,480 grids (grid.py's index) and their 21 moves (12 swaps, 9 flips, each its own inverse)
form a connected undirected graph, so a breadth-first search outwards from every grid that
matches a card gives, for every grid, the exact number of actions before that card can score.

The search is numpy, level by level: a flip is `index ^ (1 << cell)`; a swap maps the
arrangement rank through `SWAP_RANK` and exchanges the two face bits. One card takes well under a
second. Tables are built lazily on first use and cached on disk under `$TEOCALLI_CACHE` or
`~/.cache/teocalli/`, one file per card (two distances per byte, 1.3 MB), named with a digest of
the card's pattern so a changed edition never reads a stale table.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .components import CARD_IDS, CELLS, PLACEMENTS, SWAPS, pattern_text
from .grid import ARRANGEMENTS, NUM_GRIDS, NUM_MASKS, SWAP_RANK, grid_index, neighbours

UNREACHED = 255
CACHE_FORMAT = 1

_KINDS = np.array(ARRANGEMENTS, dtype=np.uint8)  # (5040, 9) tile kind per cell
_SWAP = np.array(SWAP_RANK, dtype=np.int32)  # (5040, 12)
_MASKS = np.arange(NUM_MASKS, dtype=np.int32)


def cache_dir() -> Path:
    root = os.environ.get("TEOCALLI_CACHE") or str(Path.home() / ".cache" / "teocalli")
    return Path(root) / "shifting_stones"


def match_mask(card: int) -> npt.NDArray[np.bool_]:
    """Per grid index, whether the card matches it (any placement)."""
    out = np.zeros((len(ARRANGEMENTS), NUM_MASKS), dtype=bool)
    for checks in PLACEMENTS[card]:
        kinds_ok = np.ones(len(ARRANGEMENTS), dtype=bool)
        faces_ok = np.ones(NUM_MASKS, dtype=bool)
        for cell, sym in checks:
            kinds_ok &= _KINDS[:, cell] == sym >> 1
            faces_ok &= ((_MASKS >> cell) & 1) == (sym & 1)
        out |= np.outer(kinds_ok, faces_ok)
    return out.ravel()


def bfs(targets: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """Distance of every grid to the nearest target grid (UNREACHED if none)."""
    dist = np.full(NUM_GRIDS, UNREACHED, dtype=np.uint8)
    frontier = np.flatnonzero(targets).astype(np.int32)
    dist[frontier] = 0
    level = 0
    while frontier.size:
        level += 1
        rank = frontier >> 9
        mask = frontier & (NUM_MASKS - 1)
        for cell in range(CELLS):
            nb = frontier ^ (1 << cell)
            nb = nb[dist[nb] == UNREACHED]
            dist[nb] = level
        for s, (p, q) in enumerate(SWAPS):
            differ = ((mask >> p) ^ (mask >> q)) & 1
            nb = _SWAP[rank, s] * NUM_MASKS + (mask ^ (differ * ((1 << p) | (1 << q))))
            nb = nb[dist[nb] == UNREACHED]
            dist[nb] = level
        frontier = np.flatnonzero(dist == level).astype(np.int32)
    return dist


def _pack(dist: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    if int(dist.max()) > 15:
        raise ValueError("a distance above 15 does not fit the 4-bit table format")
    return (dist[0::2] | (dist[1::2] << 4)).astype(np.uint8)


def _unpack(packed: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    out = np.empty(packed.size * 2, dtype=np.uint8)
    out[0::2] = packed & 15
    out[1::2] = packed >> 4
    return out


def _path(card: int) -> Path:
    digest = hashlib.sha1(pattern_text(card).encode()).hexdigest()[:10]
    return cache_dir() / f"v{CACHE_FORMAT}-card{card:02d}-{digest}.npy"


class Solver:
    """Per-card distance tables, loaded from the disk cache or built on first use.

    Lookups use a bytes copy of the packed table (fast scalar indexing from Python);
    `build_seconds` records how long each table built in this process took.
    """

    def __init__(self) -> None:
        self._packed: dict[int, bytes] = {}
        self.build_seconds: dict[int, float] = {}

    def _load(self, card: int) -> bytes:
        table = self._packed.get(card)
        if table is None:
            path = _path(card)
            if path.exists():
                packed = np.load(path)
            else:
                start = time.perf_counter()
                packed = _pack(bfs(match_mask(card)))
                self.build_seconds[card] = time.perf_counter() - start
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                with open(tmp, "wb") as f:
                    np.save(f, packed)
                os.replace(tmp, path)  # atomic: concurrent builders never see half a file
            table = packed.tobytes()
            self._packed[card] = table
        return table

    def ensure(self, cards: Iterable[int] = CARD_IDS) -> None:
        for card in cards:
            self._load(card)

    def distances(self, card: int) -> npt.NDArray[np.uint8]:
        """The whole table: distance per grid index."""
        return _unpack(np.frombuffer(self._load(card), dtype=np.uint8))

    def distance(self, card: int, grid: Sequence[int]) -> int:
        return self.distance_at(card, grid_index(grid))

    def table(self, card: int) -> bytes:
        """The packed table: two 4-bit distances per byte, the even index in the low half."""
        return self._load(card)

    def distance_at(self, card: int, index: int) -> int:
        byte = self._load(card)[index >> 1]
        return (byte >> 4) if index & 1 else (byte & 15)

    def plan(self, card: int, grid: Sequence[int]) -> list[tuple[str, int, int]]:
        """One shortest sequence of moves after which the card matches: ('shift', p, q) or
        ('flip', cell, cell) with cells 0-8."""
        index = grid_index(grid)
        table = self._load(card)
        moves: list[tuple[str, int, int]] = []
        d = self.distance_at(card, index)
        while d:
            for m, nb in enumerate(neighbours(index)):
                byte = table[nb >> 1]
                if ((byte >> 4) if nb & 1 else (byte & 15)) == d - 1:
                    if m < len(SWAPS):
                        moves.append(("shift", *SWAPS[m]))
                    else:
                        moves.append(("flip", m - len(SWAPS), m - len(SWAPS)))
                    index, d = nb, d - 1
                    break
            else:  # pragma: no cover - a BFS table always has a neighbour one closer
                raise AssertionError("distance table is inconsistent")
        return moves


SOLVER = Solver()
"""The process-wide solver: tables are immutable derived data, shared like component tables."""
