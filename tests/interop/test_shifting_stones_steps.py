"""Shifting Stones' observation and mask written from the last step alone (teocalli/interop/
observation/shifting_stones.py): a shift, flip, end or skip of the very state object observed one
step before is written inline (`observe`, `_passed`), the mask's scores come from the engine's
generated pattern matchers (`components.MATCHERS`), whose list the engine keeps for
`legal_actions`. Both must
give exactly the view's encoding and the engine's legal ids (and the engine's scores), whatever
order the states and observers come in."""

from __future__ import annotations

from typing import Any

import pytest

import teocalli
from teocalli.core import Rng
from teocalli.games.shifting_stones.actions import End, Score, Skip
from teocalli.games.shifting_stones.components import matches_by_table
from teocalli.games.shifting_stones.state import ShiftingStonesState
from teocalli.interop.observation import encoder_for
from teocalli.interop.observation import shifting_stones as encoding

from .helpers import assert_same

VARIANTS = [
    pytest.param(options, id=name)
    for name, options in teocalli.load("shifting-stones").info.variants.items()
]


def _same(encoder: Any, state: ShiftingStonesState, player: int) -> None:
    assert_same(encoder, state, player)
    if not state.is_terminal() and state.turn == player:  # the scores the mask left the engine
        hand, grid = state.hands[player], state.grid
        assert state.scorable(player) == [c for c in hand if matches_by_table(c, grid)]


def _step(state: ShiftingStonesState, rng: Rng) -> None:
    """A random legal action, scoring, skipping and ending early more often than a uniform
    draw would (so that those steps meet the inline paths too)."""
    player = state.to_move()[0]
    actions = state.legal_actions(player)
    for kind, chance in ((Score, 2), (Skip, 4), (End, 6)):
        chosen = [a for a in actions if type(a) is kind]
        if chosen and rng.randrange(chance) == 0:
            state.apply(chosen[rng.randrange(len(chosen))], player)
            return
    state.apply(actions[rng.randrange(len(actions))], player)


@pytest.mark.parametrize("options", VARIANTS)
def test_every_step_observed_as_an_adapter_does_and_out_of_order(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapters' order (the mover's observation and mask before each step of the same state
    object), with now and then another player observed between steps, the same step twice, a
    clone, an earlier position of this deal or of another, or a step left unobserved: always
    exactly the view encoding and the legal ids. Counts that the turn-passing inline path met
    reshuffles."""
    game = teocalli.load("shifting-stones", **options)
    encoder = encoder_for(game)
    passed = encoding.ShiftingStonesEncoder._passed
    reshuffled = [0, 0]  # inline ends and skips, those with a reshuffled discard pile

    def counted(self: Any, state: ShiftingStonesState, mv: Any, w: Any, mover: int) -> None:
        reshuffled[0] += 1
        reshuffled[1] += len(state.discard) != len(w.discard)
        passed(self, state, mv, w, mover)

    monkeypatch.setattr(encoding.ShiftingStonesEncoder, "_passed", counted)
    rng = Rng(17)
    n = game.num_players
    earlier: list[ShiftingStonesState] = []  # positions of this deal and of the deals before
    for seed in range(12):
        state = game.new_state(seed)
        while not state.is_terminal():
            mover = state.to_move()[0]
            roll = rng.randrange(12)
            if roll == 0:  # another seat first (its hand swapped in, then back)
                _same(encoder, state, rng.randrange(n))
            elif roll == 1:  # a clone: compared field by field
                _same(encoder, state.clone(), rng.randrange(n))
            elif roll == 2 and earlier:  # an earlier position, of this deal or another
                _same(encoder, earlier[rng.randrange(len(earlier))], rng.randrange(n))
            if roll != 3:  # else a step left unobserved (replayed)
                _same(encoder, state, mover)
            if roll == 4:
                _same(encoder, state, mover)
            if rng.randrange(10) == 0:
                earlier.append(state.clone())
            _step(state, rng)
        for player in range(n):
            _same(encoder, state, player)
    assert reshuffled[0] >= 30
    assert reshuffled[1] >= 1
