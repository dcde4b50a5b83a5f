"""What the three adapters share: agent names, masks, who acts next, seeds, action checks.

Kept in one place so that PettingZoo, Gymnasium and OpenSpiel agree on the details: the same
action integers (the game's dense indices), the same masks, the same rule for who acts at a
simultaneous choice or a race, and the same errors for an illegal action.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from teocalli.core import Decision, Game, IllegalAction, State

Mask = npt.NDArray[np.int8]

SEED_BOUND = 2**63 - 1
"""Deal seeds drawn from a NumPy generator are below this (teocalli seeds are Python ints)."""


def agent_name(player: int) -> str:
    """PettingZoo's recommended agent naming: player_0, player_1, ..."""
    return f"player_{player}"


def agent_index(agent: str) -> int:
    return int(agent.rpartition("_")[2])


def action_mask(state: State, player: int, size: int) -> Mask:
    """1 for each dense action index `player` may play now (all 0 if they may not act)."""
    mask = np.zeros(size, np.int8)
    if player in state.to_move():
        mask[state.legal_action_ints(player)] = 1
    return mask


def next_mover(state: State, rng: np.random.Generator) -> int | None:
    """Who acts next when actors come one at a time (AEC, a learning seat among bots).

    A turn: its player. A simultaneous choice: the lowest-numbered player who has not chosen yet
    (they cannot see the others' pending choices: observations come from views). A race: a player
    drawn from `rng` among those who may act, standing in for who reaches the table first.
    None at the end.
    """
    movers = state.to_move()
    if not movers:
        return None
    if state.decision() is Decision.RACE and len(movers) > 1:
        return movers[int(rng.integers(len(movers)))]
    return movers[0]


def as_index(game: Game, action: Any) -> int:
    """A dense action index from an int-like (NumPy integers included); InvalidAction if none."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise IllegalAction(
            f"an action is a dense index of {game.info.name} (0 to "
            f"{game.num_distinct_actions - 1}), not {action!r}"
        )
    index = int(action)
    game.action_from_int(index)  # InvalidAction with the game's message when out of range
    return index


def apply_index(state: State, action: Any, player: int) -> None:
    """Apply a dense index for `player`; IllegalAction carries the engine's reason."""
    state.apply(as_index(state.game, action), player)


def seed_from(rng: np.random.Generator) -> int:
    """A fresh deal seed drawn from a NumPy generator (reproducible when that one is seeded)."""
    return int(rng.integers(SEED_BOUND))
