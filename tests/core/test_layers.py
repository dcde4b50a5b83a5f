"""The layers of docs/architecture.md, checked on the source: every module under teocalli/ is
parsed (never imported) and each of its import statements, at any depth (function-level imports
included), is resolved to an absolute module name and checked against what its layer may import.

Dynamic imports by name (the registry's "package.module:Class" strings, the generic bots'
`importlib.import_module(f"teocalli.agents.heuristics.{game}")`) are text, not import statements,
and are allowed: that is how a lower layer reaches a higher one on purpose.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import teocalli

PACKAGE = Path(teocalli.__file__).resolve().parent

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "teocalli.core": (
        "teocalli.games",
        "teocalli.agents",
        "teocalli.arena",
        "teocalli.server",
        "teocalli.interop",
        "teocalli.analysis",
    ),
    "teocalli.games": (
        "teocalli.agents",
        "teocalli.arena",
        "teocalli.server",
        "teocalli.interop",
        "teocalli.analysis",
    ),
    "teocalli.agents": (
        "teocalli.arena",
        "teocalli.server",
        "teocalli.interop",
        "teocalli.analysis",
    ),
    "teocalli.analysis": ("teocalli.arena", "teocalli.server", "teocalli.interop"),
}
"""Per layer (a package prefix), the packages none of its modules may import."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import statement anywhere in `source`.

    `from A import b` yields both `A` and `A.b` (b may be a submodule); relative imports are
    resolved against `module`'s package.
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(layer: str) -> list[str]:
    """'path:line imports module' for each import statement of `layer` it must not make."""
    out: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if not _within(module, layer):
            continue
        source = path.read_text(encoding="utf-8")
        for line, name in imported_modules(source, module, path.name == "__init__.py"):
            if any(_within(name, banned) for banned in FORBIDDEN[layer]):
                where = f"{path.relative_to(PACKAGE.parent)}:{line}"
                out[where] = min(out.get(where, name), name, key=len)
    return [f"{where} imports {name}" for where, name in sorted(out.items())]


def test_the_scanner_sees_function_level_and_relative_imports() -> None:
    source = (
        "import os\n"
        "from . import grid\n"
        "def f():\n"
        "    from ...agents.heuristics import shifting_stones\n"
        "    import teocalli.arena.simulate\n"
    )
    found = {name for _, name in imported_modules(source, "teocalli.games.x.solo", False)}
    assert "teocalli.games.x.grid" in found
    assert "teocalli.agents.heuristics.shifting_stones" in found
    assert "teocalli.arena.simulate" in found
    assert "teocalli.games.x.solo" not in found
    init = imported_modules("from .state import S\n", "teocalli.games.x", True)
    assert (1, "teocalli.games.x.state") in init


def test_every_layer_has_modules_to_check() -> None:
    for layer in FORBIDDEN:
        modules = [p for p in PACKAGE.rglob("*.py") if _within(module_name(p), layer)]
        assert len(modules) >= 3, layer


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_a_layer_it_must_not(layer: str) -> None:
    assert violations(layer) == []


def test_no_game_imports_another_game() -> None:
    found: list[str] = []
    for path in sorted((PACKAGE / "games").rglob("*.py")):
        module = module_name(path)
        parts = module.split(".")
        if len(parts) < 3:  # teocalli.games itself registers the games by name only
            continue
        for line, name in imported_modules(
            path.read_text(encoding="utf-8"), module, path.name == "__init__.py"
        ):
            other = name.split(".")
            if other[:2] == ["teocalli", "games"] and len(other) > 2 and other[2] != parts[2]:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}")
    assert found == []
