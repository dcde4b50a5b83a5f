"""The bot pool: capped specs, killed overruns, fair turns between tables, no orphan workers.

Verdicts never rest on how fast the machine is: waits are bounded polls, and the tests compare
answers (the greedy bot's own move, or the seeded fallback) and the order in which jobs finish.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import teocalli
from teocalli.agents import AGENTS, make_agent
from teocalli.core import InvalidOption, State, TeocalliError
from teocalli.server.bots import (
    MAX_ITERATIONS,
    MAX_THINK_SECONDS,
    OPTION_CAPS,
    UNCAPPED_OPTIONS,
    BotJob,
    BotPool,
    BotSpecError,
    check_bot_spec,
    fallback_move,
)

SLOW = "mcts:time=5"  # thinks 5 s on a position with many moves: longer than the caps below
BIG_SEED = 2**255 + 12_345  # the server's seeds may be far beyond 64 bits


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine in a fresh event loop on its own thread (the browser tests may keep a
    loop running in this worker's main thread, where `asyncio.run` would refuse to start)."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, coro).result()


def alive(pid: int) -> bool:
    """Whether `pid` is still a bot worker that runs (a zombie, or a reused pid, is gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    proc = Path(f"/proc/{pid}")
    if not proc.exists():
        return True  # no /proc: os.kill is all we can ask
    try:
        stat = (proc / "stat").read_text()
        cmdline = (proc / "cmdline").read_bytes()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X") and b"bot_worker" in cmdline


def wait_until(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Poll `check` for at most `seconds`; its last verdict."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return check()
        time.sleep(0.02)
    return True


async def until(check: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        await asyncio.sleep(0.01)


@pytest.fixture
def position() -> tuple[State, int]:
    """An Aztack opening (62 moves) and a bot seed where greedy and the fallback differ."""
    game = teocalli.load("aztack")
    state = game.new_state(BIG_SEED)
    state.apply(state.legal_actions(0)[0], 0)
    player = state.to_move()[0]
    seed = next(
        s
        for s in range(100)
        if str(make_agent("greedy", game, s).act(state, player)) != fallback_move(state, player, s)
    )
    return state, seed


def greedy_move(state: State, player: int, seed: int) -> str:
    return str(make_agent("greedy", state.game, seed).act(state, player))


# --- specs ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:time=100000", "time is at most 5 seconds"),
        ("mcts:time=5.5", "time is at most 5 seconds"),
        ("mcts:iterations=20001", "iterations is at most 20,000"),
        ("mcts:iterations=10000000000000000000000", "iterations is at most 20,000"),
        ("mcts:width=65", "width is at most 64"),
        ("mcts:depth=100000", "depth is at most 200"),
        ("duel:candidates=65", "candidates is at most 64"),
        ("duel:per_set=17", "per_set is at most 16"),
        ("duel:worlds=65", "worlds is at most 64"),
        ("mcts:time=nan", "finite number"),
        ("mcts:time=inf", "finite number"),
        ("mcts:time=-1", "at least 0"),
        ("mcts:iterations=-5", "at least 0"),
        ("mcts:c=nan", "finite number"),
        ("mcts:guide=-inf", "finite number"),
        ("mcts:confidence=-0.5", "at least 0"),
    ],
)
def test_specs_over_the_caps_or_not_finite_are_refused(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError) as refused:
        check_bot_spec(spec, teocalli.load("aztack"))
    assert words in str(refused.value)
    assert spec.split(":")[1].split("=", maxsplit=1)[0] in str(refused.value)  # names the option
    assert isinstance(refused.value, TeocalliError)


def test_the_cap_is_named_in_the_refusal() -> None:
    with pytest.raises(BotSpecError, match=r"time=100000 is over this server's cap: time is at "):
        check_bot_spec("ismcts:time=100000", teocalli.load("stakz"))
    assert MAX_THINK_SECONDS == 5
    assert MAX_ITERATIONS == 20_000


def test_valid_specs_pass_normalised() -> None:
    aztack = teocalli.load("aztack")
    assert check_bot_spec("greedy", aztack) == "greedy"
    assert check_bot_spec("random:", aztack) == "random"
    assert (
        check_bot_spec("mcts: time = 2 ,iterations=500,time=1", aztack)
        == "mcts:time=1,iterations=500"
    )
    at_the_caps = "mcts:time=5,iterations=20000,width=64,depth=200,c=0,guide=0,confidence=0"
    assert check_bot_spec(at_the_caps, aztack) == at_the_caps
    assert check_bot_spec("ismcts:turns=auto,time=0.5", teocalli.load("stakz")) == (
        "ismcts:turns=auto,time=0.5"
    )


@pytest.mark.parametrize("spec", ["nobot", "mcts:speed=3", "mcts:iterations=many", "ismcts:x"])
def test_unknown_bots_and_options_get_make_agents_own_error(spec: str) -> None:
    game = teocalli.load("aztack")
    with pytest.raises(InvalidOption) as expected:
        make_agent(spec, game, 0)
    with pytest.raises(InvalidOption) as refused:
        check_bot_spec(spec, game)
    assert not isinstance(refused.value, BotSpecError)
    assert str(refused.value) == str(expected.value)


def test_every_numeric_bot_option_has_a_decided_cap() -> None:
    for cls in AGENTS.values():
        for key, default in cls.options.items():
            if isinstance(default, int | float) and not isinstance(default, bool):
                assert key in OPTION_CAPS or key in UNCAPPED_OPTIONS, (cls.name, key)
                if key in OPTION_CAPS:
                    assert default <= OPTION_CAPS[key], (cls.name, key)


def test_jobs_carry_big_seeds_through_json_as_ints() -> None:
    job = BotJob("aztack", {"players": 2}, BIG_SEED, [(0, "x"), (1, "y")], "greedy", 2**62, 1)
    assert BotJob.from_json(job.to_json()) == BotJob(
        "aztack", {"players": 2}, BIG_SEED, [(0, "x"), (1, "y")], "greedy", 2**62, 1
    )


# --- worker processes -------------------------------------------------------------------------
def test_a_worker_plays_the_bots_own_move_for_a_big_seed(position: tuple[State, int]) -> None:
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=1, think_cap=30)
    try:
        move = run(pool.choose(state, player, "greedy", seed, table="t"))
    finally:
        pool.close()
    assert move == greedy_move(state, player, seed)


def test_an_overrunning_bot_has_its_worker_killed_and_gets_the_fallback(
    position: tuple[State, int],
) -> None:
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=1, think_cap=1.0)
    try:
        (first,) = pool.pids()
        assert alive(first)
        move = run(pool.choose(state, player, SLOW, seed, table="slow"))
        assert move == fallback_move(state, player, seed)
        assert not alive(first)  # killed and reaped before the answer came back
        assert pool.stats()["overruns"] == 1
        assert wait_until(lambda: len(pool.pids()) == 1 and pool.pids()[0] != first)
        # the fresh worker thinks for the next table
        move = run(pool.choose(state, player, "greedy", seed, table="next"))
        assert move == greedy_move(state, player, seed)
    finally:
        pool.close()


def test_a_slow_table_does_not_hold_up_another_tables_bot(
    position: tuple[State, int], caplog: pytest.LogCaptureFixture
) -> None:
    """Table A queues three overrunning jobs before table B's greedy one, on a single worker.

    The think cap counts from the start of a job, so B's job (queued for a whole cap behind A's
    first job) still gets the greedy bot's own move; and the queue is served by table in turn, so
    B's job runs second, not after all of A's. Cancelling A's thinking job kills its worker.
    """
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=1, think_cap=2.0)

    async def scenario() -> tuple[list[str], str, int]:
        finished: list[str] = []
        tasks = []
        for name in ("A1", "A2", "A3"):
            task = asyncio.create_task(pool.choose(state, player, SLOW, seed, table="A"))
            task.add_done_callback(
                functools.partial(lambda name, _task: finished.append(name), name)
            )
            tasks.append(task)
        await until(lambda: sum(pool.stats()[k] for k in ("queued", "thinking")) == 3)
        b_move = await pool.choose(state, player, "greedy", seed, table="B")
        finished.append("B")
        order = list(finished)
        # A2 has started (unless a wrong queue ran all of A's jobs before B's)
        await until(lambda: pool.stats()["thinking"] == 1 or all(t.done() for t in tasks))
        (thinking,) = pool.pids()
        for task in tasks[1:]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return order, b_move, thinking

    try:
        with caplog.at_level(logging.WARNING, logger="teocalli.server.bots"):
            finished, b_move, thinking = run(scenario())
        assert finished[:2] == ["A1", "B"]
        assert b_move == greedy_move(state, player, seed)
        assert wait_until(lambda: not alive(thinking))  # cancelled: stopped, not left to think
        assert wait_until(lambda: len(pool.pids()) == 1 and pool.pids()[0] != thinking)
        stats = pool.stats()
        assert stats["overruns"] == 1  # A1 only
        assert stats["failures"] == 0  # a cancelled job's worker is killed, not failed
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        pool.close()


@pytest.mark.logs_errors
def test_a_bot_that_raises_is_logged_with_its_traceback(
    position: tuple[State, int], caplog: pytest.LogCaptureFixture
) -> None:
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=1, think_cap=30)
    try:
        (pid,) = pool.pids()
        with caplog.at_level(logging.ERROR, logger="teocalli.server.bots"):
            move = run(pool.choose(state, player, "mcts:turns=1", seed, table="t"))
        assert move == fallback_move(state, player, seed)
        (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
        text = record.getMessage()
        assert "Traceback (most recent call last)" in text
        assert "aztack has no turn proposals" in text
        assert "mcts:turns=1" in text
        assert pool.pids() == [pid]  # an exception in a bot does not cost the worker
        assert pool.stats()["failures"] == 1
    finally:
        pool.close()


@pytest.mark.logs_errors
def test_a_worker_that_dies_is_reported_and_replaced(
    position: tuple[State, int], caplog: pytest.LogCaptureFixture
) -> None:
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=1, think_cap=60)
    (pid,) = pool.pids()

    async def scenario() -> str:
        task = asyncio.create_task(pool.choose(state, player, SLOW, seed, table="t"))
        await until(lambda: pool.stats()["thinking"] == 1)
        os.kill(pid, signal.SIGKILL)
        return await task

    try:
        with caplog.at_level(logging.ERROR, logger="teocalli.server.bots"):
            move = run(scenario())
        assert move == fallback_move(state, player, seed)
        (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert f"worker (pid {pid}) of bot {SLOW} at table 't' died" in record.getMessage()
        assert wait_until(lambda: len(pool.pids()) == 1 and pool.pids()[0] != pid)
        assert run(pool.choose(state, player, "greedy", seed)) == greedy_move(state, player, seed)
    finally:
        pool.close()


def test_close_leaves_no_process_and_no_thread(position: tuple[State, int]) -> None:
    state, seed = position
    pool = BotPool(workers=2, think_cap=30)
    pids = pool.pids()
    assert len(pids) == 2
    assert all(alive(pid) for pid in pids)
    pool.close()
    assert not [pid for pid in pids if alive(pid)]
    assert not [t for t in threading.enumerate() if t.name.startswith("teocalli-bots-")]
    pool.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        run(pool.choose(state, state.to_move()[0], "greedy", seed))


def test_close_kills_a_thinking_worker_and_answers_its_waiters(
    position: tuple[State, int],
) -> None:
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=1, think_cap=60)
    (pid,) = pool.pids()

    async def scenario() -> list[str]:
        tasks = [asyncio.create_task(pool.choose(state, player, SLOW, seed, table=t)) for t in "AB"]
        await until(lambda: pool.stats()["thinking"] == 1)
        pool.close()
        return list(await asyncio.gather(*tasks))

    assert run(scenario()) == [fallback_move(state, player, seed)] * 2
    assert not alive(pid)


CHILD = """
import asyncio, sys, threading, time
import teocalli
from teocalli.server.bots import BotPool

pool = BotPool(workers=1, think_cap=600)
if sys.argv[1] == "thinking":
    state = teocalli.load("aztack").new_state(1)
    job = pool.choose(state, 0, "mcts:time=300", 1, table="t")
    threading.Thread(target=asyncio.run, args=(job,), daemon=True).start()
    while pool.stats()["thinking"] == 0:
        time.sleep(0.01)
print(pool.pids()[0], flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("mode", ["idle", "thinking"])
def test_a_worker_dies_with_its_sigkilled_server(mode: str) -> None:
    """An idle worker, and one deep in a 300 s search (which reads no input meanwhile)."""
    server = subprocess.Popen(
        [sys.executable, "-c", CHILD, mode], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    worker = None
    try:
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], 60)
        assert ready, "the server process printed no worker pid within a minute"
        worker = int(server.stdout.readline())
        assert alive(worker)
        server.kill()  # SIGKILL: no cleanup code runs in the server
        server.wait()
        assert wait_until(lambda: not alive(worker), 10), f"worker {worker} outlived its server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()
        if worker is not None and alive(worker):
            os.kill(worker, signal.SIGKILL)


# --- threads --------------------------------------------------------------------------------------
@pytest.mark.logs_errors
def test_thread_mode_drops_an_overrun_and_plays_bots(
    position: tuple[State, int], caplog: pytest.LogCaptureFixture
) -> None:
    state, seed = position
    player = state.to_move()[0]
    pool = BotPool(workers=0, think_cap=0.3)
    try:
        assert pool.pids() == []
        assert run(pool.choose(state, player, "mcts:time=1", seed)) == fallback_move(
            state, player, seed
        )
        assert pool.stats()["overruns"] == 1
        pool.think_cap = 30
        assert run(pool.choose(state, player, "greedy", seed)) == greedy_move(state, player, seed)
        with caplog.at_level(logging.ERROR, logger="teocalli.server.bots"):
            move = run(pool.choose(state, player, "mcts:turns=1", seed))
        assert move == fallback_move(state, player, seed)
        (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert "Traceback (most recent call last)" in record.getMessage()
    finally:
        pool.close()
