"""The candidate list's Python (listing.py): the compiled merge of the free wood and the piled
candidates, and the lists `_candidates` makes with it, against the obvious construction (every
candidate as a (key, pose, placement) triple, sorted by key, each pose's first kept)."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

import teocalli
from teocalli.games.stack_back import candidates, from_position, to_position
from teocalli.games.stack_back.candidates import Move, place_of, places, wood_lattice
from teocalli.games.stack_back.list_kernels import merged
from teocalli.games.stack_back.state import StackBackState

from .sampled import random_positions


def _merged_reference(
    free: np.ndarray, held: np.ndarray, wood: np.ndarray, piled: np.ndarray
) -> list[tuple[int, int]]:
    """(key, origin) of every wood candidate free and held, then every piled one, sorted by key
    (stable), each key's first only."""
    rows = [(int(k), i) for i, k in enumerate(wood.tolist()) if free[i] and held[i]]
    rows += [(int(k), len(wood) + j) for j, k in enumerate(piled.tolist())]
    out: list[tuple[int, int]] = []
    for key, origin in sorted(rows, key=lambda row: row[0]):
        if not out or out[-1][0] != key:
            out.append((key, origin))
    return out


def test_merged_sorts_both_lists_stably_each_key_once() -> None:
    """Random masks and piled keys (unsorted, repeated, some equal to free wood keys)."""
    rng = np.random.default_rng(17)
    wood = wood_lattice().keys
    repeats = 0
    for trial in range(200):
        free = rng.random(len(wood)) < rng.random()
        held = rng.random(len(wood)) < 0.7
        size = int(rng.integers(0, 60))
        piled = rng.integers(0, int(wood[-1]) + 100, size).astype(np.int64)
        if size and trial % 3 == 0:  # some keys of free wood candidates
            ok = np.flatnonzero(free & held)
            if len(ok):
                piled[: size // 2] = wood[rng.choice(ok, size // 2)]
        if size > 4 and trial % 4 == 1:  # repeated piled keys
            piled[size // 2 :] = piled[: size - size // 2]
        keys, origin = merged(free, held, wood, piled).tolist()
        want = _merged_reference(free, held, wood, piled)
        assert list(zip(keys, origin, strict=True)) == want, trial
        repeats += len(piled) + int((free & held).sum()) - len(want)
    assert repeats > 200  # the dedup was exercised


def _fields(moves: list[tuple[int, Any, Any]]) -> list[tuple[Any, ...]]:
    return [(i, p, v.stick, sorted(v.deltas.items())) for i, p, v in moves]


def _reference(state: StackBackState, player: int) -> list[Move]:
    """The free wood candidates of colours the player holds and the piled ones judged from
    nothing, sorted by key, each pose's first."""
    wood = wood_lattice()
    supply = state.supply[player]
    moves: list[Move] = [
        (int(k), pose, verdict)
        for k, pose, verdict, free in zip(
            wood.keys.tolist(), wood.poses, wood.verdicts[player], state.free.tolist(), strict=True
        )
        if free and supply[pose.colour] > 0
    ]
    moves += state.piles_from_nothing(player)
    moves.sort(key=lambda move: move[0])
    first: dict[Any, Move] = {}
    for move in moves:
        first.setdefault(move[1], move)
    return list(first.values())


def _listed(state: StackBackState, player: int) -> list[Move]:
    cache = state._candidates(player)
    assert cache.verdict is not None
    verdicts = [cache.verdict(k) for k in range(len(cache.actions))]
    every = cache.verdict.every()  # all at once (a bot's read): the very placements, kept
    assert len(every) == len(verdicts) and all(a is b for a, b in zip(every, verdicts, strict=True))
    return [(-1, a, v) for a, v in zip(cache.actions, verdicts, strict=True)]


def test_candidate_lists_are_the_sorted_candidates_with_their_placements() -> None:
    """Along seeded random games, both players: the kept table's list (the game's own state),
    a fresh position's first list (judged from nothing) and that list pickled, against
    `_reference`."""
    game = teocalli.load("stack-back")
    checked = piled = 0
    for state in random_positions((3, 4), 5, lambda s: not s.is_terminal()):
        for player in (0, 1):
            want = _reference(state, player)
            if not want:
                continue
            fresh = from_position(game, to_position(state))
            assert fresh._piles.count < len(fresh.sticks) - 1  # its first list from nothing
            from_nothing = _listed(fresh, player)
            copied = pickle.loads(pickle.dumps(fresh))  # with its cache, read again
            assert copied._cache is not None and copied._cache.player == player
            for listed in (_listed(state.clone(), player), from_nothing, _listed(copied, player)):
                got = _fields(listed)
                assert [g[1:] for g in got] == [w[1:] for w in _fields(want)]
            checked += len(want)
            piled += sum(v.stick.level > 0 for _, _, v in want)
    assert checked > 1000 and piled > 100


def test_poses_are_made_once_and_forgotten_past_the_bound(monkeypatch: Any) -> None:
    """`places` gives `place_of`'s poses, the same objects while kept; past `_MEMO_MAX` kept
    poses all are forgotten and made again, still right."""
    monkeypatch.setattr(candidates, "_MEMO_MAX", 8)  # and nothing kept yet:
    monkeypatch.setattr(candidates, "_POSES", np.full(len(candidates._POSES), None, dtype=object))
    monkeypatch.setattr(candidates, "_MADE", np.zeros(len(candidates._POSES), dtype=bool))
    monkeypatch.setattr(candidates, "_COUNT", [0])
    keys = wood_lattice().keys[100:112]
    first = places(keys[:6])
    assert first == [place_of(k) for k in keys[:6].tolist()]
    assert all(a is b for a, b in zip(places(keys[:6]), first, strict=True))  # kept
    got = places(keys)  # 12 distinct: the bound is passed on the way
    assert got == [place_of(k) for k in keys.tolist()]
    assert candidates._COUNT[0] <= 8
    assert not all(a is b for a, b in zip(places(keys[:6]), first, strict=True))  # forgotten
