"""Every final result explains itself: a labelled breakdown per player that adds up to the score,
which way the scores count, and (solo) whether the goal was met. Issue 15."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest

import teocalli
from teocalli.agents import make_agent
from teocalli.core import Game, Outcome, Rng, State, game_class
from teocalli.core.match import play_game
from teocalli.core.outcome import TIE_BREAK, Part
from teocalli.games.aztack.position import from_position as aztack_position
from teocalli.games.shifting_stones.position import from_position as stones_position
from teocalli.games.shifting_stones.state import EndReason as StonesEnd
from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.stakz import from_position as stakz_position

from ..games.stack_back.blocked import BLOCKED, blocked

CONFIGS = [  # the conformance suite's: every registered game in every declared variant
    pytest.param(name, dict(opts), id=f"{name}-{variant}")
    for name in teocalli.games()
    for variant, opts in game_class(name).info.variants.items()
]
LOWER_IS_BETTER = {
    "aztack": True,  # stones left
    "stack-back": True,  # sticks left
    "stakz": True,  # points from tiles left in hand
    "shifting-stones": False,
    "space-aztecs": False,
}


class Uniform:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def act(self, state: State, player: int) -> Any:
        actions = state.legal_actions(player)
        return actions[self.rng.randrange(len(actions))]


def finals(game: Game) -> list[State]:
    """Three seeded random games and two greedy ones, played to the end."""
    n = game.num_players
    out = [play_game(game, [Uniform(seed * 31 + p) for p in range(n)], seed) for seed in range(3)]
    for seed in range(2):
        agents = [make_agent("greedy", game, seed * 7 + p) for p in range(n)]
        out.append(play_game(game, agents, 100 + seed))
    return out


def tie_broken(out: Outcome, player: int) -> bool:
    return any(p.label.startswith(TIE_BREAK) for p in out.breakdown[player])


def check(name: str, final: State) -> None:
    out = final.outcome()
    n = final.game.num_players
    assert len(out.breakdown) == len(out.won) == n
    assert out.lower_is_better is LOWER_IS_BETTER[name]
    for p in range(n):
        parts = out.breakdown[p]
        assert parts, "every player's score is explained"
        for part in parts:
            assert isinstance(part, Part) and isinstance(part.label, str) and part.label.strip()
            assert isinstance(part.points, float)
            assert part.label != "score", "a built-in game gives its own labels, not the default"
            if part.label.startswith(TIE_BREAK):
                assert part.points == 0.0
        assert sum(part.points for part in parts) == out.scores[p]
    # JSON: [label, points] pairs per player, and back
    data = json.loads(json.dumps(out.to_json()))
    assert data["breakdown"] == [[[q.label, q.points] for q in parts] for parts in out.breakdown]
    assert data["lower_is_better"] is out.lower_is_better
    assert data["won"] == list(out.won) and data["winners"] == list(out.winners)
    assert Outcome.from_json(data, type(out.reason)) == out
    # the better score ranks first unless a tie-break part says why not
    for a in range(n):
        for b in range(n):
            sa, sb = out.scores[a], out.scores[b]
            better = sa < sb if out.lower_is_better else sa > sb
            if better and out.ranks[a] > out.ranks[b]:
                assert tie_broken(out, b), (a, b, out)
            if sa == sb and out.ranks[a] != out.ranks[b]:
                assert tie_broken(out, a) and tie_broken(out, b), (a, b, out)
    if name == "shifting-stones" and n == 1:
        won = out.reason is StonesEnd.SOLO_WIN
        assert out.ranks == (0,) and out.won == (won,)
        assert out.winners == ((0,) if won else ())
        assert out.returns() == ((1.0,) if won else (-1.0,))
    else:
        assert out.won == tuple(r == 0 for r in out.ranks)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_breakdowns_add_up_to_the_scores(name: str, options: dict[str, Any]) -> None:
    game = teocalli.load(name, **options)
    for final in finals(game):
        assert final.is_terminal()
        check(name, final)


# --- the Outcome itself --------------------------------------------------------------------------


class Why(enum.Enum):
    TEST = "test"


def test_an_outcome_built_without_a_breakdown_still_explains_and_wins_by_rank() -> None:
    out = Outcome((3.0, 2.0), (0, 1), Why.TEST)
    assert out.breakdown == ((Part("score", 3.0),), (Part("score", 2.0),))
    assert out.won == (True, False) and out.winners == (0,) and not out.lower_is_better
    assert out.to_json()["breakdown"] == [[["score", 3.0]], [["score", 2.0]]]
    assert Outcome.from_json({"scores": [1], "ranks": [0], "reason": "test"}, Why) == Outcome(
        (1.0,), (0,), Why.TEST
    )
    with pytest.raises(ValueError, match="per player"):
        Outcome((1.0, 2.0), (0, 1), Why.TEST, breakdown=((Part("x", 1.0),),))


def test_a_solo_loss_ranks_first_of_one_but_nobody_won() -> None:
    out = Outcome((12.0,), (0,), Why.TEST, won=(False,))
    assert out.winners == () and out.returns() == (-1.0,)
    assert out.to_json()["won"] == [False] and out.to_json()["winners"] == []
    assert Outcome((12.0,), (0,), Why.TEST).returns() == (1.0,)


# --- one position per game, its breakdown literally ----------------------------------------------


def labelled(out: Outcome) -> list[list[tuple[str, float]]]:
    return [[(p.label, p.points) for p in parts] for parts in out.breakdown]


def test_aztack_blocked_with_equal_stones_shows_the_latest_placement() -> None:
    tie = """
    A: Yw/Of Of/Bw Yd/Rf Rw/Od Gw/Yd Bf/Gd
    B: Gf/Rt Bf/Rw Ow/Bd Gw/Bf Rf/Yt Of/Bd
    placed: Od/Bt@a2-b2 Od/Gw@c1-d1 Rf/Gw@c2-c3 Bw/Yf@d4-e4 Gf/Bd@a3-b3 Of/Rt@c1-c2 Ow/Rf@a1-b1
    placed: Gt/Bw@e1-f1 Yw/Gt@d1-e1 Yw/Rd@b4-c4 Bw/Gd@c3-c4 Od/Bf@e2-e3 Bt/Gw@c2-c3 Rd/Yf@a2-a3
    placed: Yf/Rw@c1-d1 Bt/Yd@b3-b4 Bf/Ot@a3-b3 Rt/Bd@b1-b2
    hand 0: Ow/Bt Yw/Rt Yt/Rw
    hand 1: Ot/Bw Yf/Gt Rd/Gt
    """
    state = aztack_position(teocalli.load("aztack"), tie)
    state.apply("Yt/Rw@b3-c3", 0)
    state.apply("Yf/Gt@b4-c4", 1)
    out = state.outcome()
    assert out.ranks == (1, 0) and out.lower_is_better
    assert labelled(out) == [
        [("pieces left", 2.0), ("tie-break: last placed at step 0", 0.0)],
        [("pieces left", 2.0), ("tie-break: last placed at step 1", 0.0)],
    ]


def test_aztack_speed_stack_blocked_the_last_placer_wins_with_more_stones() -> None:
    state = aztack_position(
        teocalli.load("aztack", speed=True),
        """
        A: Od/Rw Bw/Gd Od/Gw Bw/Of Of/Rt Yf/Rd
        B: Yt/Rw Rf/Bt Bf/Yt Ot/Bw Rt/Bd Rt/Ow
        placed: Od/Bt@a1-b1 Gt/Bw@c4-d4 Rw/Yf@a2-a3 Bt/Yd@e2-f2 Bt/Ow@c3-d3 Bd/Gf@c3-c4
        placed: Bf/Ot@d1-e1 Rd/Bw@a4-b4 Yd/Rf@a3-a4 Bd/Ow@b2-c2 Yt/Gd@b1-b2 Od/Rf@a1-a2
        placed: Of/Yw@a1-b1
        hand 0: Gw/Bf Od/Yt Bf/Rw Rf/Gw
        hand 1: Gf/Ow Gf/Yd Gd/Yf Yf/Bw Yw/Rt Bf/Gd Rw/Ot
        """,
    )
    state.apply("Bf/Gd@a2-a3", 1)
    out = state.outcome()
    assert out.winners == (1,)
    assert labelled(out) == [
        [("pieces left", 4.0)],
        [("pieces left", 6.0), ("tie-break: placed the last stone", 0.0)],
    ]


def test_stakz_rounds_after_totals_carried_in_by_the_position() -> None:
    game = teocalli.load("stakz", players=2)
    state = stakz_position(game, "stacks: Rc\nhand 0: Rh\nhand 1: Gs Gt Gx\nscores: 8 10")
    state.apply("Rh@0")
    out = state.outcome()
    assert out.scores == (8.0, 13.0) and out.lower_is_better
    assert labelled(out) == [
        [("earlier rounds", 8.0), ("round 1", 0.0)],
        [("earlier rounds", 10.0), ("round 1", 3.0)],
    ]


def test_stakz_a_whole_match_lists_every_round() -> None:
    game = teocalli.load("stakz", players=3)
    final = play_game(game, [make_agent("greedy", game, p) for p in range(3)], 4)
    out = final.outcome()
    rounds = len(final.rounds)  # type: ignore[attr-defined]
    assert [[p.label for p in parts] for parts in out.breakdown] == [
        [f"round {k}" for k in range(1, rounds + 1)]
    ] * 3


STONES = "grid: Tr Tr Tr / Fi Bi Su / Ho Bo Ho"  # cards 21 (Tr Tr) and 26 (Tr Tr Tr) match


def test_shifting_stones_card_points_and_the_one_point_bonus() -> None:
    game = teocalli.load("shifting-stones", players=2)
    state = stones_position(
        game, f"{STONES}\nhands: 5 | 6\nscored: 1 10 11 | 20 13\nturn: 1\nround: 49"
    )
    state.apply("end", 1)
    out = state.outcome()
    assert out.winners == (0, 1) and not out.lower_is_better
    assert labelled(out) == [
        [("card points", 3.0), ("one-point bonus", 3.0)],
        [("card points", 6.0), ("one-point bonus", 0.0)],
    ]


def test_shifting_stones_solo_win_and_loss() -> None:
    game = teocalli.load("shifting-stones", players=1)
    win = stones_position(game, f"{STONES}\nhands: 21 26\nscored: 1 2 3 4 5 6 7 8 9 10 11 12 13 14")
    win.apply("score 21", 0)
    win.apply("score 26", 0)
    out = win.outcome()
    points = sum(p.points for p in out.breakdown[0])
    assert out.won == (True,) and out.winners == (0,) and out.ranks == (0,)
    assert labelled(out) == [[("card points", points)]] and points == out.scores[0]
    lose = stones_position(
        game, f"{STONES}\nhands: 21 1 2 3\ndeck: 4 5 6 7 8 9\nscored: 10 20\nstrikes: 3"
    )
    lose.apply("flip 1 1", 0)
    lose.apply("end", 0)
    out = lose.outcome()
    assert out.reason is StonesEnd.SOLO_STRIKES
    assert out.ranks == (0,) and out.won == (False,) and out.winners == ()
    assert out.to_json()["won"] == [False] and out.returns() == (-1.0,)
    assert labelled(out) == [[("card points", 6.0)]]


def test_space_aztecs_the_score_sheet_line_by_line() -> None:
    state = space_aztecs_position(
        SpaceAztecs(players=3, removed_set="green"),
        """
        start 0
        city 0: PNK-05
        city 1: PNK-06
        city 2: PNK-01
        pile A: -
        pile B: YEL-01
        pile C: YEL-04
        pile D: BLU-07
        held 0: B
        held 1: C
        held 2: D
        """,
    )
    for p, card in ((0, "YEL-01"), (1, "YEL-04"), (2, "BLU-07")):
        state.apply(f"choose {card}", p)
    out = state.outcome()
    assert out.scores == (1.0, 0.0, 0.0) and not out.lower_is_better

    def sheet(pink: float, yellow: float, blue: float) -> list[tuple[str, float]]:
        return [
            ("Codex bonus", 0.0),
            ("pink set", pink),
            ("yellow set", yellow),
            ("blue set", blue),
            ("green set", 0.0),
            ("pink penalty", -5.0),
            ("Flying Saucers", 0.0),
        ]

    assert labelled(out) == [sheet(3, 3, 0), sheet(3, 2, 0), sheet(1, 0, 4)]


def test_stack_back_sticks_left_and_equal_counts_share() -> None:
    state = blocked()
    state.apply("pass", 0)
    state.apply("pass", 1)
    out = state.outcome()
    assert out.winners == (1,) and out.lower_is_better
    assert labelled(out) == [[("pieces left", 5.0)], [("pieces left", 3.0)]]
    shared = blocked(BLOCKED + "supply 0: 1 1 1\nidle: 1\nturn: 1")
    shared.apply("pass", 1)
    out = shared.outcome()
    assert out.ranks == (0, 0) and labelled(out) == [[("pieces left", 3.0)]] * 2
