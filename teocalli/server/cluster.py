"""Several server processes on one PostgreSQL: who drives each table, and news of every change.

Every process may serve every table; the database is the only shared part and the only truth.
- **News**: each write carries `pg_notify('teocalli', news)` in its own transaction, so the news
  goes out when, and only if, the write commits, in commit order. The news is a small JSON object:
  the table, the process that wrote it, and what changed: a step (index, player, action, clocks),
  a seat's new fields, the table's new status or settings, or a new table's whole row. Every other
  process that holds the table applies the change to its copy and tells its own connections, with
  no read; only news it cannot apply (an undo, a step that does not follow on) makes it reload the
  table. A new table is built from its news, so every process knows every table.
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
import json
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from .db import NEWS_CHANNEL

log = logging.getLogger("teocalli.server")

CHANNEL = NEWS_CHANNEL

News = Callable[[str, dict[str, Any]], Awaitable[None]]
"""What a process does with news of a table: (table id, the news: see `PgCluster.news`)."""

MAX_NEWS_BYTES = 7000
"""PostgreSQL refuses a notification of 8000 bytes or more: longer news go without their
details (the other processes then read the table)."""


def lock_key(table_id: str) -> int:
    """The advisory lock key of a table: 64 bits of a hash of its id, as PostgreSQL's bigint."""
    digest = hashlib.blake2b(table_id.encode(), digest_size=8, person=b"teocalli-lease").digest()
    return int.from_bytes(digest, "big", signed=True)


class Solo:
    """One process alone (SQLite): it drives every table and has nobody to tell."""

    multi = False

    async def start(self, on_news: News) -> None:
        return None

    async def stop(self) -> None:
        return None

    def news(self, table_id: str, **parts: Any) -> str | None:
        return None

    async def lease(self, table_id: str) -> bool:
        return True

    async def lease_many(self, table_ids: list[str]) -> set[str]:
        return set(table_ids)

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
        self.held: set[str] = set()
        self.task: asyncio.Task[None] | None = None
        self.lock_mutex = asyncio.Lock()

    async def start(self, on_news: News) -> None:
        import psycopg

        self.listener = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self.locks = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        await self.listener.execute(f"LISTEN {CHANNEL}")
        self.task = asyncio.create_task(self._listen(on_news), name="teocalli-listen")

    async def _listen(self, on_news: News) -> None:
        """Read notifications straight off libpq as soon as the socket is readable, into a
        queue that this task works through in order (one reader for the connection's life:
        cheaper than a wait per notification). The socket is drained in the reader callback
        itself, so it never stays readable (which would spin the loop) while news is applied."""
        loop = asyncio.get_running_loop()
        pgconn = self.listener.pgconn
        fd = pgconn.socket
        queue: asyncio.Queue[str | BaseException] = asyncio.Queue()

        def readable() -> None:
            try:
                pgconn.consume_input()
            except Exception as err:  # the connection is gone: stop reading it
                loop.remove_reader(fd)
                queue.put_nowait(err)
                return
            while (note := pgconn.notifies()) is not None:
                queue.put_nowait(note.extra.decode())

        loop.add_reader(fd, readable)
        try:
            while True:
                item = await queue.get()
                if isinstance(item, BaseException):
                    log.error("the news connection to PostgreSQL failed: %s", item)
                    return
                await self._heard(item, on_news)
        finally:
            loop.remove_reader(fd)

    async def _heard(self, payload: str, on_news: News) -> None:
        try:
            news = json.loads(payload)
        except ValueError:
            log.warning("news that is not JSON ignored: %.80r", payload)
            return
        if not isinstance(news, dict) or news.get("o") == self.me:
            return
        table_id = news.get("t")
        if not isinstance(table_id, str):
            return
        try:
            await on_news(table_id, news)
        except Exception:
            log.exception("news of table %s could not be applied", table_id)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for conn in (self.listener, self.locks):
            if conn is None:
                continue
            with contextlib.suppress(Exception):
                await conn.close()
            if not conn.closed:  # a connection stopped mid-LISTEN: drop it at the socket
                with contextlib.suppress(Exception):
                    conn.pgconn.finish()

    def news(self, table_id: str, **parts: Any) -> str:
        """The news of a change of `table_id`, for the write's own transaction to send (db.py).

        `parts` say what changed, so that the other processes need not read it: `s` a step
        stored, `seat` a seat's changed fields (with `k`, its number), `tbl` the table's changed
        fields, `new` a new table's row and seats. News too long for a notification go with
        none of them: the others read the table instead."""
        head: dict[str, Any] = {"t": table_id, "o": self.me}
        text = json.dumps(head | parts, separators=(",", ":"))
        if len(text.encode()) > MAX_NEWS_BYTES:
            text = json.dumps(head, separators=(",", ":"))
        return text

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

    async def lease_many(self, table_ids: list[str]) -> set[str]:
        """The tables of `table_ids` this process drives, taking every free lease in one round
        trip (the clock ticker asks this for every table it does not drive, a few times a
        second: whether the process driving it died)."""
        want = {lock_key(t): t for t in table_ids if t not in self.held}
        if want:
            async with self.lock_mutex:
                cur = await self.locks.execute(
                    "SELECT k, pg_try_advisory_lock(k) FROM unnest(%s::bigint[]) AS k",
                    (list(want),),
                )
                rows = await cur.fetchall()
            self.held.update(want[key] for key, got in rows if got)
        return {t for t in table_ids if t in self.held}

    async def release(self, table_id: str) -> None:
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        async with self.lock_mutex:
            await self.locks.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))


Cluster = Solo | PgCluster
