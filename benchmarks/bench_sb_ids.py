"""Stack Back's action-id mask against the raw engine in CPU time: `-m benchmarks.bench_sb_ids`.

Plays seeded random games (after one untimed game, which builds the per-process tables and loads
the compiled kernels) and times apart, in CPU time, in one process: the raw step (the mover's
`legal_actions`, then `apply` of a drawn candidate, as `benchmarks/common.py`'s `random_step`)
and the encoder's work between them (`Encoder.observe` and `Encoder.mask` of the mover). Prints
the steps, both times and (raw + encoder) / raw: `bench_interop`'s encoders ratio without the
wall clock, which a shared machine makes noisy.
"""

from __future__ import annotations

import argparse
import sys
import time

import teocalli
from teocalli.core import Rng
from teocalli.interop.observation import encoder_for


def measure(seeds: list[int]) -> tuple[int, float, float]:
    """(steps, raw CPU seconds, encoder CPU seconds) over the games of `seeds`."""
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
    steps, raw, enc = 0, 0.0, 0.0
    for seed in seeds:
        s, r, e = play(seed)
        steps, raw, enc = steps + s, raw + r, enc + e
    return steps, raw, enc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games (seeds 0, 1, ...)")
    args = parser.parse_args(argv)
    steps, raw, enc = measure(list(range(args.games)))
    print(f"{steps} steps: raw {raw:.2f} s, encoder {enc:.2f} s CPU; "
          f"(raw + encoder) / raw = {(raw + enc) / raw:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
