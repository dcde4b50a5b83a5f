"""The solo endgame solver: exact against a brute force over the engine's legal actions, and the
solo bot finishes positions that a one-turn view and the greedy bot throw away."""

from __future__ import annotations

from typing import Any

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.heuristics.shifting_stones.endgame import finish
from teocalli.core import Rng
from teocalli.games.shifting_stones.game import ShiftingStones
from teocalli.games.shifting_stones.grid import grid_index, grid_text, random_grid
from teocalli.games.shifting_stones.position import from_position
from teocalli.games.shifting_stones.solver import SOLVER
from teocalli.games.shifting_stones.state import EndReason, ShiftingStonesState

FISH_CENTRE = 12  # `.. .. .. / .. Fi .. / .. .. ..`
GRIDS = {  # the centre fish card's distance on each grid
    0: "Ho Se Bi / Ho Fi Ho / Se Su Se",
    1: "Ho Se Bi / Ho Bi Ho / Se Su Se",
    2: "Bi Ho Ho / Bi Se Ho / Se Su Se",
    3: "Bi Ho Bi / Ho Se Ho / Se Su Se",
}
SEEDS_36_44 = "grid: Mo Ho Se / Ho Fi Se / Tr Ho Fi\nhands: 36 44\nstrikes: {k}"
"""From the solo game of seed 3: cards 36 (`.. .. Se / .. .. .. / Se .. ..`) and 44 (`Se Se Se`)
left, both in hand."""
THREE_LEFT = "grid: Mo Bo Bi / Se Bo Se / Bi Bo Se\nhands: 15 31 33\nstrikes: {k}"
"""From the solo game of seed 8: three cards left (15 `Tr / Se`, 31 `Mo .. ..`, 33 the 5-point
`Ho .. Tr / .. .. .. / Se .. Bo`)."""


def position(text: str) -> ShiftingStonesState:
    game = teocalli.load("shifting-stones", players=1)
    assert isinstance(game, ShiftingStones)
    return from_position(game, text)


def _brute_force(state: ShiftingStonesState, seen: dict[Any, bool]) -> bool:
    """Whether some sequence of the engine's legal actions wins (memoised on the visible state:
    with every card in the hand nothing else is left)."""
    if state.ended is not None:
        return state.ended is EndReason.SOLO_WIN
    key = (
        tuple(state.grid),
        tuple(state.hands[0]),
        tuple(sorted(state.discard)),
        state.strikes,
        state.acted,
        state.turn_scored,
        state.last_skip[0],
    )
    if key not in seen:
        seen[key] = False
        for action in state.legal_actions(0):
            child = state.clone()
            assert isinstance(child, ShiftingStonesState)
            child.apply(action, 0)
            if _brute_force(child, seen):
                seen[key] = True
                break
    return seen[key]


def _play_out(state: ShiftingStonesState, spec: str) -> EndReason | None:
    bot = make_agent(spec, state.game, 1)
    while not state.is_terminal():
        state.apply(bot.act(state, 0), 0)
    return state.ended


@pytest.mark.parametrize("d", sorted(GRIDS))
@pytest.mark.parametrize("strikes", [0, 1, 2, 3])
def test_a_lone_card_needs_one_strike_per_move(d: int, strikes: int) -> None:
    state = position(f"grid: {GRIDS[d]}\nhands: {FISH_CENTRE}\nstrikes: {strikes}")
    assert SOLVER.distance(FISH_CENTRE, state.grid) == d
    win, exact = finish(grid_index(state.grid), (FISH_CENTRE,), strikes, nodes=50)
    assert exact and (win is not None) == (strikes + d <= 3)


def _matching(grid: list[int], card: int) -> list[int]:
    """The grid after one shortest plan towards `card` (so `card` matches it)."""
    for kind, p, q in SOLVER.plan(card, grid):
        if kind == "shift":
            grid[p], grid[q] = grid[q], grid[p]
        else:
            grid[p] ^= 1
    return grid


@pytest.mark.parametrize("seed", range(16))
def test_verdicts_agree_with_a_brute_force_over_legal_actions(seed: int) -> None:
    # Two cards, both in hand, one strike or none to spare: small enough to brute force. The
    # grid matches the first card, so that some positions are won (7 of these 16) and some lost.
    rng = Rng(100 + seed)
    grid = random_grid(rng)
    a = 1 + rng.randrange(72)
    b = 1 + (a + rng.randrange(71)) % 72
    strikes = 2 + rng.randrange(2)
    grid = _matching(grid, a)
    state = position(f"grid: {grid_text(grid)}\nhands: {a} {b}\nstrikes: {strikes}")
    win, exact = finish(grid_index(grid), (a, b), strikes, nodes=5000)
    assert exact
    assert (win is not None) == _brute_force(state.clone(), {})
    if win is not None:  # the first turn it gives keeps the game won
        assert _play_out(state, "solo") is EndReason.SOLO_WIN


@pytest.mark.parametrize(("text", "strikes"), [(SEEDS_36_44, 1), (THREE_LEFT, 2)])
def test_the_solo_bot_finishes_where_one_turn_of_lookahead_does_not(
    text: str, strikes: int
) -> None:
    state = position(text.format(k=strikes))
    win, exact = finish(grid_index(state.grid), tuple(state.hands[0]), strikes, nodes=400)
    assert win is not None and exact
    assert _play_out(state.clone(), "solo") is EndReason.SOLO_WIN
    assert _play_out(state.clone(), "solo:endgame_nodes=0") is EndReason.SOLO_STRIKES
    assert _play_out(state.clone(), "greedy") is EndReason.SOLO_STRIKES


def test_a_lost_endgame_is_proven_lost() -> None:
    # 36 and 44 with two strikes: no line wins (also the brute force's verdict).
    state = position(SEEDS_36_44.format(k=2))
    win, exact = finish(grid_index(state.grid), (36, 44), 2, nodes=400)
    assert win is None and exact
    assert not _brute_force(state, {})


def test_the_endgame_stops_at_its_node_budget() -> None:
    state = position(THREE_LEFT.format(k=2))
    win, exact = finish(grid_index(state.grid), (15, 31, 33), 2, nodes=1)
    assert win is None and not exact
    with pytest.raises(ValueError, match="at most 4"):
        finish(0, (1, 2, 3, 4, 5), 0, nodes=10)
