"""The `duel` bot (2-player Shifting Stones): decisions from the player's knowledge only, legal
complete games, the race to the trigger in its objective, and its fallback elsewhere."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.agents.duel import DuelAgent
from teocalli.agents.heuristics import shifting_stones as heuristic
from teocalli.agents.heuristics.shifting_stones.duel import Budget, candidate_turns, unseen_cards
from teocalli.core import InvalidOption, Rng
from teocalli.games.shifting_stones.position import from_position
from teocalli.games.shifting_stones.state import ShiftingStonesState

from .positions import greedy_positions
from .stones import LOST_IF_ENDED, WON_IF_ENDED, redealt

SMALL = "duel:worlds=6,candidates=6"


def _turn(agent: DuelAgent, state: ShiftingStonesState, player: int) -> list[str]:
    return [str(a) for a in [agent.act(state, player), *agent._plan]]


def test_duel_bot_uses_only_what_the_player_knows() -> None:
    """Two worlds that differ only in the opponent's hand and the deck order give the same turn,
    and the worlds are different enough that a bot reading them would differ somewhere."""
    game = teocalli.load("shifting-stones", players=2)
    positions = [(s, p) for s, p in greedy_positions(game, range(2)) if not s.acted][::6]
    assert len(positions) >= 4
    for state, player in positions:
        assert isinstance(state, ShiftingStonesState)
        other = redealt(state, player, 11)
        assert other.view(player) == state.view(player)
        assert (other.deck, other.hands) != (state.deck, state.hands)
        assert unseen_cards(other, player) == unseen_cards(state, player)
        turns = [_turn(make_agent(SMALL, game, 3), w, player) for w in (state, other)]  # type: ignore[arg-type]
        assert turns[0] == turns[1]


def test_duel_bot_plays_legal_complete_games_from_both_seats() -> None:
    game = teocalli.load("shifting-stones", players=2)
    for seat in (0, 1):
        state = game.new_state(20 + seat)
        bots = [make_agent(SMALL, game, 1), make_agent("greedy", game, 1)]
        if seat:
            bots.reverse()
        while not state.is_terminal():
            player = state.to_move()[0]
            action = bots[player].act(state, player)
            assert action in state.legal_actions(player)
            state.apply(action, player)
        assert state.outcome().reason is not None


def test_every_candidate_is_a_whole_legal_turn_and_the_greedy_one_comes_first() -> None:
    game = teocalli.load("shifting-stones", players=2)
    sizes = []
    for state, player in greedy_positions(game, range(1))[::5]:
        turns = candidate_turns(state, player, Budget(candidates=8))
        assert turns[0] == tuple(_greedy_rest(state, player)), "the greedy turn comes first"
        assert len(set(turns)) == len(turns) <= 9
        sizes.append(len(turns))
        for turn in turns:
            world = state.clone()
            for action in turn:
                assert player in world.to_move() and not world.is_terminal()
                world.apply(action, player)
            assert world.is_terminal() or player not in world.to_move(), turn
    assert max(sizes) == 9, "the budget's 8 outcomes besides the greedy turn were offered"


def _greedy_rest(state: ShiftingStonesState, player: int) -> list[object]:
    world = state.clone()
    out = []
    while not world.is_terminal() and player in world.to_move():
        action = heuristic.choose(world, player, Rng(0))
        out.append(action)
        world.apply(action, player)
    return out


def test_duel_bot_does_not_end_a_lost_game_and_ends_a_won_one() -> None:
    game = teocalli.load("shifting-stones", players=2)
    lost = from_position(game, LOST_IF_ENDED)  # type: ignore[arg-type]
    assert str(heuristic.choose(lost, 1, Rng(0))) == "score 21"  # greedy ends it, and loses
    turn = _turn(make_agent("duel", game, 1), lost, 1)  # type: ignore[arg-type]
    assert "score 21" not in turn, turn
    won = from_position(game, WON_IF_ENDED)  # type: ignore[arg-type]
    turn = _turn(make_agent("duel", game, 1), won, 1)  # type: ignore[arg-type]
    assert "score 21" in turn, turn
    ended = won.clone()
    for action in turn:
        ended.apply(action, 1)
    assert ended.is_terminal() and ended.outcome().winners == (1,)


def test_duel_bot_falls_back_to_the_search_bot_and_names_bad_options() -> None:
    game = teocalli.load("shifting-stones", players=3)
    bot = make_agent("duel:iterations=40", game, 1)
    state = game.new_state(1)
    assert bot.act(state, 0) in state.legal_actions(0)
    with pytest.raises(InvalidOption, match="no option 'width'"):
        make_agent("duel:width=3", game)


def test_leaf_adds_the_mover_s_exact_turn_and_the_other_hand_s_reach() -> None:
    """Seat 1 to move, 12 points (nine 1-point cards and the bonus) to 15: it can score 21 now
    and 20 (5 points) two moves later, paid by 50 and 51 (6 points this turn); seat 0's hand is
    valued card by card at the reach of its distance on this grid."""
    from math import isclose, tanh

    from teocalli.agents.heuristics.shifting_stones.duel import REACH, leaf
    from teocalli.games.shifting_stones.components import POINTS
    from teocalli.games.shifting_stones.grid import grid_index
    from teocalli.games.shifting_stones.solver import SOLVER

    game = teocalli.load("shifting-stones", players=2)
    state = from_position(game, LOST_IF_ENDED.replace("| 20 21", "| 20 21 50 51"))
    assert isinstance(state, ShiftingStonesState)
    index = grid_index(state.grid)
    later = sum(POINTS[c] * REACH[SOLVER.distance_at(c, index)] for c in state.hands[0])
    assert 0 < later < 6
    assert isclose(leaf(state, 1, 1.0), tanh((12 - 15 + 6 - later) / 8))
    assert isclose(leaf(state, 0, 1.0), -leaf(state, 1, 1.0))
    assert isclose(leaf(state, 1, 0.0), heuristic.evaluate(state)[1])


def test_race_sharpens_a_lead_near_the_trigger() -> None:
    """Seat 1 has scored 9 of the 10 cards of the trigger (2/3 of a turn left at 1.5 cards a
    turn); seat 0 only 3: the same 3-point deficit weighs more when fewer cards are scored."""
    from math import isclose, sqrt, tanh

    from teocalli.agents.heuristics.shifting_stones.duel import leaf

    game = teocalli.load("shifting-stones", players=2)
    late = from_position(game, LOST_IF_ENDED)
    assert isinstance(late, ShiftingStonesState)
    assert isclose(leaf(late, 1, 0.0, race=3.0), tanh(-3 / (3 * sqrt(1 + 1 / 1.5))))
    assert isclose(leaf(late, 0, 0.0, race=3.0), -leaf(late, 1, 0.0, race=3.0))
    assert leaf(late, 1, 0.0, race=3.0) < leaf(late, 1, 0.0) < 0


def test_duel_options_reach_the_budget() -> None:
    game = teocalli.load("shifting-stones", players=2)
    bot = make_agent("duel:keep=1,threat=2,skip=0,leaf=0.5,race=3", game, 1)
    assert isinstance(bot, DuelAgent)
    budget = bot.budget()
    assert (budget.keep, budget.threat, budget.skip, budget.leaf) == (1.0, 2.0, 0.0, 0.5)
    assert budget.race == 3.0


def test_finish_switches_to_its_own_worlds_once_a_player_has_that_many_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 1 has 9 cards scored: `finish=9` plays `finish_worlds` worlds, `finish=10` not."""
    from teocalli.agents.heuristics.shifting_stones.duel import duel_turn

    game = teocalli.load("shifting-stones", players=2)
    state = from_position(game, LOST_IF_ENDED)
    calls: list[int] = []
    real = ShiftingStonesState.determinize

    def counted(self: ShiftingStonesState, player: int, rng: Rng) -> ShiftingStonesState:
        calls.append(player)
        return real(self, player, rng)  # type: ignore[return-value]

    monkeypatch.setattr(ShiftingStonesState, "determinize", counted)
    for finish, expected in ((9, 5), (10, 3), (0, 3)):
        calls.clear()
        budget = Budget(worlds=3, finish=finish, finish_worlds=5)
        turn = duel_turn(state, 1, Rng(1), budget)
        assert calls == [1] * expected, finish
        assert "score 21" not in [str(a) for a in turn]
