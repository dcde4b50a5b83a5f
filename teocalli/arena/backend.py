"""Where games run: this process, local worker processes, or a Ray cluster.

A job names everything a game needs (game name, options, seats, seeds), so any worker can play it
and the result is the same wherever it ran. Results always come back in job order.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from teocalli.core import Game, load

from .results import GameResult, play_one


@dataclass(frozen=True)
class Job:
    """One game to play: seats are bot specs in seat order."""

    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    seed: int
    index: int


@functools.lru_cache(maxsize=32)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    """Games are immutable: one per (name, options) per worker, not one per job."""
    return load(name, **dict(options))


def run_job(job: Job) -> GameResult:
    return play_one(_game(job.game, job.options), job.seats, job.seed, job.index)


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play every job and return the results in job order.

    `workers`: processes on this machine (None: one per core; 1: in this process).
    `ray_address`: run on Ray instead ("local" starts a private local instance).
    """
    if ray_address:
        return _run_ray(jobs, ray_address, progress)
    workers = default_workers() if workers is None else workers
    results: list[GameResult | None] = [None] * len(jobs)
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = run_job(job)
            if progress:
                progress(i + 1)
    else:
        # Chunks amortise the inter-process cost, which dominates games of a millisecond.
        chunk = max(1, len(jobs) // (workers * 8))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for i, result in enumerate(pool.map(run_job, jobs, chunksize=chunk)):
                results[i] = result
                if progress:
                    progress(i + 1)
    return [r for r in results if r is not None]


def _run_ray(
    jobs: Sequence[Job], address: str, progress: Callable[[int], None] | None
) -> list[GameResult]:
    import ray

    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(run_job)
    refs = [remote.remote(job) for job in jobs]
    index = {ref: i for i, ref in enumerate(refs)}
    results: list[GameResult | None] = [None] * len(jobs)
    pending = list(refs)
    done = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            results[index[ref]] = ray.get(ref)
            done += 1
            if progress:
                progress(done)
    return [r for r in results if r is not None]
