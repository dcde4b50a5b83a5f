"""One table's writes, each one transaction, always off the event loop.

The room decides what changes; this says how it is stored (through the manager's database
threads), so the room's logic reads without SQL and the writes can be checked on their own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .db import Database


class TableStore:
    """The database as one table sees it."""

    def __init__(self, table_id: str, db: Database, run: Callable[..., Awaitable[Any]]) -> None:
        self.id = table_id
        self.db = db
        self.run = run

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
        await self.run(
            self.db.append_step,
            self.id,
            index=index,
            player=player,
            action=action,
            by=by,
            table_changes=changes,
            clocks=clocks,
        )

    async def remove_last_step(
        self, index: int, changes: dict[str, Any], clocks: list[float] | None
    ) -> None:
        await self.run(
            self.db.remove_last_step, self.id, index=index, table_changes=changes, clocks=clocks
        )

    async def update_seat(self, seat: int, **changes: Any) -> None:
        await self.run(self.db.update_seat, self.id, seat, **changes)

    async def update_table(
        self, changes: dict[str, Any], clocks: list[float] | None = None
    ) -> None:
        await self.run(self.db.update_table, self.id, changes, clocks)
