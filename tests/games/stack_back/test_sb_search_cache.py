"""The pass search's caches (search.py: `pair_poses`, `dead_pairs`, `wood_from`, `no_wood`,
the poses ruled out along the game, `_left`) never change its answer: a search that has met
earlier positions of the game (warm caches) finds the same poses, with the same placements, as
one starting from nothing."""

from __future__ import annotations

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import search
from teocalli.games.stack_back.state import StackBackState


def _cold(state: StackBackState, player: int) -> list[tuple[object, object]]:
    fresh = state.clone()
    fresh.no_wood = 0
    fresh.dead_pairs = frozenset()
    fresh.wood_from = (0,) * len(fresh.wood_from)
    fresh._left = search.Left.empty()
    search._PAIR_MEMO.clear()
    return [(p, v.stick) for p, v in search.find(fresh, player)]


def test_warm_and_cold_searches_agree() -> None:
    game = teocalli.load("stack-back")
    for seed in (3, 4):
        state = game.new_state(seed)
        assert isinstance(state, StackBackState)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            player = state.to_move()[0]
            if step % 6 == 5:
                warm = [(p, v.stick) for p, v in search.find(state.clone(), player)]
                # the warm run again, on the state itself, so its own caches fill up
                search.find(state, player)
                assert warm == _cold(state, player)
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            step += 1
