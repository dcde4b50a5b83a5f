"""Playing over the WebSocket: the server is the only authority, and bad input changes nothing."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from teocalli.server.messages import MAX_MESSAGE_BYTES
from teocalli.server.room import HAND_OVER_GRACE


def stored_steps(client: Any) -> list[tuple[int, str, str]]:
    """The steps as the database holds them (the truth after a restart)."""
    engine = client.app.state.db.engine
    with engine.connect() as conn:
        rows = conn.execute(sa.text('SELECT player, action, "by" FROM steps ORDER BY "index"'))
        return [tuple(r) for r in rows]


def test_full_game_against_a_bot_is_stored_step_by_step(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "greedy"], seed=3)
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        seen = kit.play_out(ws, kit.receive(ws))
    states = [m for m in seen if m["type"] == "state"]
    assert seen[-1]["type"] == "over" and seen[-1]["outcome"]["winners"]
    assert states[-1]["view"]["terminal"] and states[-1]["table"]["status"] == "finished"
    assert all(m["seat"] == 0 and m["clock"] is None for m in states)
    steps = stored_steps(client)
    assert len(steps) == states[-1]["step"]
    assert {by for p, _, by in steps if p == 1} == {"bot"}
    assert {by for p, _, by in steps if p == 0} == {"person"}
    assert [[p, a] for p, a, _ in steps] == states[-1]["log"]
    assert table["id"] not in {t["id"] for t in client.get("/api/tables").json()}


def test_bad_messages_get_clear_errors_and_change_nothing(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], seed=4)
    tid = table["id"]
    with kit.connect(client, tid, 0, table["tokens"][0]) as ws:
        first = kit.receive(ws)
        assert first["legal"] and first["step"] == 0
        bad: list[tuple[Any, str, str]] = [
            ("{oops", "bad_json", "not valid JSON"),
            ("[1]", "bad_message", "JSON object"),
            (json.dumps({"type": "dance"}), "unknown_type", "unknown message type"),
            (json.dumps({"type": "act", "step": 0}), "bad_act", "notation"),
            (json.dumps({"type": "act", "action": first["legal"][0]}), "bad_act", "step"),
            (json.dumps({"type": "act", "action": "x" * 300, "step": 0}), "bad_act", "too long"),
            ("x" * (MAX_MESSAGE_BYTES + 1), "too_large", "too long"),
            (json.dumps({"type": "act", "action": "zz@9", "step": 0}), "illegal", ""),
            (
                json.dumps({"type": "act", "action": first["legal"][0], "step": 7}),
                "stale",
                "step 7",
            ),
            (json.dumps({"type": "undo"}), "cannot_undo", "cannot be taken back"),
            (json.dumps({"type": "take_back"}), "not_handed", "not played by a bot"),
        ]
        for raw, code, words in bad:
            ws.send_text(raw)
            reply = kit.receive(ws)
            assert reply["type"] == "error" and reply["code"] == code, (raw[:40], reply)
            assert words in reply["message"]
        ws.send_bytes(b"\xff\xfe")
        assert kit.receive(ws)["code"] == "bad_json"
        ws.send_json({"type": "ping"})
        assert kit.receive(ws) == {"type": "pong"}  # no state message came in between
        assert stored_steps(client) == []
        assert client.get(f"/api/tables/{tid}").json()["step"] == 0
        # a legal move by a player whose turn it is not: the engine's own words
        with kit.connect(client, tid, 1, table["tokens"][1]) as ws1:
            other = kit.receive(ws1)
            assert other["legal"] == [] and first["view"]["to_move"] == [0]
            ws1.send_json({"type": "act", "action": first["legal"][0], "step": 0})
            reply = kit.until(ws1, lambda m: m["type"] == "error")[-1]
            assert reply["message"] == "it is not player 1's turn"
        assert stored_steps(client) == []


def test_forged_tokens_and_unknown_tables_are_refused(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "greedy"], seed=4)
    tid, token = table["id"], table["tokens"][0]
    cases = [
        (f"/ws/tables/{tid}?seat=0&token=AAAA{token[4:]}", "forged_token", "does not open Seat 1"),
        (f"/ws/tables/{tid}?seat=0", "forged_token", "does not open Seat 1"),
        (f"/ws/tables/{tid}?seat=1&token={token}", "bad_seat", "bot's seat"),
        (f"/ws/tables/{tid}?seat=5&token={token}", "bad_seat", "no seat 5"),
        (f"/ws/tables/{tid}?token={token}", "bad_seat", "seat number"),
        (f"/ws/tables/nope?seat=0&token={token}", "unknown_table", "no table 'nope'"),
    ]
    for url, code, words in cases:
        with client.websocket_connect(url) as ws:
            reply = kit.receive(ws)
            assert reply["type"] == "error" and reply["code"] == code and words in reply["message"]
            assert kit.receive(ws)["type"] == "closed"
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["taken"] is False


def test_spectators_see_the_public_view_and_cannot_act(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "stakz", ["human", "human"])
    with kit.connect(client, table["id"]) as ws:
        msg = kit.receive(ws)
        assert msg["seat"] is None and msg["legal"] == [] and msg["can_undo"] is False
        assert all("tiles" not in hand for hand in msg["view"]["state"]["hands"])
        ws.send_json({"type": "act", "action": "end R", "step": 0})
        assert kit.receive(ws)["code"] == "spectator"
        ws.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 0})
        assert kit.receive(ws)["code"] == "spectator"


def test_undo_only_what_the_history_allows(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], seed=6)
    tid = table["id"]
    with (
        kit.connect(client, tid, 0, table["tokens"][0]) as ws0,
        kit.connect(client, tid, 1, table["tokens"][1]) as ws1,
    ):
        start = kit.until(ws0, lambda m: m["type"] == "state" and m["table"]["status"] == "running")
        move = start[-1]["legal"][0]
        ws0.send_json({"type": "act", "action": move, "step": 0})
        after = kit.state_at(ws0, 1)
        assert after["can_undo"] is True
        theirs = kit.state_at(ws1, 1)
        assert theirs["can_undo"] is False
        ws1.send_json({"type": "undo"})
        assert kit.until(ws1, lambda m: m["type"] == "error")[-1]["code"] == "cannot_undo"
        ws0.send_json({"type": "undo"})
        back = kit.state_at(ws0, 0)
        assert back["log"] == [] and back["legal"] == start[-1]["legal"]
        assert stored_steps(client) == []
        assert kit.state_at(ws1, 0)["view"] == start[-1]["view"] | {"player": 1}


def test_a_seat_handed_to_a_bot_plays_on_and_can_be_taken_back(
    serve: Any, kit: Any, fake_time: Any
) -> None:
    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], seed=8)
    tid = table["id"]
    with kit.connect(client, tid, 1, table["tokens"][1]) as ws1:
        kit.receive(ws1)
        # seat 0's person never came: after the grace, seat 1 hands it to a bot, which moves
        fake_time.advance(HAND_OVER_GRACE)
        ws1.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 0})
        msg = kit.until(ws1, lambda m: m["type"] == "state" and m["step"] == 1)[-1]
        assert msg["bot_seats"] == [0] and msg["table"]["seats"][0]["handed_to"] == "greedy"
        ws1.send_json({"type": "hand_to_bot", "bot": "nobody"})
        assert "no bot 'nobody'" in kit.until(ws1, lambda m: m["type"] == "error")[-1]["message"]
        with kit.connect(client, tid, 0, table["tokens"][0]) as ws0:
            mine = kit.receive(ws0)
            assert mine["legal"] == [] and 0 in mine["bot_seats"]
            ws0.send_json({"type": "act", "action": "pass", "step": mine["step"]})
            assert kit.until(ws0, lambda m: m["type"] == "error")[-1]["code"] == "bot_controlled"
            ws1.send_json({"type": "hand_to_bot", "bot": "greedy", "seat": 0})
            present = kit.until(ws1, lambda m: m["type"] == "error")[-1]
            assert present["code"] == "seat_present"
            ws0.send_json({"type": "take_back"})
            back = kit.until(ws0, lambda m: m["type"] == "state" and 0 not in m["bot_seats"])[-1]
            assert back["table"]["seats"][0]["handed_to"] is None
            # seat 1 moves; then it is seat 0's turn and the person has it, not the bot
            ws1.send_json({"type": "act", "action": "pass", "step": back["step"]})
    bys = {by for p, _, by in stored_steps(client) if p == 0}
    assert bys == {"bot"}


def test_clock_timeout_has_a_bot_play_the_turn(serve: Any, kit: Any, fake_time: Any) -> None:
    client = serve()
    table = kit.create(
        client, "aztack", ["human", "human"], seed=2, clock={"mode": "move", "seconds": 30}
    )
    tid = table["id"]
    manager = client.app.state.manager
    with kit.connect(client, tid, 0, table["tokens"][0]) as ws:
        msg = kit.receive(ws)
        assert msg["clock"] == {
            "mode": "move", "seconds": 30.0, "remaining": [30.0, 30.0], "running_for": 0,
        }  # fmt: skip
        fake_time.advance(29)
        client.portal.call(manager.tick)
        ws.send_json({"type": "ping"})
        assert kit.receive(ws) == {"type": "pong"}  # nothing happened before the time was up
        fake_time.advance(2)
        client.portal.call(manager.tick)
        # the bot plays the rest of seat 0's turn; then seat 1's clock runs, afresh
        after = kit.until(ws, lambda m: m["type"] == "state" and 1 in m["view"]["to_move"])[-1]
        assert after["clock"]["running_for"] == 1 and after["clock"]["remaining"][1] == 30.0
        assert after["bot_seats"] == [] and after["legal"] == []
    steps = stored_steps(client)
    assert steps and {(p, by) for p, _, by in steps} == {(0, "timeout")}


def test_clock_timeout_passes_where_the_rules_allow_it(
    serve: Any, kit: Any, fake_time: Any
) -> None:
    """Shifting Stones lets a turn end at any time: an absent player's turn simply ends."""
    client = serve()
    table = kit.create(
        client,
        "shifting-stones",
        ["human", "human"],
        clock={"mode": "move", "seconds": 30},
    )
    manager = client.app.state.manager
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        kit.receive(ws)
        fake_time.advance(31)
        client.portal.call(manager.tick)
        kit.until(ws, lambda m: m["type"] == "state" and 1 in m["view"]["to_move"])
    assert stored_steps(client) == [(0, "end", "timeout")]


def test_simultaneous_choices_stay_hidden_until_all_are_in(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "space-aztecs", ["human", "human"])
    tid = table["id"]
    with (
        kit.connect(client, tid, 0, table["tokens"][0]) as ws0,
        kit.connect(client, tid, 1, table["tokens"][1]) as ws1,
    ):
        socks = {0: ws0, 1: ws1}
        latest = {k: kit.receive(ws) for k, ws in socks.items()}
        while latest[0]["view"]["decision"] != "simultaneous":  # pick piles in turn
            mover = latest[0]["view"]["to_move"][0]
            step = latest[0]["step"]
            socks[mover].send_json(
                {"type": "act", "action": latest[mover]["legal"][0], "step": step}
            )
            latest = {k: kit.state_at(ws, step + 1) for k, ws in socks.items()}
        step = latest[0]["step"]
        choice = latest[0]["legal"][0]
        ws0.send_json({"type": "act", "action": choice, "step": step})
        seen_by_1 = kit.state_at(ws1, step + 1)
        seen_by_0 = kit.state_at(ws0, step + 1)
        assert seen_by_0["log"][-1] == [0, choice]
        assert seen_by_1["log"][-1] == [0, "chose in secret"]
        assert choice.removeprefix("choose ") not in json.dumps(seen_by_1["view"]["state"])
        assert seen_by_1["legal"] and seen_by_1["view"]["to_move"] == [1]
        ws1.send_json({"type": "act", "action": seen_by_1["legal"][0], "step": step + 1})
        revealed = kit.state_at(ws1, step + 2)
        assert revealed["log"][-2] == [0, choice]


def test_race_people_act_any_time_bots_after_the_delay(serve: Any, kit: Any) -> None:
    client = serve()
    # a delay of a minute: the person's move comes first, and nothing waits for wall-clock time
    table = kit.create(
        client, "aztack", ["human", "greedy"], seed=1, options={"speed": True}, bot_delay=60
    )
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        msg = kit.receive(ws)
        assert msg["view"]["decision"] == "race" and msg["legal"]
        ws.send_json({"type": "act", "action": msg["legal"][0], "step": 0})
        after = kit.state_at(ws, 1)
        assert after["log"] == [[0, msg["legal"][0]]]
    # bots alone in a race do not wait: a whole game of bots ends without any delay
    bots = kit.create(
        client, "aztack", ["greedy", "random"], seed=1, options={"speed": True}, bot_delay=60
    )
    with kit.connect(client, bots["id"]) as ws:
        over = kit.until(ws, lambda m: m["type"] == "over")[-1]
        assert over["outcome"]["winners"]


def test_metrics_time_each_action_its_acknowledgement_and_its_store(serve: Any, kit: Any) -> None:
    from teocalli.server.metrics import parse

    client = serve()
    table = kit.create(client, "aztack", ["human", "human"], seed=1)
    tid, tokens = table["id"], table["tokens"]
    with (
        kit.connect(client, tid, 0, tokens[0]) as ws0,
        kit.connect(client, tid, 1, tokens[1]) as ws1,
    ):
        first = {0: kit.receive(ws0), 1: kit.receive(ws1)}
        mover = first[0]["view"]["to_move"][0]
        ws = (ws0, ws1)[mover]
        msg = kit.until(ws, lambda m: m["type"] == "state" and m["legal"])[-1]
        ws.send_json({"type": "act", "action": msg["legal"][0], "step": msg["step"]})
        kit.state_at(ws, msg["step"] + 1)
        ws.send_json({"type": "act", "action": "nonsense", "step": msg["step"] + 1})
        assert kit.until(ws, lambda m: m["type"] == "error")[-1]["code"] in ("illegal", "stale")
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    found = {(name, value): b[-1][1] for (name, _pid, value), b in parse(r.text).items()}
    # the refused action is timed by nobody; the one played by all three
    assert found[("teocalli_action_seconds", "person")] == 1
    assert found[("teocalli_ack_seconds", "")] == 1
    assert found[("teocalli_store_seconds", "")] == 1
