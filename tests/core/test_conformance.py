"""One conformance suite over the registry: every registered game, in every declared variant."""

from __future__ import annotations

import json
from typing import Any

import pytest

import teocalli
from teocalli.core import (
    Decision,
    Game,
    IllegalAction,
    Information,
    InvalidAction,
    Rng,
    State,
    game_class,
)
from teocalli.core.match import play_game

CONFIGS = [
    pytest.param(name, dict(opts), id=f"{name}-{variant}")
    for name in teocalli.games()
    for variant, opts in game_class(name).info.variants.items()
]
SEEDS = range(3)


class Uniform:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def act(self, state: State, player: int) -> Any:
        actions = state.legal_actions(player)
        return actions[self.rng.randrange(len(actions))]


def random_game(game: Game, seed: int) -> list[State]:
    """Every state of a random seeded game, start to end (copies)."""
    states: list[State] = []
    actors = [Uniform(seed * 31 + p) for p in range(game.num_players)]
    final = play_game(game, actors, seed, on_step=lambda s: states.append(s.clone()))
    return [game.new_state(seed), *states[:-1], final]


def test_every_game_declares_variants_and_metadata() -> None:
    for name in teocalli.games():
        info = game_class(name).info
        assert info.name == name
        assert info.variants, f"{name} declares no variants for the conformance suite"
        assert 1 <= info.min_players <= info.default_players <= info.max_players
        assert info.decisions


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_random_games_end_with_outcomes_in_bounds(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for seed in SEEDS:
        final = random_game(game, seed)[-1]
        assert final.is_terminal() and final.to_move() == ()
        assert len(final.history) <= game.max_length
        out = final.outcome()
        n = game.num_players
        assert len(out.scores) == len(out.ranks) == n
        assert all(0 <= r <= max(n - 1, 1) for r in out.ranks)
        if n > 1:
            assert out.winners, "a multi-player game always has a winner"
        assert all(-1.0 <= r <= 1.0 for r in out.returns())
        json.dumps(final.view(None))


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_apply_on_clone_never_changes_original(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for state in random_game(game, 11)[:-1]:
        before = json.dumps(state._full(), sort_keys=True)
        steps = len(state.history)
        for player in state.to_move():
            for action in state.legal_actions(player)[:8]:
                state.clone().apply(action, player)
        assert json.dumps(state._full(), sort_keys=True) == before
        assert len(state.history) == steps


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_json_save_round_trips_and_replays(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for state in random_game(game, 5)[::7]:
        data = json.loads(json.dumps(state.to_json()))
        loaded = game.state_from_json(data)
        assert loaded._full() == state._full()
        assert loaded.to_json() == state.to_json()
        for p in [None, *range(game.num_players)]:
            assert loaded.view(p) == state.view(p)
        replayed = game.replay(state.seed or 0, [(s.player, s.action) for s in state.history])
        assert replayed._full() == state._full()


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_notation_and_indices_round_trip(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    seen = 0
    for state in random_game(game, 3):
        for player in state.to_move():
            ints = set(state.legal_action_ints(player))
            for action in state.legal_actions(player):
                assert game.parse_action(str(action)) == action
                index = game.action_to_int(action)
                assert 0 <= index < game.num_distinct_actions
                assert index in ints
                if not game.positional_ids:
                    assert game.action_from_int(index) == action
                    assert state.action_from_int(index, player) == action
                seen += 1
            if game.positional_ids:  # an id plays one action of its own id here
                for index in sorted(ints)[:: max(1, len(ints) // 20)]:
                    action = state.action_from_int(index, player)
                    assert game.action_to_int(action) == index
                    assert state._illegal_reason(action, player) is None
    assert seen
    with pytest.raises(InvalidAction):
        game.parse_action("~ not a move ~")
    with pytest.raises(InvalidAction):
        game.action_from_int(game.num_distinct_actions)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_legal_actions_are_deterministic_and_distinct(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for state in random_game(game, 4):
        for player in state.to_move():
            actions = state.legal_actions(player)
            assert actions, "a player asked to move has at least one legal action"
            assert len(set(actions)) == len(actions)
            assert state.clone().legal_actions(player) == actions
        for player in set(range(game.num_players)) - set(state.to_move()):
            assert state.legal_actions(player) == []


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_illegal_actions_are_refused_and_change_nothing(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for state in random_game(game, 6)[:-1:3]:
        player = state.to_move()[0]
        legal = set(state.legal_action_ints(player))
        # not listed and refused by the rules (Stack Back lists a subset of the poses it accepts)
        illegal = [
            i
            for i in range(0, game.num_distinct_actions, 97)
            if i not in legal and state._illegal_reason(game.action_from_int(i), player)
        ][:3]
        before = json.dumps(state._full(), sort_keys=True)
        for index in illegal:
            with pytest.raises(IllegalAction) as err:
                state.apply(index, player)
            assert str(err.value)
        others = [p for p in range(game.num_players) if p not in state.to_move()]
        if others:
            with pytest.raises(IllegalAction):
                state.apply(next(iter(state.legal_actions(player))), others[0])
        assert json.dumps(state._full(), sort_keys=True) == before
    final = random_game(game, 6)[-1]
    with pytest.raises(IllegalAction, match="over"):
        final.apply(0)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_views_leak_nothing(name: str, options: dict[str, Any]) -> None:
    """A player's view and legal actions are the same in every world `determinize` can make,
    and for hidden-information games `determinize` really varies what the player cannot know."""
    game = teocalli.load(name, **options)
    varied = False
    for state in random_game(game, 9)[:-1]:
        for player in range(game.num_players):
            view = state.view(player)
            legal = state.legal_actions(player)
            full = json.dumps(state._full(), sort_keys=True)
            for k in range(3):
                world = state.determinize(player, Rng(k))
                assert world.view(player) == view
                assert world.legal_actions(player) == legal
                assert world.to_move() == state.to_move()
                if json.dumps(world._full(), sort_keys=True) != full:
                    varied = True
            assert json.dumps(state._full(), sort_keys=True) == full, (
                "determinize changed the state"
            )
    if game.info.information is Information.HIDDEN:
        assert varied, "determinize never varied anything hidden"


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_determinize_depends_only_on_what_the_player_knows(
    name: str, options: dict[str, Any]
) -> None:
    """Sampling from any world of the player's information set gives the same world: so a
    search's choices can never depend on the hidden truth, not even through the generator."""
    game = teocalli.load(name, **options)
    for state in random_game(game, 12)[:-1:5]:
        for player in range(game.num_players):
            other = state.determinize(player, Rng(99))
            for k in range(2):
                a = state.determinize(player, Rng(k))._full()
                b = other.determinize(player, Rng(k))._full()
                assert a == b, f"step {len(state.history)}: the sample depends on hidden facts"


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_determinized_worlds_play_to_the_end(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    states = random_game(game, 8)
    state = states[len(states) // 2]
    if state.is_terminal():
        return
    world = state.determinize(state.to_move()[0], Rng(1))
    picker = Uniform(2)
    while not world.is_terminal():
        movers = world.to_move()
        world.apply(picker.act(world, movers[0]), movers[0])
        assert len(world.history) <= game.max_length
    if game.info.information is Information.HIDDEN:
        with pytest.raises(IllegalAction, match="cannot be saved"):
            world.to_json()


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_decisions_are_declared(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for state in random_game(game, 2)[:-1]:
        kind = state.decision()
        assert kind in game.info.decisions
        if kind is Decision.TURN:
            assert len(state.to_move()) == 1


def test_bad_options_are_refused_with_the_option_named() -> None:
    for name in teocalli.games():
        info = game_class(name).info
        with pytest.raises(ValueError, match="no_such_option"):
            teocalli.load(name, no_such_option=1)
        with pytest.raises(ValueError, match="players"):
            teocalli.load(name, players=info.max_players + 1)


def test_declared_passes_are_notation_the_game_reads() -> None:
    for name in teocalli.games():
        game = teocalli.load(name)
        for text in game.info.passes:
            assert str(game.parse_action(text)) == text
