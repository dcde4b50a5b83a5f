"""The server's small parts on their own: wire messages, tokens, clocks, the bot pool's cap."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import teocalli
from teocalli.server import bots
from teocalli.server.clocks import TableClock
from teocalli.server.messages import (
    MAX_MESSAGE_BYTES,
    Act,
    HandToBot,
    MessageError,
    Ping,
    parse_client_message,
)
from teocalli.server.tokens import check_token, hash_token, new_token


def run_in_fresh_loop(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine on its own thread's event loop.

    The browser tests' session-wide Playwright keeps an event loop running in the main thread of
    the same worker, where `asyncio.run` would refuse to start.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_messages_parse_to_typed_values() -> None:
    assert parse_client_message('{"type":"act","action":" pass ","step":3}') == Act("pass", 3)
    assert parse_client_message('{"type":"ping"}') == Ping()
    assert parse_client_message('{"type":"hand_to_bot"}') == HandToBot("greedy", None)
    assert parse_client_message('{"type":"hand_to_bot","bot":"random","seat":2}') == HandToBot(
        "random", 2
    )


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "bad_json"),
        ("null", "bad_message"),
        ('{"type":"act","action":"pass","step":true}', "bad_act"),
        ('{"type":"act","action":"pass","step":-1}', "bad_act"),
        ('{"type":"act","action":"  ","step":1}', "bad_act"),
        ('{"type":"hand_to_bot","seat":"0"}', "bad_seat"),
        ('{"type":"hand_to_bot","bot":7}', "bad_bot"),
        ('{"type":"resign"}', "unknown_type"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
    ],
)
def test_bad_messages_name_the_problem(raw: str, code: str) -> None:
    with pytest.raises(MessageError) as err:
        parse_client_message(raw)
    assert err.value.code == code and str(err.value)


@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_any_input_parses_or_is_refused_cleanly(raw: str | bytes) -> None:
    with contextlib.suppress(MessageError):
        parse_client_message(raw)


@given(
    st.dictionaries(
        st.sampled_from(["type", "action", "step", "bot", "seat"]),
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20)),
    )
)
def test_any_json_object_parses_or_is_refused_cleanly(data: dict[str, Any]) -> None:
    with contextlib.suppress(MessageError):
        parse_client_message(json.dumps(data))


def test_tokens_are_unguessable_and_stored_hashed() -> None:
    token = new_token()
    assert len(token) >= 32 and token != new_token()
    stored = hash_token(token)
    assert token not in stored
    assert check_token(token, stored)
    assert not check_token(token[:-1] + ("A" if token[-1] != "A" else "B"), stored)
    assert not check_token(None, stored) and not check_token(token, None)


class Time:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_move_clock_restarts_each_turn_and_keeps_running_within_one() -> None:
    now = Time()
    clock = TableClock.fresh("move", 30, 2, now)
    clock.start(0)
    now.t = 20
    clock.start(0)  # a second step of the same turn: the clock goes on
    assert clock.left(0) == 10 and clock.expired() is None
    now.t = 31
    assert clock.expired() == 0
    clock.start(1)
    assert clock.to_json()["remaining"] == [0.0, 30.0]
    clock.start(0)
    assert clock.left(0) == 30  # a fresh allowance for the next turn


def test_bank_clock_spends_one_bank_and_grants_grace_after_a_timeout() -> None:
    now = Time()
    clock = TableClock.fresh("bank", 100, 2, now)
    clock.start(0)
    now.t = 40
    clock.start(1)
    now.t = 50
    clock.start(0)
    assert clock.left(0) == 60 and clock.left(1) == 90
    now.t = 111
    assert clock.expired() == 0
    clock.stop()
    clock.after_timeout(0)
    assert clock.left(0) == 10  # a tenth of the bank


def test_a_bot_over_its_cap_is_replaced_by_a_random_legal_move(monkeypatch: Any) -> None:
    release = threading.Event()

    def stuck(job: bots.BotJob) -> str:
        release.wait(60)
        return "never used"

    monkeypatch.setattr(bots, "choose_move", stuck)
    pool = bots.BotPool(workers=0, think_cap=0.01)
    state = teocalli.load("aztack").new_state(1)
    try:
        move = run_in_fresh_loop(pool.choose(state, 0, "greedy", 5))
    finally:
        release.set()
        pool.close()
    assert move in {str(a) for a in state.legal_actions(0)}
    assert move == bots.fallback_move(state, 0, 5)


def test_a_bot_in_a_worker_process_plays_the_bots_own_move() -> None:
    pool = bots.BotPool(workers=1, think_cap=60)
    game = teocalli.load("stakz")
    state = game.new_state(3)
    try:
        move = run_in_fresh_loop(pool.choose(state, 0, "greedy", 5))
    finally:
        pool.close()
    job = bots.BotJob("stakz", dict(game.options), 3, [], "greedy", 5, 0)
    assert move == bots.choose_move(job)


def test_metrics_render_as_prometheus_text_and_read_back() -> None:
    import os

    from teocalli.server.db import append_step_sql
    from teocalli.server.metrics import Metrics, parse, quantile

    metrics = Metrics()
    for ms in (1.5, 1.5, 4.0, 40.0):  # into the buckets (1, 2], (1, 2], (3, 5], (30, 50] ms
        metrics.action.observe(ms / 1000, "person")
    metrics.action.observe(0.2, "bot")
    text = metrics.render({"teocalli_tables": 3})
    pid = str(os.getpid())
    assert f'teocalli_action_seconds_count{{pid="{pid}",by="person"}} 4' in text
    assert f'teocalli_action_seconds_bucket{{pid="{pid}",by="person",le="0.002"}} 2' in text
    assert f'teocalli_action_seconds_bucket{{pid="{pid}",by="person",le="+Inf"}} 4' in text
    assert f'teocalli_tables{{pid="{pid}"}} 3' in text
    read = parse(text)
    person = read[("teocalli_action_seconds", pid, "person")]
    assert person[-1] == (float("inf"), 4.0)
    assert read[("teocalli_action_seconds", pid, "bot")][-1][1] == 1.0
    # the median rank 2 is the last of the two in (1 ms, 2 ms]: its upper bound
    assert quantile(person, 0.5) == pytest.approx(0.002)
    assert quantile(person, 1.0) == pytest.approx(0.05)
    # a step's one statement names only known columns
    with pytest.raises(ValueError, match="does not change"):
        append_step_sql("t", 0, 0, "a", "person", {"seed": 1}, None, None)


def test_news_of_a_seat_or_table_change_is_checked_whole() -> None:
    """Another process's news is applied only if every field is one a seat or the table has,
    with its type; anything else makes the process read the table instead."""
    from teocalli.server.room import _seat_changes, _table_changes

    assert _seat_changes({"k": 1, "taken": True, "name": "Ana"}, 2) == (
        1,
        {"taken": True, "name": "Ana"},
    )
    assert _seat_changes({"k": 0, "handed_to": None}, 2) == (0, {"handed_to": None})
    assert _seat_changes({"k": 2, "taken": True}, 2) is None  # no such seat
    assert _seat_changes({"k": True, "taken": True}, 2) is None
    assert _seat_changes({"k": 0, "taken": "yes"}, 2) is None
    assert _seat_changes({"k": 0, "kind": "bot"}, 2) is None  # not a field news may set
    assert _seat_changes([0], 2) is None
    assert _table_changes({"status": "running", "settings": {"rematch": "x"}}) is not None
    assert _table_changes({"clock_running_for": None}) == {"clock_running_for": None}
    assert _table_changes({"status": "finished"}) is None  # only a step finishes a table
    assert _table_changes({"seed": 3}) is None
    assert _table_changes({"clock_running_for": "0"}) is None


def test_a_seat_and_table_change_is_one_statement_of_known_columns() -> None:
    from teocalli.server.db import update_sql

    sql, params = update_sql("t", 1, {"taken": True}, {"status": "running"}, news="n")
    assert sql.startswith("WITH seat AS (UPDATE seats SET")
    assert "tbl AS (UPDATE tables SET" in sql and sql.endswith("SELECT pg_notify(%s, %s)")
    assert params == (True, "t", 1, "running", "t", "teocalli", "n")
    with pytest.raises(ValueError, match="seat columns"):
        update_sql("t", 1, {"kind": "bot"}, {}, news=None)
