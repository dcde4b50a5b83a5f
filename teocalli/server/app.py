"""The Starlette app: lobby and table pages, the JSON API and the WebSocket where people play.

`create_app(database_url)` wires the database (migrated at start-up), the bot pool and the rooms;
the lifespan rebuilds every unfinished table, so a restarted server resumes where it was.
Every input is read with a limit (inputs.py), every anonymous request is rate-limited per client
address (ratelimit.py), and every connection's outgoing messages are bounded (outbox.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import teocalli
from teocalli.agents import AGENTS

from .bots import BotPool
from .db import Database
from .errors import Refused
from .inputs import check_name, clip, excerpt, read_json
from .messages import (
    MAX_MESSAGE_BYTES,
    Act,
    HandToBot,
    Hint,
    Judge,
    MessageError,
    Ping,
    TakeBack,
    Undo,
    parse_client_message,
)
from .metrics import Metrics
from .ratelimit import DEFAULT_LIMITS, Limit, RateLimiter
from .room import Connection, Room
from .tables import LOBBY_PAGE, MAX_LOBBY_PAGE, Manager

log = logging.getLogger("teocalli.server")

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_URL_CHARS = 2048
"""Longer request targets are refused (414) before routing: no page needs more."""
MAX_CONNECTIONS_PER_ADDRESS = 64
CLOSE_BAD_REQUEST = 4400
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_BEHIND = 4408
CLOSE_TOO_MANY = 4429


def error(message: str, status: int = 400, code: str | None = None) -> JSONResponse:
    body = {"error": clip(message)} | ({"code": code} if code else {})
    return JSONResponse(body, status_code=status)


def address(scope_client: Any) -> str:
    """The client's address as the rate limits see it (behind a proxy, see docs/server.md)."""
    return str(scope_client.host) if scope_client is not None else "unknown"


def games_catalogue() -> list[dict[str, Any]]:
    """What the lobby needs to offer a game: players, options, named variants, bots."""
    out = []
    for name in teocalli.games():
        info = teocalli.core.game_class(name).info
        out.append(
            {
                "name": name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": info.default_players,
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "help": o.help,
                        "choices": list(o.choices) if o.choices is not None else None,
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                    }
                    for o in info.options
                ],
                "variants": {k: dict(v) for k, v in info.variants.items()},
                "bots": sorted(AGENTS),
            }
        )
    return out


def page_query(request: Request) -> tuple[int, int]:
    """`?limit=&offset=` of a paginated list, checked."""
    q = request.query_params
    try:
        limit = int(q.get("limit", LOBBY_PAGE))
        offset = int(q.get("offset", 0))
    except ValueError:
        raise Refused("limit and offset are whole numbers", "bad_page") from None
    if not 1 <= limit <= MAX_LOBBY_PAGE or not 0 <= offset <= 10**9:
        raise Refused(f"limit is 1 to {MAX_LOBBY_PAGE} and offset 0 or more", "bad_page")
    return limit, offset


def create_app(
    database_url: str = "teocalli.sqlite3",
    *,
    bot_workers: int = 1,
    think_cap: float = 10.0,
    now: Callable[[], float] = time.monotonic,
    tick_seconds: float | None = 0.25,
    web_root: Path = WEB,
    rate_limits: dict[str, Limit] | None = None,
    connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
    freeze_gc: bool = False,
) -> Starlette:
    """The web table on a database (any SQLAlchemy URL, or a SQLite file path).

    `bot_workers=0` runs bots in threads instead of processes (quick to start, for tests);
    `now` is the clocks' (and rate limits') time source and `tick_seconds=None` turns the clock
    ticker off, so tests move time by hand and call `app.state.manager.tick()`.
    `rate_limits` replaces the default per-address limits (ratelimit.DEFAULT_LIMITS) and
    `connections_per_address` the cap on one address's open WebSockets.
    `freeze_gc` (`teocalli serve`) tunes the garbage collector for the event loop's pauses
    (`tune_gc`).
    """
    db = Database(database_url)
    manager = Manager(db, BotPool(bot_workers, think_cap), now, 1 if db.is_sqlite else 8)
    limiter = RateLimiter(DEFAULT_LIMITS if rate_limits is None else rate_limits, now)
    sockets: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        if freeze_gc:
            tune_gc()
        ticker = asyncio.create_task(_tick(manager, tick_seconds)) if tick_seconds else None
        watcher = asyncio.create_task(manager.metrics.watch())
        try:
            yield
        finally:
            for task in (ticker, watcher):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            await manager.stop()
            manager.pool.close()
            db.close()

    def page(name: str) -> Callable[[Request], Any]:
        async def endpoint(_request: Request) -> Response:
            path = web_root / name
            if not path.is_file():
                return error(f"the page {name} is not there", 404)
            return FileResponse(path)

        return endpoint

    async def howto(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in teocalli.games():
            return error(f"there is no game {game!r}", 404)
        for path in (web_root / "howto" / f"{game}.html", web_root / "howto.html"):
            if path.is_file():
                return FileResponse(path)
        return error("the how-to-play pages are not there", 404)

    async def api_games(request: Request) -> Response:
        limiter.take("read", address(request.client))
        return JSONResponse(games_catalogue())

    async def api_tables(request: Request) -> Response:
        limiter.take("read", address(request.client))
        limit, offset = page_query(request)
        page, total = manager.lobby(limit, offset)
        headers = {"X-Total-Count": str(total)}
        if offset + limit < total:
            headers["Link"] = f'</api/tables?limit={limit}&offset={offset + limit}>; rel="next"'
        return JSONResponse(page, headers=headers)

    async def api_create(request: Request) -> Response:
        limiter.take("create", address(request.client))
        return JSONResponse(await manager.create(await read_json(request)), status_code=201)

    async def api_table(request: Request) -> Response:
        limiter.take("read", address(request.client))
        room = await manager.get(request.path_params["table_id"])
        return JSONResponse(room.summary())

    async def api_rematch(request: Request) -> Response:
        limiter.take("create", address(request.client))
        body = await read_json(request)
        token = body.get("token") if isinstance(body, dict) else None
        created = await manager.rematch(request.path_params["table_id"], token)
        return JSONResponse(created, status_code=201)

    async def api_claim(request: Request) -> Response:
        limiter.take("create", address(request.client))
        body = await read_json(request)
        p = request.path_params
        return JSONResponse(await manager.claim(p["table_id"], p["seat"], body), status_code=201)

    async def api_replay(request: Request) -> Response:
        limiter.take("read", address(request.client))
        q = request.query_params
        data = await manager.replay(request.path_params["table_id"], q.get("seat"), q.get("token"))
        return Response(data, media_type="application/json")

    async def ws_table(websocket: WebSocket) -> None:
        await websocket.accept()
        q = websocket.query_params
        where = address(websocket.client)
        try:
            limiter.take("connect", where)
            if sockets.get(where, 0) >= connections_per_address:
                raise Refused(
                    f"at most {connections_per_address} connections from one address",
                    "too_many_connections",
                    429,
                )
            name = check_name(q.get("name"))
            room = await manager.get(websocket.path_params["table_id"])
            seat = room.authenticate(q.get("seat"), q.get("token"))
        except Refused as err:
            await websocket.send_json({"type": "error", "message": err.message, "code": err.code})
            await websocket.close(_close_code(err))
            return
        sockets[where] = sockets.get(where, 0) + 1
        conn = Connection(seat, token=q.get("token") if seat is not None else None)
        sender = asyncio.create_task(_send_loop(websocket, conn, manager.metrics))
        try:
            await room.join(conn, name)
            await _receive_loop(websocket, room, conn)
            # the receive loop returns only when the client fell too far behind
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(CLOSE_BEHIND), 2)
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            sockets[where] -= 1
            if not sockets[where]:
                del sockets[where]

    async def metrics(request: Request) -> Response:
        """The server's own timings and a few gauges, in Prometheus's text format."""
        limiter.take("read", address(request.client))
        gauges: dict[str, float] = {
            "teocalli_tables": len(manager.rooms),
            "teocalli_connections": sum(len(r.connections) for r in manager.rooms.values()),
        }
        return Response(
            manager.metrics.render(gauges), media_type="text/plain; version=0.0.4; charset=utf-8"
        )

    async def refused(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return error(exc.message, exc.status, exc.code)

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (no such route, wrong method) as JSON with a reason too."""
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return error(f"there is no page {excerpt(request.url.path)}", 404, "not_found")
        return error(str(exc.detail), exc.status_code, "bad_request")

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table_id}", page("table.html")),
        Route("/howto/{game}", howto),
        Route("/api/games", api_games),
        Route("/metrics", metrics),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", api_replay),
        Route("/api/tables/{table_id}/seats/{seat}/claim", api_claim, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", ws_table),
        Mount("/static", StaticFiles(directory=web_root, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={Refused: refused, HTTPException: http_error},
        middleware=[Middleware(UrlLimit)],
    )
    app.state.manager = manager
    app.state.db = db
    app.state.limiter = limiter
    return app


GC_YOUNG_THRESHOLD = 10_000
"""Allocations between two collections of the youngest generation (Python's default: 700)."""


def tune_gc() -> None:
    """Make the garbage collector's pauses of the event loop rarer (a server's start-up).

    A full collection stops the event loop for as long as it scans every tracked object: about
    100 000 right after start-up (modules, SQLAlchemy, Alembic, the engines' tables), tens of
    ms of CPU. `gc.freeze()` once the tables are loaded moves them all into the permanent
    generation, never scanned again. Full collections come every 100 young ones (Python's
    thresholds 10 x 10), so a larger young threshold makes them ten times rarer too; a young
    collection of 10 000 objects stays well below a millisecond."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


SERVE_SETTINGS = "TEOCALLI_SERVE"
"""The environment variable through which `teocalli serve --workers N` hands its settings to
each worker process."""


def app_from_environment() -> Starlette:
    """The app of one worker process of `teocalli serve --workers N` (uvicorn's factory).

    The worker dies with the process that started it (`prctl(PR_SET_PDEATHSIG)`), so a
    SIGKILLed server leaves no worker behind, and with them no bot workers either."""
    import json
    import os

    die_with_parent()
    settings = json.loads(os.environ[SERVE_SETTINGS])
    limits = {k: Limit(int(b), float(e)) for k, (b, e) in settings["rate_limits"].items()}
    return create_app(
        settings["database"],
        bot_workers=settings["bot_workers"],
        think_cap=settings["think_cap"],
        rate_limits=limits,
        connections_per_address=settings["connections_per_address"],
        freeze_gc=True,
    )


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (elsewhere: nothing)."""
    import ctypes
    import os
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # 1 = PR_SET_PDEATHSIG
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(0)


class UrlLimit:
    """Refuse over-long request targets (414) before any routing or parsing happens."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            length = len(scope.get("raw_path") or scope["path"]) + len(
                scope.get("query_string", b"")
            )
            if length > MAX_URL_CHARS:
                message = f"the address is too long ({length} characters; at most {MAX_URL_CHARS})"
                if scope["type"] == "http":
                    await error(message, 414, "uri_too_long")(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": CLOSE_BAD_REQUEST})
                return
        await self.app(scope, receive, send)


def _close_code(err: Refused) -> int:
    if err.status == 404:
        return CLOSE_NOT_FOUND
    if err.status == 429:
        return CLOSE_TOO_MANY
    if err.status == 400:
        return CLOSE_BAD_REQUEST
    return CLOSE_FORBIDDEN


async def _tick(manager: Manager, seconds: float) -> None:
    """Check the clocks a few times a second, for the life of the server."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await manager.tick()
        except Exception:
            log.exception("clock tick failed")


async def _send_loop(websocket: WebSocket, conn: Connection, metrics: Metrics) -> None:
    """Send a connection's queued messages in order; a slow client delays only itself.

    The first state after a person's own action is its acknowledgement: timed (metrics.py)."""
    while True:
        message = await conn.outbox.get()
        if message is None:
            return
        await websocket.send_json(message)
        if conn.ack is not None and message.get("type") == "state":
            read_at, step = conn.ack
            if message["step"] > step:
                metrics.ack.observe(time.perf_counter() - read_at)
                conn.ack = None


async def _receive_loop(websocket: WebSocket, room: Room, conn: Connection) -> None:
    """Read client messages; each refused one gets an error reply and changes nothing.

    Returns when the client has fallen too far behind (its outbox overflowed)."""
    metrics = room.manager.metrics
    while not conn.outbox.overflowed:
        raw = await _receive_text(websocket)
        read_at = time.perf_counter()
        try:
            msg = parse_client_message(raw)
            if isinstance(msg, Ping):
                conn.outbox.put({"type": "pong"})
            elif isinstance(msg, Act):
                conn.ack = (read_at, msg.step)
                try:
                    await room.act(conn.seat, msg.action, msg.step)
                except Refused:
                    conn.ack = None
                    raise
                metrics.action.observe(time.perf_counter() - read_at, "person")
            elif isinstance(msg, Undo):
                await room.undo(conn.seat)
            elif isinstance(msg, HandToBot):
                await room.hand_to_bot(conn.seat, msg.seat, msg.bot)
            elif isinstance(msg, TakeBack):
                await room.take_back(conn.seat)
            elif isinstance(msg, Judge):
                conn.outbox.put(await room.judge(conn, msg.action, msg.step))
            elif isinstance(msg, Hint):
                conn.outbox.put(await room.hint(conn.seat))
        except MessageError as err:
            conn.outbox.put({"type": "error", "message": clip(str(err)), "code": err.code})
        except Refused as err:
            conn.outbox.put({"type": "error", "message": clip(err.message), "code": err.code})


_TOO_LONG = "x" * (MAX_MESSAGE_BYTES + 1)


async def _receive_text(websocket: WebSocket) -> str:
    """The next text frame (a binary one is read as UTF-8, refused later if it is not JSON)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        text: str = message["text"]
        return text
    data = message.get("bytes") or b""
    if len(data) > MAX_MESSAGE_BYTES:
        return _TOO_LONG
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "\x00not utf-8"
