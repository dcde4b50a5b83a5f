"""The HTTP API: catalogue, lobby, creating tables, errors a person understands, rematch, replay."""

from __future__ import annotations

from typing import Any

import pytest


def test_games_catalogue_lists_every_game_with_options_and_bots(serve: Any) -> None:
    client = serve()
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"aztack", "stakz", "shifting-stones", "space-aztecs", "stack-back"}
    aztack = games["aztack"]
    assert aztack["min_players"] == 2 and aztack["max_players"] == 4
    assert "speed" in {o["name"] for o in aztack["options"]}
    assert {"random", "greedy"} <= set(aztack["bots"])


def test_create_lists_open_then_running_table(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "greedy"], seed=5)
    assert table["spectate"] == f"/table/{table['id']}"
    assert table["seats"][1]["link"] is None
    lobby = {t["id"]: t for t in client.get("/api/tables").json()}
    assert lobby[table["id"]]["status"] == "open"
    assert lobby[table["id"]]["seats"][0] == {
        "seat": 0, "kind": "human", "bot": None, "taken": False, "name": None, "handed_to": None,
        "present": False,
    }  # fmt: skip
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        kit.receive(ws)
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "running" and summary["seats"][0]["taken"] is True
    assert summary["step"] == 0


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [{"kind": "human"}]}, "no game 'chess'"),
        ({"game": "aztack", "seats": []}, "give the seats"),
        ({"game": "aztack", "seats": [{"kind": "human"}]}, "at least 2"),
        ({"game": "aztack", "seats": [{"kind": "human"}, {"kind": "dog"}]}, "seat 1"),
        ({"game": "aztack", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "x"}]}, "no bot"),
        (
            {"game": "aztack", "options": {"speed": "maybe"}, "seats": [{"kind": "human"}] * 2},
            "true or false",
        ),
        ({"game": "aztack", "seats": [{"kind": "human"}] * 2, "clock": {"mode": "x"}}, "clock"),
        ({"game": "aztack", "seats": [{"kind": "human"}] * 2, "seed": -1}, "seed"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_create_is_refused_with_a_reason(serve: Any, body: Any, words: str) -> None:
    client = serve()
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert words in r.json()["error"]
    assert client.get("/api/tables").json() == []


def test_malformed_and_oversized_bodies_are_refused(serve: Any) -> None:
    client = serve()
    r = client.post("/api/tables", content=b"{not json")
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = client.post("/api/tables", content=b"[" + b"1," * 20_000 + b"1]")
    assert r.status_code == 413 and "too long" in r.json()["error"]
    assert client.get("/api/tables").json() == []


def test_unknown_table_is_a_404_with_a_message(serve: Any) -> None:
    client = serve()
    for path in ("/api/tables/nope", "/api/tables/nope/replay"):
        r = client.get(path)
        assert r.status_code == 404
        assert r.json() == {"error": "there is no table 'nope'", "code": "unknown_table"}


def test_replay_shows_each_step_as_that_viewer_saw_it(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "stakz", ["human", "greedy"])
    tid, token = table["id"], table["tokens"][0]
    with kit.connect(client, tid, 0, token) as ws:
        kit.play_out(ws, kit.receive(ws))
    steps = client.get(f"/api/tables/{tid}").json()["step"]
    mine = client.get(f"/api/tables/{tid}/replay?seat=0&token={token}").json()
    public = client.get(f"/api/tables/{tid}/replay").json()
    assert mine["game"] == "stakz" and len(mine["frames"]) == steps + 1
    assert [f["step"] for f in mine["frames"]] == list(range(steps + 1))
    first_mine, first_public = mine["frames"][0]["view"], public["frames"][0]["view"]
    assert "tiles" in first_mine["state"]["hands"][0]
    assert "tiles" not in first_public["state"]["hands"][0]
    assert "tiles" not in first_mine["state"]["hands"][1]
    last = mine["frames"][-1]["view"]
    assert last["terminal"] and "tiles" in last["state"]["hands"][1]  # revealed at the end
    forged = client.get(f"/api/tables/{tid}/replay?seat=0&token=forged")
    assert forged.status_code == 403 and "does not open Seat 1" in forged.json()["error"]


def test_a_rematch_reaches_every_person_with_their_own_link(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human", "greedy"], seed=9)
    tid, tokens = table["id"], table["tokens"]
    early = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]})
    assert early.status_code == 409 and "not over" in early.json()["error"]
    with (
        kit.connect(client, tid, 0, tokens[0]) as ws0,
        kit.connect(client, tid, 1, tokens[1]) as ws1,
    ):
        socks = {0: ws0, 1: ws1}
        step = 0
        while True:  # both people play their first legal move until the end

            def reached(m: dict[str, Any], at: int = step) -> bool:
                return bool(m["type"] == "state" and m["step"] >= at)

            seen = {k: kit.until(ws, reached)[-1] for k, ws in socks.items()}
            step = min(m["step"] for m in seen.values())
            now = seen[0] if seen[0]["step"] == step else seen[1]
            if now["view"]["terminal"]:
                break
            mover = now["view"]["to_move"][0]
            if mover in socks and seen[mover]["step"] == step:
                action = seen[mover]["legal"][0]
                socks[mover].send_json({"type": "act", "action": action, "step": step})
            step += 1
        assert client.post(f"/api/tables/{tid}/rematch", json={"token": "x"}).status_code == 403
        r = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[1]})
        assert r.status_code == 201
        again = r.json()
        new = again["id"]
        assert new != tid and again["seats"][2] == {"seat": 2, "kind": "bot", "link": None}
        assert again["seats"][1]["link"] == f"/table/{new}?seat=1#token={tokens[1]}"
        assert again["seats"][0]["link"] is None  # only its own person learns a seat's link
        for k, ws in socks.items():  # every connected person is told, with their own link
            told = kit.until(ws, lambda m: m["type"] == "rematch")[-1]
            assert told == {
                "type": "rematch",
                "table": new,
                "link": f"/table/{new}?seat={k}#token={tokens[k]}",
                "spectate": f"/table/{new}",
            }
    assert client.get(f"/api/tables/{tid}").json()["rematch"] == new
    summary = client.get(f"/api/tables/{new}").json()
    assert summary["game"] == "aztack" and summary["seats"][2]["bot"] == "greedy"
    with kit.connect(client, new, 0, tokens[0]) as ws:  # a person away later: their link works
        assert kit.receive(ws)["seat"] == 0
    again = client.post(f"/api/tables/{tid}/rematch", json={"token": tokens[0]})
    assert again.status_code == 409 and again.json()["code"] == "rematch_exists"


def test_pages_and_static_files_are_served(serve: Any) -> None:
    client = serve()
    assert client.get("/").status_code == 200
    assert "text/html" in client.get("/table/abc").headers["content-type"]
    assert client.get("/static/index.html").status_code == 200
    assert client.get("/howto/chess").status_code == 404
