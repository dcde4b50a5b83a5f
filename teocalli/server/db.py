"""Persistence: SQLAlchemy 2 models, the schema migrated by Alembic at start-up, and the writes.

A table is stored as what replays it: game, options, seed, and one row per step, plus its
seats (token hashes, who controls them) and clock. Each write is one transaction, and the
caller acknowledges an action only after it has committed.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    TypeDecorator,
    create_engine,
    delete,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


class NotLastStep(Exception):
    """An undo of a step that is no longer the last (another process stored one after it)."""


class DamagedRow(Exception):
    """A stored table that cannot be read back as a game; the message says what is wrong."""


class Seed(TypeDecorator[int]):
    """A deal's seed as decimal text: the server's secret seeds have 129 bits, more than any SQL
    integer type holds."""

    impl = String(80)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Any) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: Any, dialect: Any) -> int | None:
        if value is None:
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise DamagedRow(f"its seed {str(value)[:40]!r} is not a whole number") from None


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Seed)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Table settings that are not game options: clock, bot delay, rematch link."""
    clock_running_for: Mapped[int | None] = mapped_column(Integer, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(100), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    taken: Mapped[bool] = mapped_column(default=False)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    handed_to: Mapped[str | None] = mapped_column(String(100), nullable=True)
    """A person's seat handed to this bot (None: the person plays it)."""
    clock_remaining: Mapped[float | None] = mapped_column(Float, nullable=True)


class StepRow(Base):
    __tablename__ = "steps"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(16))
    """Who sent it: "person", "bot" (a bot seat or a handed seat) or "timeout"."""
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class StoredTable:
    """Everything needed to rebuild a table in memory."""

    row: TableRow
    seats: list[SeatRow]
    steps: list[tuple[int, str]]


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def normalise_url(url: str) -> str:
    """Accept a plain file path for SQLite; SQLAlchemy URLs pass through."""
    if "://" in url:
        return url
    return f"sqlite:///{Path(url).expanduser()}"


MIGRATION_LOCK = 0x7E0CA111
"""The PostgreSQL advisory lock key held while the schema is migrated."""


def migrate(engine: Engine) -> None:
    """Bring the schema to Alembic's head (run at every start-up; a no-op when current)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # several processes starting at once (serve --workers N) migrate one at a time:
            # the others wait here, then find the schema at head
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


class Database:
    """The engine, the schema and every read and write the server does (all synchronous)."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        """The same pool, each statement its own transaction: a step's one-statement write."""

    def close(self) -> None:
        self.engine.dispose()

    # --- writes, one transaction each -----------------------------------------------------------
    def create_table(self, row: TableRow, seats: list[SeatRow], news: str | None = None) -> None:
        with self.sessions.begin() as session:
            session.add(row)
            session.flush()
            session.add_all(seats)
            _notify(session, news)

    def append_step(
        self,
        table_id: str,
        *,
        index: int,
        player: int,
        action: str,
        by: str,
        table_changes: dict[str, Any],
        clocks: list[float] | None,
        news: str | None = None,
    ) -> None:
        """Store one step with the table's new status and clocks, all or nothing, and the news
        of it for the other processes (sent by PostgreSQL when, and only if, it commits).

        On PostgreSQL this is one statement, so one round trip (see `append_step_sql`)."""
        if not self.is_sqlite:
            sql, params = append_step_sql(
                table_id, index, player, action, by, table_changes, clocks, news
            )
            with self.autocommit.connect() as connection:
                connection.exec_driver_sql(sql, params)
            return
        with self.sessions.begin() as session:
            session.add(
                StepRow(
                    table_id=table_id,
                    index=index,
                    player=player,
                    action=action,
                    by=by,
                    at=now_utc(),
                )
            )
            self._update(session, table_id, table_changes, clocks)

    def remove_last_step(
        self,
        table_id: str,
        *,
        index: int,
        table_changes: dict[str, Any],
        clocks: list[float] | None,
        news: str | None = None,
    ) -> None:
        """Undo: delete step `index` (which must be the last) with the table's new state."""
        with self.sessions.begin() as session:
            later = session.scalar(
                select(StepRow.index).where(StepRow.table_id == table_id, StepRow.index > index)
            )
            if later is not None:
                raise NotLastStep(f"step {later} of table {table_id} follows step {index}")
            gone = session.execute(
                delete(StepRow).where(StepRow.table_id == table_id, StepRow.index == index)
            )
            if gone.rowcount != 1:  # type: ignore[attr-defined]
                raise NotLastStep(f"step {index} of table {table_id} is not stored")
            self._update(session, table_id, table_changes, clocks)
            _notify(session, news)

    def update_table(
        self,
        table_id: str,
        table_changes: dict[str, Any],
        clocks: list[float] | None = None,
        news: str | None = None,
    ) -> None:
        with self.sessions.begin() as session:
            self._update(session, table_id, table_changes, clocks)
            _notify(session, news)

    def update_seat(
        self,
        table_id: str,
        seat: int,
        changes: dict[str, Any],
        news: str | None = None,
        table_changes: dict[str, Any] | None = None,
    ) -> None:
        """A seat's changes and the table's (its status once every seat is taken), together."""
        with self.sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(**changes)
            )
            self._update(session, table_id, table_changes or {}, None)
            _notify(session, news)

    @staticmethod
    def _update(
        session: Session, table_id: str, table_changes: dict[str, Any], clocks: list[float] | None
    ) -> None:
        if table_changes:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**table_changes))
        if clocks is not None:
            for seat, left in enumerate(clocks):
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(clock_remaining=left)
                )

    # --- reads ----------------------------------------------------------------------------------
    def load(self, table_id: str) -> StoredTable | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            return self._stored(session, row)

    def unfinished_ids(self) -> list[str]:
        """The ids of unfinished tables, oldest first (read alone: a damaged row cannot stop it)."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(TableRow.id)
                    .where(TableRow.status != "finished")
                    .order_by(TableRow.created)
                ).all()
            )

    def load_checked(self, table_id: str) -> StoredTable | None:
        """`load`, with any failure to read the rows reported as DamagedRow (with the reason)."""
        try:
            return self.load(table_id)
        except DamagedRow:
            raise
        except Exception as err:  # bad JSON, a wrong type: whatever the driver says
            raise DamagedRow(
                f"its rows cannot be read ({type(err).__name__}: {err})"[:300]
            ) from None

    @staticmethod
    def _stored(session: Session, row: TableRow) -> StoredTable:
        seats = list(
            session.scalars(
                select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
            ).all()
        )
        if [s.seat for s in seats] != list(range(len(seats))) or not seats:
            raise DamagedRow(
                f"its seats are {[s.seat for s in seats]}, not 0 to {len(seats) - 1}"
                if seats
                else "it has no seats"
            )
        if not isinstance(row.options, dict) or not isinstance(row.settings, dict):
            raise DamagedRow("its options or settings are not JSON objects")
        steps: list[tuple[int, str]] = []
        for index, player, action in session.execute(
            select(StepRow.index, StepRow.player, StepRow.action)
            .where(StepRow.table_id == row.id)
            .order_by(StepRow.index)
        ).all():
            if index != len(steps):
                raise DamagedRow(f"step {len(steps)} is missing (the next stored is {index})")
            steps.append((player, action))
        return StoredTable(row, seats, steps)


NEWS_CHANNEL = "teocalli"
"""The PostgreSQL channel of every process's news (cluster.py)."""


def _notify(session: Session, news: str | None) -> None:
    """Queue `news` for the other processes in this transaction: PostgreSQL sends it at commit."""
    if news is not None:
        session.execute(
            text("SELECT pg_notify(:channel, :news)"), {"channel": NEWS_CHANNEL, "news": news}
        )


TABLE_COLUMNS = {"status", "finished", "outcome", "clock_running_for", "settings"}
"""The columns of `tables` a write may change (checked: their names go into the SQL text)."""
SEAT_COLUMNS = {"taken", "name", "handed_to", "token_hash"}
"""The columns of `seats` a seat's change may set (checked likewise)."""
JSON_COLUMNS = {"outcome", "settings"}


def _sets(changes: dict[str, Any], allowed: set[str], what: str) -> tuple[str, list[Any]]:
    """`"col" = %s, ...` for an UPDATE and its parameters, columns checked against `allowed`."""
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"a write does not change the {what} columns {sorted(unknown)}")
    sets, params = [], []
    for column, value in sorted(changes.items()):
        if column in JSON_COLUMNS:
            sets.append(f'"{column}" = %s::json')
            params.append(None if value is None else json.dumps(value))
        else:
            sets.append(f'"{column}" = %s')
            params.append(value)
    return ", ".join(sets), params


def _updates_sql(
    table_id: str,
    table_changes: dict[str, Any],
    clocks: list[float] | None,
    news: str | None,
    *,
    ctes: list[str],
    params: list[Any],
) -> tuple[str, tuple[Any, ...]]:
    """Add the table's changes, its clocks and the news to `ctes`: one statement, all or
    nothing (data-modifying CTEs), whose text depends only on which columns change, so that
    psycopg prepares it after a few uses."""
    if table_changes:
        sets, values = _sets(table_changes, TABLE_COLUMNS, "table")
        ctes.append(f"tbl AS (UPDATE tables SET {sets} WHERE id = %s)")
        params.extend((*values, table_id))
    if clocks is not None:
        rows = ", ".join("(%s::int, %s::float8)" for _ in clocks)
        ctes.append(
            f"clk AS (UPDATE seats SET clock_remaining = v.remaining FROM (VALUES {rows}) "
            "AS v(seat, remaining) WHERE seats.table_id = %s AND seats.seat = v.seat)"
        )
        for seat, left in enumerate(clocks):
            params.extend((seat, left))
        params.append(table_id)
    head = f"WITH {', '.join(ctes)} " if ctes else ""
    if news is not None:
        params.extend((NEWS_CHANNEL, news))
        return head + "SELECT pg_notify(%s, %s)", tuple(params)
    return head + "SELECT 1", tuple(params)


def append_step_sql(  # noqa: PLR0917 (the columns of a step, in order)
    table_id: str,
    index: int,
    player: int,
    action: str,
    by: str,
    table_changes: dict[str, Any],
    clocks: list[float] | None,
    news: str | None,
) -> tuple[str, tuple[Any, ...]]:
    """A step's whole write as one PostgreSQL statement: one round trip instead of BEGIN,
    INSERT, UPDATEs, NOTIFY and COMMIT."""
    ctes = [
        'step AS (INSERT INTO steps (table_id, "index", player, action, "by", "at") '
        "VALUES (%s, %s, %s, %s, %s, %s))"
    ]
    params: list[Any] = [table_id, index, player, action, by, now_utc()]
    return _updates_sql(table_id, table_changes, clocks, news, ctes=ctes, params=params)


def update_sql(
    table_id: str,
    seat: int | None,
    seat_changes: dict[str, Any],
    table_changes: dict[str, Any],
    *,
    clocks: list[float] | None = None,
    news: str | None,
) -> tuple[str, tuple[Any, ...]]:
    """A seat's and the table's changes (and the news) as one PostgreSQL statement."""
    ctes: list[str] = []
    params: list[Any] = []
    if seat is not None and seat_changes:
        sets, values = _sets(seat_changes, SEAT_COLUMNS, "seat")
        ctes.append(f"seat AS (UPDATE seats SET {sets} WHERE table_id = %s AND seat = %s)")
        params.extend((*values, table_id, seat))
    return _updates_sql(table_id, table_changes, clocks, news, ctes=ctes, params=params)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL lets readers work during a write; FULL sync makes a commit survive a power cut."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
