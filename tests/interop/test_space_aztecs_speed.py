"""Space Aztecs' fast observation path: the shared placement it keeps (teocalli/interop/
observation/space_aztecs.py `_Placement`) must give exactly the view's encoding whatever the
order the states come in, and must do the little work the engine's step calls for: a choice moves
one card, which it follows without comparing all 72 places."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from teocalli.core import Rng
from teocalli.games.space_aztecs import from_position
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.state import Phase, SpaceAztecsState
from teocalli.interop.observation import encoder_for
from teocalli.interop.observation import space_aztecs as encoding

from .helpers import random_states


def _same(encoder: encoding.SpaceAztecsEncoder, state: SpaceAztecsState, player: int) -> None:
    expected = encoder.encode(state.view(player))
    assert np.array_equal(encoder.observe(state, player), expected), (
        f"step {len(state.history)}, player {player}"
    )


def _counted(wrapped: Callable[..., Any], calls: list[int]) -> Callable[..., Any]:
    """`wrapped`, adding 1 to `calls[0]` at each call (a plain function: binds as a method)."""

    def counting(*args: Any) -> Any:
        calls[0] += 1
        return wrapped(*args)

    return counting


@pytest.mark.parametrize("players", [2, 4, 6])
def test_observe_alternating_real_and_determinized_worlds(players: int) -> None:
    """An ISMCTS-like order: each step the real state, then worlds re-dealt for a player (piles
    and choices moved at random), then the real state again, every player observing: the
    placement jumps between unrelated deals and back, and must follow exactly."""
    game = SpaceAztecs(players=players)
    encoder = encoder_for(game)
    assert isinstance(encoder, encoding.SpaceAztecsEncoder)
    for state in random_states(game, 5)[::3]:
        assert isinstance(state, SpaceAztecsState)
        for k in range(2):
            world = state.determinize(k % players, Rng(k))
            for player in range(players):
                _same(encoder, world, player)
                _same(encoder, state, player)


def test_a_choice_is_followed_without_comparing_every_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A `choose` moves one card from a pile: the placement finds it among the chosen cards and
    checks the rest with one list comparison; the full comparison (`compress` over all 72
    places) is not run. A new deal is rebuilt once, not followed card by card."""
    game = SpaceAztecs(players=4)
    encoder = encoder_for(game)
    full, rebuilt = [0], [0]
    monkeypatch.setattr(encoding, "compress", _counted(encoding.compress, full))
    monkeypatch.setattr(
        encoding._Placement, "_rebuild", _counted(encoding._Placement._rebuild, rebuilt)
    )
    state = game.new_state(3)
    _same(encoder, state, 0)
    assert rebuilt[0] == 1
    for pile, player in zip("ABCD", (*range(state.start, 4), *range(state.start)), strict=True):
        state.apply(f"take {pile}", player)
        _same(encoder, state, player)
    assert state.phase is Phase.CHOOSE
    calls = full[0]
    for player in range(3):
        card = state.legal_actions(player)[0]
        state.apply(card, player)
        _same(encoder, state, player)
        _same(encoder, state, 3)
    assert full[0] == calls
    assert rebuilt[0] == 1


SUN = """
start 0
city 0: PNK-03 CDX-8
city 1: PNK-04 YEL-T1[YEL-04] PNK-S1[PNK-02]
"""


def test_the_running_scores_follow_the_token() -> None:
    """The Codex of the Sun scores for the Starting Player: two positions that differ only in
    who holds the token have different totals, and observing them in turn gives each its own
    (the placement has nothing to follow: only the token moved)."""
    game = SpaceAztecs(players=3, removed_set="green")
    encoder = encoder_for(game)
    first = from_position(game, SUN)
    second = from_position(game, SUN.replace("start 0", "start 1"))
    score = encoder.layout.fields["score_now"]
    totals = []
    for state in (first, second, first, second):
        _same(encoder, state, 2)
        totals.append(encoder.observe(state, 2)[score.start : score.stop].tolist())
    assert totals[0] != totals[1]
    assert totals[0] == totals[2] and totals[1] == totals[3]
    tucked = encoder.layout.fields["tucked"]
    assert encoder.observe(first, 0)[tucked.start : tucked.stop].sum() == 2  # YEL-04, PNK-02


@pytest.mark.parametrize("players", [2, 4, 6])
def test_new_deals_tucks_and_captures_are_followed_without_comparing_every_card(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One encoder through several games played in place, as an env does: each new game's first
    position (after the last game's, memories and cities full) is rebuilt at once, the memories
    cleared, and every later step's moved cards, a Temple's tuck and a Saucer's capture too, are
    found from the round's cards and the cards under them (`_under`), never by comparing all 72
    places; every player's observation is the view's encoding at every step, and so is an
    earlier game's position observed again afterwards (the full comparison then runs)."""
    game = SpaceAztecs(players=players)
    encoder = encoder_for(game)
    assert isinstance(encoder, encoding.SpaceAztecsEncoder)
    full, rebuilt = [0], [0]
    compress = encoding.compress

    def counted(selectors: Any, data: Any) -> Any:
        if selectors is encoding._RANGE:
            full[0] += 1
        return compress(selectors, data)

    monkeypatch.setattr(encoding, "compress", counted)
    monkeypatch.setattr(
        encoding._Placement, "_rebuild", _counted(encoding._Placement._rebuild, rebuilt)
    )
    under = {"tucked": 0, "captured": 0}
    earlier: list[SpaceAztecsState] = []
    for seed in range(3):
        rng = Rng(seed)
        state = game.new_state(seed)
        assert isinstance(state, SpaceAztecsState)
        for player in range(players):
            _same(encoder, state, player)
        assert rebuilt[0] == seed + 1
        while not state.is_terminal():
            movers = state.to_move()
            mover = movers[rng.randrange(len(movers))]
            _same(encoder, state, mover)
            _same(encoder, state, (mover + 1) % players)
            actions = state.legal_actions(mover)
            state.apply(actions[rng.randrange(len(actions))], mover)
            where = state.where
            under["tucked"] += sum(x >= encoding.TEMPLED for x in where) > 0
            under["captured"] += sum(x >= encoding.CAPTURED for x in where) > 0
            if len(state.history) == 20:
                earlier.append(state.clone())
        for player in range(players):
            _same(encoder, state, player)
    assert full[0] == 0
    assert rebuilt[0] == 3
    assert under["tucked"] and under["captured"]
    for state in earlier:  # another game's position: compared in full, rebuilt
        for player in range(players):
            _same(encoder, state, player)
    assert full[0] > 0


def test_running_totals_are_clipped_like_the_view_encoding() -> None:
    """`score_now` is a city's total / 100 in [-1, 1]: the totals within [-100, 100] are looked
    up, the others clipped on the way out, as `encode` clips them."""
    for total in (-250, -101, -100, -37, 0, 5, 100, 101, 250):
        expected = max(-1.0, min(1.0, total / 100))
        assert encoding._SCORE_OF(total) == expected
