"""The balance ruling by support polygons (docs/games/stack-back.md, "Balance"), on positions.

One test per rule: a bridge stands with its weight anywhere between the outer edges of its
supports; loads pass down through two levels; a stick resting on the extreme edges of its
supports, by slivers on one side of its centre line, is refused (it rolls off); a counterweight
holds an overhang; a stick on one board may overhang while its centre is over the board, and what
it carries counts; straddling sticks rest on their two board contacts. Then the model itself:
loads split by the lever rule, the incremental deltas equal to a recomputation from scratch.
"""

from __future__ import annotations

import random

import pytest

import teocalli
from teocalli.analysis.stack_back.balance_scenes import FAMILIES, build
from teocalli.core import IllegalAction
from teocalli.games.stack_back import StackBackState, from_position
from teocalli.games.stack_back.balance import evaluate, margins, split
from teocalli.games.stack_back.components import SPEC
from teocalli.games.stack_back.rules import Verdict


def position(text: str) -> StackBackState:
    return from_position(teocalli.load("stack-back"), text)  # type: ignore[arg-type]


def legal(state: StackBackState, move: str, player: int = 0) -> bool:
    """Whether `move` is legal now, checked by applying it to a copy (and by `judge`)."""
    world = state.clone()
    try:
        world.apply(move, player)
    except IllegalAction:
        return False
    return True


def refused(state: StackBackState, move: str, match: str, player: int = 0) -> None:
    with pytest.raises(IllegalAction, match=match):
        state.clone().apply(move, player)


# --- bridges -------------------------------------------------------------------------------------
TWO_GREENS = "sticks: 0:G30,40@90 1:G42,40@90"
"""Two greens 12 mm apart (outer edges at x 27 and 45)."""


def test_a_yellow_across_two_greens_stands_between_their_outer_edges() -> None:
    state = position(TWO_GREENS)
    # anywhere from 1 mm inside one outer edge to 1 mm inside the other: 28..44
    for x in ("28.1", "29", "31", "36", "41", "43", "43.9"):
        assert legal(state, f"Y{x},40@0"), x
    for x in ("27.9", "27", "44.1", "45"):
        refused(state, f"Y{x},40@0", "this stick would fall")
    # (the centroid model of before allowed only 31..41 here)


def test_the_margin_is_the_distance_to_the_support_polygon() -> None:
    state = position(TWO_GREENS + " 0:Y40,40@0")
    assert margins(state.sticks)[2] == pytest.approx(3.0)  # 3 mm from its long edges
    state = position(TWO_GREENS + " 0:Y43,40@0")
    assert margins(state.sticks)[2] == pytest.approx(2.0)  # 2 mm from the outer edge at 45


# --- two levels ----------------------------------------------------------------------------------
OVERHANG = "sticks: 0:G30,20@90 1:G50,20@90 0:G30,60@90 1:G50,60@90 0:M49,20@0 1:M49,60@0"
"""Two mauves on greens at x 30 and 50 (outer edge 53), overhanging them to x 76."""


def test_a_load_on_an_overhang_passes_down_and_may_tip_the_sticks_below() -> None:
    state = position(OVERHANG)
    # a yellow across both mauves at x: each mauve carries half of it, 36, at x; a mauve stands
    # while (54 * 49 + 36 * x) / 90 <= 53 - 1, so for x up to 56.5
    for x in (28, 40, 50, 56):
        assert legal(state, f"Y{x},40@90"), x
    refused(state, "Y57,40@90", r"make the mauve stick at 49,20 \(level 1\) fall")
    refused(state, "Y70,40@90", "fall")


def test_three_levels_pass_their_loads_down_to_the_wood() -> None:
    state = position(OVERHANG + " 0:Y40,40@90")
    force, _ = evaluate(state.sticks)
    assert sum(force[:4]) == pytest.approx(4 * 36 + 2 * 54 + 72)
    assert force[4] == force[5] == pytest.approx(54 + 36)


# --- edges ---------------------------------------------------------------------------------------
END_TO_END = "sticks: 0:G31.8,40@0 1:G68.2,40@0"
"""Two greens laid end to end along x (y 37..43), a 0.4 mm gap between them."""


def test_a_stick_resting_on_the_extreme_edges_of_its_supports_is_refused() -> None:
    state = position(END_TO_END)
    # a yellow along them, its lower edge 1.5 mm onto both (1.5 x 36 = 54 mm² on each): its
    # centre line lies 1.5 mm beyond the greens' edge, it rolls off sideways
    refused(state, "Y50,44.5@0", "this stick would fall")
    # 5 mm onto both: its centre 2 mm inside the greens' edge, it stands
    assert legal(state, "Y50,41@0")
    assert position(END_TO_END + " 0:Y50,41@0").sticks[2].level == 1


def test_slivers_on_both_sides_of_the_centre_line_hold_a_stick() -> None:
    # one green below its lower edge, the other above its upper edge: the polygon spans it
    state = position("sticks: 0:G31.8,40@0 1:G68.2,49@0")
    assert legal(state, "Y50,44.5@0")


# --- counterweights ------------------------------------------------------------------------------
OVER_THE_GAP = "sticks: 0:M97,30@0 1:M97,50@0"
"""Two mauves on board A overhanging the gap by 24 mm, their centres 3 mm inside the edge."""


def test_a_counterweight_holds_a_load_on_the_overhang() -> None:
    state = position(OVER_THE_GAP)
    # alone, a green on the overhanging ends tips them: (54 * 97 + 18 * 112) / 72 = 100.75 > 99
    refused(state, "G112,40@90", "make the mauve stick at 97,30 .* fall")
    # a yellow first across their inner ends, then the same green stands:
    # (54 * 97 + 36 * 74 + 18 * 112) / 108 = 91.8
    state = position(OVER_THE_GAP + " 0:Y74,40@90")
    assert legal(state, "G112,40@90")


# --- the wood ------------------------------------------------------------------------------------
def test_a_stick_on_one_board_may_overhang_while_its_centre_is_over_it() -> None:
    state = position("")
    assert legal(state, "M98,40@0")  # 25 mm over the gap, centre 2 mm inside board A
    assert legal(state, "Y4,40@0")  # 32 mm beyond board A's outer edge
    assert legal(state, "G50,99@0")  # beyond its far edge by 2 mm, centre 1 mm inside
    assert legal(state, "G138,40@0")  # over the gap from board B
    refused(state, "M99.5,40@0", "this stick would fall")
    refused(state, "Y0.5,40@0", "this stick would fall")
    refused(state, "G50,99.5@0", "this stick would fall")


def test_what_a_stick_on_one_board_carries_counts() -> None:
    state = position("sticks: 0:M96,30@0 1:M96,50@0")
    # each mauve carries half a green at x: (54 * 96 + 18 * x) / 72 <= 99 for x up to 108
    assert legal(state, "G104,40@90")
    refused(state, "G112,40@90", "make the mauve stick at 96,30 .* fall")


def test_a_stick_touching_no_board_is_refused() -> None:
    refused(position(""), "G118,40@90", "must rest on a board")


# --- straddles -----------------------------------------------------------------------------------
def test_straddling_sticks_rest_on_their_two_board_contacts_and_carry_over_the_gap() -> None:
    state = position("sticks: 0:Y118,30@0 1:Y118,50@0")
    assert [len(s.contacts) for s in state.sticks] == [2, 2]
    assert legal(state, "M118,40@90")  # over the middle of the gap, on the two straddles
    state = position("sticks: 0:Y118,30@0 1:Y118,50@0 0:M118,40@90")
    assert min(margins(state.sticks)) >= SPEC.margin


def test_a_stick_reaching_both_boards_must_rest_six_by_six_on_each() -> None:
    refused(position(""), "Y104,40@0", "resting at least 6 x 6 mm on each board")  # 4 mm on B


# --- the model -----------------------------------------------------------------------------------
def test_loads_split_by_the_lever_rule_between_the_contact_centroids() -> None:
    state = position(TWO_GREENS + " 0:Y40,40@0")
    bridge = state.sticks[2]
    (fa, _), (fb, _) = split(bridge, bridge.weight, 0j)
    # centroids at x 30 and 42, the weight at 40: 2/12 on the first, 10/12 on the second
    assert (fa, fb) == pytest.approx((72 * 2 / 12, 72 * 10 / 12))
    assert state.force[:2] == pytest.approx([36 + 12, 36 + 60])


def test_beyond_a_contact_centroid_all_the_load_goes_to_that_support() -> None:
    state = position(TWO_GREENS + " 0:Y43,40@0")
    assert state.force[:2] == pytest.approx([36, 36 + 72])
    # it lands at the resultant: x 43 on the second green, 1 mm from its centre line
    assert state.moment[1] == pytest.approx(72 * 1 + 0j)


def test_the_incremental_loads_equal_a_recomputation_on_generated_structures() -> None:
    """Every generated scene that stands, laid stick by stick through the engine."""
    rng = random.Random(5)
    laid = 0
    for make in FAMILIES.values():
        for _ in range(12):
            poses = make(rng)
            sticks = build(poses)
            if isinstance(sticks, str) or min(margins(sticks)) < SPEC.margin:
                continue
            try:  # laid in order, a stick may fall before its counterweight comes
                state = position("sticks: " + " ".join(f"0:{p}" for p in poses))
            except IllegalAction:
                continue
            force, moment = evaluate(state.sticks)
            assert state.force == pytest.approx(force)
            assert state.moment == pytest.approx(moment, abs=1e-6)
            laid += 1
    assert laid >= 40


def test_the_engine_refuses_exactly_what_the_model_says_falls() -> None:
    """The last stick of each generated scene is judged: legal iff every stick keeps 1 mm."""
    rng = random.Random(9)
    judged = {True: 0, False: 0}
    for make in FAMILIES.values():
        for _ in range(12):
            poses = make(rng)
            sticks = build(poses)
            if isinstance(sticks, str) or min(margins(sticks[:-1]), default=1.0) < SPEC.margin:
                continue
            try:  # laid in order, a stick may fall before its counterweight comes
                state = position("sticks: " + " ".join(f"0:{p}" for p in poses[:-1]))
            except IllegalAction:
                continue
            ok = isinstance(state.judge(poses[-1], 0), Verdict)
            assert ok == (min(margins(sticks)) >= SPEC.margin - 1e-9), str(poses)
            judged[ok] += 1
    assert min(judged.values()) >= 10
