"""The server's own timings, as Prometheus histograms at `/metrics` (text format 0.0.4).

What a client measures includes its own machine and the network; these are the server's own
costs, each measured inside the process from the moment the message was read from its socket:
- `teocalli_action_seconds{by}`: an action taken (a person's message read, or a bot's move in
  hand) to the new state queued for every connection of this process: lock wait, engine check,
  the stored transaction, views for every connection, the news to the other processes;
- `teocalli_ack_seconds`: a person's action read to their own new state written to the socket;
- `teocalli_store_seconds`: the step's transaction (the hand-over to a database thread included);
- `teocalli_news_seconds{how}`: news of another process's change heard to the change shown here
  (`step`: the step in the news played on this copy; `change`: a seat's or the table's fields
  from the news; `reload`: the table read again);
- `teocalli_loop_lag_seconds`: how late the event loop woke a timer (how long something else
  held it: what every action waits for at worst);
- `teocalli_gc_seconds{generation}`: the garbage collector's pauses (the event loop stands still).

Bots' thinking is never in these figures: a bot's action is timed from when its move is known.
Each process counts its own; with `--workers N` a scrape reaches one of them, named by `pid`.
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import os
import time
from collections.abc import Iterable
from typing import Any

BUCKETS = (
    0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1,
    0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0,
)  # fmt: skip
"""Upper bounds in seconds: fine below 50 ms, where the aim is."""


class Histogram:
    """Counts of observations per bucket, per label value (one label at most: enough here)."""

    def __init__(self, name: str, help_text: str, label: str | None = None) -> None:
        self.name = name
        self.help = help_text
        self.label = label
        self.counts: dict[str, list[int]] = {}
        self.sums: dict[str, float] = {}

    def observe(self, seconds: float, value: str = "") -> None:
        counts = self.counts.get(value)
        if counts is None:
            counts = self.counts[value] = [0] * (len(BUCKETS) + 1)
            self.sums[value] = 0.0
        counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.sums[value] += seconds

    def count(self, value: str = "") -> int:
        return sum(self.counts.get(value, ()))

    def render(self, pid: int) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} histogram"
        for value, counts in sorted(self.counts.items()):
            labels = f'pid="{pid}"' + (f',{self.label}="{value}"' if self.label else "")
            total = 0
            for bound, n in zip((*BUCKETS, float("inf")), counts, strict=True):
                total += n
                le = "+Inf" if bound == float("inf") else repr(bound)
                yield f'{self.name}_bucket{{{labels},le="{le}"}} {total}'
            yield f"{self.name}_sum{{{labels}}} {self.sums[value]:.6f}"
            yield f"{self.name}_count{{{labels}}} {total}"


class Metrics:
    """Every histogram of one server process."""

    def __init__(self) -> None:
        self.action = Histogram(
            "teocalli_action_seconds",
            "An action read (or a bot's move in hand) to the new state queued for all connections.",
            "by",
        )
        self.ack = Histogram(
            "teocalli_ack_seconds", "A person's action read to their own new state sent."
        )
        self.store = Histogram(
            "teocalli_store_seconds", "A step's transaction, the hand-over to a thread included."
        )
        self.news = Histogram(
            "teocalli_news_seconds",
            "Another process's change heard to the change shown here (a step played, or a reload).",
            "how",
        )

        self.lag = Histogram(
            "teocalli_loop_lag_seconds", "How late the event loop woke a timer (it was busy)."
        )
        self.gc = Histogram("teocalli_gc_seconds", "The garbage collector's pauses.", "generation")
        self._gc_began = 0.0

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.gc.observe(time.perf_counter() - self._gc_began, str(info["generation"]))

    async def watch(self, every: float = 0.05) -> None:
        """Time the garbage collector's pauses and the event loop's lag until cancelled."""
        gc.callbacks.append(self._on_gc)
        try:
            while True:
                began = time.perf_counter()
                await asyncio.sleep(every)
                self.lag.observe(max(0.0, time.perf_counter() - began - every))
        finally:
            gc.callbacks.remove(self._on_gc)

    def render(self, gauges: dict[str, float]) -> str:
        pid = os.getpid()
        lines: list[str] = []
        for hist in (self.action, self.ack, self.store, self.news, self.lag, self.gc):
            lines.extend(hist.render(pid))
        for name, value in gauges.items():
            lines.append(f"# TYPE {name} gauge")
            lines.append(f'{name}{{pid="{pid}"}} {value:g}')
        return "\n".join(lines) + "\n"


def parse(text: str) -> dict[tuple[str, str, str], list[tuple[float, float]]]:
    """Read histograms back from `render`'s text: (name, pid, label value) -> [(le, count)].

    For the benchmark, which adds up the figures of every process."""
    out: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for line in text.splitlines():
        if line.startswith("#") or "_bucket{" not in line:
            continue
        head, _, number = line.rpartition(" ")
        name, _, rest = head.partition("_bucket{")
        labels = dict(part.split("=", 1) for part in rest.rstrip("}").split(","))
        labels = {k: v.strip('"') for k, v in labels.items()}
        le = float(labels.pop("le"))
        pid = labels.pop("pid")
        value = next(iter(labels.values()), "")
        out.setdefault((name, pid, value), []).append((le, float(number)))
    return out


def quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """The q-quantile of cumulative buckets [(upper bound, count)], interpolated inside its
    bucket as Prometheus's histogram_quantile does (nan without observations)."""
    if not buckets or buckets[-1][1] <= 0:
        return float("nan")
    rank = q * buckets[-1][1]
    lower, below = 0.0, 0.0
    for bound, cumulative in buckets:
        if cumulative >= rank:
            if bound == float("inf"):
                return lower
            inside = cumulative - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 1.0)
        lower, below = bound, cumulative
    return lower
