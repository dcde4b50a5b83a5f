"""Fixtures for the web table: every test runs once on SQLite and once on a real PostgreSQL.

The PostgreSQL server is started by the tests themselves (initdb + pg_ctl from Debian's
postgresql package, in a temporary directory, on a free port); each test gets a fresh database.
A machine without the package fails here, loudly: `make test` installs it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from teocalli.server import create_app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class FakeTime:
    """A clock the test moves by hand: nothing depends on how fast the machine is."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail(
            "PostgreSQL is not installed: `apt-get install -y postgresql` (make test does it)"
        )
    return Path(found[-1]).parent


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL server; yields the URL of its maintenance database."""
    bindir = _pg_bin()
    root = Path(tempfile.mkdtemp(prefix="teocalli-pg-"))
    who: dict[str, Any] = {}
    if os.geteuid() == 0:  # initdb refuses to run as root: run the server as 'postgres'
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        who = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}

    def run(*args: Any) -> None:
        done = subprocess.run(args, check=False, capture_output=True, text=True, **who)
        if done.returncode:
            pytest.fail(f"{args[0]} failed: {done.stderr or done.stdout}")

    data = root / "data"
    port = free_port()
    run(bindir / "initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync")
    run(
        bindir / "pg_ctl", "-D", data, "-l", root / "log", "-w", "-t", "60", "start",
        "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off",
    )  # fmt: skip
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(bindir / "pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'teocalli.sqlite3'}"
        return
    base: str = request.getfixturevalue("postgres_server")
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    try:
        yield base.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def serve(database_url: str, fake_time: FakeTime) -> Iterator[Callable[..., TestClient]]:
    """Start the app (in process, bots in threads, clocks on fake time) as often as a test likes.

    Each call starts a new app on the same database, stopping the previous one: a restart.
    """
    stack = contextlib.ExitStack()
    current: list[contextlib.ExitStack] = []

    def start(**kwargs: Any) -> TestClient:
        if current:
            current.pop().close()
        inner = contextlib.ExitStack()
        options = {"bot_workers": 0, "now": fake_time, "tick_seconds": None, **kwargs}
        client = inner.enter_context(TestClient(create_app(database_url, **options)))
        current.append(inner)
        return client

    with stack:
        yield start
        if current:
            current.pop().close()


class Kit:
    """Small helpers every server test uses: create a table, open sockets, read messages."""

    @staticmethod
    def create(client: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
        """Create a table; seats are "human" or bot specs. Adds "tokens": {seat: token}."""
        body = {
            "game": game,
            "seats": [
                {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats
            ],
            "pace": 0,  # bots answer at once: no test waits for people's eyes
            **extra,
        }
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        data["tokens"] = {
            s["seat"]: s["link"].split("#token=")[1] for s in data["seats"] if s["link"]
        }
        return data

    @staticmethod
    def connect(client: TestClient, table_id: str, seat: int | None = None, token: str = "") -> Any:
        query = "" if seat is None else f"?seat={seat}&token={token}"
        return client.websocket_connect(f"/ws/tables/{table_id}{query}")

    @staticmethod
    def receive(ws: Any, timeout: float = 60.0) -> dict[str, Any]:
        """The next message, failing (not hanging) if none comes within `timeout`."""
        import json

        import anyio

        async def wait() -> Any:
            with anyio.fail_after(timeout):
                return await ws._send_rx.receive()

        message = ws.portal.call(wait)
        if message["type"] == "websocket.close":
            return {"type": "closed", "code": message.get("code")}
        data: dict[str, Any] = json.loads(message["text"])
        return data

    @classmethod
    def until(cls, ws: Any, pred: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        """Messages up to and including the first that satisfies `pred`."""
        seen = []
        while True:
            msg = cls.receive(ws)
            seen.append(msg)
            if pred(msg):
                return seen
            assert msg["type"] != "closed", seen

    @classmethod
    def state_at(cls, ws: Any, step: int) -> dict[str, Any]:
        """Read until the state message of `step`."""
        return cls.until(ws, lambda m: m["type"] == "state" and m["step"] == step)[-1]

    @classmethod
    def play_out(cls, ws: Any, first: dict[str, Any]) -> list[dict[str, Any]]:
        """Play the first legal move whenever this seat may act, until the game is over."""
        seen = [first]
        msg = first
        while msg["type"] != "over":
            if msg["type"] == "state" and msg["legal"]:
                ws.send_json({"type": "act", "action": msg["legal"][0], "step": msg["step"]})
            msg = cls.receive(ws)
            assert msg["type"] not in ("error", "closed"), msg
            seen.append(msg)
        return seen


@pytest.fixture
def kit() -> type[Kit]:
    return Kit


# --- a real server process ---------------------------------------------------------------------


class Server:
    """`teocalli serve` as a subprocess on a free port."""

    def __init__(self, database_url: str, port: int, log: Path, *extra: str) -> None:
        self.url = database_url
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        exe = Path(sys.executable).with_name("teocalli")
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [exe, "serve", "--port", str(port), "--database", database_url, *extra],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Poll until it answers (or give up after a minute, or if it died)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, "the server died at start-up"
            try:
                if httpx.get(self.base + "/api/tables", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        pytest.fail("the server did not start within a minute")

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    started: list[Server] = []

    def start(database_url: str, port: int | None = None, *extra: str) -> Server:
        server = Server(database_url, port or free_port(), tmp_path / "server.log", *extra)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.proc.poll() is None:
            server.kill()
    log = tmp_path / "server.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    errors = [line for line in text.splitlines() if "ERROR" in line or "Traceback" in line]
    assert not errors, f"the server logged errors:\n{text[-4000:]}"
