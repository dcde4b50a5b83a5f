"""OpenSpiel: every game registered as a pyspiel game; random_sim_test; types, views, chance."""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python import rl_environment  # type: ignore[import-untyped]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

import teocalli
from teocalli.core import Decision, Information, game_class
from teocalli.interop import openspiel as tos
from teocalli.interop.observation import encoder_for

from .helpers import GAMES

_CHANCE = int(pyspiel.PlayerId.CHANCE)


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    pyspiel.random_sim_test(tos.load(name, deals=8), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("aztack", {"players": 3, "speed": True}),
        ("space-aztecs", {"players": 5, "codex": False}),
        ("shifting-stones", {"players": 1}),
    ],
)
def test_random_sim_test_other_options(name: str, options: dict[str, Any]) -> None:
    game = tos.load(name, deals=4, **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {tos.short_name(n) for n in teocalli.games()} <= names


@pytest.mark.parametrize("name", GAMES)
def test_game_type_and_info(name: str) -> None:
    game = tos.load(name)
    info, kind = game_class(name).info, game.get_type()
    teo = teocalli.load(name)
    sim = Decision.SIMULTANEOUS in info.decisions
    assert (kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS) == sim
    perfect = info.information is Information.PERFECT
    assert (kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION) == perfect
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_distinct_actions() == teo.num_distinct_actions
    assert game.num_players() == teo.num_players
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() >= teo.max_length
    assert game.observation_tensor_shape() == list(encoder_for(teo).shape)


def test_solo_is_general_sum_and_multiplayer_zero_sum() -> None:
    solo = tos.load("shifting-stones", players=1).get_type().utility
    duo = tos.load("shifting-stones", players=2).get_type().utility
    assert solo == pyspiel.GameType.Utility.GENERAL_SUM
    assert duo == pyspiel.GameType.Utility.ZERO_SUM


def test_deal_is_the_seed_and_views_are_the_observations() -> None:
    game = tos.load("stakz", players=3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(5)
    teo = teocalli.load("stakz", players=3).new_state(5)
    assert sorted(state.legal_actions()) == sorted(teo.legal_action_ints(0))
    encoder = encoder_for(teo.game)
    for p in range(3):
        assert np.array_equal(
            np.array(state.observation_tensor(p), np.float32), encoder.encode(teo.view(p))
        )
        assert f'"player":{p}' in state.observation_string(p)
    assert state.information_state_string(1) != state.information_state_string(2)


def test_simultaneous_node_at_space_aztecs_card_choice() -> None:
    game = tos.load("space-aztecs", players=3, deals=1)
    state = game.new_initial_state()
    state.apply_action(0)
    while not state.is_simultaneous_node():
        state.apply_action(state.legal_actions()[0])
    joint = [state.legal_actions(p)[0] for p in range(3)]
    state.apply_actions(joint)
    assert not state.is_simultaneous_node()


def test_race_has_a_chance_node_for_who_acts_first() -> None:
    game = tos.load("aztack", players=3, speed=True, deals=1)
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.is_chance_node()
    outcomes = [p for p, _ in state.chance_outcomes()]
    assert outcomes == sorted(outcomes) and len(outcomes) >= 2
    state.apply_action(outcomes[-1])
    assert state.current_player() == outcomes[-1]


def test_current_player_follows_steps_taken_on_the_teocalli_state() -> None:
    """`current_player` is kept between OpenSpiel's many questions of one step, but a step
    applied to the teocalli state itself (the rich protocol) is seen at once."""
    game = tos.load("stakz", deals=2)
    state = game.new_initial_state()
    state.apply_action(1)
    core = state.teocalli_state
    assert core is not None
    first = state.current_player()
    assert first == core.to_move()[0]
    while core.to_move()[0] == first:  # the first player ends the turn: the other one moves
        core.apply(state.legal_actions()[-1], first)
    assert state.current_player() == core.to_move()[0] != first
    assert state.legal_actions() == sorted(core.legal_action_ints())


def _legal_or_error(legal: Any, *player: int) -> Any:
    try:
        return list(legal(*player))
    except pyspiel.SpielError as err:
        return f"SpielError: {err}"


_SIM, _END = int(pyspiel.PlayerId.SIMULTANEOUS), int(pyspiel.PlayerId.TERMINAL)


@pytest.mark.parametrize(
    ("name", "options", "kinds"),
    [
        ("aztack", {"players": 3, "speed": True}, {_CHANCE, 0, _END}),  # race chance nodes
        ("space-aztecs", {"players": 3}, {_CHANCE, 0, _SIM, _END}),
        ("space-aztecs", {"players": 3, "turn_based": True}, {_CHANCE, 0, _END}),
        ("stakz", {}, {_CHANCE, 0}),
        ("shifting-stones", {"players": 1}, {_CHANCE, 0, _END}),
    ],
)
def test_questions_answered_in_python_are_pyspiels(
    name: str, options: dict[str, Any], kinds: set[int]
) -> None:
    """`legal_actions` is answered in Python for a player who may act and left to pyspiel
    otherwise, `is_chance_node` and `is_simultaneous_node` in Python: at every node of a random
    game (the deal, races, simultaneous choices, turns, the end), for the current player and
    every player number (the chance and pseudo-players too), they give exactly what pyspiel's
    own C++ methods give, errors included."""
    game = tos.load(name, deals=4, **options)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    nodes = set()
    for _ in range(300):
        cpp = functools.partial(pyspiel.State.legal_actions, state)
        for player in [(), *[(p,) for p in range(-5, game.num_players() + 1)]]:
            ours = _legal_or_error(state.legal_actions, *player)
            assert ours == _legal_or_error(cpp, *player), (state.current_player(), player)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.is_simultaneous_node() == pyspiel.State.is_simultaneous_node(state)
        nodes.add(state.current_player() if state.current_player() < 0 else 0)
        if state.is_terminal():
            break
        if state.is_simultaneous_node():
            joint = [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
            state.apply_actions(joint)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert nodes == kinds  # the kinds of node met (0: a player's)


def test_clone_is_independent_and_serialization_round_trips() -> None:
    game = tos.load("shifting-stones", deals=3)
    state = game.new_initial_state()
    state.apply_action(2)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[-1])
    assert copy.history() != state.history()
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state)
    assert back.information_state_string(0) == state.information_state_string(0)


def test_space_aztecs_converts_to_turn_based() -> None:
    """OpenSpiel's sequential-only algorithms take it through convert_to_turn_based."""
    game = pyspiel.convert_to_turn_based(tos.load("space-aztecs", players=3, deals=2))
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


HIDDEN = [
    pytest.param(name, id=name)
    for name in teocalli.games()
    if game_class(name).info.information is Information.HIDDEN
]


def _load_sequential(name: str, **options: Any) -> Any:
    """The game as a sequential pyspiel game: turn_based=True where it has simultaneous nodes."""
    if Decision.SIMULTANEOUS in game_class(name).info.decisions:
        options["turn_based"] = True
    return tos.load(name, **options)


def _random_steps(state: Any, rng: np.random.RandomState, steps: int) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_what_the_player_knows(name: str) -> None:
    game = _load_sequential(name, deals=8)
    rng = np.random.RandomState(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = _random_steps(game.new_initial_state(), rng, 1)
    for _ in range(4):
        state = _random_steps(state, rng, 6)
        if state.is_terminal():
            break
        player = state.current_player()
        worlds = [state.resample_from_infostate(player, sampler) for _ in range(3)]
        for world in worlds:
            assert world.current_player() == player
            assert world.legal_actions() == state.legal_actions()
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            _random_steps(world.clone(), rng, 20)  # a sampled world plays on
        if game_class(name).info.information is Information.PERFECT:
            assert all(str(w) == str(state) for w in worlds)
    hidden = game_class(name).info.information is Information.HIDDEN
    if hidden and name != "space-aztecs":  # its early picks may hide nothing yet
        other = (player + 1) % game.num_players()  # what the player does not see varies
        assert len({json.dumps(w.teocalli_state.view(other), sort_keys=True) for w in worlds}) > 1


class _ZeroEvaluator(mcts.Evaluator):
    """No rollouts: a value of 0 and a uniform prior, so the test measures the plumbing."""

    def __init__(self, players: int) -> None:
        self.players = players

    def evaluate(self, state: Any) -> np.ndarray:
        return np.zeros(self.players)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_bot_plays_complete_games(name: str) -> None:
    """OpenSpiel's ISMCTSBot (open_spiel.python.algorithms.ismcts), which samples worlds with
    resample_from_infostate, plays seat 0 of a whole game against random play."""
    game = _load_sequential(name, deals=16)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, _ZeroEvaluator(game.num_players()), 2.0, 2, random_state=rng)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 0
    assert sum(state.returns()) == pytest.approx(0.0)


def test_space_aztecs_turn_based_runs_mcts_and_rl_environment() -> None:
    """turn_based=True: each simultaneous choice is turns, lowest seat first, earlier choices
    hidden; OpenSpiel's MCTSBot and rl_environment take it as it is."""
    game = tos.load("space-aztecs", players=3, deals=4, turn_based=True)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    rng = np.random.RandomState(2)
    searcher = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    hidden_checked = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        core = state.teocalli_state
        player = state.current_player()
        if core.decision() is Decision.SIMULTANEOUS and player == 1 and not hidden_checked:
            # player 0 has chosen: player 1 sees the same whatever player 0 chose
            assert 0 not in core.to_move()
            hidden_checked = True
        if player == 0:
            state.apply_action(searcher.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert hidden_checked
    env = rl_environment.Environment(game, seed=3)
    step = env.reset()
    while not step.last():
        p = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][p]))])
    assert sum(step.rewards) == pytest.approx(0.0)
