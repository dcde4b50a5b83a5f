"""People at the table: presence, seats taken from the lobby, and bots paced for people's eyes."""

from __future__ import annotations

from typing import Any

import pytest

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def seats_of(client: Any, tid: str) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = client.get(f"/api/tables/{tid}").json()["seats"]
    return seats


def test_presence_follows_open_connections(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"])
    tid, tokens = table["id"], table["tokens"]
    with kit.connect(client, tid, 0, tokens[0]) as ws0:
        kit.receive(ws0)
        assert [s["present"] for s in seats_of(client, tid)] == [True, False]
        with kit.connect(client, tid, 1, tokens[1]) as ws1:
            kit.receive(ws1)
            assert [s["present"] for s in seats_of(client, tid)] == [True, True]
        # seat 1 closed its tab: seat 0 is told at once that they are away
        msg = kit.until(
            ws0, lambda m: m["type"] == "state" and not m["table"]["seats"][1]["present"]
        )[-1]
        assert msg["table"]["seats"][1]["taken"] is True
    assert [s["present"] for s in seats_of(client, tid)] == [False, False]


def test_a_free_seat_is_claimed_from_the_lobby_once(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "stakz", ["human", "human"], open_seats=True)
    tid, old = table["id"], table["tokens"][1]
    lobby = {t["id"]: t for t in client.get("/api/tables").json()}
    assert lobby[tid]["open_seats"] is True
    r = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Ana"})
    assert r.status_code == 201
    link = r.json()["link"]
    token = link.split("#token=")[1]
    assert link == f"/table/{tid}?seat=1#token={token}" and token != old
    again = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bo"})
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"
    assert seats_of(client, tid)[1] | {"present": False} == {
        "seat": 1, "kind": "human", "bot": None, "taken": True, "name": "Ana",
        "handed_to": None, "present": False,
    }  # fmt: skip
    with kit.connect(client, tid, 1, token) as ws:
        assert kit.receive(ws)["seat"] == 1
    with kit.connect(client, tid, 1, old) as ws:  # the unshared old link no longer opens it
        assert kit.receive(ws)["code"] == "forged_token"


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"open_seats": False}, "seats/1/claim", "closed"),
        ({"open_seats": True}, "seats/5/claim", "bad_seat"),
        ({"open_seats": True}, "seats/x/claim", "bad_seat"),
    ],
)
def test_claims_that_are_refused(
    serve: Any, kit: Any, body: dict[str, Any], path: str, code: str
) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], **body)
    r = client.post(f"/api/tables/{table['id']}/{path}", json={"name": "Ana"})
    assert r.status_code in (400, 403) and r.json()["code"] == code
    r = client.post(f"/api/tables/{table['id']}/seats/1/claim", json={"name": "a\x00"})
    assert r.status_code in (400, 403)


def test_bots_wait_the_pace_only_while_a_person_watches(serve: Any, kit: Any) -> None:
    client = serve()
    people = kit.create(client, "aztack", ["human", "greedy"], pace=3)
    bots = kit.create(client, "aztack", ["greedy", "greedy"], pace=3)
    manager = client.app.state.manager
    assert client.get(f"/api/tables/{people['id']}").json()["pace"] == 3
    assert client.get(f"/api/tables/{bots['id']}").json()["pace"] == 0  # bot-only: instant
    room = manager.rooms[people["id"]]
    assert room.bots.pace_left() == 0.0  # nobody is there to watch
    with kit.connect(client, people["id"], 0, people["tokens"][0]) as ws:
        kit.receive(ws)
        room.last_step_at -= 1.0  # as if the last step was shown a second ago
        assert 1.5 < room.bots.pace_left() <= 2.0
        room.last_step_at -= 5.0
        assert room.bots.pace_left() < 0
    r = client.post("/api/tables", json={"game": "aztack", "seats": HUMANS, "pace": 11})
    assert r.status_code == 400 and r.json()["code"] == "bad_pace"


def test_a_seat_named_at_creation_is_its_creators_and_never_free(serve: Any) -> None:
    client = serve()
    body = {
        "game": "aztack",
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
        "open_seats": True,
        "pace": 0,
    }
    tid = client.post("/api/tables", json=body).json()["id"]
    seats = seats_of(client, tid)
    assert (seats[0]["name"], seats[0]["taken"], seats[1]["taken"]) == ("Ana", True, False)
    r = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Bo"})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    body["seats"] = [{"kind": "human", "name": "a\x00"}, {"kind": "human"}]
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json()["code"] == "bad_name"


def test_judge_says_whether_a_move_is_legal_and_plays_nothing(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "stack-back", ["human", "human"])
    tid, tokens = table["id"], table["tokens"]
    with (
        kit.connect(client, tid, 0, tokens[0]) as ws0,
        kit.connect(client, tid, 1, tokens[1]) as ws1,
    ):
        socks = {0: ws0, 1: ws1}
        first = {k: kit.receive(ws) for k, ws in socks.items()}
        mover = first[0]["view"]["to_move"][0]
        ws = socks[mover]
        ws.send_json({"type": "judge", "action": "Y60.0,50.0@37.0", "step": 0})
        assert kit.until(ws, lambda m: m["type"] == "judged")[-1] == {
            "type": "judged", "step": 0, "action": "Y60.0,50.0@37.0", "legal": True, "reason": None,
        }  # fmt: skip
        ws.send_json({"type": "judge", "action": "Y500.0,50.0@0.0", "step": 0})
        off = kit.until(ws, lambda m: m["type"] == "judged")[-1]
        assert off["legal"] is False and off["reason"]
        ws.send_json({"type": "judge", "action": "Y60.0,50.0@37.0", "step": 3})
        judged = kit.until(ws, lambda m: m["type"] == "judged")[-1]
        assert judged["reason"] == "the position has changed since"
        other = socks[1 - mover]
        other.send_json({"type": "judge", "action": "pass", "step": 0})
        judged = kit.until(other, lambda m: m["type"] == "judged")[-1]
        assert judged["legal"] is False and "turn" in judged["reason"]  # refused by the rules
    assert client.get(f"/api/tables/{tid}").json()["step"] == 0  # nothing was played
    with kit.connect(client, tid) as watcher:
        kit.receive(watcher)
        watcher.send_json({"type": "judge", "action": "pass", "step": 0})
        assert kit.receive(watcher)["code"] == "spectator"


def test_judging_is_rate_limited_per_connection(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"])
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        kit.receive(ws)
        for _ in range(40):
            ws.send_json({"type": "judge", "action": "pass", "step": 0})
        replies = [kit.until(ws, lambda m: m["type"] in ("judged", "error"))[-1] for _ in range(40)]
        codes = [r.get("code") for r in replies]
    assert "too_fast" in codes and codes.count("too_fast") <= 40 - 20


def test_hints_on_solo_tables_and_off_with_other_people(serve: Any, kit: Any) -> None:
    client = serve()
    solo = kit.create(client, "shifting-stones", ["human"])
    duel = kit.create(client, "shifting-stones", ["human", "human"])
    assert client.get(f"/api/tables/{solo['id']}").json()["hints"] is True
    assert client.get(f"/api/tables/{duel['id']}").json()["hints"] is False
    with kit.connect(client, solo["id"], 0, solo["tokens"][0]) as ws:
        msg = kit.receive(ws)
        ws.send_json({"type": "hint"})
        hint = kit.until(ws, lambda m: m["type"] in ("hint", "error"))[-1]
        assert hint["type"] == "hint" and hint["step"] == msg["step"]
        assert hint["action"] in msg["legal"]
    with kit.connect(client, duel["id"], 0, duel["tokens"][0]) as ws:
        kit.receive(ws)
        ws.send_json({"type": "hint"})
        assert kit.until(ws, lambda m: m["type"] == "error")[-1]["code"] == "no_hints"
