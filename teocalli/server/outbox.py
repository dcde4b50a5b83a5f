"""A connection's outgoing messages, bounded: a client that does not read cannot grow the server.

A newer `state` message supersedes any older one still waiting (it carries the whole position),
so a slow reader only ever has one pending state. Other messages (errors, pongs, the end) are few
per action; if more than `MAX_PENDING` wait, the client has fallen too far behind: the outbox is
closed and the connection dropped, and the client's reconnection gets the current state afresh.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

MAX_PENDING = 32


class Outbox:
    """Messages waiting to be sent to one WebSocket."""

    def __init__(self, limit: int = MAX_PENDING) -> None:
        self.limit = limit
        self.items: deque[dict[str, Any]] = deque()
        self.overflowed = False
        self._ready = asyncio.Event()

    def put(self, message: dict[str, Any]) -> None:
        if self.overflowed:
            return
        if message.get("type") == "state":
            self.items = deque(m for m in self.items if m.get("type") != "state")
        self.items.append(message)
        if len(self.items) > self.limit:
            self.overflowed = True
            self.items.clear()
        self._ready.set()

    async def get(self) -> dict[str, Any] | None:
        """The next message to send; None once the client has fallen too far behind."""
        while not self.items:
            if self.overflowed:
                return None
            self._ready.clear()
            await self._ready.wait()
        return self.items.popleft()

    def __len__(self) -> int:
        return len(self.items)
