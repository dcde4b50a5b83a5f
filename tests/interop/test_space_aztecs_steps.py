"""Space Aztecs' observation written from the last step alone (teocalli/interop/observation/
space_aztecs.py `_step`): a `take`, a `choose` (one that reveals the cards and plays them:
`_resolved`) or the answer to a question, of the very state object observed one step before,
is written from that step, any other state by the value diff (`_diff`). Both must give exactly
the view's encoding, whatever order the states come in."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from teocalli.core import Rng
from teocalli.games.space_aztecs.actions import Choose, Take
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.state import Phase, SpaceAztecsState
from teocalli.interop.observation import encoder_for
from teocalli.interop.observation import space_aztecs as encoding

from .helpers import assert_same, random_step


def _diffs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the encoder's value diffs (`_diff` calls)."""
    calls = [0]
    diff = encoding.SpaceAztecsEncoder._diff

    def counted(self: Any, *args: Any) -> None:
        calls[0] += 1
        diff(self, *args)

    monkeypatch.setattr(encoding.SpaceAztecsEncoder, "_diff", counted)
    return calls


@pytest.mark.parametrize("players", [2, 4, 6])
def test_takes_and_choices_are_written_from_the_step(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole game played in place, the mover observed before each step (as an env does):
    always the view's encoding, and no value diff after any step before the end: a `take`, a
    `choose` that leaves the choice going on, one that reveals the cards (`_resolved`), the
    answer to a question (a capture, a tuck or keep)."""
    diffs = _diffs(monkeypatch)
    game = SpaceAztecs(players=players)
    encoder = encoder_for(game)
    rng = Rng(players)
    state = game.new_state(40 + players)
    assert isinstance(state, SpaceAztecsState)
    stepped = ended = 0
    while not state.is_terminal():
        movers = state.to_move()
        player = movers[rng.randrange(len(movers))]
        before = diffs[0]
        assert_same(encoder, state, player)
        if state.history:
            last = state.history[-1].action
            simple = type(last) is Take or (type(last) is Choose and state.phase is Phase.CHOOSE)
            ended += type(last) is not Take and not simple  # the cards played (`_resolved`)
            assert diffs[0] == before, (len(state.history), last)
            stepped += simple
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    assert_same(encoder, state, 0)
    assert stepped >= 20 and ended >= 3


@pytest.mark.parametrize("players", [3, 5])
def test_every_player_at_every_step(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """As PettingZoo's Parallel env does: every player observed at every step, the choice's
    simultaneous steps included; the public part is written once per step (the other
    observers only copy it), and each observer's own fields (its pile, its choice, the cards
    others have just chosen from piles it remembers) are its own."""
    diffs = _diffs(monkeypatch)
    game = SpaceAztecs(players=players)
    encoder = encoder_for(game)
    rng = Rng(9)
    state = game.new_state(7)
    assert isinstance(state, SpaceAztecsState)
    pending_seen = 0
    while not state.is_terminal():
        before = diffs[0]
        for player in range(players):
            assert_same(encoder, state, player)
        assert diffs[0] - before <= 1
        if state.phase is Phase.CHOOSE and max(state.chosen) >= 0:
            pending_seen += 1
        random_step(state, rng)
    assert pending_seen >= 5


def test_gaps_clones_and_resampled_worlds_in_the_middle_of_a_round() -> None:
    """Out of order: the same state object two steps on (no step to write: the diff), a clone
    at the same step (another object), a world resampled for a player during the choice (other
    piles, other hidden choices), then the real state again and one step on (the step alone
    again): always exactly the view's encoding."""
    game = SpaceAztecs(players=4)
    encoder = encoder_for(game)
    rng = Rng(2)
    state = game.new_state(12)
    assert isinstance(state, SpaceAztecsState)
    checked = 0
    while not state.is_terminal():
        player = state.to_move()[0]
        assert_same(encoder, state, player)
        if state.phase is Phase.CHOOSE and checked < 40:
            world = state.determinize((player + 1) % 4, Rng(checked))
            assert isinstance(world, SpaceAztecsState)
            for p in range(4):
                assert_same(encoder, world, p)
            assert_same(encoder, state.clone(), player)
            assert_same(encoder, state, player)
            checked += 1
        random_step(state, rng)
        if not state.is_terminal() and rng.randrange(3) == 0:
            random_step(state, rng)  # a gap of two steps
    assert checked >= 10


def test_what_is_handed_out_is_the_callers_to_change() -> None:
    """Masks and observations are put together in buffers the encoder keeps (the takes' masks
    are even kept by set of piles) but handed out as copies: a caller writing into one (a
    masked sampler) changes nothing the encoder hands out next, and one kept (a replay buffer)
    stays as it was while the game goes on."""
    game = SpaceAztecs(players=4)
    encoder = encoder_for(game)
    rng = Rng(6)
    state = game.new_state(3)
    assert isinstance(state, SpaceAztecsState)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    phases: set[Phase] = set()
    while not state.is_terminal() and len(phases) < 2:
        player = state.to_move()[0]
        observation = encoder.observe(state, player)
        kept.append((observation, observation.copy()))
        for _ in range(2):
            encoder.mask(state, player)[:] = 1
            encoder.observe(state, player)[:] = 5.0
        assert_same(encoder, state, player)
        phases.add(state.phase)
        random_step(state, rng)
    assert phases == {Phase.PICK, Phase.CHOOSE}
    assert all(np.array_equal(observation, copy) for observation, copy in kept)


def _legal(encoder: Any, state: SpaceAztecsState, player: int) -> None:
    legal = sorted(state.legal_action_ints(player))
    assert np.flatnonzero(encoder.mask(state, player)).tolist() == legal, (
        f"step {len(state.history)}, phase {state.phase.name}, player {player}"
    )


@pytest.mark.parametrize("players", [2, 4, 5])
def test_choice_masks_from_the_pile_rows_in_any_order(players: int) -> None:
    """During the choice the mask of the position last observed is its pile's row kept with the
    observation (`_Placement.choices`); any other position (not observed yet, observed one step
    before, a clone, a resampled world with other piles, the real state after one) is marked
    from the engine's ids. Every order gives exactly the legal ids."""
    game = SpaceAztecs(players=players)
    encoder = encoder_for(game)
    rng = Rng(31 + players)
    state = game.new_state(5 + players)
    assert isinstance(state, SpaceAztecsState)
    from_rows = 0
    while not state.is_terminal():
        order = list(range(players))
        rng.shuffle(order)
        if state.phase is Phase.CHOOSE:
            for p in order:  # masked before the position is observed: from the ids
                _legal(encoder, state, p)
            world = state.determinize(order[0], Rng(len(state.history)))
            assert isinstance(world, SpaceAztecsState)
            assert_same(encoder, world, order[0])
            for p in order:  # a resampled world, observed: its own piles
                _legal(encoder, world, p)
            for p in order:  # the real state, not observed since: from the ids
                _legal(encoder, state, p)
            assert_same(encoder, state, order[-1])
            for p in order:  # observed: from the rows
                from_rows += state.chosen[p] < 0
                _legal(encoder, state, p)
                _legal(encoder, state.clone(), p)
        else:
            assert_same(encoder, state, state.to_move()[0])
        random_step(state, rng)
    assert from_rows >= 20


def test_every_kind_of_resolution_is_written_from_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many games in place, the mover observed before each step: the reveals that end the
    round, those that stop at a Saucer's capture or an Agent's tuck, and the captures, tucks
    and keeps, with or without more cards played after them and up to a new round, are all
    written from the step (`_resolved`), never by the value diff (the first position of a game
    and its end aside), and always give the view's encoding."""
    diffs = _diffs(monkeypatch)
    game = SpaceAztecs(players=4)
    encoder = encoder_for(game)
    rng = Rng(17)
    kinds: dict[tuple[str, str], int] = {}
    for seed in range(80):
        state = game.new_state(seed)
        assert isinstance(state, SpaceAztecsState)
        while not state.is_terminal():
            movers = state.to_move()
            player = movers[rng.randrange(len(movers))]
            before = diffs[0]
            assert_same(encoder, state, player)
            if state.history:
                last = type(state.history[-1].action).__name__
                assert diffs[0] == before, (seed, len(state.history), last)
                key = (last, state.phase.name)
                kinds[key] = kinds.get(key, 0) + 1
            actions = state.legal_actions(player)
            state.apply(actions[rng.randrange(len(actions))], player)
        assert_same(encoder, state, 0)
    for key in [
        ("Choose", "PICK"),
        ("Choose", "CAPTURE"),
        ("Choose", "TUCK"),
        ("Capture", "PICK"),
        ("Capture", "CAPTURE"),
        ("Tuck", "PICK"),
        ("Tuck", "CAPTURE"),
        ("Keep", "PICK"),
        ("Keep", "CAPTURE"),
    ]:
        assert kinds.get(key, 0) >= 1, (key, kinds)
