"""Replays, built off the event loop and cached, so many replay requests never stall live tables.

A replay replays the whole game and renders a view per step: real CPU work. It runs in one worker
thread at a time; identical requests share one build (single flight) and the JSON is kept in an
LRU bounded by bytes. A finished game's replay never changes, and an unfinished one is keyed by
its step count, so a cached answer is never stale. Past `MAX_WAITING` distinct builds in the
queue, the server answers 503 rather than let the queue grow.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable

import anyio
import anyio.to_thread

from .errors import Refused

MAX_CACHE_BYTES = 32 * 1024 * 1024
MAX_WAITING = 16


class ReplayCache:
    """Single-flight, byte-bounded LRU of replay JSON, built in a worker thread."""

    def __init__(self, max_bytes: int = MAX_CACHE_BYTES, max_waiting: int = MAX_WAITING) -> None:
        self.max_bytes = max_bytes
        self.max_waiting = max_waiting
        self.cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self.size = 0
        self.building: dict[Hashable, asyncio.Future[bytes]] = {}
        self.limiter = anyio.CapacityLimiter(1)
        self.builds = 0
        """How many replays were built (not served from the cache): for tests and metrics."""

    async def get(self, key: Hashable, build: Callable[[], bytes]) -> bytes:
        cached = self.cache.get(key)
        if cached is not None:
            self.cache.move_to_end(key)
            return cached
        pending = self.building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        if len(self.building) >= self.max_waiting:
            raise Refused("the server is busy building replays: try again shortly", "busy", 503)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.building[key] = future
        try:
            data = await anyio.to_thread.run_sync(build, limiter=self.limiter)
        except Exception as err:
            future.set_exception(err)
            future.exception()  # retrieved: no "never retrieved" warning if nobody else waits
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            del self.building[key]
        self.builds += 1
        future.set_result(data)
        self._keep(key, data)
        return data

    def _keep(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        self.cache[key] = data
        self.size += len(data)
        while self.size > self.max_bytes:
            _, old = self.cache.popitem(last=False)
            self.size -= len(old)
