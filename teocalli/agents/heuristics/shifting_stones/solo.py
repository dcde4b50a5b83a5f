"""The solo bot's planner: one whole turn chosen by expectimax over sampled deck orders.

What a solo player knows at the start of a turn: the grid, the hand, the strikes, whether the last
turn was a skip, the cards scored and discarded, and how many cards of each point class the deck
still holds - not their order (nor, before the first reshuffle, which cards of a class they are).
`state.determinize(0, rng)` samples exactly that: worlds that agree on everything visible and
re-deal the rest. Nothing else of the true state is read.

A turn is exactly a walk of m moves from the grid, a set S of hand cards each matching the grid
somewhere along it (scored there), and m other hand cards paying (the rest are kept); or a skip.
Every such outcome (S, payers, end grid) is enumerated in numpy, level by level over
(grid, cards matched so far) pairs (`walks`). Each outcome is then judged in every sampled world:
the kept cards plus that world's draws make the next hand, and the position after the turn is
valued with the exact distance tables (`value`): strikes and cards left first, then how many
cards of the next hand are within reach of scoring (a set of j cards can only be scored if each
is within n - j moves of the grid) and how near the nearest is. The outcome with the best mean
over the worlds is played (expectimax of depth one over the draws, the draws' order the only
chance). Then the best few outcomes are looked at one turn deeper in the same worlds
(`lookahead`): the next turn is chosen as above, seeing that world's next hand (which the player
will know then) but averaging the draws after it over the other worlds' orders.

Endgames are exact (`endgame.py`): once every card left is in the hand (at most 4), chance is
gone, and the bot plays the first turn of the exact solver's win (the search above when the
solver finds none within its budget).

The budget is counted, not timed: `worlds` sampled deck orders, `deep` outcomes looked at twice
and `endgame_nodes` positions per endgame solve (see docs/arena.md for the time it takes).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from teocalli.core import Rng, State
from teocalli.games.shifting_stones.actions import SKIP, Action, Flip, Score, Shift
from teocalli.games.shifting_stones.components import HAND_SIZE
from teocalli.games.shifting_stones.grid import grid_index

from .endgame import MAX_ENDGAME, finish
from .walks import TABLES, Walks, neighbours_of, scorings, turn_actions, walks

SOLO_STRIKES = 4
SKIP_DRAW = 2
SKIP_UP_TO = 6
MAX_WALK_HAND = 8
"""Hands beyond this (only after skips) enumerate their turns with their 8 nearest cards."""


_HARDNESS: dict[int, float] = {}


def hardness(card: int) -> float:
    """A card's mean exact distance over all grids: how hard it is to score from anywhere."""
    h = _HARDNESS.get(card)
    if h is None:
        h = float(TABLES(card).mean())
        _HARDNESS[card] = h
    return h


# --- the value of a position after a turn -------------------------------------------------------

STRIKE_COST = (0.0, 30.0, 70.0, 140.0)
"""What 0-3 strikes cost (4 lose): each later strike matters more, the fourth ends the game."""
CARD_COST = 5.0
"""Per card left to score."""
HARD_COST = 15.0
"""Per card left to score, per move of its mean distance over all grids (`hardness`): hard
cards are best scored while the hand is big, easy ones kept for the end."""
NO_SCORE_NEXT = 40.0
"""The next hand has no card within reach: the next turn will strike (or skip)."""
REACH_BONUS = 5.0
"""Per further card of the next hand within reach (each of j cards within n - j moves)."""
NEAR_COST = 2.0
"""Per move the nearest card of the next hand is away."""
LOSS = -1000.0
WIN = 1000.0


def value(
    hand: Sequence[int],
    grids: npt.NDArray[np.int64],
    strikes: int,
    left: int,
    hard: float = 0.0,
) -> npt.NDArray[np.float64]:
    """Per grid, the value of a turn-start position: `hand` on the grid, `strikes` taken and
    `left` cards still to score (hand, deck and discard pile), `hard` their summed hardness."""
    if left == 0:
        return np.full(grids.size, WIN)
    if strikes >= SOLO_STRIKES:
        return np.full(grids.size, LOSS)
    base = -STRIKE_COST[strikes] - CARD_COST * left - HARD_COST * hard
    n = len(hand)
    if n == 0:  # pragma: no cover - cards left are always drawn back
        return np.full(grids.size, base - NO_SCORE_NEXT)
    d = np.stack([TABLES(c)[grids] for c in hand]).astype(np.int64)
    d.sort(axis=0)
    reach = np.zeros(grids.size, dtype=np.int64)
    for j in range(1, n + 1):
        reach += d[j - 1] <= n - j
    if left == n == 1:  # the last card cannot move the grid: it matches or the game is lost
        return np.where(d[0] == 0, WIN / 2, LOSS)
    if left == n == 2:  # both known: can the next turn and the one after finish, strike-free?
        a, b = TABLES(hand[0]), TABLES(hand[1])
        nb = neighbours_of(grids)
        a0, b0 = a[grids] == 0, b[grids] == 0
        an, bn = a[nb] == 0, b[nb] == 0
        done = (a0 & b0) | (((a0 | an) & bn) | ((b0 | bn) & an)).any(axis=0)
        near = np.minimum(a[nb].min(axis=0), b[nb].min(axis=0)).astype(np.float64)
        slack = SOLO_STRIKES - 1 - strikes
        return np.where(done, WIN / 4 - 10.0 * strikes, base - 60.0 + 20.0 * slack - 5.0 * near)
    out = base + REACH_BONUS * reach - NEAR_COST * d[0]
    out = out - np.where(reach == 0, NO_SCORE_NEXT + (0.0 if strikes < 3 else -LOSS / 2), 0.0)
    return out.astype(np.float64)


# --- one turn, all its outcomes ----------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """Cards scored, payers (in the order they pay) and the walk; or a skip."""

    skip: bool
    scored: tuple[int, ...] = ()
    payers: tuple[int, ...] = ()
    moves: tuple[int, ...] = ()


@dataclass
class Group:
    """Outcomes sharing the scored set and the payers, one per end grid."""

    scored: tuple[int, ...]
    payers: tuple[int, ...]
    kept: tuple[int, ...]
    grids: npt.NDArray[np.int64]
    where: npt.NDArray[np.int64]  # each grid's position in its walk level
    m: int
    skip: bool = False


@dataclass
class World:
    deck: list[int]
    discard: list[int]
    rng: Rng


def _draw(
    hand: Sequence[int], deck: Sequence[int], discard: Sequence[int], rng: Rng, count: int
) -> tuple[tuple[int, ...], World]:
    """The engine's draw on copies: reshuffle the sorted pile when the deck runs out. Returns
    the hand and the world after the draw."""
    h, d, x = list(hand), list(deck), sorted(discard)
    gen = rng.copy()
    for _ in range(count):
        if not d:
            if not x:
                break
            d, x = x, []
            gen.shuffle(d)
        insort(h, d.pop())
    return tuple(h), World(d, x, gen)


@dataclass
class Position:
    """What the solo player knows, and what a world adds (deck order, generator)."""

    grid: int
    hand: tuple[int, ...]
    strikes: int
    last_skip: bool
    acted: bool
    scored_this_turn: bool
    left: int  # cards still to score, hand included
    skip_strikes: bool
    skip_upto6: bool


def position_of(state: State) -> Position:
    from teocalli.games.shifting_stones.state import ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    return Position(
        grid_index(state.grid),
        tuple(state.hands[0]),
        state.strikes,
        state.last_skip[0],
        state.acted,
        state.turn_scored > 0,
        len(state.pool) - len(state.scored[0]),
        bool(state.game.options["solo_skip_strikes"]),
        state.game.options["skip_mode"] == "upto6",
    )


def groups_of(pos: Position) -> tuple[list[Group], Walks]:
    """Every outcome of the rest of this turn, grouped by scored set and payers."""
    hand = pos.hand
    if len(hand) > MAX_WALK_HAND:
        near = sorted(hand, key=lambda c: (int(TABLES(c)[pos.grid]), c))[:MAX_WALK_HAND]
        hand = tuple(sorted(near))
    w = walks(pos.grid, hand, len(hand))
    out: list[Group] = []
    for sc in scorings(w):
        for payers in combinations(sc.rest, sc.m):
            kept = tuple(c for c in pos.hand if c not in sc.scored and c not in payers)
            out.append(Group(sc.scored, payers, kept, sc.grids, sc.where, sc.m))
    if not pos.acted and not pos.last_skip:
        here = np.array([pos.grid], dtype=np.int64)
        out.append(Group((), (), pos.hand, here, here * 0, 0, skip=True))
    return out, w


def _child(pos: Position, group: Group, world: World) -> tuple[Position, World]:
    """The position at the start of the next turn (grid left unset: one per end grid) and the
    world after `group`'s turn in `world`."""
    left = pos.left - len(group.scored)
    if group.skip:
        count = max(0, SKIP_UP_TO - len(pos.hand)) if pos.skip_upto6 else SKIP_DRAW
        hand, after = _draw(pos.hand, world.deck, world.discard, world.rng, count)
        strikes = pos.strikes + (1 if pos.skip_strikes else 0)
    else:
        strikes = pos.strikes + (0 if group.scored or pos.scored_this_turn else 1)
        hand, after = _draw(
            group.kept,
            world.deck,
            [*world.discard, *group.payers],
            world.rng,
            max(0, HAND_SIZE - len(group.kept)),
        )
    child = Position(
        -1, hand, strikes, group.skip, False, False, left, pos.skip_strikes, pos.skip_upto6
    )
    return child, after


def judge(pos: Position, groups: Sequence[Group], worlds: Sequence[World]) -> list[np.ndarray]:
    """Per group, the mean value over the worlds of each end grid."""
    out = []
    for group in groups:
        if len(group.scored) == pos.left:
            out.append(np.full(group.grids.size, WIN))
            continue
        total = np.zeros(group.grids.size)
        cache: dict[tuple[tuple[int, ...], int], npt.NDArray[np.float64]] = {}
        for world in worlds:
            child, after = _child(pos, group, world)
            key = (child.hand, child.strikes)
            v = cache.get(key)
            if v is None:
                hard = sum(hardness(c) for c in (*child.hand, *after.deck, *after.discard))
                v = value(child.hand, group.grids, child.strikes, child.left, hard)
                cache[key] = v
            total += v
        out.append(total / max(1, len(worlds)))
    return out


@dataclass
class Budget:
    """The search's budget, in counts: sampled worlds at the root, outcomes looked at one turn
    deeper (`deep`, in positions with at most `endgame` cards left), and the depth in turns."""

    worlds: int = 16
    deep: int = 6
    depth: int = 2
    endgame: int = 7
    deep_worlds: int = 6
    endgame_nodes: int = 400


def search(
    pos: Position, worlds: Sequence[World], budget: Budget, depth: int
) -> tuple[Outcome, float]:
    """The best outcome of the rest of this turn and its value: the mean over `worlds` of the
    position after it, looked at `depth` more turns deep for the `budget.deep` best."""
    groups, w = groups_of(pos)
    values = judge(pos, groups, worlds)
    flat = [(float(v[i]), gi, i) for gi, v in enumerate(values) for i in np.argsort(-v)[:4]]
    flat.sort(key=lambda t: -t[0])
    best_v, best_g, best_i = flat[0]
    if depth > 0 and pos.left <= budget.endgame and best_v < WIN:
        deep_worlds = worlds[: budget.deep_worlds]
        scored: list[tuple[float, int, int]] = []
        width = budget.deep if depth == budget.depth else max(2, budget.deep // 2)
        for v1, gi, i in flat[:width]:
            group = groups[gi]
            if len(group.scored) == pos.left:
                scored.append((WIN, gi, i))
                continue
            total = 0.0
            for world in deep_worlds:
                child, after = _child(pos, group, world)
                child.grid = int(group.grids[i])
                if child.strikes >= SOLO_STRIKES:
                    total += LOSS
                    continue
                _, v = search(child, [after], budget, depth - 1)
                total += v
            scored.append((total / len(deep_worlds) + 1e-3 * v1, gi, i))
        scored.sort(key=lambda t: -t[0])
        best_v, best_g, best_i = scored[0]
    group = groups[best_g]
    if group.skip:
        return Outcome(True), best_v
    moves = tuple(w.path(group.m, int(group.where[best_i])))
    return Outcome(False, group.scored, group.payers, moves), best_v


def actions_of(grid: Sequence[int], outcome: Outcome) -> list[Action]:
    """The engine actions of one outcome: each scored card as soon as it matches, each move paid
    by the next payer, then `end` (or just `skip`)."""
    if outcome.skip:
        return [SKIP]
    return turn_actions(grid, outcome.scored, outcome.payers, outcome.moves)


def sample_worlds(state: State, count: int, rng: Rng) -> list[World]:
    from teocalli.games.shifting_stones.state import ShiftingStonesState

    out = []
    for _ in range(count):
        world = state.determinize(0, rng)
        assert isinstance(world, ShiftingStonesState)
        out.append(World(world.deck, world.discard, world.rng))
    return out


def solo_turn(state: State, rng: Rng, budget: Budget | None = None) -> list[Action]:
    """The rest of the solo player's turn, as engine actions."""
    from teocalli.games.shifting_stones.state import ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    budget = budget or Budget()
    pos = position_of(state)
    if not pos.acted and len(pos.hand) == pos.left <= MAX_ENDGAME and budget.endgame_nodes:
        win, _ = finish(pos.grid, pos.hand, pos.strikes, budget.endgame_nodes)
        if win is not None:
            return actions_of(state.grid, Outcome(False, win.scored, win.payers, win.moves))
    worlds = sample_worlds(state, budget.worlds, rng)
    outcome, _ = search(pos, worlds, budget, budget.depth)
    return actions_of(state.grid, outcome)


def describe(turn: Sequence[Action]) -> str:
    """A short reason for a planned turn, in notation."""
    if turn and isinstance(turn[0], type(SKIP)):
        return "skip: no card can be scored in reach worth a strike-free turn; draw two"
    scores = [a for a in turn if isinstance(a, Score)]
    moves = [a for a in turn if isinstance(a, Shift | Flip)]
    plan = " ; ".join(str(a) for a in turn)
    if scores:
        cards = ", ".join(str(a.card) for a in scores)
        return f"plan: {plan} (scores {cards} with {len(moves)} move(s))"
    return f"plan: {plan} (nothing can score this turn: sets up the grid, a strike)"
