"""A restarted server resumes every table exactly where it was; a killed one loses nothing."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect


def test_restart_resumes_tables_seats_clocks_and_hand_overs(
    serve: Any, kit: Any, fake_time: Any
) -> None:
    client = serve()
    table = kit.create(
        client,
        "stakz",
        ["human", "human", "greedy"],
        clock={"mode": "bank", "seconds": 600},
    )
    tid, tokens = table["id"], table["tokens"]
    with (
        kit.connect(client, tid, 0, tokens[0]) as ws0,
        kit.connect(client, tid, 1, tokens[1]) as ws1,
    ):
        msg = kit.until(ws0, lambda m: m["type"] == "state" and m["table"]["status"] == "running")
        msg = msg[-1]
        fake_time.advance(100)
        ws0.send_json({"type": "act", "action": msg["legal"][0], "step": msg["step"]})
        msg = kit.state_at(ws0, msg["step"] + 1)
        ws1.send_json({"type": "hand_to_bot", "bot": "random"})
        kit.until(ws1, lambda m: m["type"] == "state" and 1 in m["bot_seats"])
    before_summary = client.get(f"/api/tables/{tid}").json()
    manager = client.app.state.manager
    room = manager.rooms[tid]
    before_history = [(s.player, str(s.action)) for s in room.state.history]
    before_clock = room.clock.to_json() if room.clock else None

    client = serve()  # a new server on the same database
    room = client.app.state.manager.rooms[tid]
    assert [(s.player, str(s.action)) for s in room.state.history][: len(before_history)] == (
        before_history
    )
    after_summary = client.get(f"/api/tables/{tid}").json()
    assert after_summary["seats"] == before_summary["seats"]
    assert after_summary["seats"][1]["handed_to"] == "random"
    assert before_clock is not None and before_clock["remaining"][0] == pytest.approx(600 - 100)
    with kit.connect(client, tid, 0, tokens[0]) as ws0:
        msg = kit.receive(ws0)
        assert msg["seat"] == 0 and "tiles" in msg["view"]["state"]["hands"][0]
        assert msg["clock"]["remaining"][0] == pytest.approx(500)
        assert 1 in msg["bot_seats"]


def test_finished_games_keep_their_replay_after_restart(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "greedy"], seed=31)
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        seen = kit.play_out(ws, kit.receive(ws))
    final = [m for m in seen if m["type"] == "state"][-1]
    client = serve()
    replay = client.get(f"/api/tables/{table['id']}/replay").json()
    assert replay["frames"][-1]["view"] == final["view"] | {"player": None}
    assert replay["frames"][-1]["log"] == final["log"]
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "finished"


# --- a real server process, killed with SIGKILL -----------------------------------------------


def recv(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return data


def until_step(ws: ClientConnection, step: int) -> dict[str, Any]:
    while True:
        msg = recv(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["step"] >= step:
            return msg


def test_sigkill_and_restart_loses_no_acknowledged_step(
    database_url: str, server_factory: Any
) -> None:
    server = server_factory(database_url)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    body = {"game": "stakz", "seats": seats, "pace": 0}
    created = httpx.post(server.base + "/api/tables", json=body).json()
    tid, link = created["id"], created["seats"][0]["link"]
    token = link.split("#token=")[1]
    url = f"/ws/tables/{tid}?seat=0&token={token}"
    acknowledged: dict[str, Any] = {}
    with connect(server.ws_base + url) as ws:
        msg = recv(ws)
        played = 0
        while played < 6 and not msg["view"]["terminal"]:
            if msg["legal"]:
                ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "step": msg["step"]}))
                msg = until_step(ws, msg["step"] + 1)
                played += 1
                acknowledged = msg
            else:
                msg = recv(ws)
        server.kill()  # no goodbye: SIGKILL right after the acknowledgement
    server = server_factory(database_url)
    with connect(server.ws_base + url) as ws:
        resumed = recv(ws)
        assert resumed["seat"] == 0
        # everything acknowledged is there; a bot may have moved since, and that is kept too
        assert resumed["step"] >= acknowledged["step"]
        assert resumed["log"][: acknowledged["step"]] == acknowledged["log"]
        msg = resumed
        while not msg["view"]["terminal"]:  # the game goes on to its end after the restart
            if msg["legal"]:
                ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "step": msg["step"]}))
            msg = recv(ws)
            assert msg["type"] != "error", msg
    summary = httpx.get(server.base + f"/api/tables/{tid}").json()
    assert summary["status"] == "finished" and summary["outcome"]["winners"]
