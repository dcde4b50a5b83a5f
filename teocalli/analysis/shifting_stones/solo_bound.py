"""The solo bound: can a player who knows the deck order win the solo game of a given seed?

`solo_bound(seed)` answers WINNABLE (with a line replayed through the engine), NOT_WINNABLE
(proven by the exhaustive search of solo_search.py) or UNKNOWN (that search ran out of its node
budget). It tries, cheapest first: this module's quick search (`nodes` turns), solo_search's beam
and then its exhaustive search (`beam_nodes` positions), this module's search with 15 times the
turns, solo_search's exhaustive search alone (`exact_nodes` positions), then a beam 8 times
wider (`wide_width`; `wide_nodes` positions for it and the exhaustive search after it). Only the
exhaustive search can prove a seed lost; every win any of them finds is replayed through the
engine. The budgets are node counts, so a verdict depends on the seed and the budgets alone;
`seconds` is an optional extra cap for interactive use, never for tests (a time cut depends on
the machine).

The quick search, `clairvoyant_line`, searches whole turns depth first on real engine states
(clones), knowing the deck order and the seeded reshuffles. At each turn it tries, in order:
1. the greedy bot's own turn (so on every seed the search wins whenever the greedy bot would);
2. every way to score a largest-first set of hand cards the exact planner finds reachable
   (`planner.path_for`), then keeping the spare cards or spending them to move the grid towards
   a card coming next (read from the deck: the clairvoyance);
3. a skip (when it draws something);
4. with strikes to spare, a scoreless turn spending cards towards each hand card.
Positions already explored are not searched again.

On its own it is a LOWER bound on the clairvoyant. A line it returns is exact: it is replayed
through the engine (every action legal, the game ends in SOLO_WIN). `None` means no win was found
within `nodes` turns of search, not that none exists. By construction it wins on every seed the
greedy bot wins, given at least as many turns of budget as the greedy bot's game lasts (the
greedy line is the first one searched).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from teocalli.agents.heuristics.shifting_stones import choose
from teocalli.agents.heuristics.shifting_stones.planner import path_for, scores_along
from teocalli.core import load
from teocalli.games.shifting_stones.actions import END, SKIP, Action, Flip, Score, Shift
from teocalli.games.shifting_stones.components import POINTS, SWAPS
from teocalli.games.shifting_stones.grid import grid_index
from teocalli.games.shifting_stones.solver import SOLVER
from teocalli.games.shifting_stones.state import SOLO_STRIKES, EndReason, ShiftingStonesState

from .solo_search import Verdict, solve_position

QUICK_NODES = 2000
"""Turns the quick search explores first (its second try explores 15 times as many: 30,000 turns,
about 5-6 s on one core here when it finds nothing)."""
BEAM_NODES = 4000
"""Positions for solo_search's beam of width 256 and then its exhaustive search. The beam runs to
its end in 2,300-3,100 positions on seeds 0-9 (10-15 s on one core here), so it is never cut."""
EXACT_NODES = 20_000
"""Positions for the last, exhaustive search alone (5-10 s on one core here). On real seeds it
proves nothing in any practical budget; it still finds wins the beam missed."""
WIDE_BEAM = 2048
"""The last stage's beam width: 8 times the first beam's, for the seeds every stage before leaves
undecided (seed 1 of 0-29: width 1,024 runs to its end with no win, 2,048 finds one)."""
WIDE_NODES = 30_000
"""Positions for the wide beam (it runs about `WIDE_BEAM` positions a turn: seed 1's win is
found at 22,530; 60-110 s on one core here under load)."""


class _Budget(Exception):
    """The quick search used its node budget."""


def _move(card: int, move: int) -> Action:
    if move < len(SWAPS):
        return Shift(card, *SWAPS[move])
    return Flip(card, move - len(SWAPS))


def _key(s: ShiftingStonesState) -> tuple[Any, ...]:
    return (
        tuple(s.grid),
        tuple(s.hands[0]),
        tuple(s.deck),
        tuple(sorted(s.discard)),
        s.strikes,
        s.last_skip[0],
        s.rng.state,
    )


def _greedy_turn(state: ShiftingStonesState) -> list[Action]:
    world = state.clone()
    assert isinstance(world, ShiftingStonesState)
    turns = world.turns
    actions: list[Action] = []
    while not world.is_terminal() and world.turns == turns:
        action = choose(world, 0, world.rng.copy())
        actions.append(action)
        world.apply(action, 0)
    return actions


def _towards(grid: list[int], hand: list[int], target: int, keep: Sequence[int]) -> list[Action]:
    """Spend every card but `keep` moving the grid along a shortest path towards `target`."""
    grid = grid.copy()
    spare = sorted((c for c in hand if c not in keep), key=lambda c: (-SOLVER.distance(c, grid), c))
    out: list[Action] = []
    for card in spare:
        plan = SOLVER.plan(target, grid)
        if not plan:
            break
        kind, a, b = plan[0]
        if kind == "shift":
            out.append(Shift(card, a, b))
            grid[a], grid[b] = grid[b], grid[a]
        else:
            out.append(Flip(card, a))
            grid[a] ^= 1
    return out


def _turn_options(state: ShiftingStonesState) -> list[list[Action]]:
    hand = state.hands[0]
    grid = state.grid
    n = len(hand)
    options: list[list[Action]] = [_greedy_turn(state)]
    index = grid_index(grid)
    dist = {c: SOLVER.distance_at(c, index) for c in hand}
    upcoming = state.deck[::-1][: max(0, 4 - n + 1) + 2]
    found = 0
    for size in range(n, 0, -1):
        for subset in combinations(hand, size):
            if found >= 6:
                break
            if any(dist[c] > n - size for c in subset):
                continue
            path = path_for(grid, subset, n - size)
            if path is None:
                continue
            found += 1
            spare = sorted((c for c in hand if c not in subset), key=lambda c: (-dist[c], c))
            payers = spare[: len(path)]
            kept = spare[len(path) :]
            after = scores_along(grid, subset, path, SOLVER)
            actions: list[Action] = [Score(c) for c in after[0]]
            g = grid.copy()
            for k, move in enumerate(path):
                actions.append(_move(payers[k], move))
                if move < len(SWAPS):
                    p, q = SWAPS[move]
                    g[p], g[q] = g[q], g[p]
                else:
                    g[move - len(SWAPS)] ^= 1
                actions += [Score(c) for c in after[k + 1]]
            options.append([*actions, END])
            for target in [*kept, *upcoming]:
                if kept and SOLVER.distance(target, g) > 0:
                    keep = [target] if target in kept else []
                    spend = _towards(g, kept, target, keep)
                    if spend:
                        options.append([*actions, *spend, END])
    if not state.last_skip[0] and (state.deck or state.discard):
        options.append([SKIP])
    if state.strikes < SOLO_STRIKES - 1:
        for target in sorted(hand, key=lambda c: (dist[c], -POINTS[c], c)):
            spend = _towards(grid, hand, target, [target])
            if spend:
                options.append([*spend, END])
        options.append([END])
    return options


def clairvoyant_line(seed: int, nodes: int = QUICK_NODES, **options: Any) -> list[Action] | None:
    """A winning line for the solo game of `seed` (verified by replay), or None if none was found
    within `nodes` turns of search."""
    game = load("shifting-stones", players=1, **options)
    root = game.new_state(seed)
    assert isinstance(root, ShiftingStonesState)
    seen: set[tuple[Any, ...]] = set()
    expanded = 0

    def search(state: ShiftingStonesState) -> list[Action] | None:
        nonlocal expanded
        if state.ended is not None:
            return [] if state.ended is EndReason.SOLO_WIN else None
        key = _key(state)
        if key in seen:
            return None
        seen.add(key)
        expanded += 1
        if expanded > nodes:
            raise _Budget
        tried: set[tuple[Any, ...]] = set()
        for turn in _turn_options(state):
            child = state.clone()
            assert isinstance(child, ShiftingStonesState)
            for action in turn:
                if child.ended is not None:
                    break
                child.apply(action, 0)
            if child.ended is None:
                ck = _key(child)
                if ck in tried:
                    continue
                tried.add(ck)
            rest = search(child)
            if rest is not None:
                return [*turn[: len(child.history) - len(state.history)], *rest]
        return None

    try:
        line = search(root)
    except _Budget:
        return None
    if line is None:
        return None
    check = game.replay(seed, [(0, a) for a in line])
    assert isinstance(check, ShiftingStonesState) and check.ended is EndReason.SOLO_WIN
    return line


@dataclass
class SoloBound:
    """The clairvoyant verdict for one seed, the winning line when winnable, and the time taken
    (reported only: the verdict never depends on it unless a `seconds` cap was set)."""

    seed: int
    verdict: Verdict
    line: list[Action] | None
    seconds: float


def solo_bound(
    seed: int,
    *,
    nodes: int = QUICK_NODES,
    beam_nodes: int = BEAM_NODES,
    exact_nodes: int = EXACT_NODES,
    wide_nodes: int = WIDE_NODES,
    wide_width: int = WIDE_BEAM,
    seconds: float | None = None,
    **options: Any,
) -> SoloBound:
    """WINNABLE, NOT_WINNABLE or UNKNOWN for the solo game of `seed` (see the module), decided by
    the node budgets; `seconds` optionally caps the two exact searches' time too (interactive use
    only: a verdict cut by time is not reproducible)."""
    start = time.perf_counter()
    line = clairvoyant_line(seed, nodes, **options)
    if line is None:
        state = load("shifting-stones", players=1, **options).new_state(seed)
        assert isinstance(state, ShiftingStonesState)
        cap = None if seconds is None else seconds * 0.6
        result, line = solve_position(state, beam_nodes, beam_width=256, seconds=cap)
        if result.verdict is Verdict.UNKNOWN:
            line = clairvoyant_line(seed, nodes * 15, **options)
            if line is None:
                cap = None if seconds is None else seconds * 0.4
                result, line = solve_position(state, exact_nodes, beam_width=0, seconds=cap)
                if result.verdict is Verdict.UNKNOWN and wide_nodes > 0:
                    result, line = solve_position(
                        state, wide_nodes, beam_width=wide_width, seconds=cap
                    )
    verdict = Verdict.WINNABLE if line is not None else result.verdict
    return SoloBound(seed, verdict, line, time.perf_counter() - start)


def clairvoyant_verdicts(
    seeds: Sequence[int],
    *,
    nodes: int = QUICK_NODES,
    beam_nodes: int = BEAM_NODES,
    exact_nodes: int = EXACT_NODES,
    wide_nodes: int = WIDE_NODES,
    seconds: float | None = None,
    **options: Any,
) -> list[SoloBound]:
    """`solo_bound` for each seed, with the same budgets."""
    return [
        solo_bound(
            seed,
            nodes=nodes,
            beam_nodes=beam_nodes,
            exact_nodes=exact_nodes,
            wide_nodes=wide_nodes,
            seconds=seconds,
            **options,
        )
        for seed in seeds
    ]


def clairvoyant_wins(
    seeds: Sequence[int],
    *,
    nodes: int = QUICK_NODES,
    beam_nodes: int = BEAM_NODES,
    exact_nodes: int = EXACT_NODES,
    wide_nodes: int = WIDE_NODES,
    seconds: float | None = None,
    **options: Any,
) -> list[bool | None]:
    """Per seed: True winnable (a replayed line), False proven not winnable, None unknown."""
    answer = {Verdict.WINNABLE: True, Verdict.NOT_WINNABLE: False, Verdict.UNKNOWN: None}
    verdicts = clairvoyant_verdicts(
        seeds,
        nodes=nodes,
        beam_nodes=beam_nodes,
        exact_nodes=exact_nodes,
        wide_nodes=wide_nodes,
        seconds=seconds,
        **options,
    )
    return [answer[b.verdict] for b in verdicts]
