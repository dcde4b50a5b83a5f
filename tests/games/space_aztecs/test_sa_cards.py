"""Card effects: Temples gather, Saucers capture (the owner's choice), Special Agents tuck."""

from __future__ import annotations

import pytest

from teocalli.core import Decision, IllegalAction
from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.state import Phase, SpaceAztecsState


def pos(text: str, removed: str = "green") -> SpaceAztecsState:
    return space_aztecs_position(SpaceAztecs(players=3, removed_set=removed), text)


def run(state: SpaceAztecsState, *steps: str) -> SpaceAztecsState:
    for step in steps:
        player, _, action = step.partition(":")
        state.apply(action.strip(), int(player))
    return state


def city(state: SpaceAztecsState, player: int) -> dict:
    return state.view(None)["state"]["cities"][player]


def round_of(cities: str, piles: tuple[str, str, str]) -> str:
    """Players 0, 1, 2 hold piles A, B, C (a Codex card in each keeps the piles from emptying)."""
    a, b, c = piles
    return (
        f"start 0\n{cities}\npile A: {a} CDX-1\npile B: {b} CDX-2\npile C: {c} CDX-3\n"
        "held 0: A\nheld 1: B\nheld 2: C\n"
    )


# --- Temples -----------------------------------------------------------------------------------
def test_a_temple_gathers_all_your_visible_aztecs_of_its_colour() -> None:
    text = round_of(
        "city 0: PNK-01 PNK-02 YEL-01\ncity 1: PNK-03", ("PNK-T1 YEL-02", "YEL-03", "YEL-04")
    )
    s = run(pos(text), "0: choose PNK-T1", "1: choose YEL-03", "2: choose YEL-04")
    assert city(s, 0)["temples"] == [{"temple": "PNK-T1", "under": ["PNK-01", "PNK-02"]}]
    assert city(s, 0)["aztecs"] == ["YEL-01"]
    assert city(s, 1)["aztecs"] == ["PNK-03", "YEL-03"]  # another player's pink stays out


def test_later_aztecs_never_go_under_a_temple_without_an_agent() -> None:
    text = round_of("city 0: PNK-T1[PNK-01]", ("PNK-02", "YEL-03", "YEL-04"))
    s = run(pos(text), "0: choose PNK-02", "1: choose YEL-03", "2: choose YEL-04")
    assert city(s, 0)["temples"] == [{"temple": "PNK-T1", "under": ["PNK-01"]}]
    assert city(s, 0)["aztecs"] == ["PNK-02"]
    assert s.phase is Phase.PICK  # nobody was asked anything


# --- Flying Saucers ----------------------------------------------------------------------------
SAUCER_ROUND = round_of(
    "city 0: PNK-01 PNK-03 BLU-04 PNK-T2[PNK-05]\ncity 1: PNK-04",
    ("YEL-T1 PNK-07", "YEL-T2", "PNK-S1"),
)


def test_a_saucer_takes_one_card_from_each_other_player_and_its_owner_chooses() -> None:
    # times: player 0 16:00, 1 16:15, 2 19:00 -> order 0, 1, 2; the Saucer comes last
    s = run(pos(SAUCER_ROUND), "0: choose YEL-T1", "1: choose YEL-T2", "2: choose PNK-S1")
    assert s.phase is Phase.CAPTURE
    assert s.decision() is Decision.TURN and s.to_move() == (2,)
    assert [str(a) for a in s.legal_actions(2)] == ["capture PNK-01", "capture PNK-03"]
    pending = s.view(1)["state"]["pending"]
    assert pending == {
        "kind": "capture",
        "player": 2,
        "saucer": "PNK-S1",
        "victim": 0,
        "choices": ["PNK-01", "PNK-03"],
    }
    run(s, "2: capture PNK-03")
    # player 1 had a single pink Aztec: taken without a question
    assert city(s, 2)["saucers"] == [{"saucer": "PNK-S1", "under": ["PNK-03", "PNK-04"]}]
    assert city(s, 0)["aztecs"] == ["PNK-01", "BLU-04"]
    assert city(s, 1)["aztecs"] == []
    assert s.phase is Phase.PICK and s.round == 2


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("capture PNK-04", "not an Aztec in view in player 0's city"),
        ("capture PNK-05", "under a Temple: Temples protect"),
        ("capture BLU-04", "takes only pink Aztecs, and BLU-04 is blue"),
        ("take A", "piles are taken only at the start of a round"),
        ("tuck", "Special Agent"),
    ],
)
def test_a_saucer_owner_may_not_take_what_the_rules_protect(action: str, message: str) -> None:
    s = run(pos(SAUCER_ROUND), "0: choose YEL-T1", "1: choose YEL-T2", "2: choose PNK-S1")
    with pytest.raises(IllegalAction, match=message):
        s.apply(action, 2)


def test_victims_are_asked_about_clockwise_from_the_saucer() -> None:
    text = round_of("city 0: PNK-01 PNK-03\ncity 1: PNK-04 PNK-05", ("YEL-T1", "YEL-T2", "PNK-S1"))
    s = run(pos(text), "0: choose YEL-T1", "1: choose YEL-T2", "2: choose PNK-S1")
    assert s.view(None)["state"]["pending"]["victim"] == 0
    run(s, "2: capture PNK-01")
    assert s.view(None)["state"]["pending"]["victim"] == 1
    assert [str(a) for a in s.legal_actions(2)] == ["capture PNK-04", "capture PNK-05"]
    run(s, "2: capture PNK-05")
    assert city(s, 2)["saucers"][0]["under"] == ["PNK-01", "PNK-05"]


def test_a_saucer_with_nothing_to_take_still_counts() -> None:
    text = round_of("city 0: PNK-T1[PNK-01]\ncity 1: YEL-01", ("YEL-T1", "YEL-T2", "PNK-S1"))
    s = run(pos(text), "0: choose YEL-T1", "1: choose YEL-T2", "2: choose PNK-S1")
    assert s.phase is Phase.PICK
    assert city(s, 2)["saucers"] == [{"saucer": "PNK-S1", "under": []}]
    assert s.saucers_played == 1
    assert s.view(None)["state"]["saucers_played"] == 1


def test_a_saucer_never_takes_from_its_own_owner() -> None:
    text = round_of("city 2: PNK-01 PNK-02", ("YEL-T1", "YEL-T2", "PNK-S1"))
    s = run(pos(text), "0: choose YEL-T1", "1: choose YEL-T2", "2: choose PNK-S1")
    assert city(s, 2)["aztecs"] == ["PNK-01", "PNK-02"]


# --- Special Agents ----------------------------------------------------------------------------
def agent_round(city0: str, card: str) -> SpaceAztecsState:
    text = round_of(f"city 0: {city0}", (f"{card} PNK-10", "YEL-T1", "YEL-T2"))
    return pos(text.replace("YEL-T1", "BLU-T1").replace("YEL-T2", "BLU-T2"), removed="yellow")


def test_an_agent_in_view_lets_you_tuck_any_aztec_under_its_temple() -> None:
    s = agent_round("GRN-01 PNK-T1[PNK-01]", "PNK-02")
    run(s, "1: choose BLU-T1", "2: choose BLU-T2", "0: choose PNK-02")
    # PNK-02 is 05:15: player 0 plays first and is asked
    assert s.phase is Phase.TUCK and s.to_move() == (0,)
    assert [str(a) for a in s.legal_actions(0)] == ["tuck", "keep"]
    assert s.view(2)["state"]["pending"] == {"kind": "tuck", "player": 0, "card": "PNK-02"}
    with pytest.raises(IllegalAction, match="no Flying Saucer"):
        s.apply("capture PNK-02", 0)
    run(s, "0: tuck")
    assert city(s, 0)["temples"] == [{"temple": "PNK-T1", "under": ["PNK-01", "PNK-02"]}]
    assert s.phase is Phase.PICK


def test_an_agent_owner_may_keep_the_card_in_view() -> None:
    s = agent_round("GRN-01 PNK-T1[PNK-01]", "PNK-02")
    run(s, "1: choose BLU-T1", "2: choose BLU-T2", "0: choose PNK-02", "0: keep")
    assert city(s, 0)["aztecs"] == ["PNK-02", "GRN-01"]


@pytest.mark.parametrize(
    ("city0", "card"),
    [
        ("GRN-01 BLU-T3", "PNK-02"),  # no Temple of the card's colour
        ("GRN-T1[GRN-01] PNK-T1", "PNK-02"),  # the Agent is itself under a Temple
        ("PNK-T1", "PNK-02"),  # no Agent at all
        ("GRN-T1", "GRN-01"),  # an Agent does not offer to tuck itself as it arrives
    ],
)
def test_no_tuck_is_offered_without_an_agent_in_view_and_a_temple(city0: str, card: str) -> None:
    s = agent_round(city0, card)
    run(s, "1: choose BLU-T1", "2: choose BLU-T2", f"0: choose {card}")
    assert s.phase is Phase.PICK
    assert card in city(s, 0)["aztecs"]


def test_a_second_agent_may_be_tucked_by_the_first() -> None:
    s = agent_round("GRN-02 GRN-T1", "GRN-01")
    run(s, "1: choose BLU-T1", "2: choose BLU-T2", "0: choose GRN-01")
    assert s.phase is Phase.TUCK
    run(s, "0: tuck")
    assert city(s, 0)["temples"] == [{"temple": "GRN-T1", "under": ["GRN-01"]}]
