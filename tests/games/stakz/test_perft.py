"""Perft-style legal-move counts from fixed Stakz positions, verified independently.

The brute force below reads only the state's public fields (stacks, hands, used, pile) and the
tile names, and tries every conceivable action (every tile type on every possible stack number,
every end of turn) against the rulebook's words (docs/games/stakz.md, "Turn" and "Splitting"):
a placed tile comes from the hand, goes on a stack that has not yet received a tile this turn,
matches the top tile by colour or by symbol, and never gives the stack a third tile of a colour;
a turn ends with a draw of a colour the pile still has, or, once the pile is empty, without one.
It uses none of the engine's move generation (`_legal_actions`, `_illegal_reason`, `MATCHES`,
`colour_bits`).
"""

from __future__ import annotations

import teocalli
from teocalli.core.perft import perft
from teocalli.games.stakz import StakzState
from teocalli.games.stakz import from_position as stakz_position
from teocalli.games.stakz.components import COLOUR_LETTERS, MAX_STACKS, NUM_TILES, TILE_TEXT

# A turn under way: stack 1 has received a tile; stack 2 already holds two blues; stack 3 holds
# four colours, so an orange square on its red square brings the fifth and splits it.
MID_TURN = """
stacks: Rc Rt Bt / Oh Gh / Gx Px Bx Bs / Gs Pt Bx Rx Rs / Pc
hand 0: Rs Bx Bs Gh Os Oc Ps Px Px
hand 1: Gx Ph Ph Oc Rh
used: 1
"""

# The pile is empty, so a turn ends without a draw; player 0 holds two tiles and player 1 is
# near the target, so emptying the hand ends the match.
EMPTY_PILE = """
stacks: Rc Bc / Oh / Gt Pt
hand 0: Pc Oc
hand 1: Gx Ph Ph Oc Rh Rt Bt Bs Bh Gh Gc
pile: -
scores: 3 8
"""

# Player 0's last tile: placing it ends the round, and player 1's four tiles bring their total to
# the target of 12, so the match is over (a finished match is a leaf).
LAST_TILE = """
stacks: Rc Bc / Oh
hand 0: Oc
hand 1: Gx Ph Rh Bt
scores: 3 8
"""


def position(text: str) -> StakzState:
    state = stakz_position(teocalli.load("stakz"), text)
    assert isinstance(state, StakzState)
    return state


def brute_force(state: StakzState, player: int) -> set[str]:
    """Every action the rulebook allows `player` now, in notation, found by trying them all."""
    allowed: set[str] = set()
    for s in range(MAX_STACKS):
        for t in range(NUM_TILES):
            if s >= len(state.stacks) or state.hands[player][t] == 0:
                continue  # no such stack, or no such tile in the hand
            if state.used >> s & 1:
                continue  # one tile per stack per turn
            colour, symbol = TILE_TEXT[t]
            top_colour, top_symbol = TILE_TEXT[state.stacks[s][-1]]
            if colour != top_colour and symbol != top_symbol:
                continue  # matches the top tile by colour or by symbol
            if sum(TILE_TEXT[u][0] == colour for u in state.stacks[s]) + 1 > 2:
                continue  # never three tiles of one colour in a stack
            allowed.add(f"{TILE_TEXT[t]}@{s}")
    if state.pile:
        for letter in COLOUR_LETTERS:
            if any(TILE_TEXT[u][0] == letter for u in state.pile):
                allowed.add(f"end {letter}")
    else:
        allowed.add("end")
    return allowed


def leaves_below(state: StakzState) -> int:
    """perft(state, 1) counted by the brute force (a finished match is one leaf)."""
    if state.is_terminal():
        return 1
    return sum(len(brute_force(state, p)) for p in state.to_move())


def legal(state: StakzState, player: int) -> set[str]:
    return {str(a) for a in state.legal_actions(player)}


def test_depth_one_mid_turn_matches_a_brute_force_count() -> None:
    state = position(MID_TURN)
    assert legal(state, 0) == brute_force(state, 0)
    assert perft(state, 1) == len(brute_force(state, 0)) == 16
    assert "Bx@2" not in legal(state, 0), "a third blue in stack 2"
    assert "Gh@1" not in legal(state, 0), "stack 1 has had its tile this turn"


def test_depth_one_with_an_empty_pile_matches_a_brute_force_count() -> None:
    state = position(EMPTY_PILE)
    assert legal(state, 0) == brute_force(state, 0) == {"Pc@0", "Oc@0", "Oc@1", "Pc@2", "end"}
    assert perft(state, 1) == len(brute_force(state, 0)) == 5


def test_depth_one_after_a_split_both_halves_take_one_more_tile() -> None:
    state = position(MID_TURN)
    state.apply("Os@3", 0)  # the fifth colour: Gs Pt Bx stay as stack 3, Rx Rs Os become 5
    assert [TILE_TEXT[t] for t in state.stacks[3]] == ["Gs", "Pt", "Bx"]
    assert [TILE_TEXT[t] for t in state.stacks[5]] == ["Rx", "Rs", "Os"]
    assert state.used == 1 << 1, "both halves are new stacks: only stack 1 has had its tile"
    allowed = brute_force(state, 0)
    assert {"Bx@3", "Px@3", "Bs@5", "Ps@5", "Oc@5"} <= allowed
    assert legal(state, 0) == allowed
    assert perft(state, 1) == len(allowed) == 18


def test_depth_two_equals_the_brute_force_summed_over_every_child() -> None:
    expected = {MID_TURN: 191, EMPTY_PILE: 24, LAST_TILE: 42}
    for text, count in expected.items():
        state = position(text)
        total = 0
        for player in state.to_move():
            for action in sorted(brute_force(state, player)):
                child = state.clone()
                child.apply(action, player)
                total += leaves_below(child)
                if text == LAST_TILE and "@" in action:
                    assert child.is_terminal()
        assert perft(state, 2) == total == count
