"""Fixed-shape float32 observations: what `State.view(player)` shows, and nothing else.

Why views: a view is, by the protocol's contract, everything the player may know and nothing
more, so an encoder that reads only the view can never leak a hand, a deck order or a pending
choice, whatever it does. `Encoder.encode(view)` is that reference encoding. Each game's encoder
declares its layout as named fields (a slice of the flat vector, its bounds and what it means);
`Encoder.describe()` prints the concrete table for a game's options, and every module's docstring
gives it symbolically.

Speed: building a view (a JSON-ready dict) costs more than an engine step, so the adapters call
`Encoder.observe(state, player)` instead, which a game's encoder may implement from the engine's
own fields (`_observe`): it writes into a buffer kept per observing player (one for all when
only the seat depends on the observer: `shared_buffer`) and rewrites only the fields whose
engine values differ from those it last wrote (a value diff, so it is right for any state, not
only the next one of the same game), single values through a memoryview of the buffer
(`FloatView`: a quarter of the cost of a NumPy item assignment). An encoder may also bring the
buffer up to date from the steps applied to the same state object since it last wrote it (a
replay of `state.history`: Stakz, Shifting Stones), trusting, as `State.legal_ids` does, that a
state object changes only through `apply`. It must equal
`encode(state.view(player))` exactly, which tests/interop/test_observation.py checks on many
random games of every game and variant, so the no-leak guarantee of views carries over. Masks
come from the engine's own legal ids (`State.legal_ids`: each game's move generator yields
dense ids, and the objects of `legal_actions` are built from them), listed once per step and
shared with `apply(int)`, marked in a bytearray handed out as an int8 array.
An encoder's buffers make it stateful: give each thread (each env) its own encoder.

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

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from teocalli.core import Decision, Game, State

Array = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
FloatView = Any
"""A memoryview of an observation buffer (format "f"): its items are Python floats, which
typeshed's `memoryview` (items typed int) cannot express."""
Memo = dict[str, Any]
"""Per observing player: the engine values an incremental encoder last wrote, by name."""

ZEROS = np.zeros(1024, np.float32).data
"""Zeros to clear a short run of an observation through its memoryview: `mv[a:b] = ZEROS[:b-a]`
(for runs up to 1024 long)."""

_DECISIONS = ("turn", "simultaneous", "race")
_MOVERS, _DECISION, _SEAT = "header movers", "header decision", "header seat"
"""Memo keys: the movers, the decision and the seat the header was last written for (movers
None: the header must be rewritten, as after the end's)."""
_WRITTEN = "written from"
"""Memo key of a shared buffer: the state object and its steps taken that `_observe` last
wrote it from (the next observer of the same position needs only its seat)."""
_TURN, _SIMULTANEOUS = Decision(_DECISIONS[0]), Decision(_DECISIONS[1])


@dataclass(frozen=True)
class Field:
    """One named slice of the flat observation: `shape` (row-major) and bounds."""

    name: str
    start: int
    shape: tuple[int, ...]
    low: float
    high: float
    doc: str

    @cached_property
    def size(self) -> int:
        return math.prod(self.shape)

    @cached_property
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
    x = value / scale
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


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
        self._header_stop = self.f_result.stop
        self._seat, self._terminal = self.f_seat.start, self.f_terminal.start
        self._to_move_start, self._decision_start = self.f_to_move.start, self.f_decision.start
        self._progress = self.f_progress.start
        self._zeros = np.zeros(self.layout.size, np.float32).data
        self._max_length = game.max_length  # a property some games compute on every call
        self._buffers: dict[int, tuple[Array, FloatView, Memo]] = {}
        if self.shared_buffer:  # one entry under every player's key
            shared = self._buffer(0)
            self._buffers.update(dict.fromkeys(range(n), shared))
        self._final_key: tuple[State, int] | None = None
        self._final_view: dict[str, Any] = {}
        self._final_obs: Array | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """An encoder pickles as a fresh one for its game: its buffers, memos and memoryviews
        (which cannot be pickled) only cache what `observe` writes, and a fresh encoder writes
        the same observations from any state (the value diff starts from zeros)."""
        return (type(self), (self.game,))

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
        out[self.f_progress.start] = scaled(view["step"], self._max_length)
        if view["outcome"] is not None:
            outcome = view["outcome"]
            self.f_result.of(out)[:] = returns_from_ranks(outcome["ranks"], outcome.get("won"))
        self._encode(view["state"], player, out)
        np.clip(out, self.low, self.high, out=out)
        return out

    def describe(self) -> str:
        return self.layout.describe()

    # --- the fast path: from the engine's fields ----------------------------------------------
    incremental = False
    """True when the game's encoder implements `_observe` (else `observe` encodes the view)."""

    def _observe(self, state: Any, player: int, out: Array, mv: FloatView, memo: Memo) -> None:
        """Write the game part of `player`'s observation at the (non-terminal) `state` into
        `out`, which holds what this encoder last wrote for `player` (zeros at first); `mv` is
        a memoryview of `out` (format "f"): a scalar written through it costs a quarter of a
        NumPy item assignment, which is what a step's few dozen writes are made of. `memo`
        holds the engine values it was written from (same player, any state)."""
        raise NotImplementedError

    def observe(self, state: State, player: int) -> Array:
        """`player`'s observation at `state`: exactly `encode(state.view(player))`, built from the
        engine's fields when the game's encoder can (a new array every call)."""
        if state._is_terminal():
            if not (self.final_from_fields and self.incremental):
                return self._final_observation(state, player)
            out, mv, memo = self._buffer(player)
            mv[: self._header_stop] = self._zeros[: self._header_stop]
            mv[self._seat + player] = 1.0
            mv[self._terminal] = 1.0
            out[self.f_result.start : self.f_result.stop] = state.returns()
            mv[self._progress] = scaled(len(state.history), self._max_length)
            memo[_MOVERS] = None  # the header is the end's now: rewrite it at the next step
            memo[_WRITTEN] = None
            self._observe(state, player, out, mv, memo)
            np.clip(out, self.low, self.high, out=out)
            return out.copy()
        if not self.incremental:
            return self.encode(state.view(player))
        entry = self._buffers.get(player)
        if entry is None:
            entry = self._buffer(player)
        out, mv, memo = entry
        movers = state._to_move()
        decision = state._decision()  # by identity: an Enum's hash is a Python call
        if (
            memo.get(_MOVERS) != movers
            or memo.get(_DECISION) is not decision
            or memo.get(_SEAT) != player
        ):  # the header but the progress changes only with these (the seat: shared buffers)
            mv[: self._header_stop] = self._zeros[: self._header_stop]
            mv[self._seat + player] = 1.0
            start = self._to_move_start
            for p in movers:
                mv[start + p] = 1.0
            index = 0 if decision is _TURN else 1 if decision is _SIMULTANEOUS else 2
            mv[self._decision_start + index] = 1.0
            memo[_MOVERS], memo[_DECISION], memo[_SEAT] = movers, decision, player
        steps = len(state.history)
        mv[self._progress] = steps / self._max_length if steps < self._max_length else 1.0
        if self.shared_buffer:
            # Another observer of the very position just written (the Parallel env observes
            # every agent, `state()` every seat): the game part is the same. As the replays do
            # (and `State.legal_ids`), this trusts that a state object changes only through
            # `apply`, which lengthens its history.
            written = memo.get(_WRITTEN)
            if written is not None and written[0] is state and written[1] == steps:
                return out.copy()
            memo[_WRITTEN] = (state, steps)
        self._observe(state, player, out, mv, memo)
        return out.copy()

    def _buffer(self, player: int) -> tuple[Array, FloatView, Memo]:
        """The buffer kept for `player`: the observation last written, its memoryview, memo."""
        entry = self._buffers.get(player)
        if entry is None:
            buffer = np.zeros(self.layout.size, np.float32)
            entry = self._buffers[player] = (buffer, buffer.data, {})
        return entry

    shared_buffer = False
    """True when nothing `_observe` writes depends on the observer (only the header's seat
    does): one buffer serves every player, so each step's changes are written once, not once
    per observer (an env observing each player in turn)."""

    final_from_fields = False
    """True when `_observe` is right at the end too: the final view (which shows everything)
    encodes to what `_observe` writes from the engine's fields, as in a game whose views hide
    nothing that the encoding reads. The end then costs one incremental step, not a view."""

    final_is_shared = False
    """True when `_encode` of a finished game's view does not depend on the player (the view
    then shows everything to everyone), so the players' final observations differ only in the
    seat: `observe` encodes the final position once. Tested like the rest of `observe`."""

    def _final_observation(self, state: State, player: int) -> Array:
        """`encode(state.view(player))` of a finished game. Every view of it shows everything,
        so the spectator's view is built once per final position, and encoded once when
        `final_is_shared` (the adapters observe every player at the end)."""
        key = (state, len(state.history))
        if self._final_key != key:
            self._final_view = state.view(None)
            self._final_obs = None
            self._final_key = key
        view = {**self._final_view, "player": player}
        if not self.final_is_shared:
            return self.encode(view)
        if self._final_obs is None:
            self._final_obs = self.encode(view)
        obs = self._final_obs.copy()
        obs[self.f_seat.start : self.f_seat.stop] = 0.0
        obs[self.f_seat.start + player] = 1.0
        return obs

    def mark_legal(self, state: Any, player: int, marks: bytearray) -> None:
        """Set 1 in the zeroed `marks` (one byte per dense index) at every index `player` may
        play now (`player` may act, the game is not over): the engine's legal ids of this step
        (`State.legal_ids`, each game's move generator by id, listed once per step and shared
        with the legality check of `apply(int)`), by `mark_ids`."""
        mark_ids(marks, state.legal_ids(player))

    def mask(self, state: State, player: int) -> Mask:
        """1 for each dense action index `player` may play now; all 0 if they may not act."""
        marks = bytearray(self.game.num_distinct_actions)
        if not state._is_terminal() and player in state._to_move():
            self.mark_legal(state, player, marks)
        return np.frombuffer(marks, np.int8)


def mark_ids(marks: bytearray, ids: list[int]) -> None:
    """Set 1 in `marks` at every index of `ids`: a few one by one (a byte write costs a
    fortieth of a NumPy fancy assignment's set-up), a long list in one assignment."""
    if len(ids) > _FEW_IDS:
        np.frombuffer(marks, np.int8)[ids] = 1
        return
    for i in ids:
        marks[i] = 1


def write_bits(mv: FloatView, start: int, bits: int, changed: int) -> None:
    """For each set bit i of `changed`, write bit i of `bits` (1.0 or 0.0) at `start + i`: a
    field of flags (players, stacks) of which a step changes one or two, written one item each
    instead of the whole run."""
    while changed:
        low = changed & -changed
        changed ^= low
        mv[start + low.bit_length() - 1] = 1.0 if bits & low else 0.0


_FEW_IDS = 48
"""Up to this many legal ids, `mark_legal` writes them one by one (measured: below it the loop
is cheaper than NumPy's conversion of the list to an index array)."""


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


_UNSET = object()


def changed(memo: Memo, name: str, value: Any) -> bool:
    """Whether the engine value `value` differs from the one remembered under `name`; if so,
    remember it (a copy of a list: the engine mutates its lists; other values must be
    immutable, or be copies the engine never touches)."""
    if memo.get(name, _UNSET) == value:
        return False
    memo[name] = value.copy() if type(value) is list else value
    return True


def changed_rows(memo: Memo, name: str, rows: list[list[Any]]) -> bool:
    """`changed` for a list of lists (each row copied)."""
    if memo.get(name, _UNSET) == rows:
        return False
    memo[name] = [row.copy() for row in rows]
    return True


def one_hot(field: Field, out: Array, index: int | None, row: int | None = None) -> None:
    """Set one cell of a field (of a row of a 2-D field); None sets nothing."""
    if index is None:
        return
    if row is None:
        out[field.start + index] = 1.0
    else:
        out[field.start + row * field.shape[-1] + index] = 1.0
