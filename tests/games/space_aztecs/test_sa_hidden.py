"""Hidden information: piles to their holder, choices until all are in, and what a player saw
earlier in the piles (their memory), in views and in determinized worlds."""

from __future__ import annotations

import json

from teocalli.core import Rng
from teocalli.games.space_aztecs import from_position as space_aztecs_position
from teocalli.games.space_aztecs.components import CARD_BY_ID, CARD_ID
from teocalli.games.space_aztecs.game import SpaceAztecs
from teocalli.games.space_aztecs.state import SpaceAztecsState


def pos(text: str) -> SpaceAztecsState:
    return space_aztecs_position(SpaceAztecs(players=3, removed_set="green"), text)


ROUND2 = """
start 0
round 2
pile A: PNK-01 PNK-02 PNK-03
pile B: YEL-01 YEL-02 YEL-03
pile C: BLU-04 BLU-05 BLU-06
pile D: PNK-04 PNK-05
held 0: B
held 1: A
held 2: C
seen 0: A@1
seen 2: D@1
"""


def ids(state: SpaceAztecsState, player: int | None) -> str:
    return json.dumps(state.view(player))


def test_a_pile_is_shown_only_to_its_holder() -> None:
    s = pos(ROUND2)
    mine = s.view(1)["state"]["your_pile"]
    assert mine["pile"] == "A"
    assert [c["id"] for c in mine["cards"]] == ["PNK-01", "PNK-02", "PNK-03"]
    for card in ("BLU-04", "BLU-05", "BLU-06"):  # pile C, held by player 2
        assert card not in ids(s, 1) and card not in ids(s, 0) and card not in ids(s, None)
        assert card in ids(s, 2)


def test_a_player_remembers_the_piles_they_held() -> None:
    s = pos(ROUND2)
    assert s.view(0)["state"]["memory"] == [
        {"pile": "A", "held_in_round": 1, "cards": ["PNK-01", "PNK-02", "PNK-03"]},
        {"pile": "B", "held_in_round": 2, "cards": ["YEL-01", "YEL-02", "YEL-03"]},
    ]
    assert "PNK-04" not in ids(s, 0) and "PNK-04" in ids(s, 2)  # pile D: player 2's memory
    assert "memory" not in s.view(None)["state"]


def test_a_remembered_pile_keeps_its_cards_while_someone_chooses_from_it() -> None:
    s = pos(ROUND2)
    s.apply("choose PNK-02", 1)
    memo = s.view(0)["state"]["memory"][0]
    # player 0 knows one of the three left with player 1, not which
    assert memo["cards"] == ["PNK-01", "PNK-02", "PNK-03"]
    assert "your_choice" not in s.view(0)["state"]
    assert s.view(1)["state"]["your_choice"]["id"] == "PNK-02"
    picks = set()
    group = {CARD_BY_ID[c] for c in ("PNK-01", "PNK-02", "PNK-03")}
    for k in range(20):
        world = s.determinize(0, Rng(k))
        assert isinstance(world, SpaceAztecsState)
        assert world.view(0) == s.view(0)
        assert {*world.pile_cards(0), world.chosen[1]} == group
        assert world.pile_cards(1) == s.pile_cards(1)  # player 0's own pile
        assert world.pile_cards(3) != [] and len(world.pile_cards(3)) == 2
        picks.add(world.chosen[1])
    assert picks == group  # the hidden choice really is re-drawn


def test_worlds_redeal_only_what_the_player_never_saw() -> None:
    s = pos(ROUND2)
    s.apply("choose BLU-05", 2)
    unseen = {x for x in range(8) if x not in (0, 1)}
    varied = False
    for k in range(10):
        world = s.determinize(0, Rng(k))
        assert isinstance(world, SpaceAztecsState)
        assert world.view(0) == s.view(0)
        assert world.pile_cards(0) == s.pile_cards(0)
        assert world.pile_size == s.pile_size
        assert world.chosen[0] == s.chosen[0] == -1
        assert world.chosen[2] >= 0
        pool = [*sorted(c for x in unseen for c in s.pile_cards(x)), s.chosen[2]]
        assert sorted(
            [c for x in unseen for c in world.pile_cards(x)] + [world.chosen[2]]
        ) == sorted(pool)
        # other players' memories stay consistent with the world's piles
        memo = {m["pile"]: m["cards"] for m in world.memory(2)}
        assert memo["D"] == [CARD_ID[c] for c in world.pile_cards(3)]
        if world.chosen[2] != s.chosen[2] or world.pile_cards(3) != s.pile_cards(3):
            varied = True
    assert varied


def test_a_played_card_leaves_every_memory() -> None:
    s = pos(ROUND2)
    for p, card in ((0, "YEL-01"), (1, "PNK-02"), (2, "BLU-04")):
        s.apply(f"choose {card}", p)
    memo = {m["pile"]: m["cards"] for m in s.view(0)["state"]["memory"]}
    assert memo == {"A": ["PNK-01", "PNK-03"], "B": ["YEL-02", "YEL-03"]}
    assert {m["pile"] for m in s.view(1)["state"]["memory"]} == {"A"}


def test_views_of_a_finished_game_show_everything() -> None:
    game = SpaceAztecs(players=2)
    s = game.new_state(3)
    rng = Rng(1)
    while not s.is_terminal():
        p = s.to_move()[0]
        actions = s.legal_actions(p)
        s.apply(actions[rng.randrange(len(actions))], p)
    view = s.view(1)
    assert view["terminal"] and "pile_cards" in view["state"]
    assert view["state"] == s.view(None)["state"]


def test_the_log_hides_a_choice_from_others_until_all_have_chosen() -> None:
    import teocalli
    from teocalli.core import Decision

    state = teocalli.load("space-aztecs", players=3).new_state(5)
    while state.decision() is not Decision.SIMULTANEOUS:
        state.apply(state.legal_actions()[0])
    first = state.to_move()[0]
    choice = state.legal_actions(first)[0]
    state.apply(choice, first)
    others = [p for p in range(3) if p != first]
    assert state.log(first)[-1] == (first, str(choice))
    assert all(state.log(p)[-1] == (first, "choose ?") for p in [*others, None])
    while state.decision() is Decision.SIMULTANEOUS:
        p = state.to_move()[0]
        state.apply(state.legal_actions(p)[0], p)
    assert all(str(choice) in [text for _, text in state.log(p)] for p in others)
