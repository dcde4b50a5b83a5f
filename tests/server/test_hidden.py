"""No message to a seat ever carries another seat's hand, the pile's order or a secret choice."""

from __future__ import annotations

import json
from typing import Any

import teocalli


def test_no_message_to_seat_0_carries_seat_1s_tiles(serve: Any, kit: Any) -> None:
    client = serve()
    table = kit.create(client, "stakz", ["human", "greedy"])
    with kit.connect(client, table["id"], 0, table["tokens"][0]) as ws:
        seen = kit.play_out(ws, kit.receive(ws))
    room = client.app.state.manager.rooms[table["id"]]
    history = [(s.player, str(s.action)) for s in room.state.history]
    game = teocalli.load("stakz", players=2)
    checked = 0
    for msg in seen:
        if msg["type"] != "state" or msg["view"]["terminal"]:
            continue
        truth = game.replay(room.seed, history[: msg["step"]])._full()
        mine = set(truth["hands"][0]["tiles"]) | {t for st in truth["stacks"] for t in st}
        secret = (set(truth["hands"][1]["tiles"]) | set(truth["pile"]["tiles"])) - mine
        text = json.dumps(msg)
        leaked = sorted(t for t in secret if f'"{t}"' in text)
        assert not leaked, (msg["step"], leaked)
        state = msg["view"]["state"]
        assert "tiles" not in state["hands"][1] and "tiles" not in state["pile"]
        checked += bool(secret)
    assert checked > 20  # positions where seat 1 held tiles seat 0 could not see
    # at the end everything is revealed, to everyone
    final = [m for m in seen if m["type"] == "state"][-1]
    assert "tiles" in final["view"]["state"]["hands"][1]
