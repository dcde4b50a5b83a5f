"""Playing one game between agents: the loop every command, the arena and the tests share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .game import Action, Decision, Game
from .rng import Rng
from .state import State


class Actor(Protocol):
    """Anything that picks an action for a player (every agent in teocalli.agents)."""

    def act(self, state: State, player: int) -> Action: ...


class GameTooLong(RuntimeError):
    """A game outlived its declared maximum length: an engine bug, never a player's fault."""


def play_game(
    game: Game,
    actors: Sequence[Actor],
    seed: int,
    *,
    on_step: Callable[[State], None] | None = None,
) -> State:
    """Play one game to its end and return the final state.

    At a simultaneous choice each player is asked in seat order (their choices stay hidden from
    each other by the engine). In a race, who acts first is drawn from a generator seeded by
    `seed`, among the players who have a legal action, so simulations stay reproducible.
    """
    if len(actors) != game.num_players:
        raise ValueError(f"{game!r} needs {game.num_players} actors, got {len(actors)}")
    state = game.new_state(seed)
    race_rng = Rng(seed ^ 0x5EED_0F_7ACE)
    limit = game.max_length
    while not state.is_terminal():
        movers = state.to_move()
        if state.decision() is Decision.RACE and len(movers) > 1:
            player = movers[race_rng.randrange(len(movers))]
        else:
            player = movers[0]
        state.apply(actors[player].act(state, player), player)
        if on_step is not None:
            on_step(state)
        if len(state.history) > limit:
            raise GameTooLong(f"{game!r} seed {seed} passed its maximum length {limit}")
    return state
