"""Stakz rules, one scenario per rule of the rules (docs/games/stakz.md)."""

from __future__ import annotations

from collections import Counter

import pytest

import teocalli
from teocalli.core import Effect, IllegalAction, Rng
from teocalli.games.stakz import EndReason, StakzState
from teocalli.games.stakz import from_position as stakz_position
from teocalli.games.stakz.actions import Place
from teocalli.games.stakz.components import COLOUR, NUM_TILES, TILE_TEXT


def pos(text: str, players: int = 2, **options: object) -> StakzState:
    return stakz_position(teocalli.load("stakz", players=players, **options), text)


def stack_text(state: StakzState, s: int) -> str:
    return " ".join(TILE_TEXT[t] for t in state.stacks[s])


def hand_text(state: StakzState, p: int) -> str:
    return " ".join(TILE_TEXT[t] for t in range(NUM_TILES) for _ in range(state.hands[p][t]))


def refused(state: StakzState, action: str, match: str, player: int | None = None) -> None:
    before = state._full()
    with pytest.raises(IllegalAction, match=match):
        state.apply(action, player)
    assert state._full() == before


# --- set-up -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_ten_tiles_two_of_each_colour_and_two_stacks_of_different_colours(
    players: int,
) -> None:
    game = teocalli.load("stakz", players=players)
    colours_seen = set()
    for seed in range(8):
        state = game.new_state(seed)
        assert isinstance(state, StakzState)
        for p in range(players):
            colours = Counter(COLOUR[t] for t in range(NUM_TILES) for _ in range(state.hands[p][t]))
            assert colours == dict.fromkeys(range(5), 2)
        assert [len(s) for s in state.stacks] == [1, 1]
        first, second = (COLOUR[s[0]] for s in state.stacks)
        assert first != second
        colours_seen.add(first)
        assert len(state.pile) == 75 - 10 * players - 2
        assert state.to_move() == (0,), "seat 0 starts the first round"
    assert len(colours_seen) > 1, "the starting colours are drawn at random"


def test_the_same_seed_deals_the_same_game() -> None:
    game = teocalli.load("stakz", players=3)
    assert game.new_state(4)._full() == game.new_state(4)._full()
    assert game.new_state(4)._full() != game.new_state(5)._full()


# --- matching ---------------------------------------------------------------------------------
BASIC = """
stacks: Rc / Bt
hand 0: Rh Gc Gh Ox
hand 1: Ph
"""


def test_a_tile_may_match_the_top_tile_by_colour() -> None:
    state = pos(BASIC)
    state.apply("Rh@0")
    assert stack_text(state, 0) == "Rc Rh"
    assert hand_text(state, 0) == "Ox Gc Gh"


def test_a_tile_may_match_the_top_tile_by_symbol() -> None:
    state = pos(BASIC)
    state.apply("Gc@0")
    assert stack_text(state, 0) == "Rc Gc"


def test_a_tile_matching_neither_colour_nor_symbol_is_refused() -> None:
    state = pos(BASIC)
    refused(state, "Gh@0", "match the colour or the symbol")
    refused(state, "Ox@1", "match the colour or the symbol")
    assert "Gh@0" not in [str(a) for a in state.legal_actions(0)]


def test_only_tiles_from_your_own_hand_and_existing_stacks() -> None:
    state = pos(BASIC)
    refused(state, "Rt@0", "no red triangle")
    refused(state, "Rh@2", "no stack 2")
    refused(state, "Ph@0", "not player 0's turn|turn", player=1)


def test_only_one_tile_per_stack_per_turn() -> None:
    state = pos(BASIC)
    state.apply("Gc@0")
    refused(state, "Gh@0", "one tile per stack per turn")
    assert all(not str(a).endswith("@0") for a in state.legal_actions(0))
    # the rule is per turn: the next turn the stack takes a tile again
    state.apply("end R")
    state.apply("end O")
    state.apply("Gh@0")
    assert stack_text(state, 0) == "Rc Gc Gh"


def test_a_stack_holds_at_most_two_tiles_of_a_colour() -> None:
    state = pos(
        """
        stacks: Rc Bc Rt
        hand 0: Rh Bt
        hand 1: Ph
        """
    )
    refused(state, "Rh@0", "two red tiles")
    state.apply("Bt@0")  # blue is the stack's second blue: allowed
    assert stack_text(state, 0) == "Rc Bc Rt Bt"


def test_the_two_of_a_colour_cap_counts_tiles_anywhere_in_the_stack() -> None:
    state = pos(
        """
        stacks: Gc Ox Gx Ph
        hand 0: Gh Oh
        hand 1: Ph
        """
    )
    refused(state, "Gh@0", "two green tiles")
    assert [str(a) for a in state.legal_actions(0)][:1] == ["Oh@0"]


def test_placing_nothing_and_ending_is_allowed() -> None:
    state = pos(BASIC)
    state.apply("end B")
    assert state.to_move() == (1,)


# --- splitting --------------------------------------------------------------------------------
def test_rulebook_example_a_seven_tile_stack_splits_top_three_bottom_four() -> None:
    state = pos(
        """
        stacks: Rc Rt Oc Gc Gs Bs / Oh
        hand 0: Ps Ph
        hand 1: Ph
        """
    )
    state.apply("Ps@0")  # the seventh tile brings purple, the fifth colour
    assert stack_text(state, 0) == "Rc Rt Oc Gc", "the bottom four stay"
    assert stack_text(state, 2) == "Gs Bs Ps", "the top three make the new stack"
    assert stack_text(state, 1) == "Oh"
    assert state.splits == 1


@pytest.mark.parametrize(
    ("stack", "tile", "bottom", "top"),
    [
        ("Rc Oc Gc Bc", "Pc", "Rc Oc Gc", "Bc Pc"),  # 5 tiles: 3 stay, 2 go
        ("Rc Oc Gc Bc Bt", "Pt", "Rc Oc Gc", "Bc Bt Pt"),  # 6 tiles: even split
        ("Rc Rt Ot Oc Gc Gt Bt Bc", "Pc", "Rc Rt Ot Oc Gc", "Gt Bt Bc Pc"),  # 9: 5 and 4
    ],
)
def test_a_split_leaves_the_extra_tile_on_the_original_stack(
    stack: str, tile: str, bottom: str, top: str
) -> None:
    state = pos(f"stacks: {stack}\nhand 0: {tile} Ph\nhand 1: Ph")
    state.apply(f"{tile}@0")
    assert stack_text(state, 0) == bottom
    assert stack_text(state, 1) == top


def test_a_stack_of_four_colours_does_not_split() -> None:
    state = pos("stacks: Rc Oc Gc\nhand 0: Bc Ph\nhand 1: Ph")
    state.apply("Bc@0")
    assert len(state.stacks) == 1


def test_after_a_split_both_new_stacks_take_one_more_tile_this_turn() -> None:
    state = pos(
        """
        stacks: Rc Rt Oc Gc Gs Bs / Oh
        hand 0: Ps Pt Rx Gx Bx
        hand 1: Ph
        """
    )
    state.apply("Ps@0")
    legal = {str(a) for a in state.legal_actions(0)}
    assert {"Gx@0", "Pt@2"} <= legal, "both halves count as new stacks"
    state.apply("Pt@2")  # on the new stack Gs Bs Ps (symbol match with nothing, colour purple)
    state.apply("Gx@0")  # on the bottom half Rc Rt Oc Gc (colour green)
    assert stack_text(state, 0) == "Rc Rt Oc Gc Gx"
    assert stack_text(state, 2) == "Gs Bs Ps Pt"
    refused(state, "Bx@0", "one tile per stack per turn")
    refused(state, "Rx@2", "one tile per stack per turn")
    assert state.placed == 3


def test_a_new_half_may_split_again_in_the_same_turn() -> None:
    state = pos(
        """
        stacks: Rc Oc Gc Bc Rt Ot Gt Bt
        hand 0: Pt Pt Ph
        hand 1: Ph
        """
    )
    state.apply("Pt@0")  # nine tiles, five colours: Rc Oc Gc Bc Rt stay, Ot Gt Bt Pt go
    assert stack_text(state, 0) == "Rc Oc Gc Bc Rt"
    assert stack_text(state, 1) == "Ot Gt Bt Pt"
    state.apply("Pt@0")  # the bottom half gets its fifth colour and splits again
    assert stack_text(state, 0) == "Rc Oc Gc"
    assert stack_text(state, 2) == "Bc Rt Pt"
    assert state.splits == 2
    assert {str(a) for a in state.legal_actions(0)} >= {"Ph@1", "Ph@2"}


# --- ending a turn and drawing ----------------------------------------------------------------
def test_ending_a_turn_draws_a_tile_of_the_chosen_colour() -> None:
    state = pos(BASIC + "pile: Rs Gs Gt\n")
    state.apply("Rh@0")
    state.apply("end G")
    assert hand_text(state, 0) == "Ox Gc Gs Gh"
    assert [TILE_TEXT[t] for t in state.pile] == ["Rs", "Gt"]
    assert state.pile_colours == [1, 0, 1, 0, 0], "R O G B P: the counts follow the draw"
    assert state.history[-1].effect == Effect.DREW
    assert state.to_move() == (1,)
    assert state.used == 0
    assert state.placed == 0


def test_a_colour_the_pile_no_longer_has_cannot_be_chosen() -> None:
    state = pos(BASIC + "pile: Rs Gs\n")
    refused(state, "end B", "no blue tiles left")
    assert [str(a) for a in state.legal_actions(0) if str(a).startswith("end")] == [
        "end R",
        "end G",
    ]


def test_while_the_pile_has_tiles_ending_means_drawing() -> None:
    state = pos(BASIC + "pile: Rs\n")
    refused(state, "end", "drawing a tile")


def test_with_the_pile_empty_the_turn_ends_without_a_draw() -> None:
    state = pos(BASIC + "pile: -\n")
    refused(state, "end R", "pile is empty")
    state.apply("end")
    assert state.history[-1].effect == Effect.NONE
    assert hand_text(state, 0) == "Rh Ox Gc Gh"
    assert state.to_move() == (1,)


# --- end of a round and of the match ----------------------------------------------------------
def test_placing_the_last_tile_wins_the_round_and_deals_the_next() -> None:
    state = pos(
        """
        stacks: Rc / Bt
        hand 0: Rh Bh Ox
        hand 1: Pt Rs
        hand 2: Rs Rt Gx Gc Oh
        turn: 1
        """,
        players=3,
    )
    state.apply("Rs@0")
    state.apply("Pt@1")
    assert state.scores == [3, 0, 5]
    assert state.rounds == [((3, 0, 5), 1)]
    assert Effect.DREW in state.history[-1].effect, "the next round is dealt"
    assert not state.can_undo(1)
    assert state.to_move() == (1,), "the next seat after the round's starter starts"
    assert state.starter == 1
    assert state.hand_size == [10, 10, 10]
    assert [len(s) for s in state.stacks] == [1, 1]
    assert not state.is_terminal()


def test_the_match_ends_when_a_total_reaches_twelve_and_the_lowest_wins() -> None:
    state = pos(
        """
        stacks: Rc
        hand 0: Rh
        hand 1: Gs Gt Gx
        scores: 8 10
        """
    )
    state.apply("Rh@0")
    assert state.is_terminal()
    out = state.outcome()
    assert out.scores == (8.0, 13.0)
    assert out.winners == (0,)
    assert out.reason is EndReason.ROUND_WON
    assert state.history[-1].effect == Effect.REVEALED, "the end shows every hand"
    assert not state.can_undo(0)


def test_the_round_winner_can_still_lose_the_match() -> None:
    state = pos("stacks: Rc\nhand 0: Rh\nhand 1: Gs\nscores: 11 3")
    state.apply("Rh@0")  # player 1 reaches 4 only: nobody has 12, the match goes on
    assert not state.is_terminal()
    state2 = pos("stacks: Rc\nhand 0: Rh\nhand 1: Gs\nscores: 3 11")
    state2.apply("Rh@0")
    assert state2.is_terminal()
    assert state2.outcome().winners == (0,)
    state3 = pos("stacks: Rc\nhand 0: Gs\nhand 1: Rh\nscores: 13 2\nturn: 1", target=12)
    state3.apply("Rh@0")
    assert state3.outcome().winners == (1,)


def test_equal_lowest_totals_share_the_win() -> None:
    state = pos(
        """
        stacks: Rc
        hand 0: Rh
        hand 1: Gs Gt
        hand 2: Ox Oh Oc
        scores: 5 3 10
        """,
        players=3,
    )
    state.apply("Rh@0")
    out = state.outcome()
    assert out.scores == (5.0, 5.0, 13.0)
    assert out.winners == (0, 1)
    assert out.ranks == (0, 0, 2)


def test_the_target_is_an_option() -> None:
    state = pos("stacks: Rc\nhand 0: Rh\nhand 1: Gs Gt", target=2)
    state.apply("Rh@0")
    assert state.is_terminal()


# --- the stuck-round ruling -------------------------------------------------------------------
STUCK = """
stacks: Rc
hand 0: Gs
hand 1: Bt Bx
hand 2: Ph
pile: -
"""


def test_a_full_round_of_turns_without_a_placement_on_an_empty_pile_ends_the_round() -> None:
    state = pos(STUCK, players=3)
    state.apply("end")
    state.apply("end")
    assert len(state.rounds) == 0
    assert state.idle == 2
    state.apply("end")
    assert state.rounds == [((1, 2, 1), -1)], "no winner; everyone scores their tiles"
    assert state.scores == [1, 2, 1]
    assert state.history[-1].effect == Effect.DREW
    assert state.to_move() == (1,)


def test_a_placement_restarts_the_count_of_idle_turns() -> None:
    state = pos(STUCK.replace("hand 2: Ph", "hand 2: Rh Ph"), players=3)
    state.apply("end")
    state.apply("end")
    state.apply("Rh@0")
    state.apply("end")
    assert state.idle == 0
    state.apply("end")
    state.apply("end")
    assert not state.rounds
    state.apply("end")
    assert state.rounds == [((1, 2, 1), -1)]


def test_a_stuck_last_round_ends_the_match() -> None:
    state = pos(STUCK + "scores: 2 10 4", players=3)
    for _ in range(3):
        state.apply("end")
    assert state.is_terminal()
    out = state.outcome()
    assert out.reason is EndReason.STUCK_ROUND
    assert out.scores == (3.0, 12.0, 5.0)
    assert out.winners == (0,)


# --- taking back (rulebook: "once placed, your tile cannot be removed") -----------------------
def drained(seed: int) -> StakzState:
    """A seeded game (so steps can be taken back) in which every turn drew and placed nothing,
    until the pile ran out."""
    state = teocalli.load("stakz", players=2).new_state(seed)
    assert isinstance(state, StakzState)
    while state.pile:
        state.apply(next(a for a in state.legal_actions() if str(a).startswith("end ")))
        assert state.history[-1].effect == Effect.DREW
        assert not state.can_undo(state.history[-1].player), "a draw is never taken back"
    return state


def test_a_placement_reveals_the_tile_so_it_cannot_be_taken_back() -> None:
    state = pos(BASIC)
    state.apply("Rh@0")
    assert state.history[-1].effect == Effect.REVEALED, "its symbol was hidden in the hand"
    state = drained(seed=3)
    player = state.current_player()
    place = next(a for a in state.legal_actions() if isinstance(a, Place))
    state.apply(place)
    assert not state.can_undo(player)
    with pytest.raises(IllegalAction, match="cannot be taken back"):
        state.undo(player)
    assert str(place) in {text for _, text in state.log(None)}


def test_ending_a_turn_on_an_empty_pile_may_still_be_taken_back_but_not_the_tiles() -> None:
    state = pos(BASIC + "pile: -\n")
    state.apply("Rh@0")
    state.apply("end")
    assert state.history[-1].effect == Effect.NONE, "ending without a draw reveals nothing"
    state = drained(seed=3)
    player = state.current_player()
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Place)))
    placed = state._full()
    state.apply("end")
    assert state.can_undo(player) and not state.can_undo(1 - player)
    back = state.undo(player)
    assert back._full() == placed, "the turn is open again, with the tile still placed"
    assert back.current_player() == player
    assert not back.can_undo(player)


# --- hidden information -----------------------------------------------------------------------
def test_views_show_colours_of_every_hand_but_symbols_only_to_their_owner() -> None:
    state = teocalli.load("stakz", players=3).new_state(2)
    for viewer in (None, 0, 1, 2):
        hands = state.view(viewer)["state"]["hands"]
        for p, hand in enumerate(hands):
            assert hand["colours"] == dict.fromkeys("ROGBP", 2)
            assert ("tiles" in hand) == (p == viewer)
        assert "tiles" not in state.view(viewer)["state"]["pile"]
    assert state._full()["pile"]["tiles"]


def test_determinize_redeals_only_what_the_player_cannot_know() -> None:
    state = teocalli.load("stakz", players=3).new_state(3)
    state.apply(state.legal_actions(0)[0])
    assert isinstance(state, StakzState)
    varied = False
    for k in range(5):
        world = state.determinize(0, Rng(k))
        assert isinstance(world, StakzState)
        assert world.hands[0] == state.hands[0]
        assert world.stacks == state.stacks
        assert world.pile_colours == state.pile_colours
        for p in (1, 2):
            assert world.view(0)["state"]["hands"][p] == state.view(0)["state"]["hands"][p]
        everything = Counter(t for h in world.hands for t in range(NUM_TILES) for _ in range(h[t]))
        everything.update(world.pile)
        everything.update(t for s in world.stacks for t in s)
        assert everything == dict.fromkeys(range(NUM_TILES), 3)
        varied |= world.hands[1:] != state.hands[1:] or world.pile != state.pile
    assert varied
