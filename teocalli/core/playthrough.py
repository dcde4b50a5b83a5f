"""Golden playthroughs: a seeded game written out step by step, every view and legal move."""

from __future__ import annotations

import json

from .game import Game
from .rng import Rng
from .state import State

VIEW_STEPS = 40
"""Every view is written for the first steps and at the end; in between only legal actions and
the action taken (long matches would otherwise write megabytes of views)."""


def playthrough(game: Game, seed: int) -> str:
    """A text record of a random seeded game: every view (first steps and end), the legal actions
    of each player to move, and the action taken. Any change in behaviour changes the text.
    """
    state: State = game.new_state(seed)
    pick = Rng(seed + 1)
    lines = [f"game {game!r} seed {seed}"]
    while True:
        lines.append(f"## step {len(state.history)}")
        if len(state.history) < VIEW_STEPS or state.is_terminal():
            for p in [None, *range(game.num_players)]:
                lines.append(f"view {p}: {json.dumps(state.view(p), sort_keys=True)}")
        if state.is_terminal():
            break
        movers = state.to_move()
        for p in movers:
            lines.append(f"legal {p}: {' '.join(str(a) for a in state.legal_actions(p))}")
        player = movers[pick.randrange(len(movers))]
        actions = state.legal_actions(player)
        action = actions[pick.randrange(len(actions))]
        lines.append(f"apply {player}: {action}")
        state.apply(action, player)
    lines.append(f"outcome: {json.dumps(state.outcome().to_json(), sort_keys=True)}")
    return "\n".join(lines) + "\n"
