"""Regenerate the golden playthroughs and perft tables: `python scripts/regen_golden.py [GAME...]`.

Run it only after a deliberate change of behaviour (and bump that game's version), then review the
diff: every changed line is a changed rule, view or notation.
"""

from __future__ import annotations

import sys
from pathlib import Path

import teocalli
from teocalli.core.golden import write_golden

ROOT = Path(__file__).resolve().parent.parent / "tests" / "golden"


def main(names: list[str]) -> None:
    for name in names or teocalli.games():
        write_golden(ROOT, name)
        print(f"wrote golden files for {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
