"""Where numba keeps Stack Back's compiled kernels: one directory per version of their sources.

numba checks a cached function against its own source file only, but a kernel that calls
another module's kernels, or reads a module's constants, is compiled with that code and those
values inside it: after an edit to `geom_kernels.py`, `cand_kernels`' cached machine code went
on running the old primitive (timings and hashes were taken from stale code this way). Naming
the cache directory by a digest of every kernel module and of the package modules they import
makes any such edit compile afresh, and lets checkouts of different versions on one machine
keep their caches apart. Imported first by the package, before any kernel is decorated.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import numba

HERE = Path(__file__).resolve().parent
_CONFIG: Any = numba.config  # numba's settings, read when a function is decorated
_RELATIVE = re.compile(r"^from \.(\w+) import|^from \. import (\w+)", re.MULTILINE)


def sources(folder: Path = HERE) -> list[Path]:
    """The kernel modules (`*_kernels.py`) and the package modules they import, sorted."""
    kernels = sorted(folder.glob("*_kernels.py"))
    names = {path.stem for path in kernels}
    for path in kernels:
        for match in _RELATIVE.finditer(path.read_text(encoding="utf-8")):
            names.add(match.group(1) or match.group(2))
    return sorted(folder / f"{name}.py" for name in names if (folder / f"{name}.py").is_file())


def digest(paths: list[Path]) -> str:
    """A short digest of the files' names and contents, and numba's version."""
    h = hashlib.sha256(numba.__version__.encode())
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_dir(base: str = "") -> Path:
    """The directory for this version's kernels: under `base` (the user's NUMBA_CACHE_DIR) if
    given, else under the user's cache directory."""
    root = Path(base) if base else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "teocalli-numba" / digest(sources())


def configure() -> Path:
    """Point numba's cache at this version's directory (once a process) and return it."""
    mark = "teocalli-numba"
    current = str(_CONFIG.CACHE_DIR or "")
    if mark in Path(current).parts:
        return Path(current)
    target = cache_dir(current)
    _CONFIG.CACHE_DIR = str(target)
    return target


configure()
