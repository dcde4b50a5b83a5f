"""What the three adapters share: agent names, masks, who acts next, seeds, action checks.

Kept in one place so that PettingZoo, Gymnasium and OpenSpiel agree on the details: the same
action integers (the game's dense indices), the same masks, the same rule for who acts at a
simultaneous choice or a race, and the same errors for an illegal action.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from teocalli.core import Decision, Game, IllegalAction, State

from .observation import Encoder, Mask

SEED_BOUND = 2**63 - 1
"""Deal seeds drawn from a NumPy generator are below this (teocalli seeds are Python ints)."""

OnIllegal = Literal["lose", "raise"]
"""What an illegal action does: "lose" (the default) ends the episode, the offender's reward -1
and the others' 0 (PettingZoo's classic games, their TerminateIllegalWrapper); "raise" raises the
engine's IllegalAction, whose message names the rule."""

ILLEGAL_REWARD = -1.0

NO_OP = 0
"""The one action a terminal mask marks legal: once an episode is over nothing is legal, but
maskers (MaskablePPO, `Discrete.sample(mask)`, vector auto-reset) need a non-empty mask; an
action sent then is ignored (PettingZoo takes None, a vector env resets)."""

RENDER_MODES = ["human", "ansi"]
""""ansi" returns the text picture of the position; "human" prints it and returns None."""


def check_on_illegal(on_illegal: str) -> OnIllegal:
    if on_illegal == "lose":
        return "lose"
    if on_illegal == "raise":
        return "raise"
    raise ValueError(f"on_illegal must be 'lose' or 'raise', not {on_illegal!r}")


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
    return render_mode


def check_max_cycles(max_cycles: int | None) -> int | None:
    if max_cycles is not None and (
        isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
    ):
        raise ValueError(f"max_cycles must be None or a positive int, not {max_cycles!r}")
    return max_cycles


def render(state: State | None, player: int | None, render_mode: str | None) -> str | None:
    """The render protocol of both libraries: text for "ansi", printed for "human"."""
    if render_mode is None or state is None:
        return None
    text = state.render(player)
    if render_mode == "human":
        print(text)
        return None
    return text


def agent_name(player: int) -> str:
    """PettingZoo's recommended agent naming: player_0, player_1, ..."""
    return f"player_{player}"


def agent_index(agent: str) -> int:
    index = _AGENT_INDEX.get(agent)
    return int(agent.rpartition("_")[2]) if index is None else index


_AGENT_INDEX = {agent_name(p): p for p in range(64)}
"""The usual agents' seats, looked up (the adapters ask at every step)."""


def terminal_mask(size: int) -> Mask:
    """The mask once the episode is over: only NO_OP marked (see NO_OP)."""
    mask = np.zeros(size, np.int8)
    mask[NO_OP] = 1
    return mask


def action_mask(encoder: Encoder, state: State, player: int, over: bool = False) -> Mask:
    """1 for each dense action index `player` may play now (all 0 if they may not act); once the
    game or the episode is `over`, only NO_OP. Built by the game's encoder (`Encoder.mask`)."""
    if over or state.is_terminal():
        return terminal_mask(encoder.game.num_distinct_actions)
    return encoder.mask(state, player)


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
    if len(movers) > 1 and state.decision() is Decision.RACE:
        return movers[int(rng.integers(len(movers)))]
    return movers[0]


def as_index(game: Game, action: Any) -> int:
    """A dense action index from an int-like (NumPy integers included); InvalidAction if none."""
    if type(action) is int and 0 <= action < game.codec.size:  # the usual case, in two checks
        return action
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise IllegalAction(
            f"an action is a dense index of {game.info.name} (0 to "
            f"{game.num_distinct_actions - 1}), not {action!r}"
        )
    index = int(action)
    if not 0 <= index < game.num_distinct_actions:
        game.action_from_int(index)  # InvalidAction with the game's message
    return index


def apply_index(state: State, action: Any, player: int) -> None:
    """Apply a dense index for `player`; IllegalAction carries the engine's reason."""
    state.apply(as_index(state.game, action), player)


def seed_from(rng: np.random.Generator) -> int:
    """A fresh deal seed drawn from a NumPy generator (reproducible when that one is seeded)."""
    return int(rng.integers(SEED_BOUND))
