"""Web table load: `python -m benchmarks.bench_server [--postgres] [--workers 1,2] [--tables N]`.

Starts `teocalli serve` as its own process(es) on a fresh database (a new SQLite file, a fresh
database on the PostgreSQL URL given, or with `--postgres` a throwaway PostgreSQL server started
here as the tests start theirs), then drives it from this one asyncio process over WebSocket:

1. **paced** people's tables: every seat is a WebSocket here that plays a seeded random legal move
   when it may, each table at a fixed offered rate (`--rate` actions/s over all tables): the
   latency of a server that keeps up, not the queue of an overloaded one. Every table is created
   and seated before the first act, and games cut short by the end stay open until all tables
   stop (100 tables made, or 200 people leaving, in one second is no load a server sees);
2. **flood**: the same tables as fast as they can go (closed loop): the throughput;
3. **bot tables**: greedy bots on the server play each other while a spectator here counts steps.
   Bots think in the server's bot workers; no bot plays during phases 1 and 2.

Latency is measured twice: by this client (an act sent to the state that includes it received),
and by the server itself (its `/metrics` histograms, added up over every process: an action read
to the new state queued for every connection, and to the acting person's own state sent), so that
this load generator, which shares the machine, stays out of the server's figures. CPU seconds of
the server's processes (and PostgreSQL's, when started here) per action are read from /proc.
`--workers 1,2` runs each count in turn on a fresh database and prints them side by side.
Where the tail comes from is printed too: in which seconds the slowest 1% were sent, the server's
own loop lag and full garbage collections, and (with `--postgres`) PostgreSQL's checkpoints and
autovacuum runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import math
import os
import pwd
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect

from teocalli.server.metrics import parse, quantile


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


UNLIMITED = [
    *("--rate-limit", "create=100000/0.001", "--rate-limit", "connect=100000/0.001"),
    *("--rate-limit", "read=100000/0.001", "--connections-per-address", "100000"),
]
"""The load comes from one address: lift the per-address limits (they protect a public server)."""


# --- the server and its database ----------------------------------------------------------------
@contextlib.contextmanager
def throwaway_postgres() -> Iterator[tuple[str, int]]:
    """A PostgreSQL server in a temporary directory (fsync on, as in production); yields the URL
    of its maintenance database and the postmaster's pid."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("--postgres: PostgreSQL is not installed (apt-get install postgresql)")
    bindir = Path(found[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="teocalli-bench-pg-"))
    who: dict[str, Any] = {}
    if os.geteuid() == 0:  # initdb refuses to run as root
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        who = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}

    def run(*args: Any) -> None:
        done = subprocess.run(args, check=False, capture_output=True, text=True, **who)
        if done.returncode:
            raise SystemExit(f"{args[0]} failed: {done.stderr or done.stdout}")

    data = root / "data"
    port = free_port()
    run(bindir / "initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync")
    run(
        bindir / "pg_ctl", "-D", data, "-l", root / "log", "-w", "-t", "60", "start",
        "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200 "
        f"-c min_wal_size={WARM_WAL_MB * 2}MB -c log_checkpoints=on "
        "-c log_autovacuum_min_duration=0",
    )  # fmt: skip
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
        warm_wal(url)
        yield url, pid
    finally:
        with contextlib.suppress(OSError):  # what PostgreSQL did on its own during the run
            for line in (root / "log").read_text(errors="replace").splitlines():
                if "automatic" in line or "checkpoint" in line:
                    print("PostgreSQL:", line[:160], file=sys.stderr)
        run(bindir / "pg_ctl", "-D", data, "-m", "fast", "stop")
        shutil.rmtree(root, ignore_errors=True)


WARM_WAL_MB = 256
"""WAL written and checkpointed before a run, so that the run finds recycled WAL files."""


def warm_wal(url: str) -> None:
    """Write WARM_WAL_MB of WAL and checkpoint it, on a throwaway server just made by initdb.

    A server that has been running recycles its old WAL files (renames them) when a 16 MB
    segment fills; a new cluster has none, so its first segments are created and zero-filled,
    each a stall of hundreds of ms for every commit waiting behind it (measured: all of the
    slowest 1% of a paced phase in one second, their store time alone 0.4 s). Kept (with
    `min_wal_size` twice as large), the warm-up's segments are reused instead, as in production."""
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text("CREATE TABLE warm (x text)"))
        conn.execute(
            sa.text("INSERT INTO warm SELECT repeat('w', 1000) FROM generate_series(1, :n)"),
            {"n": WARM_WAL_MB * 1000},
        )
        conn.execute(sa.text("DROP TABLE warm"))
        conn.execute(sa.text("CHECKPOINT"))
    engine.dispose()


def fresh_postgres_database(base: str) -> str:
    """A new empty database on the server of `base` (one per run: runs never share tables)."""
    name = f"bench_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return base.rsplit("/", 1)[0] + f"/{name}"


def start_server(database: str, port: int, log: Path, workers: int = 1) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("teocalli")
    more = ["--workers", str(workers)] if workers > 1 else []
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [exe, "serve", "--port", str(port), "--database", database, *UNLIMITED, *more],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server died at start-up: {log.read_text()[-2000:]}")
        try:
            up = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=2).status_code == 200
            if up and len(scrape(f"127.0.0.1:{port}", workers, tries=400)) == workers:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within a minute")


def cpu_seconds(root: int) -> float:
    """User + system CPU seconds of process `root` and all its descendants alive now, and of
    the children they reaped (PostgreSQL's backends come and go)."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15]) / tick
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError):
                    todo.extend(int(c) for c in (task / "children").read_text().split())
    return total


# --- the server's own figures -------------------------------------------------------------------
Histograms = dict[tuple[str, str], list[tuple[float, float]]]


def scrape(base: str, workers: int, tries: int = 200) -> dict[str, str]:
    """`/metrics` of every server process: each request reaches one process (they share the
    port), so ask on fresh connections until every pid has answered."""
    seen: dict[str, str] = {}
    for _ in range(tries):
        try:
            text = httpx.get(f"http://{base}/metrics", timeout=30).text
        except httpx.TransportError:  # a loaded machine may drop one: ask again
            time.sleep(0.1)
            continue
        pid = text.split('pid="', 1)[1].split('"', 1)[0]
        seen[pid] = text
        if len(seen) >= workers:
            break
    return seen


def added_up(texts: dict[str, str]) -> Histograms:
    """Every process's histograms added up: (name, label value) -> cumulative buckets."""
    out: dict[tuple[str, str], dict[float, float]] = {}
    for text in texts.values():
        for (name, _pid, value), buckets in parse(text).items():
            into = out.setdefault((name, value), {})
            for le, count in buckets:
                into[le] = into.get(le, 0.0) + count
    return {key: sorted(b.items()) for key, b in out.items()}


def minus(after: Histograms, before: Histograms) -> Histograms:
    out: Histograms = {}
    for key, buckets in after.items():
        old = dict(before.get(key, []))
        out[key] = [(le, n - old.get(le, 0.0)) for le, n in buckets]
    return out


def server_ms(hists: Histograms, name: str, value: str = "") -> list[float]:
    """p50, p95, p99 in ms of one histogram; NaN if empty."""
    buckets = hists.get((name, value), [])
    return [1000 * quantile(buckets, q) for q in (0.5, 0.95, 0.99)]


# --- the load -----------------------------------------------------------------------------------
@dataclass
class Phase:
    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    """When each of `latencies` was sent (perf_counter), to see when the slow ones happen."""
    errors: int = 0
    finished: int = 0
    first: float = math.inf
    """When the first act was sent and the last acknowledged: the window of the rate (table
    creation and connection before the first act are not in it)."""
    last: float = 0.0
    lag: list[float] = field(default_factory=list)
    """How late this process's own timer woke (its event loop's lag: the load generator's
    own saturation)."""
    setup: float = math.nan
    """Seconds to create every table and seat every person, before the first act."""


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST, asking again if a loaded machine drops the connection (a table never made is
    harmless: nobody plays it)."""
    for attempt in range(5):
        try:
            data: dict[str, Any] = (await http.post(path, json=body, timeout=60)).json()
            return data
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


async def recv(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
    return data


@dataclass
class Pace:
    """A table's next send time: one action every `interval` seconds (0: as fast as it can)."""

    interval: float
    next_at: float = 0.0

    async def wait(self) -> None:
        if self.interval <= 0:
            return
        now = time.perf_counter()
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
        # a table that fell behind does not burst to catch up: it is simply late
        self.next_at = max(self.next_at, now) + self.interval


async def play_seat(  # noqa: PLR0917
    ws: ClientConnection,
    rng: random.Random,
    phase: Phase,
    budget: list[int],
    pace: Pace,
    first: dict[str, Any] | None = None,
) -> bool:
    """Play random legal moves for one seat until the game ends (True) or the budget is spent
    (`first`: a message already read)."""
    sent_at: float | None = None
    sent_step = -1
    while True:
        msg, first = (first, None) if first is not None else (await recv(ws), None)
        if msg["type"] == "error":
            phase.errors += 1
            sent_at = None
            continue
        if msg["type"] == "over":
            return True
        if msg["type"] != "state":
            continue
        if sent_at is not None and msg["step"] > sent_step:
            phase.last = time.perf_counter()
            phase.latencies.append(phase.last - sent_at)
            phase.sent.append(sent_at)
            sent_at = None
        if msg["view"]["terminal"]:
            return True
        if msg["legal"] and sent_at is None:
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            await pace.wait()
            sent_step = msg["step"]
            action = msg["legal"][rng.randrange(len(msg["legal"]))]
            sent_at = time.perf_counter()
            phase.first = min(phase.first, sent_at)
            await ws.send(json.dumps({"type": "act", "action": action, "step": sent_step}))


async def watch_lag(phase: Phase) -> None:
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        phase.lag.append(time.perf_counter() - before - 0.01)


async def people_tables(base: str, args: argparse.Namespace, rate: float, seed: int) -> Phase:
    """Play `args.actions` people's actions on `args.tables` concurrent tables."""
    phase = Phase()
    budget = [args.actions]
    interval = args.tables / rate if rate > 0 else 0.0
    seated: list[int] = []
    stopped: list[int] = []
    go, ended = asyncio.Event(), asyncio.Event()
    async with httpx.AsyncClient(base_url="http://" + base) as http:

        async def one_table(k: int) -> None:
            pace = Pace(interval)
            first = True
            left_open: list[ClientConnection] = []
            while budget[0] > 0:
                body = {
                    "game": args.game,
                    "seats": [{"kind": "human"}] * args.players,
                    "seed": seed + k,
                }
                created = await post(http, "/api/tables", body)
                links = [s["link"] for s in created["seats"]]
                socks = [
                    await connect(f"ws://{base}/ws/tables/{link[7:].replace('#token=', '&token=')}")
                    for link in links
                ]
                ready: list[dict[str, Any] | None] = [None] * len(socks)
                if first:  # every table is set up and seated before the first act
                    first = False
                    for i, ws in enumerate(socks):  # this seat's server knows all are seated
                        msg = await recv(ws)
                        while not all(s["taken"] for s in msg["table"]["seats"]):
                            msg = await recv(ws)
                        ready[i] = msg
                    seated.append(k)
                    if len(seated) == args.tables:
                        phase.setup = time.perf_counter() - setup_began
                        go.set()
                    await go.wait()
                    pace.next_at = time.perf_counter() + random.Random(k).uniform(0, interval)
                seats = [
                    asyncio.create_task(
                        play_seat(
                            ws, random.Random(seed + k * 10 + i), phase, budget, pace, ready[i]
                        )
                    )
                    for i, ws in enumerate(socks)
                ]
                over = False
                try:  # the game is over (or the budget spent) when the first seat stops
                    done, _ = await asyncio.wait(seats, return_when=asyncio.FIRST_COMPLETED)
                    over = any(t.result() for t in done if not t.exception())
                    phase.finished += over
                    await asyncio.sleep(0.01)  # let the other seats read the last state
                finally:
                    for task in seats:
                        task.cancel()
                    await asyncio.gather(*seats, return_exceptions=True)
                    if over:  # people leave a finished game (and start another)
                        for ws in socks:
                            await ws.close()
                    else:
                        left_open = socks
                k += args.tables
            # a game cut short by the end of the budget stays open until every table has
            # stopped: 200 people leaving at once is no load a server sees (nor is the start)
            stopped.append(k)
            if len(stopped) == args.tables:
                ended.set()
            await ended.wait()
            for ws in left_open:
                await ws.close()

        lag = asyncio.create_task(watch_lag(phase))
        setup_began = time.perf_counter()
        await asyncio.gather(*(one_table(k) for k in range(args.tables)))
        lag.cancel()
        return phase


async def bot_tables(base: str, game: str, tables: int) -> tuple[int, int, float]:
    """(bot steps, finished tables, seconds) for bot-only tables watched by spectators."""
    async with httpx.AsyncClient(base_url="http://" + base) as http:

        async def one_table(k: int) -> int:
            body = {
                "game": game,
                "seats": [{"kind": "bot", "bot": "greedy"}] * 2,
                "seed": 1000 + k,
            }
            created = await post(http, "/api/tables", body)
            last = 0
            async with connect(f"ws://{base}/ws/tables/{created['id']}") as ws:
                while True:
                    msg = await recv(ws)
                    if msg["type"] == "over":
                        return last
                    if msg["type"] == "state":
                        last = msg["step"]

        start = time.perf_counter()
        steps = await asyncio.gather(*(one_table(k) for k in range(tables)))
        return sum(steps), len(steps), time.perf_counter() - start


def tail_seconds(phase: Phase) -> dict[int, int]:
    """When the slowest 1% of the acts were sent: how many in each second since the first act
    (a tail spread over the whole phase, or one burst of slow acts)."""
    n = len(phase.latencies)
    if not n:
        return {}
    cut = sorted(phase.latencies)[min(n - 1, int(0.99 * n))]
    out: dict[int, int] = {}
    for sent, latency in zip(phase.sent, phase.latencies, strict=True):
        if latency >= cut:
            second = int(sent - phase.first)
            out[second] = out.get(second, 0) + 1
    return dict(sorted(out.items()))


def percentiles(values: list[float]) -> list[float]:
    """p50, p95, p99 in ms."""
    if not values:
        return [math.nan] * 3
    ordered = sorted(values)
    return [1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.95, 0.99)]


# --- a run --------------------------------------------------------------------------------------
@dataclass
class Run:
    workers: int
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)


def measure(
    base: str, args: argparse.Namespace, workers: int, server_pid: int, pg_pid: int | None
) -> Run:
    run = Run(workers)
    phases = [("paced", args.rate, 1), ("flood", 0.0, 100_000)]
    for name, rate, seed in phases:
        before = added_up(scrape(base, workers))
        cpu0 = cpu_seconds(server_pid)
        pg0 = cpu_seconds(pg_pid) if pg_pid else 0.0
        phase = asyncio.run(people_tables(base, args, rate, seed))
        began = time.strftime(
            "%H:%M:%S", time.gmtime(time.time() - (time.perf_counter() - phase.first))
        )
        print(f"{name} phase's first act at {began} UTC", file=sys.stderr)
        seconds = max(phase.last - phase.first, 1e-9)
        cpu = cpu_seconds(server_pid) - cpu0
        pg = cpu_seconds(pg_pid) - pg0 if pg_pid else math.nan
        hists = minus(added_up(scrape(base, workers)), before)
        n = len(phase.latencies)
        run.rows[name] = {
            "offered": rate,
            "actions": n,
            "rate": n / seconds,
            "refused": phase.errors,
            "client": percentiles(phase.latencies),
            "server": server_ms(hists, "teocalli_action_seconds", "person"),
            "ack": server_ms(hists, "teocalli_ack_seconds"),
            "store": server_ms(hists, "teocalli_store_seconds"),
            "news": server_ms(hists, "teocalli_news_seconds", "step"),
            "reloads": hists.get(("teocalli_news_seconds", "reload"), [(0.0, 0.0)])[-1][1],
            "cpu": 1000 * cpu / max(n, 1),
            "pg_cpu": 1000 * pg / max(n, 1),
            "lag": percentiles(phase.lag)[2],
            "setup": phase.setup,
            "loop_lag": server_ms(hists, "teocalli_loop_lag_seconds"),
            "gc2": hists.get(("teocalli_gc_seconds", "2"), [(0.0, 0.0)])[-1][1],
            "gc2_ms": server_ms(hists, "teocalli_gc_seconds", "2")[1],
            "tail": tail_seconds(phase),
        }
    steps, done, seconds = asyncio.run(bot_tables(base, args.game, args.bot_tables))
    run.rows["bots"] = {"steps": steps, "done": done, "rate": steps / seconds}
    return run


def run_once(args: argparse.Namespace, workers: int, pg: tuple[str, int] | None) -> Run:
    """Start a server of `workers` processes on a fresh database, drive it, give the figures."""
    with tempfile.TemporaryDirectory(prefix="teocalli-bench-") as tmp:
        if pg is not None:
            database = fresh_postgres_database(pg[0])
        elif args.database and "://" in args.database and not args.database.startswith("sqlite"):
            database = fresh_postgres_database(args.database)
        else:
            database = args.database or str(Path(tmp) / "bench.sqlite3")
        port = free_port()
        log = Path(tmp) / "server.log"
        proc = start_server(database, port, log, workers)
        try:
            run = measure(f"127.0.0.1:{port}", args, workers, proc.pid, pg[1] if pg else None)
        finally:
            proc.terminate()
            proc.wait(60)
        errors = [line for line in log.read_text(errors="replace").splitlines() if "ERROR" in line]
        if errors:
            print(f"the server logged {len(errors)} ERROR lines, e.g. {errors[0]}", file=sys.stderr)
    report(run)
    return run


def ms(values: list[float]) -> str:
    return " / ".join(f"{v:.1f}" for v in values)


def report(run: Run) -> None:
    print(f"--- {run.workers} server process(es)")
    for name in ("paced", "flood"):
        r = run.rows[name]
        offered = f"offered {r['offered']:.0f}/s, " if r["offered"] else ""
        print(
            f"{name}: {r['actions']} actions, {offered}{r['rate']:.0f} actions/s, "
            f"{r['refused']} refused; p50 / p95 / p99 ms: server {ms(r['server'])}, "
            f"ack {ms(r['ack'])}, client {ms(r['client'])}; store {ms(r['store'])}; "
            f"news {ms(r['news'])} ({r['reloads']:.0f} reloads); server CPU {r['cpu']:.2f} "
            f"ms/action, PostgreSQL {r['pg_cpu']:.2f}; load generator's loop lag p99 "
            f"{r['lag']:.1f} ms; {r['setup']:.1f} s to create and seat the tables first; "
            f"the slowest 1% sent in second {r['tail']}; the server's loop lag p50 / p95 / p99 "
            f"{ms(r['loop_lag'])} ms, {r['gc2']:.0f} full collections (p95 {r['gc2_ms']:.1f} ms)"
        )
    b = run.rows["bots"]
    print(f"bots: {b['done']} greedy games, {b['steps']} steps, {b['rate']:.0f} bot steps/s")


def side_by_side(runs: list[Run]) -> None:
    """One Markdown table for docs/server.md: every process count of this run (paced phase,
    but for the flood's throughput and the bots')."""
    print()
    print(
        "| processes | paced: offered / done actions/s | server p50 / p95 / p99 ms | "
        "ack p50 / p95 / p99 ms | client p50 / p95 / p99 ms | store p50 / p95 / p99 ms | "
        "flood actions/s | server CPU ms/action | PostgreSQL CPU ms/action | bot steps/s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for run in runs:
        p, f, b = run.rows["paced"], run.rows["flood"], run.rows["bots"]
        print(
            f"| {run.workers} | {p['offered']:.0f} / {p['rate']:.0f} | {ms(p['server'])} | "
            f"{ms(p['ack'])} | {ms(p['client'])} | {ms(p['store'])} | {f['rate']:.0f} | "
            f"{p['cpu']:.2f} | {p['pg_cpu']:.2f} | {b['rate']:.0f} |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="concurrent people's tables")
    parser.add_argument("--actions", type=int, default=2000, help="people's actions per phase")
    parser.add_argument(
        "--rate",
        type=float,
        default=100.0,
        help="offered actions/s of the paced phase (all tables)",
    )
    parser.add_argument("--game", default="aztack")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot-tables", type=int, default=20)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database", default=None, help="a database URL (default: a new SQLite)")
    where.add_argument(
        "--postgres", action="store_true", help="start a throwaway PostgreSQL server (fsync on)"
    )
    parser.add_argument(
        "--workers",
        default="1",
        help="server processes, or a list compared side by side in one run (e.g. 1,2; "
        "more than 1 needs PostgreSQL)",
    )
    args = parser.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    with contextlib.ExitStack() as stack:
        pg = stack.enter_context(throwaway_postgres()) if args.postgres else None
        db = "PostgreSQL" if pg or (args.database and "postgres" in args.database) else "SQLite"
        print(
            f"{args.tables} concurrent {args.game} tables of {args.players} people on {db}; "
            f"{args.actions} actions per phase; {os.cpu_count()} cores, load average "
            f"{os.getloadavg()[0]:.1f}"
        )
        runs = [run_once(args, workers, pg) for workers in counts]
    side_by_side(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
