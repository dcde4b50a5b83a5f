"""`State.legal_ids`: a step's legal ids, listed once and shared by the mask and `apply(int)`.

The memo is keyed by the step, replaced and never changed in place, so clones may share it and
any `apply` invalidates it; a determinized world drops it. These tests count the calls of a
game's move generator (`_legal_action_ints`) and check the ids against a fresh listing.
"""

from __future__ import annotations

from typing import Any

import pytest

import teocalli
from teocalli.core import IllegalAction, Rng, State
from teocalli.interop.observation import encoder_for

from .test_conformance import CONFIGS

FOUR = ["aztack", "stakz", "shifting-stones", "space-aztecs"]
# Stack Back's ids are positional (a bin, not one action): tests/games/stack_back/test_sb_ids.py.
ONE_ACTION_IDS = [config for config in CONFIGS if config.values[0] in FOUR]


def _counting(state: State, hook: str) -> list[int]:
    """Count the calls of one of the state's hooks (on this object only)."""
    calls = [0]
    original = getattr(state, hook)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    setattr(state, hook, counted)
    return calls


@pytest.mark.parametrize("name", FOUR)
def test_mask_and_apply_int_list_the_legal_moves_once_per_step(name: str) -> None:
    game = teocalli.load(name)
    encoder = encoder_for(game)
    state = game.new_state(3)
    calls = _counting(state, "_legal_action_ints")
    checks = _counting(state, "_illegal_reason")
    rng = Rng(5)
    steps = 0
    while not state.is_terminal() and steps < 40:
        player = state.to_move()[0]
        before = calls[0]
        mask = encoder.mask(state, player)
        legal = [int(i) for i in mask.nonzero()[0]]
        assert sorted(state.legal_action_ints(player)) == legal
        state.apply(legal[rng.randrange(len(legal))], player)
        assert calls[0] == before + 1, f"step {steps}: the moves were listed {calls[0] - before}x"
        steps += 1
    assert steps >= 10
    assert checks[0] == 0  # a listed id needs no second verdict from the rules


@pytest.mark.parametrize(("name", "options"), ONE_ACTION_IDS)
def test_legal_actions_are_the_objects_of_the_legal_ids(name: str, options: dict[str, Any]) -> None:
    """Games whose `_legal_actions` reads the ids keep one order for both (the adapters and the
    bots see the same moves), and ids stay right along a game (the memo follows the step)."""
    game = teocalli.load(name, **options)
    assert not game.positional_ids
    state = game.new_state(1)
    rng = Rng(2)
    while not state.is_terminal() and len(state.history) < 60:
        for player in state.to_move():
            ids = state.legal_action_ints(player)
            assert ids == [game.action_to_int(a) for a in state.legal_actions(player)]
            assert ids == state.clone()._legal_action_ints(player)  # the memo is not stale
        movers = state.to_move()
        player = movers[rng.randrange(len(movers))]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)


@pytest.mark.parametrize("name", FOUR)
def test_clones_sharing_a_memo_each_list_their_own_moves(name: str) -> None:
    game = teocalli.load(name)
    state = game.new_state(7)
    for _ in range(6):  # into the game, past the first decisions
        player = state.to_move()[0]
        state.apply(state.legal_action_ints(player)[0], player)
    player = state.to_move()[0]
    ids = state.legal_action_ints(player)
    twin = state.clone()
    assert twin._legal_memo is state._legal_memo  # shared: replaced, never changed in place
    twin.apply(ids[-1], player)
    state.apply(ids[0], player)
    for s in (state, twin):
        for p in s.to_move():
            assert s.legal_action_ints(p) == s.clone()._legal_action_ints(p)


def test_an_illegal_id_is_still_refused_with_the_rule() -> None:
    game = teocalli.load("stakz")
    state = game.new_state(0)
    player = state.to_move()[0]
    legal = set(state.legal_action_ints(player))
    bad = next(i for i in range(game.num_distinct_actions) if i not in legal)
    with pytest.raises(IllegalAction):
        state.apply(bad, player)
    assert not state.history


@pytest.mark.parametrize("name", ["stakz", "shifting-stones", "space-aztecs"])
def test_a_determinized_world_lists_its_own_moves(name: str) -> None:
    """The memo belongs to the real deal: a sampled world, at the same step, may hold other
    cards, so `determinize` drops it."""
    game = teocalli.load(name)
    state = game.new_state(4)
    for p in state.to_move():
        state.legal_action_ints(p)
    assert state._legal_memo is not None
    world = state.determinize(state.to_move()[0], Rng(9))
    assert world._legal_memo is None
    for p in world.to_move():
        assert world.legal_action_ints(p) == world._legal_action_ints(p)
