"""Run every benchmark with its defaults: `python -m benchmarks` (or `make bench`).

Each module can also run alone (`python -m benchmarks.bench_aztack --help`). Figures are rates or
ratios from one run on this machine; compare them only within a run. Every registered game's own
benchmark, `benchmarks/bench_<package>.py` (the convention of teocalli/parts.py), runs first; then
the ones across games.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import teocalli
from teocalli import parts

ACROSS_GAMES = ["bench_arena", "bench_server", "bench_interop", "bench_encoder_parts"]


def modules() -> list[str]:
    """The benchmarks to run: each registered game's that exists, then those across games."""
    here = Path(__file__).resolve().parent
    own = [Path(parts.where(name, "benchmark")).stem for name in teocalli.games()]
    return [m for m in own if (here / f"{m}.py").is_file()] + ACROSS_GAMES


def main() -> int:
    failed = []
    for module in modules():
        print(f"== benchmarks.{module}", flush=True)
        if subprocess.call([sys.executable, "-m", f"benchmarks.{module}"]) != 0:
            failed.append(module)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
