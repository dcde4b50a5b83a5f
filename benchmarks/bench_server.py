"""Web table load: `python -m benchmarks.bench_server [--tables N] [--actions M] [--database URL]`.

Starts `teocalli serve` as its own process on a fresh SQLite file (or the URL given) on a free
loopback port, then from this second process drives many concurrent tables over WebSocket:

1. people's tables: every seat is a WebSocket client here that plays a seeded random legal move
   whenever it may; latency is from sending an act to receiving the state that includes it
   (validation, the stored transaction, the broadcast to every seat);
2. bot tables: greedy bots on the server play each other while a spectator here counts steps.

Prints actions per second and latency percentiles. Bounded in count and time; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


UNLIMITED = [
    *("--rate-limit", "create=100000/0.001", "--rate-limit", "connect=100000/0.001"),
    *("--connections-per-address", "100000"),
]
"""The load comes from one address: lift the per-address limits (they protect a public server)."""


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
            raise SystemExit(f"the server died at start-up; see {log}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within a minute")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.finished = 0


async def recv(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
    return data


async def play_seat(
    ws: ClientConnection, rng: random.Random, stats: Stats, budget: list[int]
) -> bool:
    """Play random legal moves for one seat until the game ends (True) or the budget is spent."""
    sent_at: float | None = None
    sent_step = -1
    while True:
        msg = await recv(ws)
        if msg["type"] == "error":
            stats.errors += 1
            sent_at = None
            continue
        if msg["type"] == "over":
            return True
        if msg["type"] != "state":
            continue
        if sent_at is not None and msg["step"] > sent_step:
            stats.latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        if msg["view"]["terminal"]:
            return True
        if msg["legal"] and sent_at is None:
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            sent_step = msg["step"]
            action = msg["legal"][rng.randrange(len(msg["legal"]))]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action, "step": sent_step}))


async def people_tables(
    base: str, game: str, players: int, tables: int, actions: int
) -> tuple[Stats, float]:
    stats = Stats()
    budget = [actions]
    async with httpx.AsyncClient(base_url="http://" + base) as http:

        async def one_table(k: int) -> None:
            while budget[0] > 0:
                body = {"game": game, "seats": [{"kind": "human"}] * players, "seed": k}
                created = (await http.post("/api/tables", json=body)).json()
                links = [s["link"] for s in created["seats"]]
                socks = [
                    await connect(f"ws://{base}/ws/tables/{link[7:].replace('#token=', '&token=')}")
                    for link in links
                ]
                seats = [
                    asyncio.create_task(play_seat(ws, random.Random(k * 10 + i), stats, budget))
                    for i, ws in enumerate(socks)
                ]
                try:  # the game is over (or the budget spent) when the first seat stops
                    done, _ = await asyncio.wait(seats, return_when=asyncio.FIRST_COMPLETED)
                    stats.finished += any(t.result() for t in done if not t.exception())
                    await asyncio.sleep(0.01)  # let the other seats read the last state
                finally:
                    for task in seats:
                        task.cancel()
                    await asyncio.gather(*seats, return_exceptions=True)
                    for ws in socks:
                        await ws.close()
                k += tables

        start = time.perf_counter()
        await asyncio.gather(*(one_table(k) for k in range(tables)))
        return stats, time.perf_counter() - start


async def bot_tables(base: str, game: str, tables: int) -> tuple[int, int, float]:
    """(bot steps, finished tables, seconds) for bot-only tables watched by spectators."""
    async with httpx.AsyncClient(base_url="http://" + base) as http:

        async def one_table(k: int) -> int:
            body = {
                "game": game,
                "seats": [{"kind": "bot", "bot": "greedy"}] * 2,
                "seed": 1000 + k,
            }
            created = (await http.post("/api/tables", json=body)).json()
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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40, help="concurrent tables")
    parser.add_argument("--actions", type=int, default=4000, help="people's actions in all")
    parser.add_argument("--game", default="aztack")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot-tables", type=int, default=20)
    parser.add_argument("--database", default=None, help="a database URL (default: a new SQLite)")
    parser.add_argument(
        "--workers",
        default="1",
        help="server processes, or a list compared side by side in one run (e.g. 1,2; "
        "more than 1 needs PostgreSQL)",
    )
    args = parser.parse_args(argv)
    for workers in [int(w) for w in args.workers.split(",")]:
        run_once(args, workers)
    return 0


def run_once(args: argparse.Namespace, workers: int) -> None:
    """Start a server of `workers` processes, drive it, print the figures."""
    with tempfile.TemporaryDirectory(prefix="teocalli-bench-") as tmp:
        database = args.database or str(Path(tmp) / "bench.sqlite3")
        port = free_port()
        proc = start_server(database, port, Path(tmp) / "server.log", workers)
        base = f"127.0.0.1:{port}"
        try:
            stats, seconds = asyncio.run(
                people_tables(base, args.game, args.players, args.tables, args.actions)
            )
            bot_steps, bot_done, bot_seconds = asyncio.run(
                bot_tables(base, args.game, args.bot_tables)
            )
        finally:
            proc.terminate()
            proc.wait(30)
    lat = [x * 1000 for x in stats.latencies]
    db = "SQLite (synchronous=FULL)" if args.database is None else args.database.split(":")[0]
    print(
        f"server on {db}, {workers} process(es); {args.tables} concurrent {args.game} tables "
        f"of {args.players} seats"
    )
    print(
        f"people's actions: {len(lat)} in {seconds:.1f} s = {len(lat) / seconds:.0f} actions/s; "
        f"{stats.finished} games finished, {stats.errors} refused"
    )
    if lat:
        print(
            f"act -> acknowledged state latency ms: p50 {percentile(lat, 0.5):.1f}  "
            f"p90 {percentile(lat, 0.9):.1f}  p99 {percentile(lat, 0.99):.1f}  "
            f"max {max(lat):.1f}  mean {statistics.fmean(lat):.1f}"
        )
    print(
        f"bot tables: {bot_done} greedy-vs-greedy games, {bot_steps} steps in {bot_seconds:.1f} s "
        f"= {bot_steps / bot_seconds:.0f} bot steps/s"
    )


if __name__ == "__main__":
    sys.exit(main())
