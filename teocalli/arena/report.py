"""Balance reports: simulate a game at every player count and write plots and tables.

For designers: first-seat advantage by player count (with 95% intervals against the fair share),
game length, score distributions per seat, what the scores are made of (the mean of each label of
the outcomes' breakdown, per seat), and the game's own measures (every per-game statistic its
engine reports, with the one that characterises the game drawn first).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display on servers and in CI
import matplotlib.pyplot as plt

from teocalli.core import load
from teocalli.parts import part

from .simulate import Simulation, simulate
from .stats import mean, wilson_interval


def key_measures(game: str) -> tuple[str, ...]:
    """The statistics that characterise the game, drawn first: `KEY_MEASURES` of its module
    `teocalli.arena.measures.<package>` (teocalli/parts.py), none if it has no such module."""
    module = part(game, "measures")
    return tuple(getattr(module, "KEY_MEASURES", ()))


@dataclass
class Report:
    game: str
    bots: list[str]
    games: int
    seed: int
    runs: dict[int, Simulation]

    def first_seat_table(self) -> list[dict[str, Any]]:
        rows = []
        for n, sim in sorted(self.runs.items()):
            wins = sim.wins[0]
            lo, hi = wilson_interval(wins, len(sim.results))
            rows.append(
                {
                    "players": n,
                    "games": len(sim.results),
                    "seat0_win_rate": wins / len(sim.results),
                    "ci95": [lo, hi],
                    "fair_share": 1 / n,
                    "mean_length": sim.mean_length(),
                }
            )
        return rows

    def breakdown_table(self) -> list[dict[str, Any]]:
        """Per player count, the mean points of each score-breakdown label per seat (what the
        scores are made of; tie-break parts carry no points and are left out)."""
        rows = []
        for n, sim in sorted(self.runs.items()):
            outcomes = sim.outcomes()
            means = sim.mean_breakdown(outcomes)
            rows.append(
                {
                    "players": n,
                    "lower_is_better": bool(outcomes) and outcomes[0].lower_is_better,
                    "labels": list(means[0]) if means else [],
                    "seats": [list(seat.values()) for seat in means],
                }
            )
        return rows


def _breakdown_md(rows: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for r in rows:
        fewer = " (fewer is better)" if r["lower_is_better"] else ""
        lines += [
            "",
            f"### {r['players']} players: mean score breakdown per seat{fewer}",
            "",
            "| seat | " + " | ".join(r["labels"]) + " |",
            "|---|" + "---|" * len(r["labels"]),
        ]
        lines += [
            f"| {k} | " + " | ".join(f"{v:.2f}" for v in seat) + " |"
            for k, seat in enumerate(r["seats"])
        ]
    return lines


def _breakdown_html(rows: list[dict[str, Any]]) -> str:
    out = []
    for r in rows:
        fewer = " (fewer is better)" if r["lower_is_better"] else ""
        head = "".join(f"<th>{html.escape(label)}</th>" for label in r["labels"])
        body = "".join(
            f"<tr><td>{k}</td>" + "".join(f"<td>{v:.2f}</td>" for v in seat) + "</tr>"
            for k, seat in enumerate(r["seats"])
        )
        out.append(
            f"<h3>{r['players']} players: mean score breakdown per seat{fewer}</h3>"
            f"<table border='1' class='breakdown'><tr><th>seat</th>{head}</tr>{body}</table>"
        )
    return "".join(out)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _seat_plot(report: Report) -> bytes:
    fig, axes = plt.subplots(1, len(report.runs), figsize=(4 * len(report.runs), 3), squeeze=False)
    for ax, (n, sim) in zip(axes[0], sorted(report.runs.items()), strict=True):
        rates = [w / len(sim.results) for w in sim.wins]
        cis = sim.win_intervals()
        err = [
            [r - lo for r, (lo, _) in zip(rates, cis, strict=True)],
            [hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
        ]
        ax.bar(range(n), rates, yerr=err, capsize=4, color="#6a8caf")
        ax.axhline(1 / n, color="#c0392b", linestyle="--", label="fair share")
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat")
        ax.set_ylabel("win rate")
        ax.set_xticks(range(n))
        ax.legend(fontsize=7)
    fig.suptitle("Win rate by seat (95% intervals)", y=1.04)
    return _png(fig)


def _length_plot(report: Report) -> bytes:
    fig, ax = plt.subplots(figsize=(6, 3))
    for n, sim in sorted(report.runs.items()):
        ax.hist([r.length for r in sim.results], bins=30, alpha=0.5, label=f"{n} players")
    ax.set_xlabel("game length (steps)")
    ax.set_ylabel("games")
    ax.legend()
    return _png(fig)


def _score_plot(report: Report) -> bytes:
    fig, axes = plt.subplots(1, len(report.runs), figsize=(4 * len(report.runs), 3), squeeze=False)
    for ax, (n, sim) in zip(axes[0], sorted(report.runs.items()), strict=True):
        ax.boxplot([[r.scores[s] for r in sim.results] for s in range(n)])
        ax.set_xticks(range(1, n + 1), [str(s) for s in range(n)])
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat")
        ax.set_ylabel("final score")
    fig.suptitle("Score distribution by seat (the game's own units)", y=1.04)
    return _png(fig)


def _measure_plots(report: Report) -> list[tuple[str, bytes]]:
    first = next(iter(report.runs.values()))
    keys = list(first.results[0].stats) if first.results else []
    leading = [k for k in key_measures(report.game) if k in keys]
    keys = leading + [k for k in keys if k not in leading]
    plots = []
    for k in keys:
        fig, ax = plt.subplots(figsize=(6, 3))
        for n, sim in sorted(report.runs.items()):
            values = [r.stats[k] for r in sim.results]
            if isinstance(values[0], list):
                ax.bar(
                    [f"{n}p s{s}" for s in range(len(values[0]))],
                    [mean([v[s] for v in values]) for s in range(len(values[0]))],
                    alpha=0.7,
                )
                ax.set_ylabel(f"mean {k}")
            else:
                ax.hist(values, bins=20, alpha=0.5, label=f"{n} players")
                ax.set_ylabel("games")
                ax.legend()
        ax.set_title(k.replace("_", " "))
        ax.tick_params(axis="x", labelrotation=45, labelsize=7)
        plots.append((k, _png(fig)))
    return plots


def build_report(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    players: Sequence[int] | None = None,
    options: dict[str, Any] | None = None,
    workers: int | None = 1,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Simulate `games` games at each player count; the bots fill the seats in turn."""
    options = dict(options or {})
    options.pop("players", None)
    cls = load(game, **options).info
    counts = list(
        players or range(max(cls.min_players, 2 if cls.max_players > 1 else 1), cls.max_players + 1)
    )
    runs: dict[int, Simulation] = {}

    def ticker(i: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda k: progress(i * games + k, len(counts) * games)

    for i, n in enumerate(counts):
        g = load(game, players=n, **options)
        seats = [bots[k % len(bots)] for k in range(n)]
        runs[n] = simulate(
            g,
            seats,
            games,
            seed,
            ticker(i),
            workers=workers,
            ray_address=ray_address,
        )
    return Report(game, list(bots), games, seed, runs)


def write_report(report: Report, path: Path, fmt: str = "html") -> list[Path]:
    """Write the report as one self-contained HTML file, or Markdown with PNG files beside it."""
    figures = [
        ("first-seat advantage", _seat_plot(report)),
        ("game length", _length_plot(report)),
        ("scores", _score_plot(report)),
        *(_measure_plots(report)),
    ]
    rows = report.first_seat_table()
    parts = report.breakdown_table()
    title = f"{report.game} balance report"
    intro = (
        f"{report.games} games per player count, seats filled by {', '.join(report.bots)} "
        f"in turn, seed {report.seed}."
    )
    written = [path]
    if fmt == "md":
        lines = [
            f"# {title}",
            "",
            intro,
            "",
            "| players | games | seat 0 win rate | 95% CI | fair share | mean length |",
            "|---|---|---|---|---|---|",
        ]
        for r in rows:
            lo, hi = r["ci95"]
            lines.append(
                f"| {r['players']} | {r['games']} | {r['seat0_win_rate']:.1%} | "
                f"{lo:.1%}-{hi:.1%} | {r['fair_share']:.1%} | {r['mean_length']:.1f} |"
            )
        lines += ["", "## score breakdown", *_breakdown_md(parts)]
        for i, (name, png) in enumerate(figures):
            image = path.with_name(f"{path.stem}-{i}.png")
            image.write_bytes(png)
            written.append(image)
            lines += ["", f"## {name}", "", f"![{name}]({image.name})"]
        path.write_text("\n".join(lines) + "\n")
        return written
    table = "".join(
        f"<tr><td>{r['players']}</td><td>{r['games']}</td><td>{r['seat0_win_rate']:.1%}</td>"
        f"<td>{r['ci95'][0]:.1%}-{r['ci95'][1]:.1%}</td><td>{r['fair_share']:.1%}</td>"
        f"<td>{r['mean_length']:.1f}</td></tr>"
        for r in rows
    )
    images = "".join(
        f"<h2>{html.escape(name)}</h2><img alt='{html.escape(name)}' "
        f"src='data:image/png;base64,{base64.b64encode(png).decode()}'>"
        for name, png in figures
    )
    path.write_text(
        f"<!doctype html><html lang='en'><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<body><h1>{html.escape(title)}</h1><p>{html.escape(intro)}</p>"
        "<table border='1'><tr><th>players</th><th>games</th><th>seat 0 win rate</th>"
        f"<th>95% CI</th><th>fair share</th><th>mean length</th></tr>{table}</table>"
        f"<h2>score breakdown</h2>{_breakdown_html(parts)}"
        f"{images}</body></html>\n"
    )
    return written
