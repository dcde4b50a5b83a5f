"""Perft-style legal-move counts from fixed Space Aztecs positions, verified independently.

The brute force below reads only the state's public fields (where every card is, the Starting
Player, who holds which pile, who has chosen, the pending Saucer, its victims and the card that
may be tucked) and the card table (kind and colour), and finds who may act and what by the
rulebook's words (docs/games/space-aztecs.md, "Turn", "The cards" and the rulings):

- taking piles: the players take piles one at a time, clockwise from the Starting Player; each
  takes a pile that still has cards and that nobody has taken this round;
- choosing: at the same time every player who has not yet chosen chooses any card of their pile,
  so every one of them may act (perft sums their choices);
- a Flying Saucer: its owner picks which Aztec of the Saucer's colour, in view (not under a
  Temple) in the victim's city, goes under it (the question is asked only when there are several);
- a Special Agent: its owner may tuck the Aztec just played under their Temple or keep it.

Every conceivable action (every pile, every card) is tried. It uses none of the engine's move
generation (`_legal_actions`, `_illegal_reason`, `targets`, `to_move` for who acts).
"""

from __future__ import annotations

import teocalli
from teocalli.core.perft import perft
from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.components import (
    CARD_BY_ID,
    CARD_ID,
    COLOUR,
    KIND,
    NUM_CARDS,
    NUM_PILES,
    PILE_LETTERS,
    Kind,
)
from teocalli.games.space_aztecs.state import CAPTURED, CITY, Phase, SpaceAztecsState

# Player 0 takes the last pile of the round: pile C is empty and piles B and D are taken, so
# any of A, E, F, G, H (A holds a single card; the 55 cards written nowhere are dealt round
# robin into B, D, E, F, G, H: 10 in B, 9 in each other).
LAST_PILE = """
removed pink
start 1
round 2
pile A: YEL-01
pile C: -
held 1: B
held 2: D
"""

# Every player holds a pile; players 0 and 2 are still choosing, at the same time.
TWO_CHOOSING = """
removed blue
start 1
round 4
pile A: YEL-01 PNK-S1 YEL-S1 CDX-1 GRN-06 PNK-09
pile B: PNK-07
pile C: YEL-05 GRN-08 PNK-10
pile D: -
city 0: GRN-01 YEL-T1[YEL-04]
city 1: PNK-03 PNK-04 PNK-T2[PNK-05]
city 2: PNK-06
held 1: B
held 2: C
held 0: A
chose 1: PNK-07
"""

# Player 0 is the last to choose. Pile B is now empty and so is pile D, so the world ends after
# this round unless a card asks a question: the yellow Eagle Warrior (player 0 has a Special
# Agent in view and a yellow Temple: tuck or keep), the pink Saucer (player 1 has three pink
# Aztecs in view, one more under a Temple that protects it: which to capture), and not the yellow
# Saucer (player 2's one yellow Aztec in view is taken without a question).
LAST_TO_CHOOSE = TWO_CHOOSING + "chose 2: YEL-05\n"


def position(text: str, players: int = 3) -> SpaceAztecsState:
    game = teocalli.load("space-aztecs", players=players)
    return space_aztecs_position(game, text)  # type: ignore[arg-type]


def owner(state: SpaceAztecsState, card: int) -> int:
    """The player in whose city the card lies."""
    (player,) = (p for p in range(state.num_players) if state.where[card] == CITY + p)
    return player


def brute_force(state: SpaceAztecsState) -> dict[int, set[str]]:
    """Who may act now and every action each may take, in notation, found by trying them all."""
    n = state.num_players
    if state.phase is Phase.PICK:
        taken = sum(1 for p in range(n) if state.held[p] >= 0)
        player = (state.start + taken) % n  # clockwise from the Starting Player
        return {
            player: {
                f"take {PILE_LETTERS[x]}"
                for x in range(NUM_PILES)
                if any(state.where[c] == x for c in range(NUM_CARDS))  # it still has cards
                and x not in state.held  # nobody has taken it this round
            }
        }
    if state.phase is Phase.CHOOSE:
        return {
            p: {f"choose {CARD_ID[c]}" for c in range(NUM_CARDS) if state.where[c] == state.held[p]}
            for p in range(n)
            if state.chosen[p] < 0  # everyone who has not chosen chooses at the same time
        }
    if state.phase is Phase.CAPTURE:
        saucer, victim = state.saucer, state.victims[0]
        return {
            owner(state, saucer): {
                f"capture {CARD_ID[c]}"
                for c in range(NUM_CARDS)
                if state.where[c] == CITY + victim  # in view: not under a Temple
                and KIND[c] is Kind.AZTEC
                and COLOUR[c] == COLOUR[saucer]
            }
        }
    assert state.phase is Phase.TUCK
    return {owner(state, state.tuck_card): {"tuck", "keep"}}


def leaves_below(state: SpaceAztecsState) -> int:
    """perft(state, 1) counted by the brute force (the end of the world is one leaf)."""
    if state.is_terminal():
        return 1
    return sum(len(actions) for actions in brute_force(state).values())


def engine(state: SpaceAztecsState) -> dict[int, set[str]]:
    return {p: {str(a) for a in state.legal_actions(p)} for p in state.to_move()}


def test_depth_one_taking_the_last_pile_matches_a_brute_force_count() -> None:
    state = position(LAST_PILE)
    allowed = brute_force(state)
    assert allowed == {0: {"take A", "take E", "take F", "take G", "take H"}}
    assert engine(state) == allowed
    assert perft(state, 1) == leaves_below(state) == 5


def test_depth_one_with_two_players_choosing_at_once_matches_a_brute_force_count() -> None:
    state = position(TWO_CHOOSING)
    allowed = brute_force(state)
    assert sorted(allowed) == [0, 2]
    assert engine(state) == allowed
    assert perft(state, 1) == leaves_below(state) == 9


def test_depth_one_for_the_last_chooser_matches_a_brute_force_count() -> None:
    state = position(LAST_TO_CHOOSE)
    assert engine(state) == brute_force(state)
    assert perft(state, 1) == leaves_below(state) == 6


def test_the_cards_that_ask_a_question_are_the_ones_the_rules_say() -> None:
    state = position(LAST_TO_CHOOSE)
    questions = {}
    for action in sorted(brute_force(state)[0]):
        child = state.clone()
        child.apply(action, 0)
        if not child.is_terminal():
            questions[action] = brute_force(child)
            assert engine(child) == questions[action]
        elif action == "choose YEL-S1":  # player 2's single yellow Aztec, taken without asking
            assert child.where[CARD_BY_ID["YEL-05"]] == CAPTURED + 0
    assert questions == {
        "choose YEL-01": {0: {"tuck", "keep"}},
        "choose PNK-S1": {0: {"capture PNK-03", "capture PNK-04", "capture PNK-07"}},
    }


def test_depth_two_equals_the_brute_force_summed_over_every_child() -> None:
    expected = {
        # then everyone chooses from B (10 cards), D (9) and the pile taken (A: 1, E-H: 9 each):
        # (10 + 9 + 1) + 4 * (10 + 9 + 9)
        LAST_PILE: 132,
        # whoever chooses first, the other then chooses alone: 6 * 3 + 3 * 6
        TWO_CHOOSING: 36,
        # tuck or keep, one of three captures, and four cards that end the world: 2 + 3 + 4 * 1
        LAST_TO_CHOOSE: 9,
    }
    for text, count in expected.items():
        state = position(text)
        total = 0
        for player, actions in brute_force(state).items():
            for action in sorted(actions):
                child = state.clone()
                child.apply(action, player)
                total += leaves_below(child)
        assert perft(state, 2) == total == count
