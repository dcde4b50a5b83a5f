"""The two-player planner of the `duel` bot: every outcome of our turn, the grid we leave judged
by the opponent's threat, the best few played out in shared sampled worlds.

A turn is exactly a walk of m moves, a set S of hand cards scored along it and m other cards
paying (the rest are kept); or a skip (`walks`, as the solo planner enumerates it). Paying is
free in this game (the hand is refilled), so the same scored set can usually end on many grids:
the greedy planner takes the shortest walk, this planner chooses where the walk ends.

1. Every outcome (S, payers, end grid) gets a static score: the points of S (with the +3 bonus
   for the most 1-point cards, as it stands after the turn), plus what the kept cards are worth
   on the end grid, minus the opponent's threat there. The threat is the expected points of a
   hand dealt from the cards we cannot see (deck plus the opponent's hand, as a set: nothing
   else), card by card: each unseen card's points times the chance it is in a hand of that size
   times how often a card at that exact distance gets scored (`REACH`).
2. The best `candidates` outcomes by that score (at most `per_set` end grids per scored set and
   payers), the greedy planner's own turn and a skip are played in the same `worlds` sampled
   worlds (`determinize`: the opponent's hand and the deck order re-dealt), each followed by
   `depth` whole turns of the greedy planner for both players (`rollout`) and the points lead
   with the bonus (`evaluate`); a game that ends within them scores its true result (who
   triggered the end, who is ahead). The best mean is played; it replaces the greedy turn only
   if it is ahead by more than `confidence` standard errors of the paired differences.

The budget is counted: `worlds` sampled worlds, `candidates` outcomes, `depth` turns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from teocalli.core import Action, IllegalAction, InvalidAction, Rng, State
from teocalli.games.shifting_stones.actions import SKIP
from teocalli.games.shifting_stones.components import CARD_IDS, POINTS
from teocalli.games.shifting_stones.grid import grid_index

from . import choose, evaluate, rollout
from .solo import Group, Position, groups_of
from .walks import TABLES, turn_actions

REACH = np.array([0.85, 0.65, 0.36, 0.27, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
"""How often the greedy planner scores a card of a random 4-card hand at exact distance d (0-10)
from a random grid (3,000 hands: 85% of matching cards, 65% at 1 move, 36% at 2, 27% at 3, none
further; a card it leaves is beaten by a better set). Only for the static filter."""
KEEP_WEIGHT = 0.5
"""A kept card's points per (1 + its distance on the end grid), times this."""
THREAT_WEIGHT = 1.0
"""The opponent's expected points on the grid we leave, times this."""
BONUS = 3.0
FINISH_TURNS = 12
"""With `finish` on, playouts once a player has that many cards go this many turns (the end)."""
FINAL = 100.0
"""A turn that ends the game (the second seat reaching the trigger): won or lost, nothing else."""


@dataclass
class Budget:
    """Counted budget: sampled worlds, outcomes played out, turns per playout; the static
    score's weights (`keep`, `threat`, `skip`); the cut-off's (`leaf`, `race`: see `leaf`); and
    from `finish` cards scored by either player (0: never), playouts to the end in
    `finish_worlds` worlds (0: `worlds`)."""

    worlds: int = 24
    candidates: int = 12
    per_set: int = 2
    depth: int = 2
    confidence: float = 0.5
    keep: float = KEEP_WEIGHT
    threat: float = THREAT_WEIGHT
    skip: float = 0.5
    leaf: float = 0.0
    race: float = 0.0
    finish: int = 0
    finish_worlds: int = 0


def unseen_cards(state: State, player: int) -> list[int]:
    """The cards `player` cannot see: the deck and the other hands, as a set (from the view)."""
    view = state.view(player)["state"]
    seen = set(view["hand"]) | set(view["discard"])
    for pile in view["scored"]:
        seen |= set(pile)
    return [c for c in CARD_IDS if c not in seen]


def threat(grids: npt.NDArray[np.int64], unseen: list[int], hand_size: int) -> np.ndarray:
    """Per grid, the expected points a hand of `hand_size` cards dealt from `unseen` scores there
    (card by card, `REACH`)."""
    out = np.zeros(grids.size)
    if not unseen:
        return out
    share = min(1.0, hand_size / len(unseen))
    for c in unseen:
        out += POINTS[c] * REACH[TABLES(c)[grids]]
    return out * share


def _lead(points: list[float], ones: list[int]) -> float:
    """Our points lead (player 0 of the two lists) with the bonus as it stands."""
    top = max(ones)
    p = [x + (BONUS if top and o == top else 0.0) for x, o in zip(points, ones, strict=True)]
    return p[0] - p[1]


def static_scores(
    state: State,
    player: int,
    groups: list[Group],
    unseen: list[int],
    budget: Budget | None = None,
) -> list[npt.NDArray[np.float64]]:
    """Per group, per end grid: points (with the bonus) + kept cards' worth - the threat."""
    from teocalli.games.shifting_stones.state import TRIGGER, ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    budget = budget or Budget()
    other = 1 - player
    pts = [float(state.points(player)), float(state.points(other))]
    ones = [state.ones(player), state.ones(other)]
    before = _lead(pts, ones)
    every = np.unique(np.concatenate([g.grids for g in groups]))
    danger = threat(every, unseen, len(state.hands[other]))
    trigger = TRIGGER[2] - len(state.scored[player])
    out = []
    for g in groups:
        gain = sum(POINTS[c] for c in g.scored)
        now = _lead(
            [pts[0] + gain, pts[1]], [ones[0] + sum(POINTS[c] == 1 for c in g.scored), ones[1]]
        )
        if player == 1 and len(g.scored) >= trigger:  # the game ends with this turn: exact
            out.append(np.full(g.grids.size, FINAL * float(np.sign(now))))
            continue
        keep = np.zeros(g.grids.size)
        for c in g.kept:
            keep += POINTS[c] / (1.0 + TABLES(c)[g.grids])
        d = danger[np.searchsorted(every, g.grids)]
        bonus = budget.skip if g.skip else 0.0
        out.append((now - before) + budget.keep * keep - budget.threat * d + bonus)
    return out


def candidate_turns(state: State, player: int, budget: Budget) -> list[tuple[Action, ...]]:
    """The greedy planner's turn first, then the best outcomes by `static_scores` (and a skip
    when allowed), as whole turns of engine actions."""
    from teocalli.games.shifting_stones.state import ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    hand = tuple(state.hands[player])
    pos = Position(
        grid_index(state.grid),
        hand,
        0,
        state.last_skip[player] or not (state.deck or state.discard),
        state.acted,
        state.turn_scored > 0,
        len(hand) + 1,
        False,
        False,
    )
    groups, w = groups_of(pos)
    scores = static_scores(state, player, groups, unseen_cards(state, player), budget)
    ranked: list[tuple[float, int, int]] = []
    for gi, v in enumerate(scores):
        for i in np.argsort(-v)[: budget.per_set]:
            ranked.append((float(v[i]), gi, int(i)))
    ranked.sort(key=lambda t: -t[0])
    out: list[tuple[Action, ...]] = [greedy_turn(state, player)]
    for _, gi, i in ranked:
        if len(out) > budget.candidates:
            break
        g = groups[gi]
        if g.skip:
            turn: tuple[Action, ...] = (SKIP,)
        else:
            moves = w.path(g.m, int(g.where[i]))
            turn = tuple(turn_actions(state.grid, g.scored, g.payers, moves))
        if turn not in out:
            out.append(turn)
    return out


def greedy_turn(state: State, player: int) -> tuple[Action, ...]:
    """The rest of the greedy planner's turn (on a copy; it reads only the player's view)."""
    world = state.clone()
    steps: list[Action] = []
    rng = Rng(0)
    while not world.is_terminal() and player in world.to_move():
        action = choose(world, player, rng)
        steps.append(action)
        world.apply(action, player)
    return tuple(steps)


CARDS_A_TURN = 1.5
"""Cards a player scores in a turn, about (the game lasts about 6.5 turns each)."""


def leaf(state: State, player: int, weight: float, race: float = 0.0) -> float:
    """A cut-off playout's value for `player`: the points lead with the bonus as it stands, plus
    `weight` times the next turn's points of each side in this world (the player to move: its
    exact greedy turn on this grid; the other: its hand card by card, `REACH`), squashed as
    `evaluate` does (`tanh(x / 8)`); with `race` > 0 the scale is `race * sqrt(1 + t)`, t the
    turns each left before the leader reaches the trigger: a lead counts more near the end."""
    from teocalli.games.shifting_stones.state import TRIGGER, ShiftingStonesState

    from .planner import best_turn

    assert isinstance(state, ShiftingStonesState)
    other = 1 - player
    lead = _lead(
        [float(state.points(player)), float(state.points(other))],
        [state.ones(player), state.ones(other)],
    )
    ahead = 0.0
    if weight:
        mover = state.to_move()[0]
        index = grid_index(state.grid)
        now = float(best_turn(state.grid, state.hands[mover]).points)
        later = sum(POINTS[c] * REACH[TABLES(c)[index]] for c in state.hands[1 - mover])
        ahead = now - later if mover == player else later - now
    scale = 8.0
    if race:
        left = max(0, TRIGGER[2] - max(len(s) for s in state.scored)) / CARDS_A_TURN
        scale = race * math.sqrt(1.0 + left)
    return math.tanh((lead + weight * ahead) / scale)


def playout(
    world: State,
    turn: tuple[Action, ...],
    player: int,
    depth: int,
    rng: Rng,
    *,
    weight: float = 0.0,
    race: float = 0.0,
) -> float:
    """Our return after `turn` in `world` and `depth` more whole turns of the greedy planner
    (cut off by `evaluate`, or by `leaf` with `weight` and `race` when either is not 0)."""
    w = world.clone()
    for action in turn:
        try:
            w.apply(action, player)
        except (IllegalAction, InvalidAction):  # pragma: no cover - turns come from our view
            return -math.inf
    last, turns = player, 0
    while not w.is_terminal():
        p = w.to_move()[0]
        if p != last:
            turns += 1
            last = p
            if turns > depth:
                if weight or race:
                    return leaf(w, player, weight, race)
                return float(evaluate(w)[player])
        w.apply(rollout(w, p, rng), p)
    return float(w.outcome().returns()[player])


def duel_turn(state: State, player: int, rng: Rng, budget: Budget | None = None) -> list[Action]:
    """The rest of `player`'s turn, as engine actions."""
    from teocalli.games.shifting_stones.state import ShiftingStonesState

    assert isinstance(state, ShiftingStonesState)
    budget = budget or Budget()
    turns = candidate_turns(state, player, budget)
    if len(turns) == 1:
        return list(turns[0])
    depth, count = budget.depth, budget.worlds
    if budget.finish and max(len(s) for s in state.scored) >= budget.finish:
        depth, count = FINISH_TURNS, budget.finish_worlds or budget.worlds
    values = np.zeros((len(turns), count))
    for k in range(count):
        world = state.determinize(player, rng)
        for t, turn in enumerate(turns):
            values[t, k] = playout(
                world, turn, player, depth, rng, weight=budget.leaf, race=budget.race
            )
    means = values.mean(axis=1)
    best = int(np.argmax(means))
    if best and count > 1:
        diffs = values[best] - values[0]
        se = float(diffs.std(ddof=1)) / math.sqrt(count)
        if float(diffs.mean()) <= budget.confidence * se:
            best = 0
    return list(turns[best])


__all__ = ["Budget", "candidate_turns", "duel_turn", "static_scores", "threat", "unseen_cards"]
