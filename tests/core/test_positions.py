"""Every game's position notation holds the whole state: `from_position(game, to_position(s))`
gives back `s`, at every position of random games of every game and variant (mid-turn, hidden
parts, finished games), seen from every seat and compared field by field.

The functions are taken from each game package's exports (the roles of docs/architecture.md, "A
game package"), so a sixth game is checked as soon as it is registered.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teocalli import load, parts
from teocalli.core import State

from .test_clone_fields import differences
from .test_conformance import CONFIGS, random_game

NOT_POSITION_BY_ALL = {
    "game": "the rules and options: `from_position` is given the same Game",
    "seed": "a built position is not dealt from a seed (it cannot be saved)",
    "rng": "the generator's future draws are not part of the position",
    "history": "how the position was reached, not what it is",
}
NOT_POSITION: dict[str, dict[str, str]] = {
    "aztack": {
        "bonuses": "a statistic: bonus placements so far",
        "open_pairs": "derived from the pyramid by `_refresh` (not refreshed after the last "
        "stone ends the game; the legal actions are compared instead)",
        "fits_anywhere": "derived with open_pairs",
    },
    "stakz": {
        "splits": "a statistic: stacks split so far",
        "placements": "a statistic: tiles placed so far",
        "turns": "a statistic: turns taken so far",
    },
    "shifting-stones": {"skips": "a statistic: skips per player so far (the last one is kept)"},
    "stack-back": {
        "no_wood": "a cache of the pose search (never saved; refilled on demand)",
        "wood_from": "a cache of the pose search (never saved; refilled on demand)",
        "dead_pairs": "a cache of the pose search (never saved; refilled on demand)",
    },
}
"""Fields a position does not carry, per game, and why. Fields named with a leading underscore
are caches the engine refills on demand and are not compared either."""


def position_fields(name: str, state: State) -> dict[str, Any]:
    skip = {**NOT_POSITION_BY_ALL, **NOT_POSITION.get(name, {})}
    return {k: v for k, v in vars(state).items() if k not in skip and not k.startswith("_")}


def round_trip_problems(name: str, state: State) -> list[str]:
    """How the state rebuilt from its text differs from `state` (nothing, if the notation is
    whole)."""
    package = parts.require(name, "rules")
    text = package.to_position(state)
    rebuilt = package.from_position(state.game, text)
    out: list[str] = []
    again = package.to_position(rebuilt)
    if again != text:
        out.append(f"the rebuilt position is written differently:\n{again}")
    if json.dumps(rebuilt._full(), sort_keys=True) != json.dumps(state._full(), sort_keys=True):
        out.append("_full() differs")
    for viewer in [None, *range(state.num_players)]:
        if rebuilt.view(viewer)["state"] != state.view(viewer)["state"]:
            out.append(f"the view of {viewer} differs")
    if rebuilt.is_terminal() != state.is_terminal():
        out.append("is_terminal differs")
    elif state.is_terminal():
        if rebuilt.outcome() != state.outcome():
            out.append("the outcome differs")
    else:
        if (rebuilt.to_move(), rebuilt.decision()) != (state.to_move(), state.decision()):
            out.append("who moves differs")
        for p in state.to_move():
            if rebuilt.legal_actions(p) != state.legal_actions(p):
                out.append(f"player {p}'s legal actions differ")
    out += differences(position_fields(name, state), position_fields(name, rebuilt), "state")
    return [f"{problem}\nposition:\n{text}" for problem in out]


@pytest.mark.parametrize(("name", "options"), CONFIGS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_positions_round_trip_through_their_notation(
    name: str, options: dict[str, Any], seed: int
) -> None:
    game = load(name, **options)
    states = random_game(game, seed)
    step = max(1, len(states) // 60)  # long Stakz and Shifting Stones games: about 60 positions
    for k, state in enumerate(states[::step] + states[-1:]):
        problems = round_trip_problems(name, state)
        assert not problems, f"{name} position {k * step}: {problems[0]}"


def test_every_excluded_field_exists() -> None:
    """The exclusions above name real fields (a renamed field must not slip out of the check)."""
    for name, fields in NOT_POSITION.items():
        attrs = vars(load(name).new_state(0))
        for attr in fields:
            assert attr in attrs, f"{name} has no field {attr!r}: drop it from NOT_POSITION"


def test_the_check_notices_a_field_the_notation_forgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Aztack's notation without its bonus decisions: the round trip fails where one is owed."""
    from teocalli.games.aztack import position

    game = load("aztack", players=2)
    state = next(s for s in random_game_with_bonus(game))
    assert not round_trip_problems("aztack", state)
    write = position.to_position
    monkeypatch.setattr(
        position,
        "to_position",
        lambda s: "\n".join(line for line in write(s).splitlines() if "pending" not in line),
    )
    monkeypatch.setattr(parts.require("aztack", "rules"), "to_position", position.to_position)
    assert round_trip_problems("aztack", state)


def random_game_with_bonus(game: Any) -> list[State]:
    """Positions of seeded random Aztack games where a bonus decision is owed."""
    for seed in range(200):
        found = [s for s in random_game(game, seed) if getattr(s, "pending", 0)]
        if found:
            return found
    raise AssertionError("no random Aztack game in 200 seeds placed a bonus")
