"""Stack Back's action-id mask against the raw engine in CPU time: `-m benchmarks.bench_sb_ids`.

Plays seeded random games (after one untimed game, which builds the per-process tables and loads
the compiled kernels) and times apart, in CPU time, in one process: the raw step (the mover's
`legal_actions`, then `apply` of a drawn candidate, as `benchmarks/common.py`'s `random_step`)
and the encoder's work between them (`Encoder.observe` and `Encoder.mask` of the mover). Prints
the steps, both times and (raw + encoder) / raw: `bench_interop`'s encoders ratio without the
wall clock, which a shared machine makes noisy.

`--parts` also prints where the mask's time goes, in ms a step: each compiled call of the mask
(`id_kernels`), and the Python steps around them (`ids`), timed by wrapping them (about a
microsecond a call more, counted in the encoder's time; the calls nest: `_table` holds most of
the others). What is left of the encoder beyond them is glue.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import teocalli
from teocalli.core import Rng
from teocalli.games.stack_back import id_kernels, ids
from teocalli.games.stack_back.id_pool import Pool
from teocalli.interop.observation import encoder_for

PARTS: tuple[tuple[object, tuple[str, ...]], ...] = (
    (id_kernels, ("wood_first", "reaching", "pairs_due", "new_pairs", "catch_up", "cones",
                  "exist", "snap_row")),
    (ids, ("_table", "_candidate_bins", "_judge", "_scene")),
    (Pool, ("fork",)),
)  # fmt: skip
"""What `--parts` times: (module or class, names), looked up at each call by their callers."""


@contextmanager
def timed_parts(spent: Counter[str]) -> Iterator[None]:
    """Within: each of `PARTS` wrapped to add its CPU time to `spent[name]`; restored after."""
    saved: list[tuple[Any, str, Callable[..., Any]]] = []

    def wrap(owner: Any, name: str) -> None:
        inner = getattr(owner, name)
        label = name if isinstance(owner, ModuleType) else f"{owner.__name__}.{name}"

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - start

        saved.append((owner, name, inner))
        setattr(owner, name, timed)

    for owner, names in PARTS:
        for name in names:
            wrap(owner, name)
    try:
        yield
    finally:
        for owner, name, inner in saved:
            setattr(owner, name, inner)


def measure(seeds: list[int], spent: Counter[str] | None = None) -> tuple[int, float, float]:
    """(steps, raw CPU seconds, encoder CPU seconds) over the games of `seeds`; `spent` (the
    parts' times, `timed_parts`) is cleared after the untimed first game."""
    game = teocalli.load("stack-back")
    encoder = encoder_for(game)

    def play(seed: int) -> tuple[int, float, float]:
        raw = enc = 0.0
        rng = Rng(seed)
        state = game.new_state(seed)
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            start = time.process_time()
            actions = state.legal_actions(player)
            raw += time.process_time() - start
            start = time.process_time()
            encoder.observe(state, player)
            encoder.mask(state, player)
            enc += time.process_time() - start
            start = time.process_time()
            state.apply(actions[rng.randrange(len(actions))], player)
            raw += time.process_time() - start
            steps += 1
        return steps, raw, enc

    play(10_000)
    if spent is not None:
        spent.clear()
    steps, raw, enc = 0, 0.0, 0.0
    for seed in seeds:
        s, r, e = play(seed)
        steps, raw, enc = steps + s, raw + r, enc + e
    return steps, raw, enc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games (seeds 0, 1, ...)")
    parser.add_argument("--parts", action="store_true", help="also time each part of the mask")
    args = parser.parse_args(argv)
    spent: Counter[str] = Counter()
    if args.parts:
        with timed_parts(spent):
            steps, raw, enc = measure(list(range(args.games)), spent)
    else:
        steps, raw, enc = measure(list(range(args.games)))
    print(f"{steps} steps: raw {raw:.2f} s, encoder {enc:.2f} s CPU; "
          f"(raw + encoder) / raw = {(raw + enc) / raw:.2f}")  # fmt: skip
    if args.parts:
        print(f"ms a step: raw {raw / steps * 1e3:.3f}, encoder {enc / steps * 1e3:.3f}, of which")
        for name, seconds in spent.most_common():
            print(f"  {name:<16} {seconds / steps * 1e3:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
