"""Bots at the table: capped specs, and a pool of killable worker processes served fairly.

**Specs.** `check_bot_spec` is what the server accepts from a client: every numeric option must be
a finite number, at least 0, and the options that scale a bot's work are capped:

- `time` (think seconds per move) at most `MAX_THINK_SECONDS` = 5;
- `iterations` (playouts per move; ignored when `time` is set) at most `MAX_ITERATIONS` = 20,000;
- `width` (candidate turns of the turn search) at most `MAX_WIDTH` = 64;
- `depth` (rollout steps, or turns in the turn search, before the evaluation; 0 plays to the end,
  which is the most work a playout can do, so the cap only refuses nonsense) at most `MAX_DEPTH`
  = 200.

`c`, `guide` and `confidence` only weigh the search's choices, not its amount of work
(`UNCAPPED_OPTIONS`); `turns` is a word the bot checks. A numeric option that is in neither
table is refused until someone decides its cap. Unknown bots and options get `make_agent`'s error.
Even a capped spec can be slow (20,000 playouts of a long game): the think cap below is the bound.

**The pool.** `BotPool(workers, think_cap)` starts `workers` processes (`bot_worker.py`), each
fed by one thread of the pool that writes a job (plain data: game, options, seed, steps, spec,
seat; the worker rebuilds the position by replay) and reads the answer. Jobs wait in one queue
served round-robin by table (`choose(..., table=...)`), and a table has at most one job thinking
at a time, so a table with slow bots delays another by at most one job per turn of the round.
The think cap counts from when a job starts on a worker, not from when it was queued. A job that
overruns it gets its worker SIGKILLed and replaced (the bot is stopped, not just ignored) and the
table gets `fallback_move`, a seeded random legal move. A bot that raises, or a worker that dies,
also gets the fallback, and is logged at ERROR with the traceback (an overrun at WARNING). A
`choose` cancelled while its job thinks kills that worker too. The event loop never runs bot code,
and waits on nothing but a future. `stats()` counts jobs; `pids()` names the worker processes.

Workers never outlive the server: the kernel SIGKILLs each when the pool thread that started it
ends (`PR_SET_PDEATHSIG`, so also when the server is SIGKILLed) and each exits at the end of its
standard input; `close()` kills them and reaps them. No multiprocessing, so no resource tracker.

`workers=0` runs each job in a thread instead (quick to start, for tests). A thread cannot be
killed: there an overrun is only dropped (the table gets the fallback, the thread thinks on to the
end of its capped spec and its answer is thrown away).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import select
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import teocalli
from teocalli.agents import make_agent, parse_spec
from teocalli.core import Game, InvalidOption, Rng, State

from . import bot_worker
from .bot_worker import BotJob, choose_move

log = logging.getLogger("teocalli.server.bots")

MAX_THINK_SECONDS = 5.0
"""Cap of a client's `time=` (seconds a search bot thinks per move)."""
MAX_ITERATIONS = 20_000
"""Cap of a client's `iterations=` (playouts per move)."""
MAX_WIDTH = 64
"""Cap of a client's `width=` (candidate turns the turn search compares)."""
MAX_DEPTH = 200
"""Cap of a client's `depth=` (rollout steps, or turns, before the evaluation)."""
OPTION_CAPS: dict[str, float] = {
    "time": MAX_THINK_SECONDS,
    "iterations": MAX_ITERATIONS,
    "width": MAX_WIDTH,
    "depth": MAX_DEPTH,
    # the solo bot's sampled deck orders, deeper looks and exhaustive endgame (Shifting Stones)
    "worlds": 64,
    "deep_worlds": 32,
    "deep": 32,
    "endgame": 12,
    "endgame_nodes": 5000,
    # the duel bot's outcomes played out, and end grids kept per scored set (Shifting Stones)
    "candidates": 64,
    "per_set": 16,
    # the duel bot's playouts to the end: from `finish` cards scored, in `finish_worlds` worlds
    "finish_worlds": 128,
    "finish": 10,
}
"""Numeric bot options that scale a bot's work, and their caps on this server."""
UNCAPPED_OPTIONS = frozenset({"c", "guide", "confidence", "keep", "threat", "skip", "leaf", "race"})
"""Numeric bot options that weigh choices without changing the work: finite and >= 0 only."""
_UNITS = {"time": " seconds"}

START_TIMEOUT = 60.0
"""Seconds a fresh worker may take to import the engines before it counts as failed."""
CLOSE_TIMEOUT = 5.0
"""Seconds `close()` waits for each pool thread to reap its killed worker."""
THREAD_SLOTS = 2
"""Jobs thinking at once with `workers=0`."""

WORKER_SCRIPT = str(Path(bot_worker.__file__).resolve())
PACKAGE_ROOT = str(Path(teocalli.__file__).resolve().parent.parent)

__all__ = [
    "MAX_DEPTH",
    "MAX_ITERATIONS",
    "MAX_THINK_SECONDS",
    "MAX_WIDTH",
    "OPTION_CAPS",
    "UNCAPPED_OPTIONS",
    "BotJob",
    "BotPool",
    "BotSpecError",
    "check_bot_spec",
    "choose_move",
    "fallback_move",
]


class BotSpecError(InvalidOption):
    """A bot spec this server refuses: an option over its cap, or not a finite number >= 0."""


def check_bot_spec(spec: str, game: Game) -> str:
    """The spec, normalised (`name:key=value,...`, spaces and repeated keys gone), if this server
    accepts it for `game`; else `BotSpecError` naming the cap, or `make_agent`'s own error."""
    name, raw = parse_spec(spec)
    agent = make_agent(spec, game, 0)
    for key, text in raw.items():
        value = agent.settings[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if not math.isfinite(value) or value < 0:
            raise BotSpecError(f"bot option {key}={text} must be a finite number, at least 0")
        cap = OPTION_CAPS.get(key)
        if cap is None and key not in UNCAPPED_OPTIONS:
            raise BotSpecError(f"bot option {key!r} has no cap on this server yet")
        if cap is not None and value > cap:
            raise BotSpecError(
                f"bot option {key}={text} is over this server's cap: "
                f"{key} is at most {cap:,g}{_UNITS.get(key, '')}"
            )
    options = ",".join(f"{key}={text}" for key, text in raw.items())
    return f"{name}:{options}" if options else name


def fallback_move(state: State, player: int, bot_seed: int) -> str:
    """A seeded random legal move, for a bot that overran its cap or failed."""
    legal = state.legal_actions(player)
    return str(legal[Rng(bot_seed).randrange(len(legal))])


@dataclass(eq=False)
class _Entry:
    """A job in the pool: queued, then thinking, then answered through its future."""

    job: BotJob
    table: str
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[str | None]

    def resolve(self, move: str | None) -> None:
        """Hand the answer (None: play the fallback) to the waiting coroutine, from any thread."""

        def settle() -> None:
            if not self.future.done():
                self.future.set_result(move)

        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            self.loop.call_soon_threadsafe(settle)


class _Slot:
    """One place where a job thinks: a pool thread and (with processes) its worker process.

    The thread lives as long as the pool, and it is the one that starts the worker: the kernel
    kills the worker when that thread ends (`PR_SET_PDEATHSIG` is tied to the starting thread).
    """

    def __init__(self, pool: BotPool, index: int) -> None:
        self.pool = pool
        self.proc: subprocess.Popen[bytes] | None = None
        self.poller = select.poll()
        self.killed = False  # by `kill`: its death is no failure
        self.entry: _Entry | None = None
        self.buffer = b""
        self.started = threading.Event()
        self.thread = threading.Thread(
            target=self.serve, name=f"teocalli-bots-{index}", daemon=True
        )

    # --- the thread ---------------------------------------------------------------------------
    def serve(self) -> None:
        try:
            if self.pool.processes:
                self.start()
            self.started.set()
            while (entry := self.pool.take(self)) is not None:
                try:
                    move = self.run(entry)
                except Exception:
                    log.exception(
                        "the bot pool failed on bot %s at table %r", entry.job.spec, entry.table
                    )
                    self.stop()
                    move = None
                self.pool.finish(self, entry, move)
                if self.pool.processes and (self.proc is None or self.killed):
                    self.stop()
                    self.start()
        finally:
            self.stop()
            self.started.set()

    def run(self, entry: _Entry) -> str | None:
        return self.run_in_process(entry) if self.pool.processes else self.run_in_thread(entry)

    # --- processes ----------------------------------------------------------------------------
    def start(self) -> None:
        """Start a worker and wait until it is ready (its start-up is not think time)."""
        cmd = [sys.executable, "-P", WORKER_SCRIPT, "--parent", str(os.getpid())]
        cmd += ["--path", PACKAGE_ROOT]
        with self.pool.spawn_lock:
            if self.pool.closed:
                return
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert self.proc.stdout is not None
            self.poller = select.poll()
            self.poller.register(self.proc.stdout.fileno(), select.POLLIN)
            self.buffer = b""
            self.killed = False
        line = self.read_line(time.monotonic() + START_TIMEOUT)
        try:
            ready = line is not None and "ready" in json.loads(line)
        except ValueError:
            ready = False
        if not ready:
            pid, code = self.proc.pid, self.stop()
            if not self.pool.closed:
                log.error(
                    "a bot worker (pid %d) did not start (exit status %s, it said %r)",
                    pid,
                    code,
                    line,
                )

    def stop(self) -> int | None:
        """Kill the worker (if any), reap it and close its pipes; its exit status."""
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        proc.kill()
        code = proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        return code

    def read_line(self, deadline: float) -> bytes | None:
        """The worker's next line; b"" if its output ended (it died), None at the deadline."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if self.poller.poll(math.ceil(left * 1000)):
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return b""
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def run_in_process(self, entry: _Entry) -> str | None:
        if self.proc is None:
            self.start()
            if self.proc is None:
                return None  # it did not start: logged
        proc = self.proc
        assert proc.stdin is not None
        spec, table, pid = entry.job.spec, entry.table, proc.pid
        try:
            proc.stdin.write(json.dumps(entry.job.to_json()).encode() + b"\n")
            proc.stdin.flush()
            line = self.read_line(time.monotonic() + self.pool.think_cap)
        except (BrokenPipeError, ConnectionResetError):
            line = b""
        if line is None:
            self.stop()
            self.pool.count("overruns")
            log.warning(
                "bot %s at table %r overran the think cap of %g s: its worker (pid %d) was "
                "killed; a random move is played",
                spec,
                table,
                self.pool.think_cap,
                pid,
            )
            return None
        if not line:
            code = self.stop()
            if not (self.pool.closed or self.killed):
                self.pool.count("failures")
                log.error(
                    "the worker (pid %d) of bot %s at table %r died (exit status %s); "
                    "a random move is played",
                    pid,
                    spec,
                    table,
                    code,
                )
            return None
        try:
            answer = json.loads(line)
            move = answer.get("move")
            error = answer.get("error")
        except (ValueError, AttributeError):
            move, error = None, f"the worker said {line[:500]!r}"
            self.stop()
        if isinstance(move, str):
            return move
        self.pool.count("failures")
        log.error(
            "bot %s failed at table %r; a random move is played. The worker said:\n%s",
            spec,
            table,
            error,
        )
        return None

    def kill(self) -> None:
        """SIGKILL the worker now, from any thread; this slot's thread notices and reaps it."""
        self.killed = True
        proc = self.proc
        if proc is not None:
            proc.kill()

    # --- threads --------------------------------------------------------------------------------
    def run_in_thread(self, entry: _Entry) -> str | None:
        answer: dict[str, str] = {}
        done = threading.Event()

        def think() -> None:
            try:
                answer["move"] = choose_move(entry.job)
            except Exception:
                answer["error"] = traceback.format_exc()
            finally:
                done.set()

        threading.Thread(target=think, name="teocalli-bot-thread", daemon=True).start()
        spec, table = entry.job.spec, entry.table
        if not done.wait(self.pool.think_cap):
            self.pool.count("overruns")
            log.warning(
                "bot %s at table %r overran the think cap of %g s: a random move is played "
                "(its thread thinks on; threads cannot be stopped)",
                spec,
                table,
                self.pool.think_cap,
            )
            return None
        if "error" in answer:
            self.pool.count("failures")
            log.error(
                "bot %s failed at table %r; a random move is played:\n%s",
                spec,
                table,
                answer["error"],
            )
            return None
        return answer["move"]


class BotPool:
    """Where bots think: `workers` killable processes (threads with `workers=0`), a think cap
    per job counted from its start, and a queue served round-robin by table."""

    def __init__(self, workers: int = 1, think_cap: float = 10.0) -> None:
        self.think_cap = think_cap
        self.processes = workers > 0
        self.closed = False
        self.spawn_lock = threading.Lock()
        self._cond = threading.Condition()
        self._waiting: dict[str, deque[_Entry]] = {}  # tables with queued jobs, in serving order
        self._running: set[str] = set()
        self._counts = {"done": 0, "overruns": 0, "failures": 0}
        self._slots = [_Slot(self, i) for i in range(workers if workers > 0 else THREAD_SLOTS)]
        for slot in self._slots:
            slot.thread.start()

    # --- the asyncio side ---------------------------------------------------------------------
    async def choose(
        self, state: State, player: int, spec: str, bot_seed: int, *, table: str = ""
    ) -> str:
        """The bot's move within the think cap, else the fallback move; never blocks the loop.

        Jobs of one `table` think one at a time; tables take turns."""
        game = state.game
        assert state.seed is not None
        job = BotJob(
            name=game.info.name,
            options=dict(game.options),
            seed=state.seed,
            steps=[(s.player, str(s.action)) for s in state.history],
            spec=spec,
            bot_seed=bot_seed,
            player=player,
        )
        loop = asyncio.get_running_loop()
        entry = _Entry(job, table, loop, loop.create_future())
        with self._cond:
            if self.closed:
                raise RuntimeError("the bot pool is closed")
            self._waiting.setdefault(table, deque()).append(entry)
            self._cond.notify_all()
        try:
            move = await entry.future
        except asyncio.CancelledError:
            self._cancel(entry)
            raise
        return move if move is not None else fallback_move(state, player, bot_seed)

    def _cancel(self, entry: _Entry) -> None:
        """A waiter went away: drop its job if queued, stop its worker if thinking."""
        with self._cond:
            queue = self._waiting.get(entry.table)
            if queue is not None and entry in queue:
                queue.remove(entry)
                if not queue:
                    del self._waiting[entry.table]
                return
            for slot in self._slots:
                if slot.entry is entry:
                    slot.kill()

    # --- the pool threads' side ---------------------------------------------------------------
    def take(self, slot: _Slot) -> _Entry | None:
        """The next job for `slot`: the first table in the round that has none thinking."""
        with self._cond:
            while not self.closed:
                for table, queue in self._waiting.items():
                    if table in self._running:
                        continue
                    entry = queue.popleft()
                    del self._waiting[table]
                    if queue:
                        self._waiting[table] = queue  # to the back of the round
                    self._running.add(table)
                    slot.entry = entry
                    return entry
                self._cond.wait()
            return None

    def finish(self, slot: _Slot, entry: _Entry, move: str | None) -> None:
        with self._cond:
            slot.entry = None
            self._running.discard(entry.table)
            self._counts["done"] += 1
            self._cond.notify_all()
        entry.resolve(move)

    def count(self, what: str) -> None:
        with self._cond:
            self._counts[what] += 1

    # --- for people and tests -----------------------------------------------------------------
    def pids(self) -> list[int]:
        """The worker processes' ids, once each has started (none with `workers=0`)."""
        for slot in self._slots:
            slot.started.wait(START_TIMEOUT)
        return [proc.pid for slot in self._slots if (proc := slot.proc) is not None]

    def stats(self) -> dict[str, int]:
        """Jobs queued and thinking now; jobs done, overrun and failed since the start."""
        with self._cond:
            queued = sum(len(q) for q in self._waiting.values())
            thinking = sum(slot.entry is not None for slot in self._slots)
            return {"queued": queued, "thinking": thinking, **self._counts}

    def close(self) -> None:
        """Kill and reap every worker; queued jobs get the fallback. Idempotent."""
        with self.spawn_lock, self._cond:
            if self.closed:
                return
            self.closed = True
            waiting = [entry for queue in self._waiting.values() for entry in queue]
            self._waiting.clear()
            self._cond.notify_all()
        for entry in waiting:
            entry.resolve(None)
        for slot in self._slots:
            slot.kill()
        for slot in self._slots:
            if slot.thread is not threading.current_thread():
                slot.thread.join(CLOSE_TIMEOUT)
            proc = slot.proc
            if proc is not None:  # its thread is stuck: reap it here
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(CLOSE_TIMEOUT)

    def __repr__(self) -> str:
        kind = "processes" if self.processes else "threads"
        return f"BotPool({len(self._slots)} {kind}, think_cap={self.think_cap:g})"
