"""Several server processes on one PostgreSQL: who drives each table, and news of every change.

Every process may serve every table; the database is the only shared part and the only truth.
- **News**: after each write a process sends `NOTIFY teocalli, '<table id> <process id>'`; every
  other process that holds the table in memory reloads it from the database and tells its own
  connections. A new table is announced the same way, so every process knows every table.
- **Leases**: a table's bots and clock are driven by exactly one process, the one holding the
  table's session-level advisory lock (`pg_try_advisory_lock`). The lock lives on a connection of
  that process, so when the process dies the lock goes with it and another process takes the table
  over at its next tick.
- **Steps** are serialised by the steps table's primary key (table, index): two processes can never
  store two different steps at the same index; the loser reloads and its client hears `stale`.

`Solo` is the single-process stand-in (SQLite): every lease is granted and there is nobody to tell.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("teocalli.server")

CHANNEL = "teocalli"


def lock_key(table_id: str) -> int:
    """The advisory lock key of a table: 64 bits of a hash of its id, as PostgreSQL's bigint."""
    digest = hashlib.blake2b(table_id.encode(), digest_size=8, person=b"teocalli-lease").digest()
    return int.from_bytes(digest, "big", signed=True)


class Solo:
    """One process alone (SQLite): it drives every table and has nobody to tell."""

    multi = False

    async def start(self, on_news: Callable[[str], Awaitable[None]]) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def announce(self, table_id: str) -> None:
        return None

    async def lease(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None


class PgCluster:
    """Processes sharing one PostgreSQL: LISTEN/NOTIFY for news, advisory locks for leases."""

    multi = True

    def __init__(self, sqlalchemy_url: str) -> None:
        from sqlalchemy.engine import make_url

        url = make_url(sqlalchemy_url).set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self.me = f"{os.getpid()}-{os.urandom(4).hex()}"
        self.listener: Any = None
        self.locks: Any = None
        self.sender: Any = None
        self.held: set[str] = set()
        self.task: asyncio.Task[None] | None = None
        self.lock_mutex = asyncio.Lock()
        self.send_mutex = asyncio.Lock()

    async def start(self, on_news: Callable[[str], Awaitable[None]]) -> None:
        import psycopg

        self.listener = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self.locks = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self.sender = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        await self.listener.execute(f"LISTEN {CHANNEL}")
        self.task = asyncio.create_task(self._listen(on_news), name="teocalli-listen")

    async def _listen(self, on_news: Callable[[str], Awaitable[None]]) -> None:
        async for note in self.listener.notifies():
            table_id, _, origin = note.payload.partition(" ")
            if origin == self.me:
                continue
            try:
                await on_news(table_id)
            except Exception:
                log.exception("news of table %s could not be applied", table_id)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for conn in (self.listener, self.locks, self.sender):
            if conn is None:
                continue
            with contextlib.suppress(Exception):
                await conn.close()
            if not conn.closed:  # a connection stopped mid-LISTEN: drop it at the socket
                with contextlib.suppress(Exception):
                    conn.pgconn.finish()

    async def announce(self, table_id: str) -> None:
        """Tell every other process that `table_id` changed (after the change committed)."""
        async with self.send_mutex:
            await self.sender.execute(
                "SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {self.me}")
            )

    async def lease(self, table_id: str) -> bool:
        """Whether this process drives `table_id` (takes the lease if it is free)."""
        if table_id in self.held:
            return True
        async with self.lock_mutex:
            cur = await self.locks.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),))
            row = await cur.fetchone()
        if row and row[0]:
            self.held.add(table_id)
            return True
        return False

    async def release(self, table_id: str) -> None:
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        async with self.lock_mutex:
            await self.locks.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))


Cluster = Solo | PgCluster
