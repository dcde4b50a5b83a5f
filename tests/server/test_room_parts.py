"""The parts of a room, each tested alone: seats, the clock's choice of whom to time, views."""

from __future__ import annotations

import pytest

import teocalli
from teocalli.core import Decision
from teocalli.server.clocks import TableClock, follow_the_mover
from teocalli.server.errors import Refused
from teocalli.server.seats import HAND_OVER_GRACE, Seat, Seats
from teocalli.server.tokens import hash_token
from teocalli.server.views import SECRET_CHOICE, state_message, visible_log


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def roster(now: Clock) -> Seats:
    return Seats(
        [
            Seat(0, "human", None, hash_token("tok0")),
            Seat(1, "human", None, hash_token("tok1")),
            Seat(2, "bot", "greedy", None),
        ],
        now,
    )


def test_seats_open_only_with_their_token_and_say_who_controls_them() -> None:
    seats = roster(Clock())
    assert seats.authenticate("0", "tok0") == 0 and seats.authenticate(None, None) is None
    for text, token, words in [
        ("1", "tok0", "does not open Seat 2"),
        ("2", "x", "a bot's seat"),
        ("7", "tok0", "no seat 7"),
        ("x", "tok0", "not a seat number"),
        (None, "tok0", "needs its seat number"),
    ]:
        with pytest.raises(Refused, match=words):
            seats.authenticate(text, token)
    assert [seats.person_controls(k) for k in range(3)] == [True, True, False]
    seats.timed_out.add(1)
    seats[0].handed_to = "random"
    assert seats.bot_seats() == [0, 1, 2] and not seats.person_controls(0)


def test_a_hand_over_needs_the_person_gone_for_the_grace() -> None:
    now = Clock()
    seats = roster(now)
    seats.arrived(1)
    with pytest.raises(Refused, match="still here"):
        seats.check_hand_over(1, [0, 1])
    now.t = 100.0
    seats.left(1, [0, 1])  # another connection of seat 1 is still open
    with pytest.raises(Refused, match="still here"):
        seats.check_hand_over(1, [0, 1])
    seats.left(1, [0])
    now.t = 100.0 + HAND_OVER_GRACE - 1
    with pytest.raises(Refused, match="left 59 s ago"):
        seats.check_hand_over(1, [0])
    now.t = 100.0 + HAND_OVER_GRACE
    seats.check_hand_over(1, [0])
    with pytest.raises(Refused, match="not a person's seat"):
        seats.check_hand_over(2, [0])


def test_the_clock_times_only_a_person_who_alone_must_move() -> None:
    now = Clock()
    clock = TableClock.fresh("bank", 60, 3, now)
    seats = roster(now)
    follow_the_mover(clock, Decision.TURN, (0,), seats.person_controls, seats.timed_out)
    assert clock.running_for == 0
    follow_the_mover(clock, Decision.TURN, (2,), seats.person_controls, seats.timed_out)
    assert clock.running_for is None  # a bot's turn is not timed
    follow_the_mover(clock, Decision.SIMULTANEOUS, (0, 1), seats.person_controls, seats.timed_out)
    assert clock.running_for is None
    now.t = 10.0
    clock.remaining[1] = 0.0
    seats.timed_out.add(1)
    follow_the_mover(clock, Decision.TURN, (1,), seats.person_controls, seats.timed_out)
    assert seats.timed_out == {1} and clock.running_for is None  # the bot finishes the turn
    follow_the_mover(clock, Decision.TURN, (0,), seats.person_controls, seats.timed_out)
    assert seats.timed_out == set() and clock.remaining[1] == 6.0  # the grace: a tenth of 60


def test_state_messages_hide_secret_choices_and_moves_of_others() -> None:
    game = teocalli.load("space-aztecs", players=2)
    state = game.new_state(5)
    decisions = []
    while state.decision() is not Decision.SIMULTANEOUS:
        decisions.append(state.decision())
        state.apply(state.legal_actions(state.to_move()[0])[0], state.to_move()[0])
    decisions.append(state.decision())
    choice = state.legal_actions(0)[0]
    state.apply(choice, 0)
    assert visible_log(state, decisions, 1)[-1] == [0, SECRET_CHOICE]
    assert visible_log(state, decisions, 0)[-1] == [0, str(choice)]
    mine = state_message(state, decisions, 1, controls=True, table={}, clock=None, bot_seats=[])
    assert mine["legal"] and mine["view"]["player"] == 1
    watching = state_message(
        state, decisions, None, controls=False, table={}, clock=None, bot_seats=[]
    )
    assert watching["legal"] == [] and watching["can_undo"] is False
