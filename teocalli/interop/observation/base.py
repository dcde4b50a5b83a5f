"""Fixed-shape float32 observations built from `State.view(player)` and nothing else.

Why views only: a view is, by the protocol's contract, everything the player may know and nothing
more, so an encoder that reads only the view can never leak a hand, a deck order or a pending
choice, whatever it does. Each game's encoder declares its layout as named fields (a slice of the
flat vector, its bounds and what it means); `Encoder.describe()` prints the concrete table for a
game's options, and every module's docstring gives it symbolically.

Every layout starts with the same header (n = number of players):

| field | size | meaning |
| --- | --- | --- |
| seat | n | one-hot: the observing player |
| to_move | n | 1 for each player who may act now |
| decision | 3 | one-hot: turn, simultaneous, race (all 0 at the end) |
| terminal | 1 | 1 once the game is over |
| progress | 1 | steps taken / the game's maximum length |
| result | n | at the end, each player's return in [-1, 1] (from the ranks); 0 before |
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from teocalli.core import Game

Array = npt.NDArray[np.float32]

_DECISIONS = ("turn", "simultaneous", "race")


@dataclass(frozen=True)
class Field:
    """One named slice of the flat observation: `shape` (row-major) and bounds."""

    name: str
    start: int
    shape: tuple[int, ...]
    low: float
    high: float
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        return self.start + self.size

    def of(self, out: Array) -> Array:
        """The field's part of `out`, reshaped (a view: writing to it writes to `out`)."""
        return out[self.start : self.stop].reshape(self.shape)


class Layout:
    """The fields of an observation vector in order; sizes are fixed once built."""

    def __init__(self) -> None:
        self.fields: dict[str, Field] = {}
        self.size = 0

    def add(
        self, name: str, shape: int | tuple[int, ...], doc: str, low: float = 0.0, high: float = 1.0
    ) -> Field:
        if name in self.fields:
            raise ValueError(f"the layout already has a field {name!r}")
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        field = Field(name, self.size, dims, low, high, doc)
        self.fields[name] = field
        self.size += field.size
        return field

    def bounds(self) -> tuple[Array, Array]:
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for f in self.fields.values():
            low[f.start : f.stop] = f.low
            high[f.start : f.stop] = f.high
        return low, high

    def describe(self) -> str:
        """A Markdown table of the layout: slice, shape, bounds, meaning."""
        rows = ["| slice | field | shape | bounds | meaning |", "| --- | --- | --- | --- | --- |"]
        for f in self.fields.values():
            shape = " x ".join(str(d) for d in f.shape)
            rows.append(
                f"| {f.start}:{f.stop} | {f.name} | {shape} | [{f.low:g}, {f.high:g}] | {f.doc} |"
            )
        return "\n".join(rows)


def scaled(value: float, scale: float) -> float:
    """`value / scale` clipped to [0, 1]: counts keep their meaning and stay in bounds."""
    return min(max(value / scale, 0.0), 1.0)


class Encoder(ABC):
    """Turns a view of one game (options fixed) into a float32 vector of a fixed shape."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = n = game.num_players
        self.layout = layout = Layout()
        self.f_seat = layout.add("seat", n, "one-hot: the observing player")
        self.f_to_move = layout.add("to_move", n, "1 for each player who may act now")
        self.f_decision = layout.add("decision", 3, "one-hot: turn, simultaneous, race")
        self.f_terminal = layout.add("terminal", 1, "1 once the game is over")
        self.f_progress = layout.add("progress", 1, "steps taken / the game's maximum length")
        self.f_result = layout.add(
            "result", n, "at the end, each player's return from the ranks; 0 before", low=-1.0
        )
        self._build(layout)
        self.low, self.high = layout.bounds()

    @property
    def shape(self) -> tuple[int]:
        return (self.layout.size,)

    @abstractmethod
    def _build(self, layout: Layout) -> None:
        """Add the game's fields (sizes may depend only on the game's options)."""

    @abstractmethod
    def _encode(self, state: Mapping[str, Any], player: int, out: Array) -> None:
        """Write the game part of `player`'s view (`view["state"]`) into `out` (zeros on entry)."""

    def encode(self, view: Mapping[str, Any]) -> Array:
        """The observation of one view; the view must be a player's, not a spectator's."""
        player = view["player"]
        if player is None:
            raise ValueError("observations are per player: pass view(player), not view(None)")
        out = np.zeros(self.layout.size, np.float32)
        out[self.f_seat.start + player] = 1.0
        for p in view["to_move"]:
            out[self.f_to_move.start + p] = 1.0
        if view["decision"] is not None:
            out[self.f_decision.start + _DECISIONS.index(view["decision"])] = 1.0
        out[self.f_terminal.start] = float(view["terminal"])
        out[self.f_progress.start] = scaled(view["step"], self.game.max_length)
        if view["outcome"] is not None:
            outcome = view["outcome"]
            self.f_result.of(out)[:] = returns_from_ranks(outcome["ranks"], outcome.get("won"))
        self._encode(view["state"], player, out)
        np.clip(out, self.low, self.high, out=out)
        return out

    def describe(self) -> str:
        return self.layout.describe()


def returns_from_ranks(ranks: list[int], won: list[bool] | None = None) -> list[float]:
    """The core's rank-to-reward rule (Outcome.returns), from the ranks a view shows; a solo
    game's reward follows whether the player won (`won`), its only rank being 0."""
    n = len(ranks)
    if n == 1:
        return [1.0 if (won[0] if won is not None else ranks[0] == 0) else -1.0]
    out = []
    for r in ranks:
        tied = sum(1 for x in ranks if x == r)
        out.append(sum(1.0 - 2.0 * pos / (n - 1) for pos in range(r, r + tied)) / tied)
    return out


def one_hot(field: Field, out: Array, index: int | None, row: int | None = None) -> None:
    """Set one cell of a field (of a row of a 2-D field); None sets nothing."""
    if index is None:
        return
    if row is None:
        out[field.start + index] = 1.0
    else:
        out[field.start + row * field.shape[-1] + index] = 1.0
