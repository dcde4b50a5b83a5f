"""Perft-style legal-move counts from fixed Shifting Stones positions, verified independently.

The brute force below reads only the state's public fields (grid, hands, acted, last_skip) and
the card table (each card's block of symbols and grey squares), and tries every conceivable
action against the rulebook's words (docs/games/shifting-stones.md, "Turn" and "When a card
matches"): a shift pays with any card of the hand and swaps two tiles next to each other in a row
or a column (never diagonally); a flip pays with any card and turns any one tile; a score shows a
card of the hand whose block, slid but never turned, lies on the grid with every symbol on a tile
showing it and every grey square on some tile; a turn may always end; a skip is the whole turn,
so only before any action, and never on two turns in a row. Actions that change nothing (a swap
of two equal faces) are legal (a ruling). It uses none of the engine's move generation
(`_legal_actions`, `_illegal_reason`, `matches`, `PLACEMENTS`, `SWAPS`).
"""

from __future__ import annotations

import itertools

import teocalli
from teocalli.core.perft import perft
from teocalli.games.shifting_stones.components import CARD_IDS, CARDS
from teocalli.games.shifting_stones.position import from_position
from teocalli.games.shifting_stones.state import ShiftingStonesState

# Cells 1-9 read: Su Fi Ho / Bo Se Tr / Se Ho Bi.
# Card 8 (Su in the top-left corner of a 3x3 block) and card 47 (Bo over Se) are on the grid.
# Card 9 (a 3x3 block with Bi in its centre) is not: the grid's Bi is in a corner, and the grey
# squares must still fall on tiles. Card 6 (`.. .. Su`) neither: Su is on the left edge.
TURN_START = """
grid: Su Fi Ho / Bo Se Tr / Se Ho Bi
hands: 8 9 6 47 | 37 25 21
deck: rest
"""

# Player 1, the last seat, skipped last turn (so may not skip again) and player 0 has scored 10
# cards, so the end of this turn ends the game. Card 37 (Su over two greys) is on the grid, card
# 25 (Se over Se) is not, nor is card 21 (Tr Tr), with its two Tr one above the other.
LAST_SEAT_AFTER_A_SKIP = """
grid: Su Fi Ho / Bo Se Tr / Bi Ho Tr
hands: 8 9 | 37 25 21 44 50 70
scored: 1 2 3 4 5 10 11 13 14 15 |
deck: rest
turn: 1
skipped: 1
"""

# Player 0 has already acted this turn (so may not skip). Card 31 (Mo then two greys) is on the
# grid; card 11 (Bo Bi) is not: the grid shows Bi Bo, its block mirrored; nor is card 7 (Bo Mo).
ACTED = """
grid: Mo Bi Bo / Fi Tr Ho / Se Bo Tr
hands: 7 11 31 | 29
deck: rest
acted: yes
"""


def position(text: str) -> ShiftingStonesState:
    return from_position(teocalli.load("shifting-stones", players=2), text)  # type: ignore[arg-type]


def shows(card: int, grid: list[int]) -> bool:
    """Whether the card's block lies on the grid somewhere, slid but never turned or mirrored."""
    rows = CARDS[card].rows
    for top, left in itertools.product(range(-2, 3), repeat=2):
        fits = True
        for r, row in enumerate(rows):
            for c, symbol in enumerate(row):
                y, x = top + r, left + c
                if not (0 <= y < 3 and 0 <= x < 3):
                    fits = False  # every square, grey or not, must fall on a tile
                elif symbol is not None and grid[3 * y + x] != symbol:
                    fits = False  # a symbol must lie on a tile showing that symbol
        if fits:
            return True
    return False


def brute_force(state: ShiftingStonesState, player: int) -> set[str]:
    """Every action the rulebook allows `player` now, in notation, found by trying them all."""
    hand = state.hands[player]
    allowed: set[str] = set()
    for card in CARD_IDS:
        if card not in hand:
            continue  # every action but end and skip plays a card of your hand
        for a, b in itertools.product(range(9), repeat=2):
            (ya, xa), (yb, xb) = divmod(a, 3), divmod(b, 3)
            if a < b and abs(ya - yb) + abs(xa - xb) == 1:  # next to each other, not diagonal
                allowed.add(f"shift {card} {a + 1}-{b + 1}")
        for cell in range(9):
            allowed.add(f"flip {card} {cell + 1}")
        if shows(card, state.grid):
            allowed.add(f"score {card}")
    allowed.add("end")
    if not state.acted and not state.last_skip[player]:
        allowed.add("skip")
    return allowed


def leaves_below(state: ShiftingStonesState) -> int:
    """perft(state, 1) counted by the brute force (a finished game is one leaf)."""
    if state.is_terminal():
        return 1
    return sum(len(brute_force(state, p)) for p in state.to_move())


def legal(state: ShiftingStonesState, player: int) -> set[str]:
    return {str(a) for a in state.legal_actions(player)}


def test_depth_one_at_a_turn_start_matches_a_brute_force_count() -> None:
    state = position(TURN_START)
    allowed = brute_force(state, 0)
    assert {a for a in allowed if a.startswith("score")} == {"score 8", "score 47"}
    assert legal(state, 0) == allowed
    assert perft(state, 1) == len(allowed) == 88  # 2 scores, 4 cards x 21 moves, end, skip


def test_depth_one_after_a_skip_matches_a_brute_force_count() -> None:
    state = position(LAST_SEAT_AFTER_A_SKIP)
    allowed = brute_force(state, 1)
    assert "skip" not in allowed, "never two skips in a row"
    assert {a for a in allowed if a.startswith("score")} == {"score 37"}
    assert legal(state, 1) == allowed
    assert perft(state, 1) == len(allowed) == 128  # a score, 6 cards x 21 moves, end


def test_depth_one_after_acting_matches_a_brute_force_count() -> None:
    state = position(ACTED)
    allowed = brute_force(state, 0)
    assert "skip" not in allowed, "a skip is the whole turn"
    assert {a for a in allowed if a.startswith("score")} == {"score 31"}
    assert legal(state, 0) == allowed
    assert perft(state, 1) == len(allowed) == 65  # a score, 3 cards x 21 moves, end


def test_depth_two_equals_the_brute_force_summed_over_every_child() -> None:
    expected = {TURN_START: 5737, LAST_SEAT_AFTER_A_SKIP: 13573, ACTED: 2815}
    for text, count in expected.items():
        state = position(text)
        total = 0
        for player in state.to_move():
            for action in sorted(brute_force(state, player)):
                child = state.clone()
                child.apply(action, player)
                total += leaves_below(child)
                if text == LAST_SEAT_AFTER_A_SKIP and action == "end":
                    assert child.is_terminal(), "the round is over and player 0 has 10 cards"
        assert perft(state, 2) == total == count
