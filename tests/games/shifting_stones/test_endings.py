"""The end: trigger by player count, finishing the round, the +3 bonus, shared ties; solo."""

from __future__ import annotations

import pytest

from teocalli.games.shifting_stones.state import EndReason

from .helpers import position

MATCH = "grid: Tr Tr Tr / Fi Bi Su / Ho Bo Ho"  # cards 21 (Tr Tr) and 26 (Tr Tr Tr) match


def _scored(cards: list[int]) -> str:
    return " ".join(str(c) for c in cards)


@pytest.mark.parametrize(("players", "trigger"), [(2, 10), (3, 9), (4, 8), (5, 7)])
def test_the_end_trigger_by_player_count_then_the_round_is_finished(
    players: int, trigger: int
) -> None:
    # Seat 0 already has trigger - 1 cards and scores one more (card 21): the game goes on until
    # every other seat has had its turn, then ends before seat 0's next turn.
    first = list(range(30, 30 + trigger - 1))
    scored = " | ".join([_scored(first)] + [""] * (players - 1))
    hands = " | ".join(["21"] + [str(40 + p) for p in range(1, players)])
    state = position(f"{MATCH}\nhands: {hands}\nscored: {scored}", players=players)
    state.apply("score 21", 0)
    state.apply("end", 0)
    for seat in range(1, players):
        assert not state.is_terminal() and state.turn == seat
        state.apply("end", seat)
    assert state.is_terminal() and state.outcome().reason is EndReason.TRIGGER


def test_below_the_trigger_the_game_goes_on() -> None:
    state = position(f"{MATCH}\nhands: 21 | 5\nscored: 30 31 32 33 34 35 36 37 |")
    state.apply("score 21", 0)
    state.apply("end", 0)
    state.apply("end", 1)
    assert not state.is_terminal()  # 9 cards: a 2-player game needs 10


def test_the_trigger_in_the_last_seat_ends_the_game_at_once() -> None:
    state = position(f"{MATCH}\nhands: 5 | 21\nscored: | 30 31 32 33 34 35 36 37 38\nturn: 1")
    state.apply("score 21", 1)
    state.apply("end", 1)
    assert state.is_terminal()


def test_scoring_more_than_the_trigger_counts() -> None:
    state = position(f"{MATCH}\nhands: 5 | 21 26\nscored: | 30 31 32 33 34 35 36 37 38\nturn: 1")
    state.apply("score 21", 1)
    state.apply("score 26", 1)
    state.apply("end", 1)
    assert len(state.scored[1]) == 11


def test_bonus_3_points_to_the_most_one_point_cards() -> None:
    # seat 0: cards 1, 10, 11 (three 1-point cards) = 3; seat 1: 20 (5 points) + 13 (1) = 6
    state = position(f"{MATCH}\nhands: 5 | 6\nscored: 1 10 11 | 20 13\nturn: 1\nround: 49")
    state.apply("end", 1)  # the round limit ends this game
    out = state.outcome()
    assert state.bonus() == [3, 0]
    assert out.scores == (6.0, 6.0) and out.winners == (0, 1)  # equal points share the victory


def test_tied_bonus_goes_to_each_tied_player() -> None:
    state = position(
        f"{MATCH}\nhands: 5 | 6 | 7\nscored: 1 2 | 10 20 | 3\nturn: 2\nround: 49", players=3
    )
    state.apply("end", 2)
    assert state.bonus() == [3, 3, 0]
    assert state.outcome().scores == (1 + 3 + 3.0, 1 + 5 + 3.0, 3.0)
    assert state.outcome().winners == (1,)


def test_no_bonus_when_nobody_has_a_one_point_card() -> None:
    state = position(f"{MATCH}\nhands: 5 | 6\nscored: 2 | 20\nturn: 1\nround: 49")
    state.apply("end", 1)
    assert state.bonus() == [0, 0] and state.outcome().scores == (3.0, 5.0)


def test_round_limit_ends_a_stalled_game() -> None:
    state = position(f"{MATCH}\nhands: 5 | 6\nround: 2\nturn: 1", round_limit=3)
    state.apply("end", 1)
    assert state.is_terminal() and state.outcome().reason is EndReason.ROUND_LIMIT


SOLO = "grid: Tr Tr Tr / Fi Bi Su / Ho Bo Ho\nhands: 21 1 2 3\ndeck: 4 5 6 7 8 9"


def test_solo_ending_a_turn_without_scoring_gives_a_strike() -> None:
    state = position(SOLO, players=1)
    state.apply("end", 0)
    assert state.strikes == 1
    state.apply("score 21", 0)
    state.apply("end", 0)
    assert state.strikes == 1


def test_solo_four_strikes_lose() -> None:
    state = position(f"{SOLO}\nstrikes: 3", players=1)
    state.apply("flip 1 1", 0)
    state.apply("end", 0)
    out = state.outcome()
    assert out.reason is EndReason.SOLO_STRIKES and out.ranks == (0,) and out.won == (False,)
    assert out.returns() == (-1.0,) and out.winners == ()


def test_solo_skip_gives_a_strike_by_default_and_not_with_the_option() -> None:
    state = position(SOLO, players=1)
    state.apply("skip", 0)
    assert state.strikes == 1 and len(state.hands[0]) == 6
    free = position(SOLO, players=1, solo_skip_strikes=False)
    free.apply("skip", 0)
    assert free.strikes == 0


def test_solo_scoring_every_card_wins_at_once() -> None:
    state = position(f"{MATCH}\nhands: 21 26\nscored: 1 2 3 4 5 6 7 8 9 10 11 12 13 14", players=1)
    state.apply("score 21", 0)
    assert not state.is_terminal()
    state.apply("score 26", 0)
    out = state.outcome()
    assert out.reason is EndReason.SOLO_WIN and out.ranks == (0,) and out.returns() == (1.0,)
    assert state.stats()["win"] == 1.0


def test_solo_set_up_deals_16_cards_by_point_class() -> None:
    from collections import Counter

    import teocalli
    from teocalli.games.shifting_stones.components import POINTS

    state = teocalli.load("shifting-stones", players=1).new_state(3)
    assert Counter(POINTS[c] for c in state.pool) == {1: 8, 2: 4, 3: 3, 5: 1}  # type: ignore[attr-defined]
    assert len(state.hands[0]) == 4 and len(state.deck) == 12  # type: ignore[attr-defined]


def test_stats_of_a_finished_game() -> None:
    state = position(f"{MATCH}\nhands: 21 | 6\nscored: 1 |\nround: 49")
    state.apply("score 21", 0)
    state.apply("end", 0)
    state.apply("skip", 1)
    stats = state.stats()
    assert stats["cards_scored"] == [2.0, 0.0] and stats["skips"] == [0.0, 1.0]
    assert stats["bonus_winners"] == [1.0, 0.0]
    assert stats["points_per_turn"] == [2 / 50, 0.0]
