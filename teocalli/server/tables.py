"""Every table in memory: rebuilt from the database at start-up, created, rematched, replayed.

The `Manager` owns the rooms (see room.py) and the database; nothing about a game is kept only
in memory: a room is always rebuilt from seed + stored steps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread

import teocalli
from teocalli.agents import make_agent
from teocalli.core import Decision, Game, TeocalliError

from .bots import BotPool
from .db import Database, SeatRow, StoredTable, TableRow, now_utc
from .room import MAX_SEED, Refused, Room, Seat, visible_log
from .tokens import check_token, hash_token, new_table_id, new_token

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
        self.tasks: set[asyncio.Task[None]] = set()
        self.db_limiter = anyio.CapacityLimiter(db_threads)

    async def run_db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking database call in a worker thread (never on the event loop)."""

        def call() -> Any:
            return fn(*args, **kwargs)

        return await anyio.to_thread.run_sync(call, limiter=self.db_limiter)

    async def start(self) -> None:
        """Rebuild every unfinished table from the database and restart its bots and clock."""
        stored = await self.run_db(self.db.load_unfinished)
        for item in stored:
            try:
                room = self._build(item)
            except TeocalliError:
                log.exception("table %s cannot be rebuilt; it stays in the database", item.row.id)
                continue
            self.rooms[room.id] = room
            async with room.lock:
                room.kick()

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _build(self, item: StoredTable) -> Room:
        row = item.row
        game = teocalli.load(row.game, **row.options)
        state = game.new_state(row.seed)
        decisions: list[Decision | None] = []
        for player, action in item.steps:
            decisions.append(state.decision())
            state.apply(action, player)
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
            room._update_clock(state)
        return room

    async def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        item = await self.run_db(self.db.load, table_id) if len(table_id) <= 32 else None
        if item is None:
            raise Refused(f"there is no table {table_id!r}", "unknown_table", 404)
        room = self.rooms.get(table_id) or self._build(item)
        self.rooms[table_id] = room
        return room

    def lobby(self) -> list[dict[str, Any]]:
        rooms = [r for r in self.rooms.values() if r.status != "finished"]
        rooms.sort(key=lambda r: r.created, reverse=True)
        return [r.summary() for r in rooms]

    async def create(self, body: Any, rematch_of: str | None = None) -> dict[str, Any]:
        """Create a table from a request body; the response carries each person's share link."""
        spec = parse_create(body)
        game: Game = spec["game"]
        seed = spec["seed"] if spec["seed"] is not None else secrets.randbelow(MAX_SEED)
        table_id = new_table_id()
        while table_id in self.rooms:
            table_id = new_table_id()
        tokens: dict[int, str] = {}
        seat_rows: list[SeatRow] = []
        for k, seat in enumerate(spec["seats"]):
            token_hash = None
            if seat["kind"] == "human":
                tokens[k] = new_token()
                token_hash = hash_token(tokens[k])
            seat_rows.append(
                SeatRow(
                    table_id=table_id,
                    seat=k,
                    kind=seat["kind"],
                    bot=seat.get("bot"),
                    token_hash=token_hash,
                    taken=False,
                    name=None,
                    handed_to=None,
                    clock_remaining=spec["clock"]["seconds"] if spec["clock"] else None,
                )
            )
        settings: dict[str, Any] = {
            "clock": spec["clock"],
            "bot_delay": spec["bot_delay"],
            "rematch_of": rematch_of,
            "rematch": None,
        }
        row = TableRow(
            id=table_id,
            game=game.info.name,
            options=dict(game.options),
            seed=seed,
            status="running" if not tokens else "open",
            created=now_utc(),
            finished=None,
            settings=settings,
            clock_running_for=None,
            outcome=None,
        )
        await self.run_db(self.db.create_table, row, seat_rows)
        room = self._build(StoredTable(row, seat_rows, []))
        self.rooms[table_id] = room
        async with room.lock:
            if room.clock is not None:
                await self.run_db(
                    self.db.update_table, table_id, {"clock_running_for": room.clock.running_for}
                )
            room.kick()

        def link(k: int) -> str | None:
            return f"/table/{table_id}?seat={k}#token={tokens[k]}" if k in tokens else None

        return {
            "id": table_id,
            "seats": [
                {
                    "seat": k,
                    "kind": s.kind,
                    "link": f"/table/{table_id}?seat={k}#token={tokens[k]}"
                    if k in tokens
                    else None,
                }
                for k, s in enumerate(seat_rows)
            ],
            "spectate": f"/table/{table_id}",
        }

    async def rematch(self, table_id: str, token: Any) -> dict[str, Any]:
        room = await self.get(table_id)
        if not isinstance(token, str) or not any(
            check_token(token, s.token_hash) for s in room.seats
        ):
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
            }
            created = await self.create(body, rematch_of=table_id)
            room.settings["rematch"] = created["id"]
            await self.run_db(self.db.update_table, table_id, {"settings": room.settings})
            room.broadcast()
        return created

    async def replay(self, table_id: str, seat_text: str | None, token: str | None) -> Any:
        room = await self.get(table_id)
        seat = room.authenticate(seat_text, token)
        async with room.lock:
            steps = [(s.player, s.action) for s in room.state.history]
            game = room.game
        frames: list[dict[str, Any]] = []
        state = game.new_state(room.seed)
        decisions: list[Decision | None] = []
        for k in range(len(steps) + 1):
            if k:
                player, action = steps[k - 1]
                decisions.append(state.decision())
                state.apply(action, player)
            frames.append(
                {"step": k, "view": state.view(seat), "log": visible_log(state, decisions, seat)}
            )
        return {"game": game.info.name, "options": dict(game.options), "frames": frames}

    async def tick(self) -> None:
        """Check every clock once (the ticker calls this; tests call it after moving time)."""
        for room in list(self.rooms.values()):
            if room.clock is not None and room.status != "finished":
                await room.check_clock()


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
    if "players" in options and options["players"] != len(seats):
        raise Refused(
            f"{len(seats)} seats were given but options say {options['players']} players",
            "bad_options",
        )
    try:
        game = teocalli.load(name, **{**options, "players": len(seats)})
    except TeocalliError as err:
        raise Refused(str(err), "bad_game") from None
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
                make_agent(spec, game, 0)
            except TeocalliError as err:
                raise Refused(f"seat {k}: {err}", "bad_seats") from None
            clean_seats.append({"kind": "bot", "bot": spec})
        else:
            clean_seats.append({"kind": "human"})
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
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED
    ):
        raise Refused(f"a seed is a whole number from 0 to {MAX_SEED}", "bad_seed")
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
    }
