"""Perft-style legal-move counts from fixed Aztack positions, verified independently."""

from __future__ import annotations

import itertools

import teocalli
from teocalli.core.perft import perft
from teocalli.games.aztack.components import HALF0, HALF1, PAIRS, stone_id
from teocalli.games.aztack.position import from_position

POSITION = """
A: Bt/Gw Rf/Yt Gt/Bw Yw/Gf Yt/Gw Rd/Gt
B: Bw/Rd Of/Bw Od/Bt Ow/Rt Rd/Yf Bd/Gt
hand 0: Bd/Rt Gt/Of Bt/Rf Gd/Bw
hand 1: Gd/Ot Yd/Ow Rw/Bf
"""


def brute_force_count(state, player: int) -> int:  # type: ignore[no-untyped-def]
    """Count placements by the rulebook's words, over every stone, pair and orientation."""
    count = 0
    hand = [s for s in range(60) if state.hands[player] >> s & 1]
    for s, (p, q), flip in itertools.product(hand, PAIRS, (0, 1)):
        a, b = (HALF1[s], HALF0[s]) if flip else (HALF0[s], HALF1[s])
        if state.height[p] != state.height[q] or state.top_stone[p] == state.top_stone[q]:
            continue
        tp, tq = state.top_half[p], state.top_half[q]
        if (a // 4, b // 4) == (tp // 4, tq // 4) or (a % 4, b % 4) == (tp % 4, tq % 4):
            count += 1
    return count


def test_depth_one_matches_a_brute_force_count() -> None:
    state = from_position(teocalli.load("aztack"), POSITION)
    assert perft(state, 1) == brute_force_count(state, 0) == 28
    assert state.hands[0] >> stone_id("Gd/Bw") & 1


def test_depth_two_counts_every_reply_and_bonus_decision() -> None:
    state = from_position(teocalli.load("aztack"), POSITION)
    total = 0
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(action, 0)
        player = child.to_move()[0]
        total += len(child.legal_actions(player)) if player == 1 else 4  # 3 discards + keep
        if player == 1:
            assert len(child.legal_actions(1)) == brute_force_count(child, 1)
    assert perft(state, 2) == total
