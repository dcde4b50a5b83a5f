"""The `teocalli` command: play at a scripted terminal, simulate with --json."""

from __future__ import annotations

import json

import pytest

import teocalli
from teocalli.cli import TerminalTable, main


def test_play_explains_a_refused_move_and_finishes_a_game() -> None:
    answers = ["Gw/Yt@a1-a2"]  # in hand (seed 5), but a1-a2 lie on one base stone: never legal

    def read(prompt: str) -> str:
        return answers.pop(0) if answers else "0"  # then always the first legal move

    lines: list[str] = []
    table = TerminalTable(
        teocalli.load("aztack"), ["human", "greedy"], 5, read=read, write=lines.append
    )
    final = table.run()
    text = "\n".join(lines)
    assert final.is_terminal()
    assert "refused: a stone must bridge two stones: a1 and a2 are both on Gw/Bf" in text
    assert "legal moves: [0]" in text
    assert "winner: player" in text
    out = final.outcome()
    assert "scores: fewer is better" in text  # Aztack counts stones left
    for p in range(2):
        assert f"player {p} ({['human', 'greedy'][p]}): score {out.scores[p]:g}" in text
        assert f"    pieces left: {out.scores[p]:g}" in lines


def test_play_prints_each_breakdown_and_a_solo_loss_has_no_winner() -> None:
    lines: list[str] = []
    final = TerminalTable(
        teocalli.load("shifting-stones", players=1), ["greedy"], 1, write=lines.append
    ).run()
    out = final.outcome()
    assert out.won == (False,), "seed 1: the greedy bot collects 4 strikes"
    assert lines[-4:] == [
        "game over: the solo player collected 4 strikes",
        f"  player 0 (greedy): score {out.scores[0]:g}, place 1",
        f"    card points: {out.scores[0]:g}",
        "winner: nobody",
    ]
    lines.clear()
    TerminalTable(teocalli.load("stakz"), ["greedy", "greedy"], 2, write=lines.append).run()
    assert "scores: fewer is better" in lines
    assert any(line.startswith("    round 1: ") and ", round 2: " in line for line in lines)


def test_play_can_be_abandoned() -> None:
    lines: list[str] = []
    table = TerminalTable(
        teocalli.load("aztack"), ["human", "random"], 1, read=lambda p: "quit", write=lines.append
    )
    assert not table.run().is_terminal()
    assert lines[-1] == "game abandoned"


def test_simulate_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate",
            "aztack",
            "--games",
            "6",
            "--seats",
            "random,greedy",
            "--seed",
            "4",
            "--json",
            "--quiet",
        ]
    )
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"game", "games", "seed", "seats", "wins", "mean_length", "results"} <= set(doc)
    assert doc["game"] == "aztack" and doc["games"] == 6 and doc["seats"] == ["random", "greedy"]
    assert sum(doc["wins"]) == pytest.approx(6)
    assert [r["seed"] for r in doc["results"]] == [4, 5, 6, 7, 8, 9]
    first = doc["results"][0]
    replay = teocalli.load("aztack").replay(first["seed"], [tuple(s) for s in first["steps"]])
    assert list(replay.outcome().winners) == first["winners"]
    assert doc["lower_is_better"] is True
    means = doc["mean_breakdown"]
    assert [list(seat) for seat in means] == [["pieces left"], ["pieces left"]]
    for k in range(2):
        mean_score = sum(r["scores"][k] for r in doc["results"]) / 6
        assert means[k]["pieces left"] == pytest.approx(mean_score)


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "simulate",
        "aztack",
        "--games",
        "4",
        "--seats",
        "greedy,random,random",
        "--json",
        "--quiet",
    ]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first


def test_simulate_table_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "aztack", "--games", "3", "--seats", "random,greedy", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "mean stones left" in out and "bonus rate" in out
    assert "mean score breakdown" in out and "pieces left" in out and "fewer is better" in out
    assert main(["simulate", "aztack", "--seats", "random,nobody"]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err
    assert main(["simulate", "aztack", "--seats", "random,random", "-o", "speed=maybe"]) == 2
    assert "true or false" in capsys.readouterr().err
