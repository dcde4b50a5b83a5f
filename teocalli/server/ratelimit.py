"""Per-address rate limits: token buckets, so a burst is allowed and a flood is refused.

Anonymous requests cost the server work (a table and its rows, a replay, a WebSocket), so each
client address has a bucket per kind of request. Time comes from the injected clock, so tests
move it by hand. Behind a proxy the address is the proxy's unless uvicorn is told to trust its
forwarded headers (`--forwarded-allow-ips`), see docs/server.md.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from .errors import Refused

MAX_ADDRESSES = 10_000
"""Buckets kept at most; the least recently seen address is forgotten first (a full bucket)."""


@dataclass(frozen=True)
class Limit:
    """`burst` requests at once, then one per `every` seconds."""

    burst: int
    every: float


DEFAULT_LIMITS: dict[str, Limit] = {
    "create": Limit(burst=10, every=6.0),  # tables (and rematches): 10 at once, then 10 a minute
    "read": Limit(burst=120, every=0.05),  # lobby, summaries, replays: 20 a second
    "connect": Limit(burst=30, every=1.0),  # WebSocket connections opened
}


class RateLimiter:
    """Token buckets per (kind, address)."""

    def __init__(self, limits: dict[str, Limit], now: Callable[[], float]) -> None:
        self.limits = limits
        self.now = now
        self.buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def take(self, kind: str, address: str) -> None:
        """Spend one token of `kind` for `address`; Refused (429) if the bucket is empty."""
        limit = self.limits.get(kind)
        if limit is None:
            return
        key = (kind, address)
        now = self.now()
        tokens, then = self.buckets.pop(key, (float(limit.burst), now))
        tokens = min(float(limit.burst), tokens + max(0.0, now - then) / limit.every)
        if tokens < 1.0:
            self.buckets[key] = (tokens, now)
            wait = (1.0 - tokens) * limit.every
            raise Refused(
                f"too many requests from your address: try again in {math.ceil(wait)} s",
                "rate_limited",
                429,
            )
        self.buckets[key] = (tokens - 1.0, now)
        while len(self.buckets) > MAX_ADDRESSES:
            self.buckets.popitem(last=False)
