"""The exact solo search: its model matches the engine, its proofs match independent arguments
and a brute force over the engine's own legal actions, and its wins replay."""

from __future__ import annotations

from typing import Any

import pytest

import teocalli
from teocalli.analysis.shifting_stones.solo_bound import solo_bound
from teocalli.analysis.shifting_stones.solo_search import (
    Options,
    Search,
    Verdict,
    cards_of,
    solve_position,
)
from teocalli.core import Rng
from teocalli.games.shifting_stones.actions import END, Flip, Score, Shift
from teocalli.games.shifting_stones.game import ShiftingStones
from teocalli.games.shifting_stones.position import from_position
from teocalli.games.shifting_stones.solver import SOLVER
from teocalli.games.shifting_stones.state import EndReason, ShiftingStonesState

FISH_CENTRE = 12  # `.. .. .. / .. Fi .. / .. .. ..`
GRIDS = {
    0: "Ho Se Bi / Ho Fi Ho / Se Su Se",
    1: "Ho Se Bi / Ho Bi Ho / Se Su Se",
    2: "Bi Ho Ho / Bi Se Ho / Se Su Se",
    3: "Bi Ho Bi / Ho Se Ho / Se Su Se",
}


def position(text: str) -> ShiftingStonesState:
    """A solo position in the game's notation (as in tests/games/shifting_stones/helpers.py)."""
    game = teocalli.load("shifting-stones", players=1)
    assert isinstance(game, ShiftingStones)
    return from_position(game, text)


def test_the_grids_have_the_distances_the_tests_assume() -> None:
    for d, grid in GRIDS.items():
        state = position(f"grid: {grid}\nhands: {FISH_CENTRE}")
        assert SOLVER.distance(FISH_CENTRE, state.grid) == d


@pytest.mark.parametrize("d", sorted(GRIDS))
@pytest.mark.parametrize("strikes", [0, 1, 2, 3])
def test_a_lone_card_needs_one_strike_per_move(d: int, strikes: int) -> None:
    # Independent argument: the only card pays for each move, so it is never in hand on the
    # same turn as a move; every turn before it matches is a strike. Win iff strikes + d <= 3.
    text = f"grid: {GRIDS[d]}\nhands: {FISH_CENTRE}\nstrikes: {strikes}"
    state = position(text)
    result, line = solve_position(state, nodes=1000)
    if strikes + d <= 3:
        assert result.verdict is Verdict.WINNABLE and line is not None
        final = state.clone()
        for action in line:
            final.apply(action, 0)
        assert final.outcome().reason is EndReason.SOLO_WIN
    else:
        assert result.verdict is Verdict.NOT_WINNABLE and line is None


def _brute_force(state: ShiftingStonesState, seen: dict[Any, bool]) -> bool:
    """Whether some sequence of the engine's legal actions wins (memoised on the full state)."""
    if state.ended is not None:
        return state.ended is EndReason.SOLO_WIN
    key = (
        tuple(state.grid),
        tuple(state.hands[0]),
        tuple(state.deck),
        tuple(sorted(state.discard)),
        state.strikes,
        state.acted,
        state.turn_scored,
        state.last_skip[0],
        state.rng.state,
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


@pytest.mark.parametrize("seed", range(10))
def test_verdicts_agree_with_a_brute_force_over_legal_actions(seed: int) -> None:
    # Tiny positions: two cards (one in hand, one in the discard pile) and 2-3 strikes.
    rng = Rng(seed)
    from teocalli.games.shifting_stones.grid import grid_text, random_grid

    grid = grid_text(random_grid(rng))
    a, b = 1 + rng.randrange(72), 1 + rng.randrange(72)
    if a == b:
        b = a % 72 + 1
    strikes = 2 + rng.randrange(2)
    text = f"grid: {grid}\nhands: {a}\ndiscard: {b}\nstrikes: {strikes}"
    state = position(text)
    result, _ = solve_position(state, nodes=20_000)
    assert result.verdict is not Verdict.UNKNOWN
    assert (result.verdict is Verdict.WINNABLE) == _brute_force(state.clone(), {})


def test_the_model_draws_exactly_as_the_engine() -> None:
    # Random turns on real seeds, through reshuffles: the model predicts every turn's cards.
    game = teocalli.load("shifting-stones", players=1, solo_skip_strikes=False)
    search = Search(Options(skip_strikes=False), nodes=0)
    for seed in range(8):
        state = game.new_state(seed)
        assert isinstance(state, ShiftingStonesState)
        rng = Rng(seed)
        reshuffled = False
        for _ in range(200):
            state.strikes = 0  # keep the game going, through reshuffles
            before = cards_of(state)
            if not before.last_skip and rng.randrange(4) == 0:
                expected = search._skip(before)
                state.apply("skip", 0)
            else:
                scored: list[int] = []
                payers: list[int] = []
                for card in list(state.hands[0]):
                    if Score(card) in state.legal_actions(0):
                        scored.append(card)
                        state.apply(Score(card), 0)
                    elif rng.randrange(3):
                        payers.append(card)
                        move = (
                            Flip(card, rng.randrange(9)) if rng.randrange(2) else Shift(card, 0, 1)
                        )
                        state.apply(move, 0)
                    if state.ended is not None:
                        break
                if state.ended is not None:
                    break
                expected = search._end_turn(before, scored, payers)
                state.apply(END, 0)
            if state.ended is not None:
                break
            assert cards_of(state) == expected
            reshuffled = reshuffled or state.reshuffles > 1
    assert reshuffled


def test_a_real_seed_is_decided_winnable_with_a_replayed_line() -> None:
    bound = solo_bound(0, nodes=300, beam_nodes=0, exact_nodes=0)
    assert bound.verdict is Verdict.WINNABLE and bound.line is not None
    game = teocalli.load("shifting-stones", players=1)
    assert game.replay(0, [(0, a) for a in bound.line]).outcome().reason is EndReason.SOLO_WIN


def test_the_exhaustive_search_stops_at_its_budget() -> None:
    game = teocalli.load("shifting-stones", players=1)
    state = game.new_state(1)
    assert isinstance(state, ShiftingStonesState)
    result, line = solve_position(state, nodes=3, beam_width=0)
    assert result.verdict is Verdict.UNKNOWN and line is None and result.nodes == 3


def test_the_beam_stops_at_its_node_budget_and_its_verdict_depends_on_nothing_else() -> None:
    # seed 3: a beam of width 2 finds a win (the quick search of solo_bound needs thousands of
    # turns); it needs `result.nodes` positions, and with one fewer it must answer UNKNOWN.
    game = teocalli.load("shifting-stones", players=1)
    state = game.new_state(3)
    assert isinstance(state, ShiftingStonesState)
    result, line = solve_position(state, nodes=1000, beam_width=2)
    assert result.verdict is Verdict.WINNABLE and line is not None and result.nodes < 100
    again, same = solve_position(state, nodes=result.nodes, beam_width=2)
    assert again.verdict is Verdict.WINNABLE and same == line and again.steps == result.steps
    short, none = solve_position(state, nodes=result.nodes - 1, beam_width=2)
    assert short.verdict is Verdict.UNKNOWN and none is None and short.nodes == result.nodes - 1


def test_the_wide_beam_is_the_last_stage_and_runs_on_its_own_node_budget() -> None:
    # seed 3: no stage before finds a win at these tiny budgets; the last stage's beam (here
    # 2 wide) does within `wide_nodes` positions, and with none left the seed stays unknown
    tiny: dict[str, int] = {"nodes": 1, "beam_nodes": 0, "exact_nodes": 0}
    assert solo_bound(3, **tiny, wide_nodes=0).verdict is Verdict.UNKNOWN
    bound = solo_bound(3, **tiny, wide_nodes=100, wide_width=2)
    assert bound.verdict is Verdict.WINNABLE and bound.line is not None
    game = teocalli.load("shifting-stones", players=1)
    assert game.replay(3, [(0, a) for a in bound.line]).outcome().reason is EndReason.SOLO_WIN
