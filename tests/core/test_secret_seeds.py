"""Secret deals: a server seed reaches every bit of a keyed stream; small seeds stay SplitMix64."""

from __future__ import annotations

import teocalli
from teocalli.core import Rng, derive_seed, secret_seed
from teocalli.core.rng import KEYED, SECRET_BITS


def test_secret_seeds_carry_128_fresh_bits() -> None:
    seeds = {secret_seed() for _ in range(200)}
    assert len(seeds) == 200
    assert all(KEYED <= s < KEYED + 2**SECRET_BITS for s in seeds)
    # the high bits vary too: the entropy is not confined to a searchable low range
    assert len({(s - KEYED) >> 96 for s in seeds}) > 150


def test_small_seeds_keep_splitmix64_and_reproducibility() -> None:
    rng = Rng(1)
    assert rng.key is None and rng.state == 1
    rng.next64()
    assert rng.state == 1 + 0x9E3779B97F4A7C15  # SplitMix64's own step: research runs unchanged


def test_keyed_streams_differ_in_every_bit_of_the_seed() -> None:
    """Seeds that agree on their low 64 bits (all SplitMix64 could keep) deal differently."""
    base = KEYED + 12345
    firsts = {tuple(Rng(base + (1 << bit)).next64() for _ in range(3)) for bit in range(64, 128)}
    assert len(firsts) == 64
    assert Rng(base).next64() != Rng(12345).next64()


def test_keyed_stream_is_reproducible_and_copies_and_spawns_stay_keyed() -> None:
    seed = secret_seed()
    a, b = Rng(seed), Rng(seed)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.copy()
    assert c.next64() == a.next64()
    child = a.spawn()
    assert child.key is not None and child.key != a.key
    assert a.key is not None and a.key.hex() not in repr(a) and str(seed) not in repr(a)


def test_a_game_dealt_from_a_secret_seed_replays_from_it() -> None:
    game = teocalli.load("stakz", players=2)
    seed = secret_seed()
    one, two = game.new_state(seed), game.new_state(seed)
    assert one._full() == two._full()
    assert game.new_state(secret_seed())._full() != one._full()
    assert game.state_from_json(one.to_json())._full() == one._full()


def test_derived_bot_seeds_are_one_way_and_distinct() -> None:
    seed = secret_seed()
    derived = {derive_seed(seed, step, seat) for step in range(50) for seat in range(4)}
    assert len(derived) == 200 and all(0 <= d < 2**63 for d in derived)
    assert derive_seed(seed, 1, 0) == derive_seed(seed, 1, 0)
    assert derive_seed(seed + 1, 1, 0) != derive_seed(seed, 1, 0)
