"""The exact clairvoyant solo search: winnable, proven not winnable, or unknown within a budget.

State abstraction (exact). At the start of a solo turn the future depends only on
- the grid (its index, grid.py),
- the hand (a set: the engine keeps it sorted),
- the deck (an exact sequence: the clairvoyant knows it),
- the discard pile *as a set*: a reshuffle sorts the pile before shuffling it,
- the generator's state: only reshuffles draw from it after the deal,
- the strikes and whether the last turn was a skip.
The cards scored are the pool minus all of these. A turn never draws until it ends, so a turn
is exactly: a walk of m moves from the grid, a set S of hand cards each matching the grid
somewhere along the walk (scored there), and a set P of m other hand cards paying for the moves
(the order of payments is irrelevant since the pile is a set). Every turn is therefore one of
the outcomes (S, P, end grid) enumerated here, plus the skip; nothing else is reachable.

The enumeration (`agents/heuristics/shifting_stones/walks.py`, shared with the solo bot) walks
level by level in numpy over (grid, cards matched so far) pairs, so every end grid of every walk
length is covered (walks may revisit grids: no shortest-path assumption).

Pruning (each sound, i.e. it never discards a winning line):
- a position proven lost with k strikes is lost with k or more (strikes only hurt), and a
  position lost when a skip is allowed is lost when it is not; positions are memoised so;
- with 3 strikes the next turn must score: if no hand card can match within the moves its
  hand can pay for (exact solver distance <= hand size - 1), and a skip would strike or is not
  allowed, the position is lost;
- a turn that scores every remaining card wins at once (the engine ends the game mid-turn).

The order in which outcomes are tried is a heuristic (more cards scored, no strike, the next hand
close to scoring); it only changes how fast a win is found, never the verdict.

The budget is a number of expanded positions, `nodes`, shared by the beam and the exhaustive
search: past it the search answers UNKNOWN, so every verdict is a function of the position and
the budget alone. `seconds` is an optional extra cap for interactive use; a verdict cut by time
depends on the machine and its load, so tests, simulations and benchmarks never set it.
"""

from __future__ import annotations

import enum
import time
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from teocalli.agents.heuristics.shifting_stones.walks import (
    TABLES,
    Walks,
    scorings,
    turn_actions,
    walks,
)
from teocalli.core import Rng
from teocalli.games.shifting_stones.actions import SKIP, Action
from teocalli.games.shifting_stones.components import HAND_SIZE
from teocalli.games.shifting_stones.grid import grid_index
from teocalli.games.shifting_stones.state import (
    SKIP_DRAW,
    SKIP_UP_TO,
    SOLO_STRIKES,
    EndReason,
    ShiftingStonesState,
)

DEFAULT_NODES = 20_000
"""`solve_position`'s default budget in expanded positions (the exhaustive search expands about
2,000-4,000 a second on one core here, the beam 200-300: each of its positions is a wide turn)."""


class Verdict(enum.Enum):
    WINNABLE = "winnable"
    NOT_WINNABLE = "not winnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Cards:
    """The card part of a turn-start position (see the module docstring)."""

    hand: tuple[int, ...]
    deck: tuple[int, ...]  # top last, as in the engine
    discard: tuple[int, ...]  # sorted: only the set matters
    rng: int
    strikes: int
    last_skip: bool

    @property
    def unscored(self) -> int:
        return len(self.hand) + len(self.deck) + len(self.discard)

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
        return (self.hand, self.deck, self.discard, self.rng)


def draw(
    hand: Sequence[int], deck: Sequence[int], discard: Sequence[int], rng: int, count: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """The engine's `_draw`, on tuples: reshuffle the sorted pile with the generator when the
    deck runs out; a hand stays short when both are empty."""
    h, d, x = list(hand), list(deck), sorted(discard)
    for _ in range(count):
        if not d:
            if not x:
                break
            d, x = x, []
            gen = Rng(rng)
            gen.shuffle(d)
            rng = gen.state
        insort(h, d.pop())
    return tuple(h), tuple(d), tuple(x), rng


@dataclass
class Options:
    skip_strikes: bool = True
    skip_upto6: bool = False


def can_score_next(cards: Cards, grids: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Per grid, whether some hand card is within the moves the rest of the hand can pay for:
    a necessary condition for the coming turn to score."""
    budget = len(cards.hand) - 1
    ok = np.zeros(grids.size, dtype=bool)
    for card in cards.hand:
        ok |= TABLES(card)[grids] <= budget
    return ok


def _closeness(cards: Cards, grids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Heuristic order key (lower first): how far the next hand is from scoring."""
    if not cards.hand:
        return np.zeros(grids.size, dtype=np.int64)
    d = np.stack([TABLES(c)[grids].astype(np.int64) for c in cards.hand])
    d.sort(axis=0)
    return d[0] * 16 + (d[1] if len(cards.hand) > 1 else 0)


@dataclass(frozen=True)
class Step:
    """One turn of a line: skip, or the cards scored, the payers and the walk."""

    skip: bool
    scored: tuple[int, ...] = ()
    payers: tuple[int, ...] = ()
    moves: tuple[int, ...] = ()


_Node = tuple["Cards", int, list["Step"]]


class _Budget(Exception):
    """Raised inside the searches when the node budget (or the optional time cap) is spent."""


@dataclass
class Result:
    verdict: Verdict
    steps: list[Step] | None
    nodes: int
    seconds: float


class Search:
    """The beam and the exhaustive search over turn-start positions, with one budget: `nodes`
    expanded positions, and optionally `seconds` (interactive use only: not deterministic)."""

    def __init__(self, options: Options, nodes: int, seconds: float | None = None) -> None:
        self.options = options
        self.node_limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.nodes = 0
        # (cards key, grid) -> the fewest strikes proven lost, for last_skip False / True
        self.lost: dict[tuple[object, int], list[int]] = {}

    def _expanding(self) -> None:
        """Count one more expanded position, or raise _Budget if the budget is spent."""
        if self.nodes >= self.node_limit:
            raise _Budget
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Budget
        self.nodes += 1

    def _is_lost(self, cards: Cards, grid: int) -> bool:
        entry = self.lost.get((cards.key(), grid))
        if entry is None:
            return False
        # lost when a skip was allowed => lost when it is not
        return cards.strikes >= entry[1] or (cards.last_skip and cards.strikes >= entry[0])

    def _mark_lost(self, cards: Cards, grid: int) -> None:
        k = (cards.key(), grid)
        entry = self.lost.setdefault(k, [SOLO_STRIKES, SOLO_STRIKES])
        slot = 1 if cards.last_skip else 0
        entry[slot] = min(entry[slot], cards.strikes)
        if slot == 0:
            entry[1] = min(entry[1], cards.strikes)

    def _hopeless(self, cards: Cards, grids: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Per grid, whether the position is lost by the 3-strike rule (see the module)."""
        if cards.strikes >= SOLO_STRIKES:
            return np.ones(grids.size, dtype=bool)
        if cards.strikes < SOLO_STRIKES - 1:
            return np.zeros(grids.size, dtype=bool)
        skip_saves = not cards.last_skip and not self.options.skip_strikes
        if skip_saves:
            return np.zeros(grids.size, dtype=bool)
        return ~can_score_next(cards, grids)

    def _end_turn(self, cards: Cards, scored: Sequence[int], payers: Sequence[int]) -> Cards:
        hand = [c for c in cards.hand if c not in scored and c not in payers]
        discard = sorted([*cards.discard, *payers])
        strikes = cards.strikes + (0 if scored else 1)
        h, d, x, r = draw(hand, cards.deck, discard, cards.rng, max(0, HAND_SIZE - len(hand)))
        return Cards(h, d, x, r, strikes, False)

    def _skip(self, cards: Cards) -> Cards:
        count = max(0, SKIP_UP_TO - len(cards.hand)) if self.options.skip_upto6 else SKIP_DRAW
        h, d, x, r = draw(cards.hand, cards.deck, cards.discard, cards.rng, count)
        strikes = cards.strikes + (1 if self.options.skip_strikes else 0)
        return Cards(h, d, x, r, strikes, True)

    def expand(self, cards: Cards, grid: int) -> tuple[list[Step] | None, list[Group], Walks]:
        """Every turn from this position: a winning last turn if there is one, else the groups
        of children (one per scored set and payer set, with all their end grids not pruned)."""
        remaining = cards.unscored
        w = walks(grid, cards.hand, len(cards.hand))
        groups: list[Group] = []
        for sc in scorings(w):
            if len(sc.scored) == remaining:  # scores the last cards: the game ends at once
                moves = tuple(w.path(sc.m, int(sc.where[0])))
                return [Step(False, sc.scored, sc.rest[: sc.m], moves)], [], w
            for payers in combinations(sc.rest, sc.m):
                child = self._end_turn(cards, sc.scored, payers)
                if child.strikes >= SOLO_STRIKES:
                    continue
                keep = ~self._hopeless(child, sc.grids)
                if keep.any():
                    step = Step(False, sc.scored, payers)
                    groups.append(Group(child, sc.grids[keep], sc.where[keep], step, sc.m))
        if not cards.last_skip:
            child = self._skip(cards)
            here = np.array([grid], dtype=np.int64)
            if child.strikes < SOLO_STRIKES and not self._hopeless(child, here).all():
                groups.append(Group(child, here, here * 0, Step(True), 0))
        return None, groups, w

    def solve(self, cards: Cards, grid: int) -> list[Step] | None:
        """A winning line from this turn-start position, or None if there is none (exhaustive
        unless the budget runs out, which raises _Budget)."""
        if cards.strikes >= SOLO_STRIKES or self._is_lost(cards, grid):
            return None
        self._expanding()
        win, groups, w = self.expand(cards, grid)
        if win is not None:
            return win
        groups.sort(key=lambda g: g.rank)
        for group in groups:
            order = np.argsort(_closeness(group.child, group.grids), kind="stable")
            for g, pos in zip(
                group.grids[order].tolist(), group.where[order].tolist(), strict=True
            ):
                rest_line = self.solve(group.child, g)
                if rest_line is not None:
                    return [group.step_at(w, pos), *rest_line]
        self._mark_lost(cards, grid)
        return None

    def beam(self, cards: Cards, grid: int, width: int) -> list[Step] | None:
        """A heuristic finder: keep the `width` most promising positions turn after turn. A line
        it returns wins; failing proves nothing."""
        frontier: list[_Node] = [(cards, grid, [])]
        seen: set[tuple[object, int, int, bool]] = set()
        while frontier:
            values: list[npt.NDArray[np.float64]] = []
            owners: list[tuple[_Node, Group, Walks]] = []
            for node in frontier:
                self._expanding()
                win, groups, w = self.expand(node[0], node[1])
                if win is not None:
                    return [*node[2], *win]
                for group in groups:
                    values.append(_value(group.child, group.grids))
                    owners.append((node, group, w))
            if not values:
                return None
            flat = np.concatenate(values)
            which = np.repeat(np.arange(len(values)), [v.size for v in values])
            offset = np.concatenate([[0], np.cumsum([v.size for v in values])[:-1]])
            nxt: list[_Node] = []
            for i in np.argsort(-flat, kind="stable").tolist():
                node, group, w = owners[which[i]]
                k = i - offset[which[i]]
                g = int(group.grids[k])
                key = (group.child.key(), g, group.child.strikes, group.child.last_skip)
                if key in seen:
                    continue
                seen.add(key)
                nxt.append((group.child, g, [*node[2], group.step_at(w, int(group.where[k]))]))
                if len(nxt) >= width:
                    break
            frontier = nxt
        return None


@dataclass
class Group:
    """Children of one turn sharing the scored set and the payers: one per end grid."""

    child: Cards
    grids: npt.NDArray[np.int64]
    where: npt.NDArray[np.int64]  # each grid's position in its walk level
    step: Step
    m: int

    @property
    def rank(self) -> tuple[int, int]:
        return (1 if self.step.skip or not self.step.scored else 0, -len(self.step.scored))

    def step_at(self, w: Walks, pos: int) -> Step:
        if self.step.skip:
            return self.step
        return Step(False, self.step.scored, self.step.payers, tuple(w.path(self.m, pos)))


def _value(cards: Cards, grids: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The beam's heuristic: fewer cards left and strikes, a next hand close to scoring."""
    base = -4.0 * cards.unscored - 5.0 * cards.strikes
    return base - _closeness(cards, grids).astype(np.float64) / 16.0


def step_actions(grid: Sequence[int], step: Step) -> list[Action]:
    """The engine actions of one turn: each scored card as soon as it matches, each move paid
    by the next payer, then `end` (or just `skip`)."""
    if step.skip:
        return [SKIP]
    return turn_actions(grid, step.scored, step.payers, step.moves)


def cards_of(state: ShiftingStonesState) -> Cards:
    if state.acted or state.turn_scored:
        raise ValueError("the exact solo search starts at the beginning of a turn")
    return Cards(
        tuple(state.hands[0]),
        tuple(state.deck),
        tuple(sorted(state.discard)),
        state.rng.state,
        state.strikes,
        state.last_skip[0],
    )


def solve_position(
    state: ShiftingStonesState,
    nodes: int = DEFAULT_NODES,
    *,
    beam_width: int = 64,
    seconds: float | None = None,
) -> tuple[Result, list[Action] | None]:
    """The exact verdict for a solo turn-start position, and a winning line replayed through the
    engine (on a clone) when it is winnable.

    A beam of `beam_width` (0: none) looks for a win first, then the exhaustive search proves or
    finds one; both stop after `nodes` expanded positions in all (UNKNOWN), which decides the
    verdict deterministically. `seconds` optionally caps the time too: for interactive use only,
    never in tests (a verdict cut by time depends on the machine's speed and load)."""
    if not state.solo:
        raise ValueError("the solo search needs a one-player game")
    start = time.perf_counter()
    options = Options(
        bool(state.game.options["solo_skip_strikes"]), state.game.options["skip_mode"] == "upto6"
    )
    search = Search(options, nodes, seconds)
    try:
        root, grid = cards_of(state), grid_index(state.grid)
        steps = search.beam(root, grid, beam_width) if beam_width else None
        if steps is None:
            steps = search.solve(root, grid)
    except _Budget:
        return Result(Verdict.UNKNOWN, None, search.nodes, time.perf_counter() - start), None
    seconds = time.perf_counter() - start
    if steps is None:
        return Result(Verdict.NOT_WINNABLE, None, search.nodes, seconds), None
    world = state.clone()
    assert isinstance(world, ShiftingStonesState)
    line: list[Action] = []
    for step in steps:
        actions = step_actions(world.grid, step)
        for action in actions:
            if world.ended is not None:
                break
            world.apply(action, 0)
            line.append(action)
    if world.ended is not EndReason.SOLO_WIN:  # pragma: no cover - the model is exact
        raise AssertionError("the exact search's line does not replay to a solo win")
    return Result(Verdict.WINNABLE, steps, search.nodes, seconds), line
