"""Stakz's observation brought up to date from the steps applied since (teocalli/interop/
observation/stakz.py `observe`): one buffer for every observer, the steps of the very state object
it was written from replayed once (a placement's tile, hand and stack; a split's stacks; a draw's
colour), another observer's seat and own tiles swapped in, any other state rewritten
(`_rewrite`). All must give exactly the view's encoding, whatever order the states and the
observers come in."""

from __future__ import annotations

import pytest

from teocalli.core import Rng
from teocalli.games.stakz.actions import EndTurn, Place
from teocalli.games.stakz.game import Stakz
from teocalli.games.stakz.state import StakzState
from teocalli.interop.observation import encoder_for
from teocalli.interop.observation import stakz as encoding

from .helpers import assert_same, counted, random_gap, random_step


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_mover_observed_before_each_step_is_replayed_not_rewritten(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole matches played in place, the mover observed before each step (as an env does):
    always the view's encoding, rewritten only at the first step and at each new deal, the
    other steps replayed (splits and the observer's own draws among them)."""
    rewrites = counted(monkeypatch, encoding.StakzEncoder, "_rewrite")
    splits = counted(monkeypatch, encoding.StakzEncoder, "_splits")
    game = Stakz(players=players)
    encoder = encoder_for(game)
    rng = Rng(players)
    deals = observed = 0
    for seed in range(3):
        state = game.new_state(seed)
        deals += 1
        while not state.is_terminal():
            assert_same(encoder, state, state.to_move()[0])
            observed += 1
            rounds = len(state.rounds)
            random_step(state, rng)
            deals += len(state.rounds) > rounds and not state.is_terminal()
        for player in range(players):
            assert_same(encoder, state, player)
    assert observed > 500
    assert rewrites[0] == deals
    assert splits[0] >= 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_any_observers_gaps_clones_and_earlier_states(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One match played in place, observed at random: the mover, another player, every player
    in turn, the same one twice; after gaps of no step to more than the replay's reach; between
    them, now and then, a clone of the state or an earlier position (another state object: a
    rewrite, after which the live state is rewritten too). Every observation is exactly the
    view's encoding, and each path was taken: replays with a split, with the observer's own
    draw, with another player's draw, observers swapped in after a rewrite left their row stale."""
    rewrites = counted(monkeypatch, encoding.StakzEncoder, "_rewrite")
    splits = counted(monkeypatch, encoding.StakzEncoder, "_splits")
    seats = counted(monkeypatch, encoding.StakzEncoder, "_seat_of")
    game = Stakz(players=players, target=30)
    encoder = encoder_for(game)
    rng = Rng(10 + players)
    state = game.new_state(7)
    earlier: list[StakzState] = []
    last = -1  # steps of the live state when last observed
    own_draws = other_draws = 0
    while not state.is_terminal():
        random_gap(state, rng)
        if rng.randrange(10) == 0:
            earlier.append(state.clone())
        observers = (
            list(range(players))
            if rng.randrange(4) == 0
            else [rng.randrange(players) for _ in range(1 + rng.randrange(2))]
        )
        steps = state.history[last:] if last >= 0 else []
        for player in observers:
            for step in steps:
                if type(step.action) is EndTurn and step.action.draw is not None:
                    own_draws += step.player == player
                    other_draws += step.player != player
            steps = []
            assert_same(encoder, state, player)
        last = len(state.history)
        if earlier and rng.randrange(6) == 0:
            other = earlier[rng.randrange(len(earlier))]
            assert_same(encoder, other, rng.randrange(players))
            if not other.is_terminal() and rng.randrange(2) == 0:
                random_step(other, rng)  # played on: the next look at it is a replay
                assert_same(encoder, other, rng.randrange(players))
    assert rewrites[0] >= 10
    assert splits[0] >= 3
    assert seats[0] >= 50
    assert own_draws >= 10
    assert other_draws >= 10


def test_a_replay_across_a_split_and_more_placements_on_its_stacks() -> None:
    """The steps since the last observation split a stack and then place on both halves and on
    other stacks (several tiles on one stack: its run rewritten): the view's encoding."""
    game = Stakz(players=2)
    encoder = encoder_for(game)
    found = 0
    for seed in range(40):
        state = game.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal() and found < 30:
            assert_same(encoder, state, 0)
            before = len(state.stacks)
            placed: list[int] = []
            for _ in range(1 + rng.randrange(12)):
                if state.is_terminal():
                    break
                rounds = len(state.rounds)
                random_step(state, rng)
                if len(state.rounds) != rounds:
                    break
                action = state.history[-1].action
                if isinstance(action, Place):
                    placed.append(action.stack)
            if len(state.stacks) > before and len(placed) > len(set(placed)):
                found += 1
        if found >= 30:
            break
    assert found >= 30
