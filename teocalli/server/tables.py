"""Every table in memory: rebuilt from the database at start-up, created, rematched, replayed.

The `Manager` owns the rooms (see room.py) and the database; nothing about a game is kept only
in memory: a room is always rebuilt from seed + stored steps. A table whose rows cannot be
rebuilt is kept aside as damaged (with the reason): it never stops the server or another table.

Deals: every table's seed is 128 bits of secret entropy (`secret_seed`), never sent to anyone
before the game ends; a client may choose the seed only of a game without hidden information.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread

import teocalli
from teocalli.core import Decision, Game, Information, TeocalliError, secret_seed

from .bots import BotPool, BotSpecError, check_bot_spec
from .cluster import PgCluster, Solo
from .db import DamagedRow, Database, SeatRow, StoredTable, TableRow, now_utc
from .errors import Refused
from .inputs import check_name, check_option_value, check_table_id, clip, excerpt
from .metrics import Metrics
from .pgsteps import StepWriter
from .replays import ReplayCache
from .room import Room
from .seats import Seat
from .tokens import check_token, hash_token, new_table_id, new_token
from .views import visible_log

DEFAULT_PACE = 0.8
"""Seconds a bot's step waits after the previous step while a person is at the table, so that
people can follow the game; bot-only tables never wait."""
MAX_PACE = 10.0
MAX_CLIENT_SEED = 2**31 - 1
"""A seed a client may choose (games without hidden information only)."""
CLOCK_SAVE_EVERY = 5.0
"""Seconds between stores of the running clocks: at most this much thinking is forgiven by a
crash."""
LOBBY_PAGE = 50
MAX_LOBBY_PAGE = 200

log = logging.getLogger("teocalli.server")


class Manager:
    """Every room: created, loaded at start-up, looked up, listed; the clock ticker."""

    def __init__(
        self,
        db: Database,
        pool: BotPool,
        now: Callable[[], float],
        db_threads: int,
    ) -> None:
        self.db = db
        self.pool = pool
        self.now = now
        self.rooms: dict[str, Room] = {}
        self.damaged: dict[str, str] = {}
        """Tables whose stored rows cannot be rebuilt, with the reason."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.db_limiter = anyio.CapacityLimiter(db_threads)
        self.judge_limiter = anyio.CapacityLimiter(2)
        """Threads where `judge` requests check a move (never the event loop)."""
        self.replays = ReplayCache()
        self.clocks_saved = now()
        self.cluster: Solo | PgCluster = Solo() if db.is_sqlite else PgCluster(db.url)
        self.metrics = Metrics()
        self.writer = (
            StepWriter(self.cluster.conninfo) if isinstance(self.cluster, PgCluster) else None
        )
        """Steps stored from the event loop on PostgreSQL (pgsteps.py); None: in a thread."""

    async def run_db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking database call in a worker thread (never on the event loop)."""

        def call() -> Any:
            return fn(*args, **kwargs)

        return await anyio.to_thread.run_sync(call, limiter=self.db_limiter)

    async def start(self) -> None:
        """Rebuild every unfinished table from the database; drive the bots and clocks of those
        whose lease this process gets (all of them, alone on SQLite)."""
        await self.cluster.start(self.on_news)
        for table_id in await self.run_db(self.db.unfinished_ids):
            try:
                item = await self.run_db(self.db.load_checked, table_id)
                if item is None:
                    continue
                room = self._build(item)
            except DamagedRow as err:
                self._mark_damaged(table_id, str(err))
                continue
            self.rooms[room.id] = room
            await self.take_lease(room, fresh=True)

    async def take_lease(self, room: Room, *, fresh: bool = False) -> None:
        """Drive `room`'s bots and clock if this process gets its lease (refreshed first unless
        just read: the process that held it may have stored steps this one has not heard of)."""
        if room.owned or room.state.is_terminal() or not await self.cluster.lease(room.id):
            return
        if self.cluster.multi and not fresh:
            await self.refresh(room)
        async with room.lock:
            room.owned = True
            if room.clock is not None:
                room.clock.started = self.now()
            room.bots.kick()

    async def on_news(self, table_id: str, news: dict[str, Any]) -> None:
        """Another process changed `table_id`: apply what its news says changed to this
        process's copy (a step, a seat's fields, the table's status or settings), or reload the
        table if the news cannot be applied (an undo, a step that does not follow on); build a
        new table from its news (so that this process can take it over if that one dies)."""
        room = self.rooms.get(table_id)
        if room is not None:
            if "new" in news:
                return  # already here: a client asked this process for it first
            heard = time.perf_counter()
            step = news.get("s")
            applied = False
            if step is not None:
                how, applied = "step", await room.hear_step(step)
                if applied and room.state.is_terminal():
                    await self.cluster.release(room.id)
            elif "seat" in news or "tbl" in news:
                how, applied = "change", await room.hear_change(news.get("seat"), news.get("tbl"))
            if not applied:
                how = "reload"
                await self.refresh(room)
            self.metrics.news.observe(time.perf_counter() - heard, how)
        elif table_id not in self.damaged:
            if self._built_from_news(table_id, news.get("new")):
                return
            with contextlib.suppress(Refused):
                await self.get(table_id)

    def _built_from_news(self, table_id: str, new: Any) -> bool:
        """Build a table another process just created from its news (`new_table_news`), with
        no read; False if the news does not carry it whole (read it then)."""
        if not isinstance(new, dict):
            return False
        try:
            row = TableRow(
                id=table_id,
                game=str(new["game"]),
                options=dict(new["options"]),
                seed=int(new["seed"]),
                status=str(new["status"]),
                created=dt.datetime.fromisoformat(new["created"]),
                finished=None,
                settings=dict(new["settings"]),
                clock_running_for=new["clock_running_for"],
                outcome=None,
            )
            seats = [
                SeatRow(table_id=table_id, seat=k, **{f: seat[f] for f in SEAT_NEWS})
                for k, seat in enumerate(new["seats"])
            ]
            room = self._build(StoredTable(row, seats, []))
        except Exception:  # malformed or not buildable: the database says what it is
            return False
        self.rooms.setdefault(table_id, room)
        return True

    async def refresh(self, room: Room) -> None:
        """Bring `room` up to what the database says (steps, seats, settings, clock).

        Read under the room's lock: a step this process stored between the read and taking the
        lock would otherwise be undone in memory by a read from before it."""
        async with room.lock:
            try:
                item = await self.run_db(self.db.load_checked, room.id)
            except DamagedRow as err:
                self._mark_damaged(room.id, str(err))
                self.rooms.pop(room.id, None)
                return
            if item is None:
                return
            room.catch_up(item)
            if room.state.is_terminal():
                await self.cluster.release(room.id)

    def _mark_damaged(self, table_id: str, reason: str) -> None:
        """Keep a table that cannot be rebuilt aside; its rows stay untouched in the database."""
        self.damaged[table_id] = reason
        log.warning("table %s is damaged and stays in the database untouched: %s", table_id, reason)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.cluster.stop()
        if self.writer is not None:
            await self.writer.close()

    def _build(self, item: StoredTable) -> Room:
        """The room a table's rows replay to; DamagedRow says why they do not."""
        row = item.row
        try:
            game = teocalli.load(row.game, **row.options)
            state = game.new_state(row.seed)
        except (TeocalliError, TypeError) as err:
            raise DamagedRow(f"its game cannot be set up: {clip(str(err))}") from None
        if len(item.seats) != game.num_players:
            n = len(item.seats)
            raise DamagedRow(f"it has {n} seat{'s' * (n != 1)} for {game.num_players} players")
        decisions: list[Decision | None] = []
        for k, (player, action) in enumerate(item.steps):
            decisions.append(state.decision())
            try:
                state.apply(action, player)
            except TeocalliError as err:
                raise DamagedRow(f"step {k} ({excerpt(action)}) does not replay: {err}") from None
        seats = [
            Seat(s.seat, s.kind, s.bot, s.token_hash, s.taken, s.name, s.handed_to)
            for s in item.seats
        ]
        room = Room(self, row, seats, state, decisions)
        if room.clock is not None:
            for s in item.seats:
                if s.clock_remaining is not None:
                    room.clock.remaining[s.seat] = s.clock_remaining
            if row.clock_running_for is not None and not state.is_terminal():
                room.clock.running_for = row.clock_running_for
                room.clock.started = self.now()
            room.follow_clock(state)
        return room

    async def get(self, table_id: str) -> Room:
        check_table_id(table_id)
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if table_id in self.damaged:
            raise Refused(f"table {table_id} is damaged: {self.damaged[table_id]}", "damaged", 409)
        try:
            item = await self.run_db(self.db.load_checked, table_id)
            if item is None:
                raise Refused(f"there is no table {table_id!r}", "unknown_table", 404)
            built = self._build(item)
        except DamagedRow as err:
            self._mark_damaged(table_id, str(err))
            raise Refused(f"table {table_id} is damaged: {err}", "damaged", 409) from None
        return self.rooms.setdefault(table_id, built)

    def lobby(self, limit: int = LOBBY_PAGE, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """One page of the tables still playing, newest first, then the damaged ones; and how
        many there are in all."""
        rooms = [r for r in self.rooms.values() if r.status != "finished"]
        rooms.sort(key=lambda r: r.created, reverse=True)
        entries: list[Any] = [*rooms, *sorted(self.damaged)]
        page = entries[offset : offset + limit]
        return [
            e.summary() if isinstance(e, Room) else damaged_summary(e, self.damaged[e])
            for e in page
        ], len(entries)

    async def create(
        self,
        body: Any,
        rematch_of: str | None = None,
        keep_tokens: dict[int, str | None] | None = None,
    ) -> dict[str, Any]:
        """Create a table from a request body; the response carries each person's share link.

        `keep_tokens` (a rematch) gives seats the token hashes of the old table's seats: each
        person's own link opens their seat at the rematch too, so it reaches everyone, even a
        person who is away, and no token is ever stored in the clear."""
        spec = parse_create(body)
        game: Game = spec["game"]
        seed = spec["seed"] if spec["seed"] is not None else secret_seed()
        table_id = new_table_id()
        while table_id in self.rooms:
            table_id = new_table_id()
        tokens: dict[int, str] = {}
        seat_rows: list[SeatRow] = []
        for k, seat in enumerate(spec["seats"]):
            token_hash = None
            if seat["kind"] == "human" and keep_tokens is not None:
                token_hash = keep_tokens.get(k)
            elif seat["kind"] == "human":
                tokens[k] = new_token()
                token_hash = hash_token(tokens[k])
            seat_rows.append(
                SeatRow(
                    table_id=table_id,
                    seat=k,
                    kind=seat["kind"],
                    bot=seat.get("bot"),
                    token_hash=token_hash,
                    # a seat named at creation is its creator's: reserved, never free in the lobby
                    taken=bool(seat.get("name")),
                    name=seat.get("name"),
                    handed_to=None,
                    clock_remaining=spec["clock"]["seconds"] if spec["clock"] else None,
                )
            )
        humans = any(seat["kind"] == "human" for seat in spec["seats"])
        settings: dict[str, Any] = {
            "clock": spec["clock"],
            "bot_delay": spec["bot_delay"],
            "pace": spec["pace"] if humans else 0.0,
            "open_seats": spec["open_seats"],
            "hints": spec["hints"],
            "rematch_of": rematch_of,
            "rematch": None,
        }
        row = TableRow(
            id=table_id,
            game=game.info.name,
            options=dict(game.options),
            seed=seed,
            status="running" if not humans else "open",
            created=now_utc(),
            finished=None,
            settings=settings,
            clock_running_for=None,
            outcome=None,
        )
        news = self.cluster.news(table_id, new=new_table_news(row, seat_rows))
        await self.run_db(self.db.create_table, row, seat_rows, news)
        room = self._build(StoredTable(row, seat_rows, []))
        self.rooms[table_id] = room
        if room.clock is not None:
            changes = {"clock_running_for": room.clock.running_for}
            news = self.cluster.news(table_id, tbl=changes)
            await self.run_db(self.db.update_table, table_id, changes, None, news)
        await self.take_lease(room, fresh=True)

        return {
            "id": table_id,
            "seats": [
                {
                    "seat": k,
                    "kind": s.kind,
                    "link": seat_link(table_id, k, tokens[k]) if k in tokens else None,
                }
                for k, s in enumerate(seat_rows)
            ],
            "spectate": f"/table/{table_id}",
        }

    async def rematch(self, table_id: str, token: Any) -> dict[str, Any]:
        """A new table with the same game, seats and settings; every person's own link opens
        their seat there, and each connected person is told (`{"type": "rematch"}`)."""
        room = await self.get(table_id)
        mine = [
            s.seat
            for s in room.seats
            if isinstance(token, str) and check_token(token, s.token_hash)
        ]
        if not mine:
            raise Refused("only a player at this table can ask for a rematch", "forged_token", 403)
        async with room.lock:
            if room.status != "finished":
                raise Refused("the game is not over yet", "not_finished", 409)
            if room.settings.get("rematch"):
                raise Refused(
                    f"a rematch was already made: table {room.settings['rematch']}",
                    "rematch_exists",
                    409,
                )
            body = {
                "game": room.game.info.name,
                "options": dict(room.game.options),
                "seats": [
                    {"kind": s.kind, "bot": s.bot} if s.kind == "bot" else {"kind": "human"}
                    for s in room.seats
                ],
                "clock": room.settings.get("clock"),
                "bot_delay": room.settings.get("bot_delay", 0.0),
                "pace": room.settings.get("pace", DEFAULT_PACE),
                "open_seats": room.settings.get("open_seats", False),
                "hints": room.settings.get("hints", False),
            }
            hashes = {s.seat: s.token_hash for s in room.seats if s.kind == "human"}
            created = await self.create(body, rematch_of=table_id, keep_tokens=hashes)
            room.settings["rematch"] = created["id"]
            changes = {"settings": room.settings}
            news = self.cluster.news(table_id, tbl=changes)
            await self.run_db(self.db.update_table, table_id, changes, None, news)
            room.broadcast()
            room.announce_rematch(created["id"])
        assert isinstance(token, str)
        for entry in created["seats"]:
            if entry["seat"] in mine:
                entry["link"] = seat_link(created["id"], entry["seat"], token)
        return created

    async def claim(self, table_id: str, seat_text: str, body: Any) -> dict[str, Any]:
        """Take a free person's seat of a table whose creator let anyone do so from the lobby."""
        room = await self.get(table_id)
        try:
            seat = int(seat_text)
        except ValueError:
            raise Refused(f"{excerpt(seat_text)} is not a seat number", "bad_seat") from None
        name = body.get("name") if isinstance(body, dict) else None
        if name is not None and not isinstance(name, str):
            raise Refused("a name is text", "bad_name")
        token = await room.claim(seat, check_name(name))
        return {"table": table_id, "seat": seat, "link": seat_link(table_id, seat, token)}

    async def replay(self, table_id: str, seat_text: str | None, token: str | None) -> bytes:
        """The replay as `seat` may see it, as JSON: built off the event loop, cached."""
        room = await self.get(table_id)
        seat = room.authenticate(seat_text, token)
        async with room.lock:
            steps = [(s.player, s.action) for s in room.state.history]
            finished = room.state.is_terminal()
        game, seed = room.game, room.seed
        key = (table_id, seat, len(steps))
        return await self.replays.get(key, lambda: build_replay(game, seed, steps, seat, finished))

    async def tick(self) -> None:
        """Check every clock once (the ticker calls this; tests call it after moving time).

        Every CLOCK_SAVE_EVERY seconds the running clocks are also stored, so that after a crash
        the person to move is charged for the time they used before it, and never for the time
        the server was down (a restarted clock resumes from what was stored).
        """
        save = self.now() - self.clocks_saved >= CLOCK_SAVE_EVERY
        if save:
            self.clocks_saved = self.now()
        # the process that drove a table may have died: take it over (one query for them all)
        unowned = [r for r in self.rooms.values() if r.status != "finished" and not r.owned]
        if unowned:
            leased = await self.cluster.lease_many([r.id for r in unowned])
            for room in unowned:
                if room.id in leased:
                    await self.take_lease(room)
        for room in list(self.rooms.values()):
            if room.status == "finished":
                continue
            if room.owned and room.clock is not None:
                await room.check_clock()
                if save and room.clock.running_for is not None:
                    await room.save_clock()


def parse_create(body: Any) -> dict[str, Any]:
    """Check a create-table body; Refused with what is wrong."""
    if not isinstance(body, dict):
        raise Refused("the request body must be a JSON object", "bad_request")
    name = body.get("game")
    if not isinstance(name, str):
        raise Refused(f"say which game: one of {', '.join(teocalli.games())}", "bad_game")
    seats = body.get("seats")
    if not isinstance(seats, list) or not seats:
        raise Refused('give the seats: a list of {"kind": "human"} or bots', "bad_seats")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise Refused("options must be a JSON object", "bad_options")
    for key, value in options.items():
        if len(key) > 40:
            raise Refused(f"there is no option {excerpt(key)}", "bad_options")
        check_option_value(key, value)
    if "players" in options and options["players"] != len(seats):
        raise Refused(
            f"{len(seats)} seats were given but options say {options['players']} players",
            "bad_options",
        )
    try:
        game = teocalli.load(name, **{**options, "players": len(seats)})
    except TeocalliError as err:
        raise Refused(clip(str(err)), "bad_game") from None
    except TypeError:
        raise Refused("option names must be text", "bad_options") from None
    clean_seats: list[dict[str, Any]] = []
    for k, seat in enumerate(seats):
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
            raise Refused(f'seat {k} must be {{"kind": "human"}} or a bot', "bad_seats")
        if seat["kind"] == "bot":
            spec = seat.get("bot", "greedy")
            if not isinstance(spec, str) or len(spec) > 100:
                raise Refused(f'seat {k}: name a bot such as "greedy"', "bad_seats")
            try:
                spec = check_bot_spec(spec, game)
            except (BotSpecError, TeocalliError) as err:
                raise Refused(f"seat {k}: {err}", "bad_seats") from None
            clean_seats.append({"kind": "bot", "bot": spec})
        else:
            name = seat.get("name")
            if name is not None and not isinstance(name, str):
                raise Refused(f"seat {k}: a name is text", "bad_name")
            clean_seats.append({"kind": "human", "name": check_name(name)})
    clock = body.get("clock")
    if clock is not None:
        if (
            not isinstance(clock, dict)
            or clock.get("mode") not in ("move", "bank")
            or not isinstance(clock.get("seconds"), int | float)
            or isinstance(clock.get("seconds"), bool)
            or not 1 <= clock["seconds"] <= 7 * 24 * 3600
        ):
            raise Refused(
                'a clock is {"mode": "move" or "bank", "seconds": 1 to 604800}',
                "bad_clock",
            )
        clock = {"mode": clock["mode"], "seconds": float(clock["seconds"])}
    seed = body.get("seed")
    if seed is not None:
        if game.info.information is not Information.PERFECT:
            raise Refused(
                f"{game.info.title} has hidden information: its deal is drawn in secret by the "
                "server, so a seed cannot be chosen",
                "bad_seed",
            )
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_CLIENT_SEED:
            raise Refused(f"a seed is a whole number from 0 to {MAX_CLIENT_SEED}", "bad_seed")
    pace = body.get("pace", DEFAULT_PACE)
    if not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE:
        raise Refused(f"pace is seconds from 0 to {MAX_PACE:.0f}", "bad_pace")
    open_seats = body.get("open_seats", False)
    if not isinstance(open_seats, bool):
        raise Refused("open_seats is true or false", "bad_open_seats")
    people = sum(1 for seat in clean_seats if seat["kind"] == "human")
    hints = body.get("hints", people <= 1)  # solo and practice tables: on; with others: off
    if not isinstance(hints, bool):
        raise Refused("hints is true or false", "bad_hints")
    bot_delay = body.get("bot_delay", 2.0)
    if (
        not isinstance(bot_delay, int | float)
        or isinstance(bot_delay, bool)
        or not 0 <= bot_delay <= 60
    ):
        raise Refused("bot_delay is seconds from 0 to 60", "bad_bot_delay")
    return {
        "game": game,
        "seats": clean_seats,
        "clock": clock,
        "seed": seed,
        "bot_delay": float(bot_delay),
        "pace": float(pace),
        "open_seats": open_seats,
        "hints": hints,
    }


SEAT_NEWS = ("kind", "bot", "token_hash", "taken", "name", "handed_to", "clock_remaining")
"""A new table's seat fields in its news."""


def new_table_news(row: TableRow, seats: list[SeatRow]) -> dict[str, Any]:
    """A new table's row and seats as news, for the other processes to build it with no read.

    It carries the seed, as the row does: whoever can listen on the database can read it too
    (see "Threat model" in docs/server.md)."""
    return {
        "game": row.game,
        "options": row.options,
        "seed": str(row.seed),
        "status": row.status,
        "created": row.created.isoformat(),
        "settings": row.settings,
        "clock_running_for": row.clock_running_for,
        "seats": [{f: getattr(seat, f) for f in SEAT_NEWS} for seat in seats],
    }


def seat_link(table_id: str, seat: int, token: str) -> str:
    """A person's share link: the token in the fragment, which browsers never send to servers."""
    return f"/table/{table_id}?seat={seat}#token={token}"


def damaged_summary(table_id: str, reason: str) -> dict[str, Any]:
    """A damaged table's lobby entry: what it is and why it cannot be played."""
    return {"id": table_id, "status": "damaged", "damaged": reason, "seats": []}


def build_replay(
    game: Game, seed: int, steps: list[tuple[int, Any]], seat: int | None, finished: bool
) -> bytes:
    """Every frame of a table as `seat` sees it, as JSON bytes (run in a worker thread).

    The seed is included only once the game is over: before that it would give the deal away.
    """
    frames: list[dict[str, Any]] = []
    state = game.new_state(seed)
    decisions: list[Decision | None] = []
    for k in range(len(steps) + 1):
        if k:
            player, action = steps[k - 1]
            decisions.append(state.decision())
            state.apply(action, player)
        frames.append(
            {"step": k, "view": state.view(seat), "log": visible_log(state, decisions, seat)}
        )
    data: dict[str, Any] = {"game": game.info.name, "options": dict(game.options), "frames": frames}
    if finished:
        data["seed"] = str(seed)
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode()
