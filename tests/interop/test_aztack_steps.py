"""Aztack's observation brought up to date from the steps applied since (teocalli/interop/
observation/aztack.py `observe`): one buffer for every observer, the steps of the very state object
it was written from replayed once (a placement's stone, hand, cells and pairs; a discard; the
bonus owers, the turn, Speed Stack's movers), another observer's seat swapped in, any other state
rewritten (`_rewrite`). All must give exactly the view's encoding, whatever order the states and
the observers come in; the mask, exactly the legal ids."""

from __future__ import annotations

from typing import Any

import pytest

from teocalli.core import Rng
from teocalli.games.aztack.actions import Discard, Place
from teocalli.games.aztack.game import Aztack
from teocalli.games.aztack.state import AztackState
from teocalli.interop.observation import aztack as encoding
from teocalli.interop.observation import encoder_for

from .helpers import assert_same, counted, random_gap, random_step

VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "speed": True},
    {"players": 4, "speed": True, "declare": True},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_the_mover_observed_before_each_step_is_replayed_not_rewritten(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole games played in place, a mover observed before each step (as an env does): always
    the view's encoding, rewritten only at each game's first step, the other steps replayed
    (discards and bonus decisions among them), every player observed at the end."""
    rewrites = counted(monkeypatch, encoding.AztackEncoder, "_rewrite")
    game = Aztack(**options)
    encoder = encoder_for(game)
    rng = Rng(3)
    games = observed = discards = 0
    for seed in range(6):
        state = game.new_state(seed)
        games += 1
        while not state.is_terminal():
            movers = state.to_move()
            assert_same(encoder, state, movers[rng.randrange(len(movers))])
            observed += 1
            random_step(state, rng)
            discards += type(state.history[-1].action) is Discard
        for player in range(game.num_players):
            assert_same(encoder, state, player)
    assert observed > 100
    assert discards >= 1
    assert rewrites[0] == games


@pytest.mark.parametrize("options", VARIANTS)
def test_any_observers_gaps_clones_and_earlier_states(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games played in place, observed at random: a mover, another player, every player in
    turn, the same one twice; after gaps of no step to more than the replay's reach; between
    them, now and then, a clone of the state or an earlier position (another state object: a
    rewrite, after which the live state is rewritten too). Every observation is exactly the
    view's encoding, and each path was taken: replays of several placements at once, of a
    single one, seats swapped in, rewrites."""
    rewrites = counted(monkeypatch, encoding.AztackEncoder, "_rewrite")
    laid: list[int] = []  # stones laid by each replay
    method = encoding.AztackEncoder._placements

    def placements(self: Any, state: AztackState, rec: Any) -> None:
        laid.append(len(state.placed) - rec.placed)
        method(self, state, rec)

    monkeypatch.setattr(encoding.AztackEncoder, "_placements", placements)
    game = Aztack(**options)
    encoder = encoder_for(game)
    rng = Rng(40 + game.num_players)
    seats = 0
    for seed in range(20):
        state = game.new_state(seed)
        earlier: list[AztackState] = []
        seat = -1
        while not state.is_terminal():
            random_gap(state, rng)
            if rng.randrange(8) == 0:
                earlier.append(state.clone())
            observers = (
                list(range(game.num_players))
                if rng.randrange(4) == 0
                else [rng.randrange(game.num_players) for _ in range(1 + rng.randrange(2))]
            )
            for player in observers:
                seats += player != seat
                seat = player
                assert_same(encoder, state, player)
            if earlier and rng.randrange(5) == 0:
                other = earlier[rng.randrange(len(earlier))]
                seat = rng.randrange(game.num_players)
                assert_same(encoder, other, seat)
                if not other.is_terminal() and rng.randrange(2) == 0:
                    random_step(other, rng)  # played on: the next look at it is a replay
                    assert_same(encoder, other, rng.randrange(game.num_players))
    assert rewrites[0] >= 20
    assert len(laid) >= 40
    assert sum(k > 1 for k in laid) >= 10
    assert seats >= 80


def test_the_replay_stops_at_its_reach_and_at_an_unknown_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """More steps since than `_REPLAY` are rewritten, not replayed; so is a placement the
    replay does not know (its action not an Aztack one, as a subclass might apply): the view's
    encoding either way."""
    rewrites = counted(monkeypatch, encoding.AztackEncoder, "_rewrite")
    game = Aztack(players=2)
    encoder = encoder_for(game)
    state = game.new_state(1)
    rng = Rng(1)
    assert_same(encoder, state, 0)
    for _ in range(encoding._REPLAY + 1):
        random_step(state, rng)
    assert not state.is_terminal()
    assert_same(encoder, state, 1)
    assert rewrites[0] == 2
    while True:
        random_step(state, rng)
        assert not state.is_terminal()
        step = state.history[-1]
        if type(step.action) is Place:
            break
    state.history[-1] = type(step)(step.player, object(), step.effect)  # type: ignore[arg-type]
    assert_same(encoder, state, 0)
    assert rewrites[0] == 3
