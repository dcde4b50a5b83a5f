"""Stakz's whole-turn proposals (`turns`) and the turn-level search that uses them."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.heuristics.stakz import choose, evaluate, placement_plans, rollout, turns
from teocalli.agents.mcts import MCTSAgent
from teocalli.agents.turn_search import TurnSearch, policy_turn
from teocalli.core import Rng
from teocalli.games.stakz import StakzState
from teocalli.games.stakz import from_position as stakz_position
from teocalli.games.stakz.actions import EndTurn, Place

from .positions import greedy_positions

MORE_TILES = """
stacks: Rx Rt Pt Pt Bt / Px Pt Bt Rt Rx Bx Ox / Ox Oh Bh Gh Gs / Gt Gc Bc Oc Oh / Gc Rc Pc Px
hand 0: Rh Oc Gx Pc
hand 1: Rs Ot
turn: 0
scores: 9 7
"""
"""From a seeded greedy game (seed 4, step 422): greedy plays Gx@1 (a split) then Rh@1 and is
stuck with Oc Pc; Oc@1, Rh@3, Gx@4 sheds three tiles."""


def placed_in(state: StakzState, player: int, turn: tuple[object, ...]) -> int:
    """Tiles the turn sheds in this round (99 if it empties the hand)."""
    world = state.clone()
    rounds = len(world.rounds)
    count = 0
    for action in turn:
        world.apply(action, player)
        count += isinstance(action, Place)
        if len(world.rounds) > rounds:
            return 99
    return count


@pytest.fixture(scope="module")
def positions() -> list[StakzState]:
    """Positions along seeded 2-player greedy games."""
    found = greedy_positions(teocalli.load("stakz", players=2), range(2), every=4)
    return [s for s, _ in found]


def test_every_proposed_turn_is_legal_and_ends_the_turn(positions: list[StakzState]) -> None:
    mid_turn = wins = 0
    for state in positions:
        player = state.player
        mid_turn += state.placed > 0
        proposals = turns(state, player, Rng(1))
        assert proposals, "a player to move always has a turn (ending it at least)"
        assert len(set(proposals)) == len(proposals)
        for turn in proposals:
            world = state.clone()
            rounds = len(world.rounds)
            for action in turn:
                assert not world.is_terminal() and world.to_move() == (player,)
                assert len(world.rounds) == rounds, "nothing follows the round's end"
                assert action in world.legal_actions(player)
                world.apply(action, player)
            won = len(world.rounds) > rounds
            wins += won
            assert won or isinstance(turn[-1], EndTurn), turn
            assert won or world.is_terminal() or world.to_move() == (1 - player,), turn
    assert mid_turn >= 10, "the positions include some taken after a placement"
    assert wins >= 1, "some positions let the hand be emptied"


def test_proposals_use_only_what_the_player_knows(positions: list[StakzState]) -> None:
    for state in positions[::5]:
        player = state.player
        expected = turns(state, player, Rng(0))
        for k in range(3):
            world = state.determinize(player, Rng(100 + k))
            assert turns(world, player, Rng(k)) == expected


def test_proposals_shed_at_least_as_many_tiles_as_greedy(positions: list[StakzState]) -> None:
    for state in positions[::3]:
        player = state.player
        greedy = placed_in(state, player, policy_turn(state, player, choose, Rng(1)))
        best = max(placed_in(state, player, t) for t in turns(state, player, Rng(1)))
        assert best >= min(greedy, 99)


def test_a_hand_that_can_be_emptied_is_emptied_and_nothing_else_is_proposed() -> None:
    game = teocalli.load("stakz", players=2)
    state = stakz_position(game, "stacks: Gt / Rc\nhand 0: Rt Bt\nhand 1: Gx Ph\n")
    # Rt@0 (searched first) strands Bt; Bt@0 then Rt@1 empties the hand
    assert turns(state, 0, Rng(0)) == [(Place(16, 0), Place(1, 1))]
    assert placed_in(state, 0, turns(state, 0, Rng(0))[0]) == 99


def test_a_position_where_a_proposal_sheds_more_than_greedy_and_the_search_plays_it() -> None:
    game = teocalli.load("stakz", players=2)
    state = stakz_position(game, MORE_TILES)
    greedy = policy_turn(state, 0, choose, Rng(1))
    assert placed_in(state, 0, greedy) == 2
    assert max(len(run) for run, _, _ in placement_plans(state, 0)) == 3
    proposals = turns(state, 0, Rng(1))
    assert placed_in(state, 0, proposals[0]) == 3, "the longest sequence is proposed first"
    bot = make_agent("ismcts:iterations=200,depth=6", game, 7)
    assert isinstance(bot, MCTSAgent) and isinstance(bot.search, TurnSearch)
    world = state.clone()
    played = []
    while world.to_move() == (0,):
        action = bot.act(world, 0)
        played.append(action)
        world.apply(action, 0)
    assert placed_in(state, 0, tuple(played)) == 3
    assert world.hand_size[0] == state.hand_size[0] - 3 + 1  # three placed, one drawn


def test_the_turn_search_is_reproducible_with_a_seed() -> None:
    game = teocalli.load("stakz", players=2)

    def play(seed: int) -> list[str]:
        state = game.new_state(5)
        bot = make_agent("ismcts:iterations=60,depth=4", game, seed)
        rng = Rng(9)
        moves: list[str] = []
        while len(moves) < 40 and not state.is_terminal():
            player = state.to_move()[0]
            action = bot.act(state, player) if player == 0 else choose(state, player, rng)
            moves.append(str(action))
            state.apply(action, player)
        return moves

    assert play(3) == play(3)


def test_rollout_is_legal_and_evaluate_is_bounded(positions: list[StakzState]) -> None:
    rng = Rng(2)
    for state in positions[::7]:
        player = state.player
        assert rollout(state, player, rng) in state.legal_actions(player)
        values = evaluate(state)
        assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)


def test_a_round_won_by_the_next_starter_is_searched_and_the_next_round_played() -> None:
    """The winner of a round may start the next one; that deal differs in every sampled world,
    so the turns compared stop at the winning placement and the next round is searched anew."""
    game = teocalli.load("stakz", players=2)
    text = "stacks: Gt / Rc\nhand 0: Gx Ph\nhand 1: Rt Bt\nturn: 1\nstarter: 0\n"
    state = stakz_position(game, text)
    bot = make_agent("ismcts:iterations=40,depth=4", game, 3)
    world = state.clone()
    for _ in range(2):
        action = bot.act(world, 1)
        assert action in world.legal_actions(1)
        world.apply(action, 1)
    assert len(world.rounds) == 1 and world.rounds[0] == ((2, 0), 1)
    assert world.to_move() == (1,), "the winner starts the next round"
    assert bot.act(world, 1) in world.legal_actions(1)
