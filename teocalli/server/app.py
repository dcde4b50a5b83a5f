"""The Starlette app: lobby and table pages, the JSON API and the WebSocket where people play.

`create_app(database_url)` wires the database (migrated at start-up), the bot pool and the rooms;
the lifespan rebuilds every unfinished table, so a restarted server resumes where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import teocalli
from teocalli.agents import AGENTS

from .bots import BotPool
from .db import Database
from .messages import (
    MAX_MESSAGE_BYTES,
    Act,
    HandToBot,
    MessageError,
    Ping,
    TakeBack,
    Undo,
    parse_client_message,
)
from .room import Connection, Refused, Room
from .tables import Manager

log = logging.getLogger("teocalli.server")

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY_BYTES = 16_384
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


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


async def read_json(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise Refused(f"the request body is too long (at most {MAX_BODY_BYTES} bytes)", "too_large")
    if not body:
        return {}
    try:
        return json.loads(body)
    except ValueError:
        raise Refused("the request body is not valid JSON", "bad_json") from None


def create_app(
    database_url: str = "teocalli.sqlite3",
    *,
    bot_workers: int = 1,
    think_cap: float = 10.0,
    now: Callable[[], float] = time.monotonic,
    tick_seconds: float | None = 0.25,
    web_root: Path = WEB,
) -> Starlette:
    """The web table on a database (any SQLAlchemy URL, or a SQLite file path).

    `bot_workers=0` runs bots in threads instead of processes (quick to start, for tests);
    `now` is the clocks' time source and `tick_seconds=None` turns the clock ticker off, so
    tests move time by hand and call `app.state.manager.tick()`.
    """
    db = Database(database_url)
    manager = Manager(db, BotPool(bot_workers, think_cap), now, 1 if db.is_sqlite else 8)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        ticker = asyncio.create_task(_tick(manager, tick_seconds)) if tick_seconds else None
        try:
            yield
        finally:
            if ticker is not None:
                ticker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await ticker
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

    async def api_games(_request: Request) -> Response:
        return JSONResponse(games_catalogue())

    async def api_tables(_request: Request) -> Response:
        return JSONResponse(manager.lobby())

    async def api_create(request: Request) -> Response:
        return JSONResponse(await manager.create(await read_json(request)), status_code=201)

    async def api_table(request: Request) -> Response:
        room = await manager.get(request.path_params["table_id"])
        return JSONResponse(room.summary())

    async def api_rematch(request: Request) -> Response:
        body = await read_json(request)
        token = body.get("token") if isinstance(body, dict) else None
        created = await manager.rematch(request.path_params["table_id"], token)
        return JSONResponse(created, status_code=201)

    async def api_replay(request: Request) -> Response:
        q = request.query_params
        data = await manager.replay(request.path_params["table_id"], q.get("seat"), q.get("token"))
        return JSONResponse(data)

    async def ws_table(websocket: WebSocket) -> None:
        await websocket.accept()
        q = websocket.query_params
        try:
            room = await manager.get(websocket.path_params["table_id"])
            seat = room.authenticate(q.get("seat"), q.get("token"))
        except Refused as err:
            await websocket.send_json({"type": "error", "message": err.message, "code": err.code})
            await websocket.close(CLOSE_NOT_FOUND if err.status == 404 else CLOSE_FORBIDDEN)
            return
        conn = Connection(seat)
        sender = asyncio.create_task(_send_loop(websocket, conn))
        try:
            await room.join(conn, q.get("name"))
            await _receive_loop(websocket, room, conn)
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def refused(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return error(exc.message, exc.status)

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table_id}", page("table.html")),
        Route("/howto/{game}", howto),
        Route("/api/games", api_games),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/rematch", api_rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", api_replay),
        WebSocketRoute("/ws/tables/{table_id}", ws_table),
        Mount("/static", StaticFiles(directory=web_root, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={Refused: refused})
    app.state.manager = manager
    app.state.db = db
    return app


async def _tick(manager: Manager, seconds: float) -> None:
    """Check the clocks a few times a second, for the life of the server."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await manager.tick()
        except Exception:
            log.exception("clock tick failed")


async def _send_loop(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages in order; a slow client delays only itself."""
    while True:
        message = await conn.queue.get()
        await websocket.send_json(message)


async def _receive_loop(websocket: WebSocket, room: Room, conn: Connection) -> None:
    """Read client messages; each refused one gets an error reply and changes nothing."""
    while True:
        raw = await _receive_text(websocket)
        try:
            msg = parse_client_message(raw)
            if isinstance(msg, Ping):
                conn.queue.put_nowait({"type": "pong"})
            elif isinstance(msg, Act):
                await room.act(conn.seat, msg.action, msg.step)
            elif isinstance(msg, Undo):
                await room.undo(conn.seat)
            elif isinstance(msg, HandToBot):
                await room.hand_to_bot(conn.seat, msg.seat, msg.bot)
            elif isinstance(msg, TakeBack):
                await room.take_back(conn.seat)
        except MessageError as err:
            conn.queue.put_nowait({"type": "error", "message": str(err), "code": err.code})
        except Refused as err:
            conn.queue.put_nowait({"type": "error", "message": err.message, "code": err.code})


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
