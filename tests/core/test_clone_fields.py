"""`clone` copies every mutable field: hand-written `_copy_into` lists are checked, not trusted.

Two checks per game and variant, at several positions of seeded random games:
- play a clone on and the original is unchanged: its `_full()`, every view, every player's legal
  actions and a deep snapshot of all its attributes;
- every mutable value the state holds (at any depth: a list of lists, a dict inside a frozen
  dataclass) is a different object in the clone, unless its attribute is on the game's allow-list
  below of tables that are shared on purpose (replaced, never changed in place). A field a game
  adds and forgets in `_copy_into` fails here even if no test yet changes it.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import teocalli
from teocalli.core import Rng, State
from teocalli.games.aztack.state import AztackState

from .test_conformance import CONFIGS, random_game

SHARED_BY_ALL = {
    "game": "the Game: rules, options and codec, fixed for a game and shared by all its states",
    "_legal_memo": "the legal ids of one step (core/state.py): replaced, never changed in place, "
    "keyed by the step",
}
SHARED: dict[str, dict[str, str]] = {
    "aztack": {
        "open_pairs": "recomputed as a new list by `_refresh` after each placement and never "
        "changed in place (module docstring of aztack/state.py)",
    },
    "stack-back": {
        "_layout": "footprint arrays: `_fold` replaces the Layout, never changes it; the "
        "storage under it gains rows only past every layout's own rows, written only by the "
        "state that owns it (grow.py; `_copy_into`: replaced, never changed)",
        "_free": "the free-wood mask: `_fold` replaces it, never changes it (`_copy_into`)",
        "_depths": "the search's depth raster: `depths` replaces it, never changes it",
        "_left": "what the lattice search ruled out along the game (search.Left): replaced, "
        "never changed",
        "_piles": "the piled candidates kept along the game (piles.py): `_candidates` replaces "
        "the table, never changes it; its storage grows as the layout's does (grow.py, "
        "`_copy_into`)",
        "_cache": "the candidates of one step: replaced by `_candidates`, cleared by `_apply` "
        "(`_copy_into`)",
        "_pending": "the last verdict `_illegal_reason` gave: replaced, never changed "
        "(`_copy_into`)",
    },
}
STEPS = 300
"""Random legal steps played on each clone (most games end first)."""


def allowed(name: str) -> dict[str, str]:
    return {**SHARED_BY_ALL, **SHARED.get(name, {})}


def positions(name: str, options: dict[str, Any]) -> list[State]:
    game = teocalli.load(name, **options)
    states = random_game(game, 41)[:-1]
    return [states[i * (len(states) - 1) // 4] for i in range(5)]


# --- deep snapshots and their comparison ---------------------------------------------------------
def fields(state: State) -> dict[str, Any]:
    """Every attribute but the shared Game (compared by identity instead)."""
    return {k: v for k, v in vars(state).items() if k != "game"}


def differences(a: Any, b: Any, path: str = "") -> Iterator[str]:
    """Where two values differ, recursing into containers, dataclasses, objects and arrays."""
    if isinstance(a, (list, tuple, dict)) and _plainly_equal(a, b):
        return  # the common case, fast (a long history of frozen steps)
    if type(a) is not type(b):
        yield f"{path}: {type(a).__name__} became {type(b).__name__}"
    elif isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype or not np.array_equal(a, b, equal_nan=True):
            yield f"{path}: array changed"
    elif isinstance(a, dict):
        if list(a) != list(b):
            yield f"{path}: keys changed"
        else:
            for k in a:
                yield from differences(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        if len(a) != len(b):
            yield f"{path}: length {len(a)} became {len(b)}"
        else:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                yield from differences(x, y, f"{path}[{i}]")
    elif isinstance(a, enum.Enum) or a is None or isinstance(a, (int, float, str, bytes)):
        if a != b and not (isinstance(a, float) and math.isnan(a) and math.isnan(b)):
            yield f"{path}: {a!r} became {b!r}"
    elif isinstance(a, (set, frozenset)):
        if a != b:
            yield f"{path}: {a!r} became {b!r}"
    else:
        fields = _fields(a)
        for f in fields:
            yield from differences(getattr(a, f), getattr(b, f), f"{path}.{f}")
        if not fields and a != b:
            yield f"{path}: {a!r} became {b!r}"


def _plainly_equal(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except (ValueError, TypeError):  # arrays inside: compare them one by one
        return False


def _fields(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj)]
    names = list(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        names += [s for s in getattr(cls, "__slots__", ()) if s not in ("__dict__", "__weakref__")]
    return names


# --- shared mutable objects ----------------------------------------------------------------------
SCALARS = (int, float, complex, str, bytes, bool, type(None), range, enum.Enum, np.generic)


def shared_mutables(a: Any, b: Any, path: str) -> Iterator[str]:
    """Paths at which the original's value `a` and the clone's `b` are one mutable object."""
    if isinstance(a, SCALARS) or callable(a):
        return
    params = getattr(type(a), "__dataclass_params__", None)
    frozen = isinstance(a, (tuple, frozenset)) or (params is not None and params.frozen)
    if a is b and not frozen:
        yield path  # a list, dict, set, bytearray, array or any other object with fields
        return
    if type(a) is not type(b):
        return  # a value replaced since: not shared
    if isinstance(a, np.ndarray):
        return
    if isinstance(a, dict):
        for k in a.keys() & b.keys():
            yield from shared_mutables(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from shared_mutables(x, y, f"{path}[{i}]")
    elif not isinstance(a, (set, frozenset, bytearray)):
        for f in _fields(a):
            yield from shared_mutables(getattr(a, f), getattr(b, f), f"{path}.{f}")


def clone_problems(name: str, state: State, clone: State) -> list[str]:
    shared = allowed(name)
    out: list[str] = []
    for attr, value in vars(state).items():
        if attr not in shared:
            out += shared_mutables(value, getattr(clone, attr), attr)
    return out


def play_on(world: State, seed: int, after_each: Callable[[], None]) -> None:
    """Random legal steps on `world` until its end (or STEPS), calling `after_each` after each."""
    rng = Rng(seed)
    for _ in range(STEPS):
        if world.is_terminal():
            return
        movers = world.to_move()
        player = movers[rng.randrange(len(movers))]
        actions = world.legal_actions(player)
        world.apply(actions[rng.randrange(len(actions))], player)
        after_each()


def observed(state: State) -> tuple[str, list[Any], list[list[Any]]]:
    players = range(state.num_players)
    return (
        json.dumps(state._full(), sort_keys=True),
        [state.view(p) for p in [None, *players]],
        [state.legal_actions(p) for p in players],
    )


def original_changes(state: State, seed: int) -> list[str]:
    """What playing a clone on changed in the original (nothing, if `clone` is right), looked at
    after every step of the clone's (a field the clone shares may change and change back)."""
    seen = observed(state)  # asked first: lazy caches fill before the snapshot
    before, game = copy.deepcopy(fields(state)), state.game
    out: list[str] = []

    def look() -> None:
        if not out:
            out.extend(differences(before, fields(state), "state"))

    play_on(state.clone(), seed, look)
    if state.game is not game:
        out.append("state.game was replaced")
    after = observed(state)
    for label, x, y in zip(("_full()", "views", "legal actions"), seen, after, strict=True):
        if x != y:
            out.append(f"{label} changed")
    return out


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_playing_a_clone_leaves_the_original_unchanged(name: str, options: dict[str, Any]) -> None:
    for k, state in enumerate(positions(name, options)):
        changes = original_changes(state, seed=k)
        assert not changes, f"step {len(state.history)}: {changes}"


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_a_clone_shares_no_mutable_field(name: str, options: dict[str, Any]) -> None:
    for state in positions(name, options):
        state.legal_actions(state.to_move()[0])  # fill lazy caches: they must be shared safely
        problems = clone_problems(name, state, state.clone())
        assert not problems, (
            f"{name}: the clone shares {problems} with the original: copy them in "
            "`_copy_into`, or add them to SHARED with the reason they are never changed in place"
        )


def test_every_allow_listed_field_exists() -> None:
    for name in teocalli.games():
        attrs = vars(teocalli.load(name).new_state(0))
        for attr in allowed(name):
            assert attr in attrs, f"{name} has no field {attr!r}: drop it from SHARED"
    assert set(SHARED) <= set(teocalli.games())


def test_the_checks_notice_a_field_clone_forgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both checks fail when `_copy_into` forgets one field (here Aztack's heights)."""
    copy_into = AztackState._copy_into

    def forgetful(self: AztackState, other: State) -> None:
        copy_into(self, other)
        assert isinstance(other, AztackState)
        other.height = self.height

    state = positions("aztack", {"players": 2})[2]
    monkeypatch.setattr(AztackState, "_copy_into", forgetful)
    assert clone_problems("aztack", state, state.clone()) == ["height"]
    assert original_changes(state, seed=0)
