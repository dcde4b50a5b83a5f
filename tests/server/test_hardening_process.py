"""Attacks that need a real network stack, against a real `teocalli serve` process on SQLite and
on PostgreSQL: bodies refused before they are read, huge addresses, clients that never read."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import httpx
from websockets.sync.client import connect

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def rss_kib(pid: int) -> int:
    """The resident memory of a process (Linux), in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def raw_request(port: int, head: bytes, body: bytes = b"") -> bytes:
    """Send a request by hand and read the answer until the server closes or 64 KiB came."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head + body)
        answer = b""
        while len(answer) < 65_536:
            try:
                chunk = sock.recv(65_536)
            except TimeoutError:
                break
            if not chunk:
                break
            answer += chunk
            if b"\r\n\r\n" in answer and answer.split(b"\r\n\r\n", 1)[1].endswith(b"}"):
                break
        return answer


def port_of(server: Any) -> int:
    return int(server.base.rsplit(":", 1)[1])


def test_a_huge_body_is_refused_before_it_is_read(database_url: str, server_factory: Any) -> None:
    server = server_factory(database_url)
    before = rss_kib(server.proc.pid)
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 300000000\r\n\r\n"
    )
    answer = raw_request(port_of(server), head, b'{"game": "aztack"' + b" " * 60_000)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"too long (300000000 bytes; at most 16384)" in answer
    # a chunked body with no declared length is cut off at the limit too
    chunk = b" " * 8000
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(5))
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    assert raw_request(port_of(server), head, chunked).startswith(b"HTTP/1.1 413")
    assert rss_kib(server.proc.pid) - before < 20_000
    assert httpx.get(server.base + "/api/tables").status_code == 200


def test_malformed_requests_get_clear_answers_never_a_drop_or_500(
    database_url: str, server_factory: Any
) -> None:
    server = server_factory(database_url)
    base = server.base
    nested = "[" * 5000 + "]" * 5000
    r = httpx.post(
        base + "/api/tables", content=nested, headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["code"] == "too_deep"
    nan = '{"game": "aztack", "seats": [{"kind": "human"}], "options": {"speed": NaN}}'
    r = httpx.post(base + "/api/tables", content=nan)
    assert r.status_code == 400 and "NaN" in r.json()["error"]
    r = httpx.get(base + "/api/tables/" + "a" * 5000)
    assert r.status_code == 414 and "too long" in r.json()["error"]
    r = httpx.get(base + "/api/tables/a%00b")
    assert r.status_code == 404 and r.json()["code"] == "unknown_table"
    # a request line far past what the HTTP parser buffers: refused with a status, not dropped
    answer = raw_request(
        port_of(server), b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 4"), answer[:100]
    assert httpx.get(base + "/api/tables").json() == []  # nothing was created, the lobby is up


def test_a_client_that_never_reads_cannot_grow_the_server(
    database_url: str, server_factory: Any
) -> None:
    server = server_factory(database_url)
    created = httpx.post(server.base + "/api/tables", json={"game": "aztack", "seats": HUMANS})
    tid = created.json()["id"]
    before = rss_kib(server.proc.pid)
    # each refusal names the unknown type (clipped): a few hundred bytes that are never read
    ping = json.dumps({"type": "t" * 250}).encode()
    sent = 0
    with connect(f"{server.ws_base}/ws/tables/{tid}", max_size=2**20) as ws:
        ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            for _ in range(200_000):
                ws.send(ping)
                sent += 1
        except Exception:  # the server dropped this client: that is the point
            pass
        closed = None
        deadline = time.monotonic() + 60
        while closed is None and time.monotonic() < deadline:
            try:
                ws.recv(timeout=10)
            except Exception as err:
                closed = err
    grown = rss_kib(server.proc.pid) - before
    assert closed is not None and "4408" in str(closed), (sent, closed)
    assert grown < 50_000, f"the server grew by {grown} KiB"
    assert httpx.get(server.base + f"/api/tables/{tid}").status_code == 200


def test_rate_limits_hold_on_a_real_server(database_url: str, server_factory: Any) -> None:
    server = server_factory(database_url, None, "--rate-limit", "create=3/600")
    body = {"game": "aztack", "seats": HUMANS}
    codes = [httpx.post(server.base + "/api/tables", json=body).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]


def test_secret_seeds_on_a_real_server(database_url: str, server_factory: Any) -> None:
    """A chosen seed is refused for a hidden game; the stored seed is 128-bit and never sent."""
    import sqlalchemy as sa

    from teocalli.core.rng import KEYED, SECRET_BITS

    server = server_factory(database_url)
    r = httpx.post(server.base + "/api/tables", json={"game": "stakz", "seats": HUMANS, "seed": 7})
    assert r.status_code == 400 and r.json()["code"] == "bad_seed"
    created = httpx.post(server.base + "/api/tables", json={"game": "stakz", "seats": HUMANS})
    tid, link = created.json()["id"], created.json()["seats"][0]["link"]
    engine = sa.create_engine(database_url)
    with engine.connect() as conn:
        seed = conn.execute(sa.text("SELECT seed FROM tables WHERE id = :i"), {"i": tid}).scalar()
    engine.dispose()
    assert KEYED <= int(seed) < KEYED + 2**SECRET_BITS
    token = link.split("#token=")[1]
    texts = [created.text, httpx.get(server.base + "/api/tables").text]
    texts.append(httpx.get(server.base + f"/api/tables/{tid}/replay?seat=0&token={token}").text)
    with connect(f"{server.ws_base}/ws/tables/{tid}?seat=0&token={token}") as ws:
        texts.append(str(ws.recv(timeout=60)))
    assert not any(seed in text for text in texts)


def test_bad_input_never_poisons_the_lobby_across_a_restart(
    database_url: str, server_factory: Any
) -> None:
    server = server_factory(database_url)
    base = server.base
    bad = [
        '{"game": "aztack", "seats": [{"kind": "human"}], "options": {"speed": NaN}}',
        '{"game": "aztack", "seats": [{"kind": "human"}, {"kind": "human"}], '
        '"options": {"speed": [1e400]}}',
        '{"game": "aztack", "seats": [{"kind": "human"}, '
        '{"kind": "bot", "bot": "mcts:time=100000"}]}',
        '{"game": "aztack", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random\\u0000"}]}',
    ]
    for body in bad:
        r = httpx.post(base + "/api/tables", content=body)
        assert r.status_code == 400 and r.json()["error"], body
    good = httpx.post(base + "/api/tables", json={"game": "aztack", "seats": HUMANS}).json()
    url = f"{server.ws_base}/ws/tables/{good['id']}?seat=0&token="
    url += good["seats"][0]["link"].split("#token=")[1]
    with connect(url + "&name=a%00b") as ws:
        assert json.loads(ws.recv(timeout=60))["code"] == "bad_name"
    server.kill()
    server = server_factory(database_url)
    lobby = httpx.get(server.base + "/api/tables?limit=1")
    assert lobby.status_code == 200 and [t["id"] for t in lobby.json()] == [good["id"]]
    assert lobby.headers["x-total-count"] == "1"


def test_a_damaged_table_on_a_real_server_leaves_the_rest_playing(
    database_url: str, server_factory: Any
) -> None:
    import sqlalchemy as sa

    server = server_factory(database_url)
    tables = [
        httpx.post(server.base + "/api/tables", json={"game": "aztack", "seats": HUMANS}).json()
        for _ in range(2)
    ]
    server.kill()
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM seats WHERE table_id = :i"), {"i": tables[0]["id"]})
    engine.dispose()
    server = server_factory(database_url)  # it starts
    lobby = {t["id"]: t for t in httpx.get(server.base + "/api/tables").json()}
    assert lobby[tables[0]["id"]] == {
        "id": tables[0]["id"], "status": "damaged", "damaged": "it has no seats", "seats": [],
    }  # fmt: skip
    r = httpx.get(server.base + f"/api/tables/{tables[0]['id']}")
    assert r.status_code == 409 and "it has no seats" in r.json()["error"]
    token = tables[1]["seats"][0]["link"].split("#token=")[1]
    with connect(f"{server.ws_base}/ws/tables/{tables[1]['id']}?seat=0&token={token}") as ws:
        first = json.loads(ws.recv(timeout=60))
        ws.send(json.dumps({"type": "act", "action": first["legal"][0], "step": 0}))
        while (msg := json.loads(ws.recv(timeout=60)))["type"] != "state":
            pass
        assert msg["step"] == 1
