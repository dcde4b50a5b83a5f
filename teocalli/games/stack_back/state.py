"""The Stack Back position and its turn rules (docs/games/stack-back.md).

A position is the placed sticks in order (immutable records shared between clones), the loads on
each (balance.py), the colours each already carries (bit sets), the footprints as arrays (a new
Layout per placement), the free wood candidates (a new mask per placement), the supplies and the
turn: whose it is, how many sticks they placed in it, each player's level floor (the level rule),
and how many turns in a row placed nothing (two end the game).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from teocalli.core import Effect, Outcome, State, ranks_from_keys
from teocalli.core.outcome import Part

from . import grow, ids, search
from .actions import PASS, Action, Colour, Pass, Place, malformed, pose
from .balance import Stick
from .candidates import (
    Move,
    Source,
    all_free,
    is_free_wood,
    order_of,
    pile_listing,
    pile_moves,
    source_of,
    still_free,
)
from .candidates import moves as candidate_moves
from .components import SPEC
from .geometry import Mask
from .listing import Placements, found, listed
from .piles import Piles, stamp
from .rules import Footprints, Layout, Verdict, on_wood, piled, settle, touches
from .search import Depths

if TYPE_CHECKING:
    from .game import StackBack


class EndReason(enum.Enum):
    ALL_PLACED = "a player placed all their sticks"
    BLOCKED = "two turns in a row placed no stick"


class Cache(NamedTuple):
    """The candidates legal for `player` at history length `step`, with the placement each makes
    (`verdict(k)` that of `actions[k]`, looked up or made when read: listing.py; none for a
    lone `pass`). A named tuple: made at every fresh query, it costs a fifth of a frozen
    dataclass."""

    step: int
    player: int
    actions: tuple[Action, ...]
    verdict: Placements | None
    keys: npt.NDArray[np.int64] | None
    """The candidates' pose keys (`actions.lattice_index`, in the list's order) when listed from
    the lattices; None when the search found them (or for a lone `pass`)."""

    def verdict_of(self, action: Action) -> Verdict | None:
        """The placement a listed candidate makes (None: not listed). The action played is
        almost always one of the very objects listed, found by identity; otherwise by value
        (hashing a Place is a Python call: the dict is made only then)."""
        if self.verdict is None:  # a lone pass
            return None
        for k, place in enumerate(self.actions):
            if place is action:
                return self.verdict(k)
        return self.by_place().get(action) if isinstance(action, Place) else None

    def by_place(self) -> dict[Place, Verdict]:
        """Each candidate with its placement (made anew at each call: states share a Cache)."""
        if self.verdict is None:
            return {}
        places = [a for a in self.actions if isinstance(a, Place)]
        return dict(zip(places, self.verdict.every(), strict=True))


class StackBackState(State):
    game: StackBack

    # --- set-up -------------------------------------------------------------------------------
    def _setup(self) -> None:
        options = self.game.options
        self.game_floor: bool = options["level_rule"] == "game"
        self.dexterity: bool = options["dexterity"]
        self.shake: tuple[float, float] = (options["steadiness_0"], options["steadiness_1"])
        self.sticks: list[Stick] = []
        self.force: list[float] = []
        self.moment: list[complex] = []
        self.carries: list[int] = []
        self._layout = Layout.empty()
        self._owner = grow.owner()
        """Who may grow the storage of the per-stick arrays in place (grow.py): this state alone."""
        self._free: Mask = all_free()
        self._folded = 0  # how many sticks _layout and _free account for (folded in lazily)
        self._depths = Depths.empty()
        self._piles = Piles.empty()
        self._piles_due = False  # the next query brings the table up to date (_piled_moves)
        self._stamps: list[int] = []
        """Per stick, the stamp of the last change to its loads or carried colours (piles.py)."""
        self.no_wood = 0
        """Colours (bits) the search found no wood pose for: placing sticks only takes wood away,
        so they stay without one (a cache of search.find, never saved)."""
        self.wood_from: tuple[int, ...] = (0,) * len(SPEC.keys)
        """Per colour, where the search's wood poses may start: those before it were refused
        (wood only goes, so they stay refused; a cache of search.find, never saved)."""
        self.dead_pairs: frozenset[tuple[int, int, int]] = frozenset()
        self._left = search.Left.empty()
        """What the lattice search has ruled out along the game (search.Left: replaced, never
        changed, shared by clones; a cache, never saved)."""
        """(support, support, colour) the search found without a pose once the other sticks
        are taken away: sticks only come, so they stay so (a cache of search.find, replaced,
        never changed, never saved)."""
        self.supply = [list(SPEC.per_player) for _ in range(2)]
        self.turn = self.rng.randrange(2)  # the first player is drawn by lot
        self.placed_this_turn = 0
        self.floor = [0, 0]
        self.idle = 0
        self.piled_plays = [0, 0]
        self.passes = [0, 0]
        self.fumbles = [0, 0]
        self._cache: Cache | None = None
        self._id_table: ids.Table | None = None  # the action ids' mask and snaps (ids.py)
        self._pending: tuple[Place, int, int, Verdict] | None = None

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, StackBackState)
        other.sticks = self.sticks.copy()
        other.force = self.force.copy()
        other.moment = self.moment.copy()
        other.carries = self.carries.copy()
        other._stamps = self._stamps.copy()
        other.supply = [s.copy() for s in self.supply]
        other.floor = self.floor.copy()
        other.piled_plays = self.piled_plays.copy()
        other.passes = self.passes.copy()
        other.fumbles = self.fumbles.copy()
        other._owner = grow.owner()  # grows its arrays in storage of its own (grow.py)
        # _layout, _free, _piles, _cache and _pending are replaced, never changed: shared safely.

    @property
    def layout(self) -> Layout:
        """The footprints as arrays (folded in lazily: a leaf of a search never pays for it)."""
        self._fold()
        return self._layout

    @property
    def free(self) -> Mask:
        """Which wood candidates touch no stick."""
        self._fold()
        return self._free

    @property
    def depths(self) -> Depths:
        """How deep each point of a 1 mm raster lies inside the sticks (for the search)."""
        self._depths = self._depths.with_sticks(self.sticks, self.layout)
        return self._depths

    def _fold(self) -> None:
        while self._folded < len(self.sticks):
            stick = self.sticks[self._folded]
            self._layout = self._layout.with_stick(stick, self._owner)
            self._free = still_free(self._free, stick)
            self._folded += 1

    # --- queries ------------------------------------------------------------------------------
    def _to_move(self) -> tuple[int, ...]:
        return (self.turn,)

    def _is_terminal(self) -> bool:
        first, second = self.supply
        return self.idle >= 2 or not (any(first) and any(second))

    def left(self, player: int) -> int:
        return sum(self.supply[player])

    def _legal_actions(self, player: int) -> list[Action]:
        return list(self._candidates(player).actions)

    def _candidates(self, player: int) -> Cache:
        """The legal candidates and the placement each makes (kept until the state changes)."""
        key = len(self.history)
        cache = self._cache
        if cache is not None and cache.step == key and cache.player == player:
            return cache
        order, piled = self._piled(player)
        actions, verdict = listed(order, piled, player)
        keys: npt.NDArray[np.int64] | None = order[0]
        if not actions:  # nothing on the candidate lists: the search over every pose decides
            actions, verdict = found(search.find(self, player), search.order_key)
            keys = None
        self._cache = Cache(key, player, actions or (PASS,), verdict if actions else None, keys)
        return self._cache

    def candidate_keys(self, player: int) -> npt.NDArray[np.int64] | None:
        """The pose keys of `legal_actions(player)`'s candidates, in order (read-only: the
        listing's own array), or None when they are not from the lattices (the search found
        them, or a lone `pass`): the action ids read the candidates' bins from them
        (`ids._candidate_bins`) rather than from some 150 `Place` objects."""
        return self._candidates(player).keys

    def piles_from_nothing(self, player: int) -> list[Move]:
        """The piled candidates judged from the sticks alone, with no kept table: what the kept
        table (piles.py) must always equal."""
        return pile_moves(
            self.sticks,
            self.layout,
            carries=self.carries,
            force=self.force,
            moment=self.moment,
            supply=self.supply[player],
            floor=self.floor[player],
            owner=player,
        )

    def _piled(self, player: int) -> tuple[npt.NDArray[np.int64], Source]:
        """The piled candidates, and the candidate list's order with the free wood candidates
        (`candidates.order_of`): from the table kept along the game (piles.py), brought up to
        date; a state whose table lags more than one stick behind (a replay, a position) judges
        its first query from nothing (cheaper than the whole table; the order in the same
        compiled call) and builds the table at its next one."""
        free, supply = self.free, self.supply[player]
        if len(self.sticks) - self._piles.count > 1 and not self._piles_due:
            self._piles_due = True
            return pile_listing(
                self.sticks,
                self.layout,
                carries=self.carries,
                force=self.force,
                moment=self.moment,
                supply=supply,
                floor=self.floor[player],
                owner=player,
                free=free,
            )
        piles = self._piles.with_sticks(self.sticks, self.layout, self._owner)
        moves, self._piles = piles.moves(
            self.sticks,
            self.layout,
            self.carries,
            self.force,
            self.moment,
            self._stamps,
            supply,
            self.floor[player],
            player,
        )
        piled = source_of(moves)
        return order_of(free, supply, piled[0]), piled

    def _piled_moves(self, player: int) -> list[Move]:
        """`_piled`'s candidates as moves (the tests compare them with `piles_from_nothing`)."""
        return candidate_moves(self._piled(player)[1])

    def _legal_action_ints(self, player: int) -> list[int]:
        return ids.legal_ids(self, player)

    def action_from_int(self, index: int, player: int | None = None) -> Action:
        """An action id played here: `pass`, or a pose of its bin (ids.py); IllegalAction for a
        bin with no legal pose now. Once the game is over, or for a player not to move, only its
        name (the bin's centre)."""
        ids.check(index)
        if player is None:
            player = self.turn
        if self._is_terminal() or player != self.turn:
            return ids.from_int(index)
        return ids.snap(self, player, index)

    def placements(self, player: int) -> dict[Place, Verdict]:
        """Each legal candidate of `player` now with the placement it makes (search reads levels
        and supports here instead of judging each candidate again)."""
        return self._candidates(player).by_place()

    def judge(self, place: Place, player: int) -> Verdict | str:
        """The placement `place` would make for `player` now, or the rule that refuses it."""
        if self.supply[player][place.colour] <= 0:
            return f"you have no {SPEC.names[place.colour]} sticks left"
        touched = touches(self.layout, Footprints.of([place]))[0]
        stick: Stick | str
        if not touched:
            stick = on_wood(place, player)
        else:
            stick = piled(place, player, touched, self.sticks, self.carries)
            if not isinstance(stick, str) and stick.level < self.floor[player]:
                when = "in this game" if self.game_floor else "this turn"
                return (
                    f"you have piled at level {self.floor[player]} {when} and may not come back "
                    f"down to level {stick.level}"
                )
        if isinstance(stick, str):
            return stick
        return settle(stick, self.sticks, self.force, self.moment)

    def is_free_wood(self, place: Place) -> bool:
        """Whether `place` is a wood candidate still free (so a play on the wood, level 0)."""
        return is_free_wood(self.free, place)

    _malformed = staticmethod(malformed)  # one check of an object's fields, in actions.py

    def _illegal_reason(self, action: Action, player: int) -> str | None:
        if isinstance(action, Pass):
            if self._candidates(player).actions == (PASS,):
                return None
            return "you may pass only when no stick can be placed anywhere (see the candidate list)"
        if not isinstance(action, Place):
            return f"{action!r} is not a Stack Back action"
        cache = self._cache
        known = None
        if cache is not None and cache.step == len(self.history) and cache.player == player:
            known = cache.verdict_of(action)
        verdict = known if known is not None else self.judge(action, player)
        if isinstance(verdict, str):
            return verdict
        self._pending = (action, player, len(self.history), verdict)
        return None

    # --- changes ------------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> Effect:
        self._cache = None
        if isinstance(action, Pass):
            if self.placed_this_turn == 0:
                self.passes[player] += 1
            self._end_turn(player)
            return Effect.NONE
        assert isinstance(action, Place)
        pending, self._pending = self._pending, None
        if self.dexterity:
            sigma = self.shake[player]
            shaken = pose(
                action.colour,
                action.x + self.rng.gauss(0.0, sigma),
                action.y + self.rng.gauss(0.0, sigma),
                action.angle + self.rng.gauss(0.0, sigma),
            )
            verdict = self.judge(shaken, player)
            if isinstance(verdict, str):  # the stick slipped: back to the supply, turn over
                self.fumbles[player] += 1
                self._end_turn(player)
                return Effect.DREW
            self._place(verdict, player)
            return Effect.DREW
        if pending is not None and pending[:3] == (action, player, len(self.history)):
            verdict = pending[3]
        else:
            judged = self.judge(action, player)
            assert not isinstance(judged, str), judged
            verdict = judged
        self._place(verdict, player)
        return Effect.NONE

    def _place(self, verdict: Verdict, player: int) -> None:
        """Lay the stick, pass its load down, and go on with the turn (a pile) or end it."""
        self._commit(verdict)
        stick = verdict.stick
        self.supply[player][stick.colour] -= 1
        self.placed_this_turn += 1
        if stick.level > 0:
            self.piled_plays[player] += 1
            self.floor[player] = stick.level
        else:
            self._end_turn(player)

    def _commit(self, verdict: Verdict) -> None:
        stick = verdict.stick
        for i, (d_f, d_m) in verdict.deltas.items():
            self.force[i] += d_f
            self.moment[i] += d_m
        for s in stick.supports:
            self.carries[s] |= 1 << stick.colour
        now = stamp()
        for s in verdict.deltas:
            self._stamps[s] = now
        self._stamps.append(now)
        self.sticks.append(stick)
        self.force.append(stick.weight)
        self.moment.append(0j)
        self.carries.append(0)
        self._cache = None
        self._pending = None

    def _end_turn(self, player: int) -> None:
        self.idle = 0 if self.placed_this_turn else self.idle + 1
        self.placed_this_turn = 0
        if not self.game_floor:
            self.floor[player] = 0
        self.turn = 1 - player

    # --- endings and views --------------------------------------------------------------------
    def _outcome(self) -> Outcome:
        left = [self.left(p) for p in range(2)]
        reason = EndReason.ALL_PLACED if 0 in left else EndReason.BLOCKED
        return Outcome(
            tuple(float(n) for n in left),
            ranks_from_keys([-n for n in left]),
            reason,
            breakdown=tuple((Part("pieces left", float(n)),) for n in left),  # equal counts share
            lower_is_better=True,
        )

    def _view(self, player: int | None) -> dict[str, Any]:
        return {
            "sticks": [
                {
                    "pose": str(s.pose),
                    "owner": s.owner,
                    "level": s.level,
                    "supports": list(s.supports),
                }
                for s in self.sticks
            ],
            "supply": [{SPEC.keys[c]: n for c, n in enumerate(self.supply[p])} for p in range(2)],
            "turn": self.turn,
            "placed_this_turn": self.placed_this_turn,
            "floor": list(self.floor),
            "idle_turns": self.idle,
            "piled_plays": list(self.piled_plays),
            "passes": list(self.passes),
            "fumbles": list(self.fumbles),
        }

    def _render(self, player: int | None) -> str:
        from .render import render

        return render(self, player)

    def _stats(self) -> dict[str, float | list[float]]:
        return {
            "sticks_placed": [float(sum(SPEC.per_player) - self.left(p)) for p in range(2)],
            "highest_level": float(max((s.level for s in self.sticks), default=0)),
            "piled_plays": [float(n) for n in self.piled_plays],
            "passes": [float(n) for n in self.passes],
            "fumbles": [float(n) for n in self.fumbles],
        }

    # --- for the position builder -------------------------------------------------------------
    def lay(self, place: Place, owner: int) -> None:
        """Put a stick at once, checked by every rule but the level rule and the turn (tests)."""
        from teocalli.core import IllegalAction

        floor, self.floor = self.floor, [0, 0]
        self.supply[owner][place.colour] += 1
        verdict = self.judge(place, owner)
        self.supply[owner][place.colour] -= 1
        self.floor = floor
        if isinstance(verdict, str):
            raise IllegalAction(f"position: {place}: {verdict}")
        if self.supply[owner][place.colour] <= 0:
            raise IllegalAction(f"position: {place}: player {owner} has no such stick left")
        self._commit(verdict)
        self.supply[owner][place.colour] -= 1


__all__ = ["Colour", "EndReason", "StackBackState"]
