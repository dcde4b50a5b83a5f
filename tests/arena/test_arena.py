"""Simulations, tournaments, ratings, reports and backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import teocalli
from teocalli.arena.backend import Job, run_jobs
from teocalli.arena.report import build_report, write_report
from teocalli.arena.simulate import simulate
from teocalli.arena.stats import wilson_interval
from teocalli.arena.tournament import labels, run_tournament
from teocalli.cli import main
from teocalli.core import InvalidOption


def test_wilson_interval_matches_known_values_and_narrows() -> None:
    z2 = 1.96**2
    lo, hi = wilson_interval(30, 100)
    assert (lo, hi) == pytest.approx((0.2189, 0.3958), abs=1e-4)  # the textbook example
    lo2, hi2 = wilson_interval(300, 1000)
    assert hi2 - lo2 < hi - lo
    # at 0 and n successes the bounds have closed forms: n / (n + z^2) and z^2 / (n + z^2)
    assert wilson_interval(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))
    assert wilson_interval(10, 10) == pytest.approx((10 / (10 + z2), 1.0))
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_local_processes_give_the_same_results_as_one_process() -> None:
    game = teocalli.load("aztack", players=3)
    one = simulate(game, ["greedy", "random", "random"], 12, seed=5, workers=1)
    two = simulate(game, ["greedy", "random", "random"], 12, seed=5, workers=2)
    assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]


def test_ray_gives_the_same_results_as_local_processes() -> None:
    import ray

    jobs = [Job("aztack", (("players", 2),), ("greedy", "random"), 3, i) for i in range(6)]
    try:
        on_ray = run_jobs(jobs, ray_address="local")
    finally:
        ray.shutdown()
    local = run_jobs(jobs, workers=1)
    assert [r.to_json() for r in on_ray] == [r.to_json() for r in local]


def test_round_robin_rotates_seats_and_rates_best_first() -> None:
    game = teocalli.load("aztack")
    t = run_tournament(game, ["random", "greedy", "random"], 6, seed=2)
    assert labels(["random", "greedy", "random"]) == ["random", "greedy", "random#2"]
    assert len(t.results) == 3 * 6
    seatings = [j.seats for j in t.jobs[:6]]
    assert seatings == [("random", "greedy"), ("greedy", "random")] * 3, "seats alternate"
    board = t.leaderboard()
    assert [e.ordinal for e in board] == sorted((e.ordinal for e in board), reverse=True)
    assert sum(e.games for e in board) == 2 * 18
    assert board[0].bot == "greedy"


def test_tournaments_resume_from_a_save_to_the_same_end(tmp_path: Path) -> None:
    game = teocalli.load("aztack")
    full = run_tournament(game, ["random", "greedy"], 8, seed=3).to_json()
    save = tmp_path / "t.json"
    run_tournament(game, ["random", "greedy"], 8, seed=3, save=save)
    data = json.loads(save.read_text())
    data["results"] = data["results"][:3]  # as if the run had been killed after 3 games
    save.write_text(json.dumps(data))
    resumed = run_tournament(game, ["random", "greedy"], 8, seed=3, save=save).to_json()
    assert resumed == full
    with pytest.raises(InvalidOption, match="different tournament"):
        run_tournament(game, ["random", "greedy"], 8, seed=4, save=save)


def test_swiss_pairs_every_bot_each_round() -> None:
    game = teocalli.load("aztack")
    bots = ["random", "greedy", "random", "greedy"]
    t = run_tournament(game, bots, 2, seed=1, fmt="swiss", rounds=2)
    assert len(t.results) == 2 * 2 * 2
    with pytest.raises(InvalidOption, match="2-player"):
        run_tournament(teocalli.load("aztack", players=3), bots, 2, seed=1, fmt="swiss")


def test_tournament_json_leaderboard(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "aztack",
            "--bots",
            "random,greedy",
            "--games",
            "4",
            "--json",
            "--quiet",
            "--workers",
            "1",
        ]
    )
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    board = doc["leaderboard"]
    assert [set(e) >= {"bot", "mu", "sigma", "games", "wins"} for e in board] == [True, True]
    assert board[0]["mu"] - 3 * board[0]["sigma"] >= board[1]["mu"] - 3 * board[1]["sigma"]


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_report_writes_plots_and_the_first_seat_table(tmp_path: Path, fmt: str) -> None:
    report = build_report("aztack", ["greedy"], 6, seed=1, players=[2, 3])
    rows = report.first_seat_table()
    assert [r["players"] for r in rows] == [2, 3]
    assert all(r["ci95"][0] <= r["seat0_win_rate"] <= r["ci95"][1] for r in rows)
    parts = report.breakdown_table()
    assert [(r["players"], r["lower_is_better"], r["labels"]) for r in parts] == [
        (2, True, ["pieces left"]),
        (3, True, ["pieces left"]),  # tie-break parts carry no points: left out
    ]
    for r, n in zip(parts, (2, 3), strict=True):
        results = report.runs[n].results
        means = [sum(g.scores[k] for g in results) / len(results) for k in range(n)]
        assert [seat[0] for seat in r["seats"]] == pytest.approx(means)
    files = write_report(report, tmp_path / f"r.{fmt}", fmt)
    text = files[0].read_text()
    assert "first-seat advantage" in text and "bonus_rate" in text
    assert "score breakdown" in text and "pieces left" in text and "fewer is better" in text
    if fmt == "html":
        assert text.count("data:image/png;base64,") >= 4
    else:
        assert len(files) >= 5 and all(f.exists() for f in files)


def test_mean_breakdown_per_seat_counts_a_missing_label_as_zero() -> None:
    game = teocalli.load("stakz", players=3)
    sim = simulate(game, ["greedy", "random", "random"], 4, seed=2)
    outcomes = sim.outcomes()
    assert [o.scores for o in outcomes] == [tuple(r.scores) for r in sim.results]
    means = sim.mean_breakdown(outcomes)
    most = max(len(o.breakdown[0]) for o in outcomes)
    assert [list(seat) for seat in means] == [[f"round {k}" for k in range(1, most + 1)]] * 3
    for k in range(3):
        assert sum(means[k].values()) == pytest.approx(sum(r.scores[k] for r in sim.results) / 4)
    short = min(outcomes, key=lambda o: len(o.breakdown[0]))
    assert len(short.breakdown[0]) < most, "some match has fewer rounds: its later ones count 0"
