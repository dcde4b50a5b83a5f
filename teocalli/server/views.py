"""What each connection is told: its own view of the position, its legal moves and its log.

Hidden information is filtered by the engine (`State.view`, `State.log`); `visible_log` adds a
second line of defence for secret simultaneous choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from teocalli.core import Decision, Effect, State

SECRET_CHOICE = "chose in secret"


def visible_log(
    state: State, decisions: Sequence[Decision | None], viewer: int | None
) -> list[list[Any]]:
    """The game log as `viewer` may read it, with unrevealed secret choices redacted.

    The engine's `log` already hides what its game declares hidden; as a second line of defence,
    the trailing choices of a simultaneous round that is not yet resolved (steps taken at a
    SIMULTANEOUS decision since the last step that revealed something) read "chose in secret"
    to everyone but their author.
    """
    entries = [[player, text] for player, text in state.log(viewer)]
    if state.is_terminal():
        return entries
    for i in range(len(state.history) - 1, -1, -1):
        step = state.history[i]
        if decisions[i] is not Decision.SIMULTANEOUS or Effect.REVEALED in step.effect:
            break
        if step.player != viewer:
            entries[i][1] = SECRET_CHOICE
    return entries


def state_message(
    state: State,
    decisions: Sequence[Decision | None],
    seat: int | None,
    *,
    controls: bool,
    table: dict[str, Any],
    clock: dict[str, Any] | None,
    bot_seats: list[int],
) -> dict[str, Any]:
    """The `state` message for one connection (`controls`: the person at `seat` may act)."""
    mine = seat is not None and controls
    return {
        "type": "state",
        "table": table,
        "seat": seat,
        "step": len(state.history),
        "view": state.view(seat),
        "legal": [str(a) for a in state.legal_actions(seat)] if mine else [],
        "log": visible_log(state, decisions, seat),
        "can_undo": bool(mine and seat is not None and state.can_undo(seat)),
        "clock": clock,
        "bot_seats": bot_seats,
    }
