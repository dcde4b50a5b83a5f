"""Seeded randomness owned by a state: small, cheap to clone and JSON-ready.

The global `random` module is never used. A state carries one `Rng`. A seed below 2**64 drives
SplitMix64 (one 64-bit integer of state): fast, and small seeds keep research runs reproducible.
A seed of 2**64 or more (the server's secret 128-bit deals, see `secret_seed`) drives a keyed
BLAKE2b counter stream instead: SplitMix64 is invertible, so a few observed draws would give its
whole state away, whereas a keyed hash reveals nothing about its key or its other outputs. Either
way cloning copies an int (and a shared key) and a save is just the seed.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
KEYED = 1 << 64
"""Seeds from here up select the keyed stream."""
SECRET_BITS = 128


def secret_seed() -> int:
    """A seed nobody can guess or recompute: 128 bits from the OS's secret entropy (`secrets`),
    offset into the keyed range so that every bit of it reaches the stream."""
    return KEYED + secrets.randbits(SECRET_BITS)


def derive_seed(seed: int, *parts: int) -> int:
    """A 63-bit seed derived one-way from `seed` and `parts` (for a bot's own randomness):
    knowing it tells nothing about `seed`."""
    data = b"".join(p.to_bytes(16, "little", signed=True) for p in parts)
    digest = hashlib.blake2b(data, key=_key(seed), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def _key(seed: int) -> bytes:
    raw = seed.to_bytes((seed.bit_length() + 8) // 8, "little", signed=True)
    return hashlib.blake2b(raw, digest_size=32, person=b"teocalli-rng").digest()


class Rng:
    """SplitMix64 for small seeds, a keyed BLAKE2b counter stream for secret ones."""

    __slots__ = ("key", "state")

    def __init__(self, seed: int = 0) -> None:
        self.key: bytes | None = _key(seed) if seed >= KEYED else None
        self.state = 0 if self.key is not None else seed & _MASK

    def next64(self) -> int:
        if self.key is not None:
            self.state += 1
            block = hashlib.blake2b(
                self.state.to_bytes(8, "little"), key=self.key, digest_size=8
            ).digest()
            return int.from_bytes(block, "little")
        self.state = s = (self.state + _GOLDEN) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def randrange(self, n: int) -> int:
        """A uniform integer in [0, n); the modulo bias is below 2**-50 for game-sized n."""
        if n <= 0:
            raise ValueError("randrange needs a positive bound")
        return self.next64() % n

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.random()

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """A normal deviate (Box-Muller; one of the pair is dropped to keep the state one int)."""
        u1 = 1.0 - self.random()
        u2 = self.random()
        return mu + sigma * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randrange(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randrange(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def spawn(self) -> Rng:
        """An independent generator derived from this one (advances it): a keyed stream spawns
        a keyed child with 128 fresh bits, so secrecy is never narrowed to 64 bits."""
        if self.key is not None:
            return Rng(KEYED + (self.next64() << 64 | self.next64()))
        return Rng(self.next64())

    def copy(self) -> Rng:
        other = Rng.__new__(Rng)
        other.key = self.key
        other.state = self.state
        return other

    def __repr__(self) -> str:
        return f"Rng({self.state})" if self.key is None else f"Rng(keyed, step {self.state})"
