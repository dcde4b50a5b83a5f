"""The table as an attacker or bad luck would try it: each attack refused clearly, nothing lost.

Every test here runs on SQLite and on PostgreSQL (the `serve` fixture); the attacks that need a
real network stack (bodies refused before they are read, clients that never read) are in
test_hardening_process.py against a real server process.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa

from teocalli.core.rng import KEYED, SECRET_BITS
from teocalli.server.outbox import MAX_PENDING, Outbox
from teocalli.server.room import HAND_OVER_GRACE
from teocalli.server.tables import CLOCK_SAVE_EVERY

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def post_raw(client: Any, text: str) -> Any:
    return client.post("/api/tables", content=text, headers={"content-type": "application/json"})


# --- deals nobody can recompute -----------------------------------------------------------------


@pytest.mark.parametrize("game", ["stakz", "shifting-stones", "space-aztecs"])
def test_hidden_information_games_refuse_a_chosen_seed(serve: Any, game: str) -> None:
    client = serve()
    r = client.post("/api/tables", json={"game": game, "seats": HUMANS, "seed": 4})
    assert r.status_code == 400 and r.json()["code"] == "bad_seed"
    assert "hidden information" in r.json()["error"]
    assert client.get("/api/tables").json() == []


def test_perfect_information_games_may_choose_a_seed(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], seed=4)
    assert client.app.state.manager.rooms[table["id"]].seed == 4


def test_table_seeds_are_secret_128_bit_and_never_sent_before_the_end(serve: Any, kit: Any) -> None:
    client = serve()
    tables = [kit.create(client, "stakz", ["human", "greedy"]) for _ in range(3)]
    rooms = client.app.state.manager.rooms
    seeds = [rooms[t["id"]].seed for t in tables]
    assert len(set(seeds)) == 3 and all(KEYED <= s < KEYED + 2**SECRET_BITS for s in seeds)
    tid, token = tables[0]["id"], tables[0]["tokens"][0]
    secret = str(seeds[0])
    seen = [client.get("/api/tables").text, client.get(f"/api/tables/{tid}").text]
    seen.append(client.get(f"/api/tables/{tid}/replay?seat=0&token={token}").text)
    with kit.connect(client, tid, 0, token) as ws:
        first = kit.receive(ws)
        seen.append(json.dumps(first))
        ws.send_json({"type": "act", "action": first["legal"][0], "step": first["step"]})
        seen.append(json.dumps(kit.state_at(ws, 1)))
    assert not any(secret in text for text in seen)
    with engine_of(client).connect() as conn:  # stored as the text that replays it
        assert conn.execute(
            sa.text("SELECT seed FROM tables WHERE id = :i"), {"i": tid}
        ).scalar() == (secret)
    with kit.connect(client, tid, 0, token) as ws:
        kit.play_out(ws, kit.receive(ws))
    after = client.get(f"/api/tables/{tid}/replay").json()
    assert after["seed"] == secret  # a finished game's replay may say how it was dealt


def test_bot_seeds_are_derived_one_way_from_the_table_seed(serve: Any, kit: Any) -> None:
    """The old derivation kept 31 bits of the seed; a derived seed must tell nothing of it."""
    from teocalli.core import derive_seed

    client = serve()
    table = kit.create(client, "stakz", ["human", "greedy"])
    seed = client.app.state.manager.rooms[table["id"]].seed
    assert derive_seed(seed, 0, 1) != (seed * 1_000_003 + 1) % 2**31
    assert derive_seed(seed, 0, 1) != derive_seed(seed + 1, 0, 1)


# --- nothing unbounded ------------------------------------------------------------------------


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused_and_the_lobby_stays_up(serve: Any, constant: str) -> None:
    client = serve()
    body = '{"game": "aztack", "seats": [{"kind": "human"}, {"kind": "human"}], '
    r = post_raw(client, body + f'"options": {{"speed": {constant}}}}}')
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    assert f"{constant} is not a number JSON can carry" in r.json()["error"]
    r = post_raw(client, body + f'"clock": {{"mode": "move", "seconds": {constant}}}}}')
    assert r.status_code == 400
    assert client.get("/api/tables").status_code == 200
    client = serve()  # and after a restart
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"speed": [1, 2]}, "must be a number, true/false or text"),
        ({"speed": {"a": 1}}, "must be a number, true/false or text"),
        ({"speed": 2**60}, "too large a number"),
        ({"x" * 5000: 1}, "there is no option"),
    ],
)
def test_option_values_must_be_json_scalars(serve: Any, options: Any, words: str) -> None:
    client = serve()
    r = client.post("/api/tables", json={"game": "aztack", "seats": HUMANS, "options": options})
    assert r.status_code == 400 and words in r.json()["error"]
    assert len(r.json()["error"]) <= 300  # a huge input is never echoed back


def test_deeply_nested_json_is_a_clear_refusal(serve: Any, kit: Any) -> None:
    client = serve()
    for depth in (50, 8000):
        r = post_raw(client, "[" * depth + "]" * depth)
        assert r.status_code == 400 and r.json()["code"] == "too_deep", (depth, r.text)
    table = kit.create(client, "aztack", ["human", "human"])
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        kit.receive(ws)
        ws.send_text("[" * 2000 + "]" * 2000)
        reply = kit.receive(ws)
        assert reply["type"] == "error" and reply["code"] == "too_deep"
        ws.send_text('{"type": "act", "action": "pass", "step": NaN}')
        assert kit.receive(ws)["code"] == "bad_json"
        ws.send_json({"type": "ping"})
        assert kit.receive(ws)["type"] == "pong"  # the connection lives on


def test_bodies_past_the_limit_are_refused(serve: Any) -> None:
    client = serve()
    r = post_raw(client, json.dumps({"game": "aztack", "seats": HUMANS, "pad": "x" * 20_000}))
    assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_nul_and_control_characters_in_names_and_ids_are_refused(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"])
    tid, token = table["id"], table["tokens"][0]
    with client.websocket_connect(f"/ws/tables/{tid}?seat=0&token={token}&name=a%00b") as ws:
        msg = kit.receive(ws)
        assert msg["type"] == "error" and msg["code"] == "bad_name" and "NUL" in msg["message"]
        assert kit.receive(ws) == {"type": "closed", "code": 4400}
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] is None
    for bad in ("a%00b", "x" * 40, "%C3%A9t%C3%A9"):
        r = client.get(f"/api/tables/{bad}")
        assert r.status_code == 404 and r.json()["code"] == "unknown_table"
    r = client.get("/api/tables/..%2f..%2fetc")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    with client.websocket_connect("/ws/tables/a%00b") as ws:
        assert kit.receive(ws)["code"] == "unknown_table"


def test_over_long_addresses_are_refused(serve: Any) -> None:
    client = serve()
    r = client.get("/api/tables/" + "a" * 3000)
    assert r.status_code == 414 and "too long" in r.json()["error"]
    r = client.get("/api/tables?x=" + "b" * 3000)
    assert r.status_code == 414


def test_table_creation_is_rate_limited_per_address(serve: Any, fake_time: Any) -> None:
    client = serve()
    body = {"game": "aztack", "seats": HUMANS}
    codes = [client.post("/api/tables", json=body).status_code for _ in range(12)]
    assert codes == [201] * 10 + [429] * 2
    r = client.post("/api/tables", json=body)
    assert r.json()["code"] == "rate_limited" and "try again in" in r.json()["error"]
    fake_time.advance(6.0)  # the bucket refills one table every 6 s
    assert client.post("/api/tables", json=body).status_code == 201
    assert client.post("/api/tables", json=body).status_code == 429
    assert client.get("/api/tables?limit=200").json().__len__() == 11


def test_the_lobby_is_paginated(serve: Any, kit: Any) -> None:
    client = serve()
    ids = [kit.create(client, "aztack", ["human", "human"])["id"] for _ in range(5)]
    r = client.get("/api/tables?limit=2")
    assert len(r.json()) == 2 and r.headers["x-total-count"] == "5"
    assert r.headers["link"] == '</api/tables?limit=2&offset=2>; rel="next"'
    pages = [
        t["id"] for o in (0, 2, 4) for t in client.get(f"/api/tables?limit=2&offset={o}").json()
    ]
    assert sorted(pages) == sorted(ids) and len(pages) == 5
    assert "link" not in client.get("/api/tables?limit=2&offset=4").headers
    for bad in ("limit=0", "limit=1000", "offset=-1", "limit=x"):
        r = client.get(f"/api/tables?{bad}")
        assert r.status_code == 400 and r.json()["code"] == "bad_page"


def test_an_outbox_keeps_only_the_latest_state_and_drops_a_client_far_behind() -> None:
    import asyncio

    async def scenario() -> None:
        box = Outbox()
        for step in range(1000):
            box.put({"type": "state", "step": step})
        assert len(box) == 1 and (await box.get()) == {"type": "state", "step": 999}
        for _ in range(MAX_PENDING):
            box.put({"type": "pong"})
        assert not box.overflowed
        box.put({"type": "pong"})
        assert box.overflowed and len(box) == 0 and await box.get() is None

    asyncio.run(scenario())


def test_replays_are_built_once_and_served_from_the_cache(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "greedy"], seed=2)
    tid, token = table["id"], table["tokens"][0]
    with kit.connect(client, tid, 0, token) as ws:
        first = kit.receive(ws)
        ws.send_json({"type": "act", "action": first["legal"][0], "step": 0})
        kit.until(ws, lambda m: m["type"] == "state" and m["step"] >= 2)
    replays = client.app.state.manager.replays
    answers = [client.get(f"/api/tables/{tid}/replay").json() for _ in range(5)]
    assert replays.builds == 1 and all(a == answers[0] for a in answers)
    assert "seed" not in answers[0]  # not before the end
    client.get(f"/api/tables/{tid}/replay?seat=0&token={token}")
    assert replays.builds == 2  # each viewer has their own frames


# --- faults -------------------------------------------------------------------------------------


def engine_of(client: Any) -> Any:
    return client.app.state.db.engine


def play_some(client: Any, kit: Any, game: str, steps: int) -> dict[str, Any]:
    table = kit.create(client, game, ["human", "human"])
    with (
        kit.connect(client, table["id"], 0, table["tokens"][0]) as ws0,
        kit.connect(client, table["id"], 1, table["tokens"][1]) as ws1,
    ):
        socks = [ws0, ws1]
        latest = [kit.receive(ws0), kit.receive(ws1)]
        for step in range(steps):
            mover = latest[0]["view"]["to_move"][0]
            msg = (
                kit.state_at(socks[mover], step) if latest[mover]["step"] != step else latest[mover]
            )
            socks[mover].send_json({"type": "act", "action": msg["legal"][0], "step": step})
            latest = [kit.state_at(ws0, step + 1), kit.state_at(ws1, step + 1)]
    return table


@pytest.mark.parametrize("damage", ["missing step", "missing seat", "bad seed", "bad json"])
def test_a_damaged_row_damages_only_its_table(
    serve: Any, kit: Any, database_url: str, damage: str
) -> None:
    sqlite = database_url.startswith("sqlite")
    client = serve()
    broken = play_some(client, kit, "aztack", 4)["id"]
    healthy = play_some(client, kit, "aztack", 2)
    statements = {
        "missing step": 'DELETE FROM steps WHERE table_id = :i AND "index" = 1',
        "missing seat": "DELETE FROM seats WHERE table_id = :i AND seat = 1",
        "bad seed": "UPDATE tables SET seed = 'x1' WHERE id = :i",
        # PostgreSQL checks JSON on write: there the damage is JSON of the wrong shape
        "bad json": "UPDATE tables SET options = "
        + ("'{not json'" if sqlite else "'[1, 2]'")
        + " WHERE id = :i",
    }
    with engine_of(client).begin() as conn:
        conn.execute(sa.text(statements[damage]), {"i": broken})
        before = dump(conn, broken)
    client = serve()  # the server starts
    lobby = {t["id"]: t for t in client.get("/api/tables").json()}
    assert lobby[broken]["status"] == "damaged"
    reason = lobby[broken]["damaged"]
    expected = {
        "missing step": "step 1 is missing",
        "missing seat": "it has 1 seat for 2 players",
        "bad seed": "seed 'x1' is not a whole number",
        "bad json": "rows cannot be read" if sqlite else "options or settings are not JSON",
    }[damage]
    assert expected in reason, reason
    r = client.get(f"/api/tables/{broken}")
    assert r.status_code == 409 and r.json()["code"] == "damaged" and expected in r.json()["error"]
    with kit.connect(client, broken) as ws:
        assert kit.receive(ws)["code"] == "damaged"
    with engine_of(client).connect() as conn:
        assert dump(conn, broken) == before  # nothing stored is touched
    tid = healthy["id"]  # every other table plays on
    mover = client.get(f"/api/tables/{tid}/replay").json()["frames"][-1]["view"]["to_move"][0]
    with kit.connect(client, tid, mover, healthy["tokens"][mover]) as ws:
        msg = kit.receive(ws)
        assert msg["step"] == 2 and msg["legal"]
        ws.send_json({"type": "act", "action": msg["legal"][0], "step": 2})
        assert kit.state_at(ws, 3)["step"] == 3


def dump(conn: Any, table_id: str) -> list[Any]:
    rows = []
    for table, key in (("tables", "id"), ("seats", "table_id"), ("steps", "table_id")):
        result = conn.execute(sa.text(f"SELECT * FROM {table} WHERE {key} = :i"), {"i": table_id})
        rows.append(sorted(tuple(str(v) for v in r) for r in result))
    return rows


def test_a_restart_never_charges_the_downtime(serve: Any, kit: Any, fake_time: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], clock={"mode": "bank", "seconds": 600})
    tid = table["id"]
    with kit.connect(client, tid, 0, table["tokens"][0]) as ws:
        kit.receive(ws)
    manager = client.app.state.manager
    fake_time.advance(100 + CLOCK_SAVE_EVERY)  # seat 0 thinks; the clocks are stored meanwhile
    client.portal.call(manager.tick)
    used = 600 - manager.rooms[tid].clock.left(0)
    assert used == pytest.approx(100 + CLOCK_SAVE_EVERY)
    fake_time.advance(3)  # thinking after the last store is forgiven by the crash
    client = serve()
    fake_time.advance(3600)  # an hour of downtime ...
    client = serve()  # ... then the server is back
    with kit.connect(client, tid, 0, table["tokens"][0]) as ws:
        msg = kit.receive(ws)
    assert msg["clock"]["running_for"] == 0
    assert msg["clock"]["remaining"][0] == pytest.approx(600 - used)


def test_an_absent_seat_is_handed_to_a_bot_only_after_the_grace(
    serve: Any, kit: Any, fake_time: Any
) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human", "human"])
    tid, tokens = table["id"], table["tokens"]
    with kit.connect(client, tid, 0, tokens[0]) as ws0:
        kit.receive(ws0)
        with kit.connect(client, tid, 1, tokens[1]) as ws1:
            kit.receive(ws1)
            ws0.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 1})
            assert kit.until(ws0, lambda m: m["type"] == "error")[-1]["code"] == "seat_present"
        ws0.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 1})
        refusal = kit.until(ws0, lambda m: m["type"] == "error")[-1]
        assert refusal["code"] == "grace" and f"{HAND_OVER_GRACE:.0f} s" in refusal["message"]
        fake_time.advance(HAND_OVER_GRACE)
        ws0.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 1})
        kit.until(ws0, lambda m: m["type"] == "state" and 1 in m["bot_seats"])
        ws0.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 2})  # never came
        kit.until(ws0, lambda m: m["type"] == "state" and 2 in m["bot_seats"])


def test_seat_changes_are_refused_on_a_finished_table(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "greedy"], seed=3)
    tid, token = table["id"], table["tokens"][0]
    with kit.connect(client, tid, 0, token) as ws:
        kit.play_out(ws, kit.receive(ws))
    with kit.connect(client, tid, 0, token) as ws:
        kit.until(ws, lambda m: m["type"] == "over")
        for message in ({"type": "take_back"}, {"type": "hand_to_bot", "bot": "greedy"}):
            ws.send_json(message)
            reply = kit.receive(ws)
            assert reply["code"] == "finished" and "the game is over" in reply["message"]
        ws.send_json({"type": "undo"})
        assert kit.receive(ws)["code"] == "finished"
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["handed_to"] is None


@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("mcts:time=100000", "at most"),
        ("mcts:iterations=100000000", "at most"),
        ("mcts:time=nan", "finite"),
    ],
)
def test_bot_specifications_are_capped(serve: Any, kit: Any, bot: str, words: str) -> None:
    client = serve()
    r = client.post(
        "/api/tables",
        json={"game": "aztack", "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]},
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_seats" and words in r.json()["error"]
    table = kit.create(client, "aztack", ["human", "human"])
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        kit.receive(ws)
        ws.send_json({"type": "hand_to_bot", "bot": bot})
        reply = kit.receive(ws)
        assert reply["code"] == "bad_bot" and words in reply["message"]
