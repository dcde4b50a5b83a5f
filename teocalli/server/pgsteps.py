"""A step (or a seat's or the table's update) stored on PostgreSQL from the event loop itself.

Handing each write to a database thread cost more than the write: the thread and the event loop
take turns at Python's global lock, a busy loop keeps it for up to 5 ms at a time
(`sys.getswitchinterval`), and a write needs it back several times. Here the step's one
statement (`db.append_step_sql`: insert, table and clock updates, the news, all or nothing;
`db.update_sql` likewise for a seat taken or handed over) goes out on one of a few autocommit
connections of this process, and the loop waits on the socket. Table creation, undo and reads
stay on the database threads: they are rarer, and a read needs the ORM.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg

POOL_SIZE = 8
"""Connections at most: concurrent commits share PostgreSQL's WAL flushes (group commit)."""


class StepTaken(Exception):
    """The step's index is already stored (another process moved first)."""


class StepWriter:
    """A few asyncio PostgreSQL connections that run one statement each at a time."""

    def __init__(self, conninfo: str, size: int = POOL_SIZE) -> None:
        self.conninfo = conninfo
        self.slots = asyncio.Semaphore(size)
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.closed = False

    async def execute(self, sql: str, params: tuple[Any, ...]) -> None:
        """Run `sql` as its own transaction; StepTaken if a unique key refuses it."""
        async with self.slots:
            if self.closed:
                raise RuntimeError("the step writer is closed")
            conn = self.idle.pop() if self.idle else None
            if conn is None or conn.closed:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            try:
                await conn.execute(sql, params)
            except psycopg.errors.UniqueViolation:
                self.idle.append(conn)  # a refused statement leaves the connection as it was
                raise StepTaken from None
            except BaseException:
                # broken, or cancelled mid-statement: its state is unknown, never reuse it
                with contextlib.suppress(Exception):
                    await conn.close()
                raise
            self.idle.append(conn)

    async def close(self) -> None:
        self.closed = True
        while self.idle:
            with contextlib.suppress(Exception):
                await self.idle.pop().close()
