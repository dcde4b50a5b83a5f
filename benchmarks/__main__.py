"""Run every benchmark with its defaults: `python -m benchmarks` (or `make bench`).

Each module can also run alone (`python -m benchmarks.bench_aztack --help`). Figures are rates or
ratios from one run on this machine; compare them only within a run.
"""

from __future__ import annotations

import subprocess
import sys

MODULES = [
    "bench_aztack",
    "bench_stakz",
    "bench_shifting_stones",
    "bench_space_aztecs",
    "bench_stack_back",
    "bench_arena",
    "bench_server",
]


def main() -> int:
    failed = []
    for module in MODULES:
        print(f"== benchmarks.{module}", flush=True)
        if subprocess.call([sys.executable, "-m", f"benchmarks.{module}"]) != 0:
            failed.append(module)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
