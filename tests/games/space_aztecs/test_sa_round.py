"""A round (rulebook 1-4): piles clockwise, the hidden simultaneous choice, announced times,
play from the earliest time then clockwise; and the end of the world."""

from __future__ import annotations

import pytest

from teocalli.core import Decision, Effect, IllegalAction
from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.state import EndReason, SpaceAztecsState


def pos(text: str, players: int = 3, removed: str = "green") -> SpaceAztecsState:
    if players >= 5:
        removed = "random"
    return space_aztecs_position(SpaceAztecs(players=players, removed_set=removed), text)


def run(state: SpaceAztecsState, *steps: str) -> SpaceAztecsState:
    for step in steps:
        player, _, action = step.partition(":")
        state.apply(action.strip(), int(player))
    return state


def city(state: SpaceAztecsState, player: int) -> dict:
    return state.view(None)["state"]["cities"][player]


def test_piles_are_taken_clockwise_from_the_starting_player() -> None:
    s = pos("start 1\npile A: -")
    assert s.decision() is Decision.TURN and s.to_move() == (1,)
    run(s, "1: take C")
    assert s.history[-1].effect is Effect.REVEALED  # the taker sees the pile
    assert s.to_move() == (2,)
    with pytest.raises(IllegalAction, match="already taken this round by player 1"):
        s.apply("take C", 2)
    with pytest.raises(IllegalAction, match="pile A is empty"):
        s.apply("take A", 2)
    assert "take A" not in [str(a) for a in s.legal_actions(2)]
    run(s, "2: take B")
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        s.apply("take D", 1)
    run(s, "0: take H")
    assert s.decision() is Decision.SIMULTANEOUS and s.to_move() == (0, 1, 2)


ROUND = """
start 0
pile A: PNK-02 CDX-1 BLU-T1
pile B: PNK-01 YEL-T1
pile C: PNK-S1 BLU-10
held 0: A
held 1: B
held 2: C
"""


def test_choices_are_simultaneous_and_hidden_until_all_have_chosen() -> None:
    s = pos(ROUND)
    with pytest.raises(IllegalAction, match="PNK-01 is not in your pile A"):
        s.apply("choose PNK-01", 0)
    with pytest.raises(IllegalAction, match="cards are chosen once"):
        pos("start 0").apply("choose PNK-01", 0)
    run(s, "2: choose PNK-S1")
    assert s.history[-1].effect is Effect.NONE
    assert s.to_move() == (0, 1)
    assert s.decision() is Decision.SIMULTANEOUS
    other = s.view(0)["state"]
    assert other["has_chosen"] == [False, False, True]
    assert "PNK-S1" not in str(s.view(0)) and "PNK-S1" not in str(s.view(None))
    assert s.view(2)["state"]["your_choice"]["id"] == "PNK-S1"
    with pytest.raises(IllegalAction, match="not player 2's turn"):
        s.apply("choose BLU-10", 2)
    run(s, "0: choose PNK-02")
    assert "PNK-02" not in str(s.view(1))
    run(s, "1: choose PNK-01")
    assert s.history[-1].effect is Effect.REVEALED


def test_play_starts_at_the_earliest_time_then_goes_clockwise() -> None:
    # times: player 1 05:00, player 0 05:15, player 2 19:00. Player 1 plays first and takes the
    # token; then clockwise: player 2's pink Saucer takes player 1's Turkey before player 0's
    # (earlier) Maize Farmer is even played, so the Farmer is safe.
    s = run(pos(ROUND), "2: choose PNK-S1", "0: choose PNK-02", "1: choose PNK-01")
    assert s.start == 1
    assert city(s, 1)["aztecs"] == []
    assert city(s, 2)["saucers"] == [{"saucer": "PNK-S1", "under": ["PNK-01"]}]
    assert city(s, 0)["aztecs"] == ["PNK-02"]
    assert s.view(None)["state"]["last_round"] == ["PNK-02", "PNK-01", "PNK-S1"]
    # the next round: the new Starting Player takes a pile first
    assert s.round == 2 and s.to_move() == (1,) and s.decision() is Decision.TURN


def test_the_world_ends_when_two_piles_are_empty_after_the_round() -> None:
    text = """
    start 0
    pile A: -
    pile B: PNK-01 {extra}
    pile C: PNK-02
    pile D: PNK-03
    held 0: B
    held 1: C
    held 2: D
    """
    s = run(pos(text.format(extra="")), "0: choose PNK-01", "1: choose PNK-02")
    assert not s.is_terminal()
    run(s, "2: choose PNK-03")
    assert s.is_terminal()
    assert s.outcome().reason is EndReason.PILES
    assert [city(s, p)["aztecs"] for p in range(3)] == [["PNK-01"], ["PNK-02"], ["PNK-03"]]
    # pile A refilled, B keeps a card: C and D are emptied, still two piles: the end
    s = run(
        pos(text.replace("pile A: -", "").format(extra="PNK-04")),
        "0: choose PNK-01",
        "1: choose PNK-02",
        "2: choose PNK-03",
    )
    assert s.is_terminal()
    # C keeps a card too: only D is empty, and the world goes on
    s = run(
        pos(
            text.replace("pile A: -", "")
            .replace("pile C: PNK-02", "pile C: PNK-02 PNK-05")
            .format(extra="PNK-04")
        ),
        "0: choose PNK-01",
        "1: choose PNK-02",
        "2: choose PNK-03",
    )
    assert not s.is_terminal() and s.round == 2


SAUCERS = """
start 0
city 0: PNK-S1 PNK-S2 YEL-S1
city 1: YEL-S2 YEL-S3 BLU-S1
pile A: BLU-10 PNK-01
pile B: BLU-S3 PNK-02
pile C: PNK-S3 PNK-03
held 0: A
held 1: B
held 2: C
"""


def test_the_seventh_saucer_ends_the_world_once_the_round_is_finished() -> None:
    # player 2's Saucer (19:30, the earliest) is the 7th; the round still finishes clockwise:
    # player 0's Tlatoani (22:00) is played, then player 1's blue Saucer (21:00) takes it.
    s = run(pos(SAUCERS), "0: choose BLU-10", "1: choose BLU-S3", "2: choose PNK-S3")
    assert s.is_terminal()
    assert s.outcome().reason is EndReason.SAUCERS
    assert s.saucers_played == 8
    assert city(s, 1)["saucers"][-1] == {"saucer": "BLU-S3", "under": ["BLU-10"]}


def test_six_saucers_do_not_end_a_three_player_game() -> None:
    s = run(pos(SAUCERS), "0: choose PNK-01", "1: choose PNK-02", "2: choose PNK-03")
    assert not s.is_terminal() and s.saucers_played == 6


def test_five_players_need_nine_saucers() -> None:
    text = """
    start 0
    city 0: PNK-S1 PNK-S2 YEL-S1 YEL-S2
    city 1: YEL-S3 BLU-S1 BLU-S2 BLU-S3
    pile A: GRN-S1 PNK-01
    pile B: PNK-02 PNK-03
    pile C: PNK-04 PNK-05
    pile D: PNK-06 PNK-07
    pile E: PNK-08 PNK-09
    held 0: A
    held 1: B
    held 2: C
    held 3: D
    held 4: E
    """
    others = ["1: choose PNK-02", "2: choose PNK-04", "3: choose PNK-06", "4: choose PNK-08"]
    s = run(pos(text, players=5), "0: choose PNK-01", *others)
    assert not s.is_terminal() and s.saucer_limit == 9
    s = run(pos(text, players=5), "0: choose GRN-S1", *others)
    assert s.is_terminal() and s.outcome().reason is EndReason.SAUCERS


def test_both_triggers_at_once() -> None:
    text = SAUCERS.replace("pile A: BLU-10 PNK-01", "pile A: BLU-10").replace(
        "pile B: BLU-S3 PNK-02", "pile B: BLU-S3"
    )
    s = run(pos(text), "0: choose BLU-10", "1: choose BLU-S3", "2: choose PNK-S3")
    assert s.outcome().reason is EndReason.BOTH


def test_nothing_can_be_played_once_the_world_has_ended() -> None:
    s = run(pos(SAUCERS), "0: choose BLU-10", "1: choose BLU-S3", "2: choose PNK-S3")
    assert s.to_move() == () and s.decision() is None
    with pytest.raises(IllegalAction, match="over"):
        s.apply("take A", 0)
