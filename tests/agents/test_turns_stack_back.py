"""Stack Back's whole-turn proposals (`turns`) and the turn-level search that uses them."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.heuristics.stack_back import (
    best_chain,
    choose,
    evaluate,
    pile_plans,
    turns,
    wood_keys,
)
from teocalli.agents.turn_search import policy_turn
from teocalli.core import Rng
from teocalli.games.stack_back import PASS, StackBackState, from_position
from teocalli.games.stack_back.actions import Place

from ..games.stack_back.blocked import blocked
from .positions import greedy_positions

LONGER_RUN = """
sticks: 0:Y64.0,80.0@0.0 1:Y208.0,44.0@90.0 0:M172.0,56.0@0.0 1:G196.0,58.0@10.0 1:M28.0,8.0@0.0
  0:G172.0,8.0@0.0 1:Y162.0,32.0@95.0 1:M182.0,54.0@15.0 1:G40.0,56.0@90.0
supply 0: 9 9 9
supply 1: 8 8 8
turn: 0
"""
"""Seed 8 of a greedy game after 9 steps: greedy piles M44,64@75 and is then stuck, but
Y28,28@60 then M60,72@20 is a run of two piles (the offset of the first bridge matters)."""


"""The end of a seeded random game (tests/games/stack_back/test_sb_rules.py): nothing fits."""


def piles_in(state: StackBackState, player: int, turn: tuple[object, ...]) -> int:
    world = state.clone()
    count = 0
    for action in turn:
        if isinstance(action, Place) and world.placements(player)[action].stick.level > 0:
            count += 1
        world.apply(action, player)
    return count


@pytest.fixture(scope="module")
def positions() -> list[StackBackState]:
    """Positions along seeded greedy games, mid-turn ones included (after a pile)."""
    game = teocalli.load("stack-back")
    found = greedy_positions(game, range(3), every=3, also=lambda s: bool(s.placed_this_turn))
    return [s for s, _ in found]


def test_every_proposed_turn_is_legal_and_ends_the_turn(positions: list[StackBackState]) -> None:
    mid_turn = 0
    for state in positions:
        player = state.turn
        mid_turn += state.placed_this_turn > 0
        proposals = turns(state, player, Rng(1))
        assert proposals, "a player to move always has a turn (a pass at least)"
        assert len(set(proposals)) == len(proposals)
        for turn in proposals:
            world = state.clone()
            for action in turn:
                assert player in world.to_move()
                assert action in world.legal_actions(player)
                world.apply(action, player)
            assert world.is_terminal() or world.to_move() == (1 - player,), turn
    assert mid_turn >= 3, "the positions include some taken after a pile"


def test_proposals_pile_at_least_as_much_as_greedy(positions: list[StackBackState]) -> None:
    for state in positions[::4]:
        player = state.turn
        greedy = piles_in(state, player, policy_turn(state, player, choose, Rng(1)))
        longest = max(piles_in(state, player, t) for t in turns(state, player, Rng(1)))
        assert longest >= greedy
        assert best_chain(state, player, 40) >= greedy


def test_a_position_where_the_longest_run_beats_greedy_and_the_search_plays_it() -> None:
    game = teocalli.load("stack-back")
    state = from_position(game, LONGER_RUN)  # type: ignore[arg-type]
    greedy = policy_turn(state, 0, choose, Rng(1))
    assert piles_in(state, 0, greedy) == 1
    runs = [run for run, _ in pile_plans(state, 0, 40)]
    assert max(len(r) for r in runs) == 2
    assert best_chain(state, 0) == 2
    proposals = turns(state, 0, Rng(1))
    assert piles_in(state, 0, proposals[0]) == 2, "the longest run is proposed first"
    bot = make_agent("mcts:turns=1,iterations=48,depth=4", game, 7)
    world = state.clone()
    played = []
    while world.to_move() == (0,):
        action = bot.act(world, 0)
        played.append(action)
        world.apply(action, 0)
    assert piles_in(state, 0, tuple(played)) == 2
    assert world.left(0) == state.left(0) - 3


def test_the_turn_search_is_reproducible_with_a_seed() -> None:
    game = teocalli.load("stack-back")

    def play(seed: int) -> list[str]:
        state = game.new_state(5)
        bots = [make_agent("mcts:turns=1,iterations=16,depth=4", game, seed), None]
        rng = Rng(9)
        moves: list[str] = []
        while len(moves) < 16 and not state.is_terminal():
            player = state.to_move()[0]
            bot = bots[player]
            action = bot.act(state, player) if bot else choose(state, player, rng)
            moves.append(str(action))
            state.apply(action, player)
        return moves

    assert play(3) == play(3)


def test_wood_keys_match_the_scalar_rule(positions: list[StackBackState]) -> None:
    """The vectorised reach count is the greedy's own scalar rule, exactly."""
    import math

    from teocalli.games.stack_back.components import LENGTHS, NUM_COLOURS

    for state in positions[::3]:
        player = state.turn
        theirs = state.supply[1 - player]
        wood = [a for a, v in state.placements(player).items() if v.stick.level == 0]
        ground = [s for s in state.sticks if s.level == 0]
        expected = []
        for a in wood:
            reach = 0
            for s in ground:
                usable = [
                    LENGTHS[c]
                    for c in range(NUM_COLOURS)
                    if theirs[c] > 0 and c not in (a.colour, s.colour)
                ]
                gap = math.hypot(s.cx - a.x, s.cy - a.y) - s.half - LENGTHS[a.colour] / 2
                if usable and gap <= max(usable) - 6:
                    reach += 1
            expected.append((reach, -state.supply[player][a.colour]))
        assert wood_keys(state, player, wood) == expected


def test_a_blocked_player_is_proposed_a_pass_and_evaluation_reads_the_end() -> None:
    state = blocked()
    assert turns(state, state.turn, Rng(1)) == [(PASS,)]
    values = evaluate(state)
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)
