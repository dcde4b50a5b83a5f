"""One table's writes, each one transaction, never blocking the event loop, each announced.

The room decides what changes; this says how it is stored (on PostgreSQL one statement from the
event loop, pgsteps.py; on SQLite through the manager's database thread), so the room's logic
reads without SQL and the writes can be checked on their own. Each write carries its news for
the other server processes (cluster.py), sent at its commit, with what changed in it, so that
they need not read the table again.
A step stored by another process at the same index first is a `StepConflict`: the database
serialises steps.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from .cluster import PgCluster, Solo
from .db import Database, NotLastStep, append_step_sql, update_sql
from .metrics import Metrics
from .pgsteps import StepTaken, StepWriter


class StepConflict(Exception):
    """Another process stored a step at this index first (or after the one to take back)."""


class TableStore:
    """The database as one table sees it."""

    def __init__(
        self,
        table_id: str,
        db: Database,
        run: Callable[..., Awaitable[Any]],
        cluster: Solo | PgCluster,
        *,
        metrics: Metrics | None = None,
        writer: StepWriter | None = None,
    ) -> None:
        self.id = table_id
        self.metrics = metrics
        self.writer = writer
        self.db = db
        self.run = run
        self.cluster = cluster

    async def append_step(
        self,
        *,
        index: int,
        player: int,
        action: str,
        by: str,
        changes: dict[str, Any],
        clocks: list[float] | None,
    ) -> None:
        """Store a step with the table's changes and its news: on PostgreSQL one statement from
        the event loop (pgsteps.py), on SQLite a transaction in the database thread."""
        began = time.perf_counter()
        step = {"i": index, "p": player, "a": action, "c": clocks}
        news = self.cluster.news(self.id, s=step | {"r": changes.get("clock_running_for")})
        try:
            if self.writer is not None:
                sql = append_step_sql(self.id, index, player, action, by, changes, clocks, news)
                await self.writer.execute(*sql)
            else:
                await self.run(
                    self.db.append_step,
                    self.id,
                    index=index,
                    player=player,
                    action=action,
                    by=by,
                    table_changes=changes,
                    clocks=clocks,
                    news=news,
                )
        except (IntegrityError, StepTaken):
            raise StepConflict(f"step {index} of table {self.id} is already stored") from None
        if self.metrics is not None:
            self.metrics.store.observe(time.perf_counter() - began)

    async def remove_last_step(
        self, index: int, changes: dict[str, Any], clocks: list[float] | None
    ) -> None:
        try:
            await self.run(
                self.db.remove_last_step,
                self.id,
                index=index,
                table_changes=changes,
                clocks=clocks,
                news=self.cluster.news(self.id),
            )
        except NotLastStep:
            raise StepConflict(f"step {index} of table {self.id} is no longer the last") from None

    async def update_seat(
        self, seat: int, changes: dict[str, Any], table: dict[str, Any] | None = None
    ) -> None:
        """A seat's changes, and the table's (`table`: its status) in the same transaction."""
        table = table or {}
        news = self.cluster.news(self.id, seat={"k": seat, **changes}, tbl=table)
        if self.writer is not None:
            await self.writer.execute(*update_sql(self.id, seat, changes, table, news=news))
        else:
            await self.run(self.db.update_seat, self.id, seat, changes, news, table)

    async def update_table(
        self, changes: dict[str, Any], clocks: list[float] | None = None
    ) -> None:
        # a periodic store of the clocks alone is news to nobody
        news = self.cluster.news(self.id, tbl=changes) if changes else None
        if self.writer is not None:
            sql = update_sql(self.id, None, {}, changes, clocks=clocks, news=news)
            await self.writer.execute(*sql)
        else:
            await self.run(self.db.update_table, self.id, changes, clocks, news)
