"""PostgreSQL's own durable commit on this machine: `python -m benchmarks.bench_commit`.

The floor under the server's store time (docs/server.md, "Load"): one-row inserts, each its
own durable transaction (fsync and synchronous_commit on), offered at a fixed rate from a few
connections, as the server's steps are; alternately with and without `pg_notify` in the same
statement, because a notifying transaction holds PostgreSQL's database-wide notification lock
until its commit is flushed (so that notifications follow commit order), which could serialise
the commits that would otherwise share a flush.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

import psycopg

from benchmarks.bench_server import throwaway_postgres

CONNECTIONS = 8
"""As many as the server's step writer has (pgsteps.POOL_SIZE)."""


async def commits(conninfo: str, rate: float, seconds: float, notify: bool) -> list[float]:
    """Seconds each insert took, `rate` a second for `seconds`."""
    idle: asyncio.Queue[psycopg.AsyncConnection[object]] = asyncio.Queue()
    for _ in range(CONNECTIONS):
        idle.put_nowait(await psycopg.AsyncConnection.connect(conninfo, autocommit=True))
    news = "SELECT pg_notify('bench', %s)" if notify else "SELECT %s"
    sql = f"WITH i AS (INSERT INTO rows (x) VALUES (%s)) {news}"
    took: list[float] = []

    async def one() -> None:
        conn = await idle.get()
        began = time.perf_counter()
        await conn.execute(sql, ("x" * 100, '{"t":"a1b2c3","s":{"i":1,"p":0,"a":"pass"}}'))
        took.append(time.perf_counter() - began)
        idle.put_nowait(conn)

    start = time.perf_counter()
    tasks = []
    for k in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + k / rate - time.perf_counter()))
        tasks.append(asyncio.create_task(one()))
    await asyncio.gather(*tasks)
    while not idle.empty():
        await idle.get_nowait().close()
    return took


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    picks = (ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.95, 0.99))
    return " / ".join(f"{1000 * v:.1f}" for v in picks)


async def run(args: argparse.Namespace) -> None:
    with throwaway_postgres() as (url, _pid):
        conninfo = url.replace("postgresql+psycopg", "postgresql")
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            await conn.execute("CREATE TABLE rows (id serial PRIMARY KEY, x text)")
        for rounds in range(args.rounds):
            for notify in (False, True):
                took = await commits(conninfo, args.rate, args.seconds, notify)
                what = "with" if notify else "without"
                print(f"round {rounds + 1}, {what} pg_notify: p50 / p95 / p99 ms {ms(took)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=100.0, help="commits a second")
    parser.add_argument("--seconds", type=float, default=10.0, help="per round and kind")
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
