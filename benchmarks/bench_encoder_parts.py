"""Where an encoder's time goes, per step: `python -m benchmarks.bench_encoder_parts [GAME ...]
[--episodes N] [--rounds R]`.

`bench_interop`'s encoders column gives one ratio; this splits it. For each game it plays the same
seeded random episodes (the encoders loop of `bench_interop`: the mover's observation and mask,
then a drawn legal action) four ways: the bare step, with `observe` only, with `mask` only, with
both, each in CPU time after collecting the garbage, `--rounds` times in turn, the least per
way kept. Prints CPU microseconds a step for the step and what each part adds, and (step +
both) / step, the encoders ratio without the adapters' protocol.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time

import teocalli

from .bench_interop import engine_encoders

EPISODES = {"shifting-stones": 400, "stack-back": 6}
"""Episodes a round where the default (150) would take too long or too little."""
WAYS = ((False, False), (True, False), (False, True), (True, True))
"""(observe, mask) per loop: the bare step, observe only, mask only, both."""


def measure(name: str, episodes: int, rounds: int) -> dict[tuple[bool, bool], float]:
    """CPU microseconds a step for each of `WAYS` (the least over `rounds`)."""
    plays = {way: engine_encoders(name, *way) for way in WAYS}
    for play in plays.values():
        play(99_999)  # first-use costs (tables, compiled kernels) outside the timing
    best = dict.fromkeys(WAYS, float("inf"))
    for _ in range(rounds):
        for way, play in plays.items():
            gc.collect()
            start = time.process_time()
            steps = sum(play(k) for k in range(episodes))
            best[way] = min(best[way], (time.process_time() - start) / steps * 1e6)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--episodes", type=int, default=0, help="episodes a round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the least kept)")
    args = parser.parse_args(argv)
    for name in args.games or teocalli.games():
        episodes = args.episodes or EPISODES.get(name, 150)
        us = measure(name, episodes, args.rounds)
        step = us[(False, False)]
        print(
            f"{name}: CPU us a step: step {step:.2f}, observe +{us[(True, False)] - step:.2f}, "
            f"mask +{us[(False, True)] - step:.2f}, both +{us[(True, True)] - step:.2f}; "
            f"(step + both) / step {us[(True, True)] / step:.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
