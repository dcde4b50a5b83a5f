"""Several server processes on one PostgreSQL: any process serves any table, every step is
stored once, bots move exactly once, and a killed process loses nothing (issue 18)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

import teocalli

from .conftest import Server, free_port

OPEN = ["--rate-limit", "create=1000/0.01", "--rate-limit", "connect=1000/0.01"]


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:
    name = f"c_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    try:
        yield postgres_server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


@pytest.fixture
def three(pg_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    servers = [Server(pg_url, free_port(), tmp_path / f"server{k}.log", *OPEN) for k in range(3)]
    yield servers
    for server in servers:
        if server.proc.poll() is None:
            server.kill()
    for k in range(3):
        text = (tmp_path / f"server{k}.log").read_text(errors="replace")
        assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


def recv(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return data


def state_at(ws: ClientConnection, step: int) -> dict[str, Any]:
    while True:
        msg = recv(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["step"] >= step:
            return msg


def socket_url(server: Server, tid: str, seat: int | None = None, token: str = "") -> str:
    query = "" if seat is None else f"?seat={seat}&token={token}"
    return f"{server.ws_base}/ws/tables/{tid}{query}"


def create(server: Server, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": "aztack", "seats": seats, "pace": 0, **extra}
    r = httpx.post(server.base + "/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["tokens"] = {s["seat"]: s["link"].split("#token=")[1] for s in data["seats"] if s["link"]}
    return data


def stored(url: str, tid: str) -> tuple[list[tuple[int, int, str]], dict[str, Any] | None]:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text('SELECT "index", player, action FROM steps WHERE table_id = :t ORDER BY 1'),
            {"t": tid},
        ).all()
        outcome = conn.execute(
            sa.text("SELECT outcome FROM tables WHERE id = :t"), {"t": tid}
        ).scalar()
    engine.dispose()
    return [tuple(r) for r in rows], outcome


def test_people_on_different_processes_see_each_others_moves(three: list[Server]) -> None:
    a, b, c = three
    table = create(a, [{"kind": "human"}, {"kind": "human"}], seed=3)
    tid, tokens = table["id"], table["tokens"]
    with (
        connect(socket_url(a, tid, 0, tokens[0])) as ws0,
        connect(socket_url(b, tid, 1, tokens[1])) as ws1,
        connect(socket_url(c, tid)) as watcher,
    ):
        socks = {0: ws0, 1: ws1}
        latest = {0: recv(ws0), 1: recv(ws1)}
        for step in range(6):
            mover = latest[0]["view"]["to_move"][0]
            msg = latest[mover] if latest[mover]["step"] == step else state_at(socks[mover], step)
            socks[mover].send(json.dumps({"type": "act", "action": msg["legal"][0], "step": step}))
            latest = {0: state_at(ws0, step + 1), 1: state_at(ws1, step + 1)}
            assert latest[0]["log"] == latest[1]["log"]
        seen = state_at(watcher, 6)
        assert seen["log"] == latest[0]["log"]
    steps, _ = stored(a.url, tid)
    assert [s[0] for s in steps] == list(range(6))
    # the watcher's process played each step from its news (no reload); the two acting
    # processes timed the six actions and their acknowledgements between them
    assert counts(c, "teocalli_news_seconds", "step") == 6
    # it built the table from the news of its creation and took both seats' news (each person
    # taking their seat) as they came: no process read the table again
    assert counts(c, "teocalli_news_seconds", "change") == 2
    assert sum(counts(s, "teocalli_news_seconds", "reload") for s in three) == 0
    assert sum(counts(s, "teocalli_action_seconds", "person") for s in (a, b)) == 6
    assert sum(counts(s, "teocalli_ack_seconds") for s in (a, b)) == 6
    assert sum(counts(s, "teocalli_store_seconds") for s in three) == 6


def counts(server: Server, name: str, label: str = "") -> float:
    """How many observations a histogram of `server`'s own /metrics holds."""
    from teocalli.server.metrics import parse

    text = httpx.get(server.base + "/metrics", timeout=30).text
    found = [b[-1][1] for (n, _pid, v), b in parse(text).items() if (n, v) == (name, label)]
    return sum(found)


def test_bot_tables_across_processes_store_every_step_exactly_once(
    three: list[Server],
) -> None:
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    tables = [create(three[k % 3], bots)["id"] for k in range(6)]
    deadline = time.monotonic() + 240
    pending = set(tables)
    while pending and time.monotonic() < deadline:  # a bounded wait for the games to end
        for tid in list(pending):
            summary = httpx.get(three[0].base + f"/api/tables/{tid}", timeout=30).json()
            if summary["status"] == "finished":
                pending.discard(tid)
        time.sleep(0.5)
    assert not pending, f"tables still playing: {pending}"
    game = teocalli.load("aztack", players=2)
    for tid in tables:
        steps, outcome = stored(three[0].url, tid)
        assert [s[0] for s in steps] == list(range(len(steps)))  # no gap, no index twice
        engine = sa.create_engine(three[0].url)
        with engine.connect() as conn:
            seed = int(
                conn.execute(sa.text("SELECT seed FROM tables WHERE id = :t"), {"t": tid}).scalar()
            )
        engine.dispose()
        state = game.replay(seed, [(p, a) for _, p, a in steps])
        assert state.is_terminal() and outcome == state.outcome().to_json()


def test_a_killed_process_loses_nothing_and_another_finishes_the_game(
    three: list[Server],
) -> None:
    a, b, _c = three
    table = create(a, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], seed=5)
    tid, token = table["id"], table["tokens"][0]
    acknowledged: dict[str, Any] = {}
    with connect(socket_url(a, tid, 0, token)) as ws:
        msg = recv(ws)
        played = 0
        while played < 3 and not msg["view"]["terminal"]:
            if msg["legal"]:
                ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "step": msg["step"]}))
                msg = state_at(ws, msg["step"] + 1)
                acknowledged = msg
                played += 1
            else:
                msg = recv(ws)
        a.kill()  # SIGKILL the process that holds the table's bots
    with connect(socket_url(b, tid, 0, token)) as ws:  # the same link, another process
        # b hears a's last steps from their news, which may still be on their way (a loaded
        # machine: seen once, b at step 5 of 7 for a moment): every acknowledged step arrives
        msg = state_at(ws, acknowledged["step"])
        assert msg["seat"] == 0
        assert msg["log"][: acknowledged["step"]] == acknowledged["log"]
        while True:  # the bots move on: another process took them over
            if msg["type"] == "state":
                if msg["view"]["terminal"]:
                    break
                if msg["legal"]:
                    act = {"type": "act", "action": msg["legal"][0], "step": msg["step"]}
                    ws.send(json.dumps(act))
            assert msg["type"] != "error" or msg["code"] == "stale", msg
            msg = recv(ws)
    steps, outcome = stored(b.url, tid)
    assert [s[0] for s in steps] == list(range(len(steps))) and outcome is not None


def test_a_seat_handed_to_a_bot_at_one_process_is_played_by_the_driving_one(
    three: list[Server],
) -> None:
    """The seat's news (handed to a bot) reaches the process that drives the table's bots,
    which plays the seat from then on, with no process reading the table again."""
    a, b, c = three
    table = create(a, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], seed=7)
    tid, token = table["id"], table["tokens"][0]
    with connect(socket_url(b, tid, 0, token)) as ws, connect(socket_url(c, tid)) as watcher:
        msg = recv(ws)
        ws.send(json.dumps({"type": "hand_to_bot", "bot": "greedy"}))
        while not (msg["type"] == "state" and msg["view"]["terminal"]):
            assert msg["type"] != "error", msg
            msg = recv(ws)
        seen = state_at(watcher, msg["step"])
        assert seen["table"]["seats"][0]["handed_to"] == "greedy"
        assert seen["log"] == msg["log"]
    steps, outcome = stored(a.url, tid)
    assert [s[0] for s in steps] == list(range(len(steps))) and outcome is not None
    assert sum(counts(s, "teocalli_news_seconds", "reload") for s in three) == 0
    # the bots' process (a, which created the table) heard the hand-over and acted on it
    assert counts(a, "teocalli_news_seconds", "change") >= 2  # the seat taken, then handed
    assert counts(a, "teocalli_action_seconds", "bot") == len(steps)


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            children = task / "children"
            if children.exists():
                for child in children.read_text().split():
                    if int(child) not in found:
                        found.add(int(child))
                        todo.append(int(child))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_workers_share_a_port_and_no_process_outlives_a_killed_server(
    pg_url: str, tmp_path: Path
) -> None:
    port = free_port()
    exe = Path(sys.executable).with_name("teocalli")
    log = (tmp_path / "workers.log").open("wb")
    command = [exe, "serve", "--port", str(port), "--database", pg_url, "--workers", "2", *OPEN]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/api/tables", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        bots = [{"kind": "bot", "bot": "greedy"}] * 2
        tid = httpx.post(base + "/api/tables", json={"game": "aztack", "seats": bots}).json()["id"]
        helpers: set[int] = set()
        while time.monotonic() < deadline and len(helpers) < 4:  # 2 workers + their bot workers
            helpers = descendants(proc.pid)
            time.sleep(0.1)
        assert len(helpers) >= 4, helpers
        assert httpx.get(base + f"/api/tables/{tid}").status_code == 200
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        log.close()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(alive(p) for p in helpers):
        time.sleep(0.1)
    assert not [p for p in helpers if alive(p)], "processes outlived their server"


def test_processes_starting_together_migrate_one_at_a_time(pg_url: str) -> None:
    """`serve --workers N` on a fresh database: every process migrates at start-up; one waits
    on the migration lock while another holds it, then finds the schema at head."""
    import threading

    from teocalli.server.db import MIGRATION_LOCK, Database

    holder = sa.create_engine(pg_url)
    started: list[Database] = []
    with holder.connect() as conn, conn.begin():
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        thread = threading.Thread(target=lambda: started.append(Database(pg_url)))
        thread.start()
        waiting = 0
        for _ in range(600):  # until the other start-up waits on the lock (a minute at most)
            waiting = conn.execute(
                sa.text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
            ).scalar_one()
            if waiting:
                break
            time.sleep(0.1)
        assert waiting == 1
        assert not started
        tables = conn.execute(
            sa.text("SELECT count(*) FROM pg_tables WHERE tablename = 'alembic_version'")
        ).scalar_one()
        assert tables == 0  # nothing migrated while the lock is held
    thread.join(60)
    assert len(started) == 1
    Database(pg_url).close()  # a second start finds the schema at head
    started[0].close()
    holder.dispose()
