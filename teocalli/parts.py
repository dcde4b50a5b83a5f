"""Where every layer finds a game's parts: one naming convention, no per-game lists.

A game is registered once (`teocalli/games/__init__.py`) under its name, written with hyphens
(`space-aztecs`); its Python package name is the same with underscores (`space_aztecs`). Every
other layer finds the game's part in it by that name alone, as `LAYERS` describes: a module by
its dotted name, a file by its path, a catalogue entry by its key. Nothing else lists the games:
the interop encoders, the arena's report, the CLI's `solve`, the benchmarks and the tests iterate
`teocalli.games()` and ask `part(name, layer)`.

`missing_parts(name)` names every part a registered game lacks, with the path where it belongs;
`tests/test_parts.py` runs it over every registered game.

This module sits above the layers it describes (the core must not know them), and imports each
part lazily, only when asked.
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import re
import typing
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from teocalli.core import TeocalliError, game_class, games

ROOT = Path(__file__).resolve().parent.parent
"""Where the `teocalli` package sits: the source checkout (or site-packages once installed)."""

CATALOGUE = "teocalli/web/i18n/en.json"
"""The browser client's strings, in which catalogue layers name keys."""


class MissingPart(TeocalliError, LookupError):
    """A layer asked for a part the game does not have."""


@dataclass(frozen=True)
class Layer:
    """How one layer names a game's part. Patterns use `{name}` (hyphens) and `{pkg}` (its Python
    package name, underscores)."""

    name: str
    path: str
    """The file (or package directory, ending in "/") relative to the checkout; for a catalogue
    layer, the catalogue key."""
    about: str
    module: str | None = None
    """Its dotted module name, for parts that are Python modules (found by importing)."""
    exports: tuple[str, ...] = ()
    """Names the module (or, for a script, the file, as `export function NAME`) must define."""
    required: bool = True
    """Optional parts add a feature where present (a solver); required ones every game has."""
    source: bool = False
    """Only in the source checkout (tests, docs, benchmarks), not in the installed package."""
    accepts: str | None = None
    """A glob: any such file stands for the part (per-game test files carry their own prefixes)."""
    besides: str | None = None
    """A layer whose files do not count for this one (property tests are not rule tests)."""
    sections: int = 0
    """A catalogue entry that is a list of at least this many sections, not one string."""
    game_classes: bool = False
    """The module also exports the registered Game class, its State class and every class of
    its `Action` union, each under its own name (a game package's roles)."""

    @property
    def kind(self) -> str:
        """How the part is found: a module (imported), a file, or a catalogue key (no "/")."""
        if self.module is not None:
            return "module"
        return "file" if "/" in self.path else "catalogue"


LAYERS: tuple[Layer, ...] = (
    Layer(
        "rules",
        "teocalli/games/{pkg}/",
        "the engine, registered in teocalli/games/__init__.py; its `__init__` exports the roles "
        "of docs/architecture.md (A game package)",
        module="teocalli.games.{pkg}",
        exports=("Action", "EndReason", "from_position", "parse", "render", "to_position"),
        game_classes=True,
    ),
    Layer(
        "components",
        "teocalli/games/{pkg}/components.json",
        "the game's components as data, loaded and validated at import by its components.py",
    ),
    Layer(
        "heuristics",
        "teocalli/agents/heuristics/{pkg}.py",
        "the greedy bot's move; optionally rollout, evaluate, turns, TURN_SEARCH for search bots",
        module="teocalli.agents.heuristics.{pkg}",
        exports=("choose",),
    ),
    Layer(
        "observation",
        "teocalli/interop/observation/{pkg}.py",
        "the fixed-shape observation encoder of the Gymnasium, PettingZoo and OpenSpiel adapters",
        module="teocalli.interop.observation.{pkg}",
        exports=("ENCODER",),
    ),
    Layer(
        "measures",
        "teocalli/arena/measures/{pkg}.py",
        "the engine statistics that characterise the game, drawn first in its balance report",
        module="teocalli.arena.measures.{pkg}",
        exports=("KEY_MEASURES",),
    ),
    Layer(
        "solver",
        "teocalli/games/{pkg}/solve_cli.py",
        "`teocalli solve <game> ...`: run(argv) -> exit code",
        module="teocalli.games.{pkg}.solve_cli",
        exports=("run",),
        required=False,
    ),
    Layer(
        "renderer",
        "teocalli/web/js/games/{name}.js",
        "the browser's board: render(view, ui) gives an SVG, describe(action, t) words for a move",
        exports=("render", "describe"),
    ),
    Layer("title", "games.{name}.title", "the game's title in the lobby and on its pages"),
    Layer(
        "option labels",
        "games.{name}.options.{option}",
        "a label for every option but players, in the lobby form",
    ),
    Layer("how-to", "howto.pages.{name}", "the how-to-play page's sections", sections=3),
    Layer(
        "how-to example",
        "teocalli/web/examples/{name}.json",
        "the position the how-to page draws: `python tests/web/examples.py` writes it",
    ),
    Layer(
        "docs",
        "docs/games/{name}.md",
        "the complete rules, every ruling, notation, engine notes",
        source=True,
    ),
    Layer(
        "golden playthrough",
        "tests/golden/{name}.playthrough.txt",
        "`make golden` writes it",
        source=True,
    ),
    Layer("golden perft", "tests/golden/{name}.perft.json", "`make golden` writes it", source=True),
    Layer(
        "rule tests",
        "tests/games/{pkg}/test_rules.py",
        "the rulebook's scenarios and rulings",
        source=True,
        accepts="tests/games/{pkg}/test_*.py",
        besides="property tests",
    ),
    Layer(
        "property tests",
        "tests/games/{pkg}/test_properties.py",
        "hypothesis properties over random play",
        source=True,
        accepts="tests/games/{pkg}/test_*properties.py",
    ),
    Layer(
        "benchmark",
        "benchmarks/bench_{pkg}.py",
        "throughput on one core; `python -m benchmarks` runs it",
        source=True,
    ),
)

_BY_NAME = {spec.name: spec for spec in LAYERS}


def layer(name: str) -> Layer:
    """A layer of `LAYERS` by its name ("observation", "solver", ...)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no layer {name!r}; the layers are: {', '.join(_BY_NAME)}") from None


def package_name(name: str) -> str:
    """A game's Python package name: its registered name with underscores."""
    return name.replace("-", "_")


def _fill(pattern: str, name: str, **extra: str) -> str:
    return pattern.format(name=name, pkg=package_name(name), **extra)


def where(name: str, layer_name: str) -> str:
    """Where the game's part of a layer belongs: a path relative to the checkout, or a key."""
    return _fill(layer(layer_name).path, name, option="<option>")


def module_name(name: str, layer_name: str) -> str:
    pattern = layer(layer_name).module
    if pattern is None:
        raise ValueError(f"the {layer_name} layer is not a Python module")
    return _fill(pattern, name)


def part(name: str, layer_name: str) -> ModuleType | None:
    """The game's module of a layer, or None if it has none (an error inside it propagates)."""
    module = module_name(name, layer_name)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name is not None and (module == err.name or module.startswith(err.name + ".")):
            return None
        raise


def require(name: str, layer_name: str) -> ModuleType:
    """The game's module of a layer; a clear error naming the file to add if it has none."""
    found = part(name, layer_name)
    if found is None:
        spec = layer(layer_name)
        needs = f" defining {', '.join(spec.exports)}" if spec.exports else ""
        raise MissingPart(
            f"{name} has no {layer_name} part: add {where(name, layer_name)}{needs} "
            "(the convention is in teocalli/parts.py)"
        )
    return found


def export(name: str, layer_name: str) -> Any:
    """The first name the layer's module must define (`ENCODER`, `KEY_MEASURES`, `run`, ...)."""
    spec = layer(layer_name)
    module = require(name, layer_name)
    try:
        return getattr(module, spec.exports[0])
    except AttributeError:
        raise MissingPart(
            f"{module.__name__} must define {spec.exports[0]} (see teocalli/parts.py)"
        ) from None


def having(layer_name: str, root: Path | None = None) -> list[str]:
    """The registered games whose file for this layer exists (cheap: nothing is imported)."""
    base = ROOT if root is None else root
    return [n for n in games() if _file_present(base, layer(layer_name), n)]


# --- the checker --------------------------------------------------------------------------------


def _catalogue(root: Path) -> dict[str, Any]:
    path = root / CATALOGUE
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _lookup(catalogue: dict[str, Any], key: str) -> Any:
    node: Any = catalogue
    for piece in key.split("."):
        if not isinstance(node, dict) or piece not in node:
            return None
        node = node[piece]
    return node


def _matches(root: Path, pattern: str, name: str) -> set[Path]:
    glob = _fill(pattern, name)
    folder, _, leaf = glob.rpartition("/")
    directory = root / folder
    if not directory.is_dir():
        return set()
    return {p for p in directory.iterdir() if p.is_file() and fnmatch.fnmatch(p.name, leaf)}


def _file_present(root: Path, spec: Layer, name: str) -> bool:
    path = _fill(spec.path, name)
    if spec.accepts is None:
        target = root / path
        if path.endswith("/"):
            return target.is_dir()
        # a module may also be a package: heuristics/<pkg>.py or heuristics/<pkg>/__init__.py
        package = spec.module is not None and (target.with_suffix("") / "__init__.py").is_file()
        return target.is_file() or package
    found = _matches(root, spec.accepts, name)
    if spec.besides is not None:
        other = layer(spec.besides)
        found -= _matches(root, other.accepts or other.path, name)
    return bool(found)


def _script_exports(path: Path, exports: tuple[str, ...]) -> list[str]:
    text = path.read_text()
    return [
        e
        for e in exports
        if not re.search(
            rf"^export\s+(?:async\s+)?(?:function|const|let|class)\s+{e}\b", text, re.M
        )
    ]


def _role_classes(name: str, package: ModuleType) -> list[str]:
    """The Game class, its State class and its action classes (the package's `Action` union)."""
    cls = game_class(name)
    actions = typing.get_args(getattr(package, "Action", None))
    return [cls.__name__, cls.state_class.__name__, *(a.__name__ for a in actions)]


def _check(spec: Layer, name: str, root: Path, catalogue: dict[str, Any]) -> list[str]:
    path = _fill(spec.path, name, option="{option}")
    if spec.kind == "module":
        module = part(name, spec.name)
        if module is None:
            needs = f" defining {', '.join(spec.exports)}" if spec.exports else ""
            return [f"{spec.name}: {path}{needs}"] if spec.required else []
        lacking = [e for e in spec.exports if not hasattr(module, e)]
        if spec.game_classes:
            lacking += [c for c in _role_classes(name, module) if not hasattr(module, c)]
        return [f"{spec.name}: {path} must define {', '.join(lacking)}"] if lacking else []
    if spec.kind == "catalogue":
        if "{option}" in path:
            options = [o.name for o in game_class(name).all_options() if o.name != "players"]
            keys = [path.format(option=o) for o in options]
            return [
                f"{spec.name}: {CATALOGUE} {key}"
                for key in keys
                if not isinstance(_lookup(catalogue, key), str)
            ]
        value = _lookup(catalogue, path)
        if spec.sections:
            ok = isinstance(value, list) and len(value) >= spec.sections
        else:
            ok = isinstance(value, str)
        return [] if ok else [f"{spec.name}: {CATALOGUE} {path}"]
    if not _file_present(root, spec, name):
        needs = f" exporting {', '.join(spec.exports)}" if spec.exports else ""
        return [f"{spec.name}: {path}{needs}"] if spec.required else []
    if spec.exports:
        lacking = _script_exports(root / path, spec.exports)
        if lacking:
            return [f"{spec.name}: {path} must export {', '.join(lacking)}"]
    return []


def missing_parts(name: str, root: Path | None = None) -> list[str]:
    """Every required part the registered game `name` lacks, each as "layer: where it belongs".

    Files are looked for under `root` (default: this checkout; there the tests, docs and benchmarks
    are checked only if the checkout has them, which an installed package does not).
    """
    game_class(name)  # an unknown name is an error, not a list of everything
    base = ROOT if root is None else root
    with_source = root is not None or (ROOT / "tests").is_dir()
    catalogue = _catalogue(base)
    missing: list[str] = []
    for spec in LAYERS:
        if spec.source and not with_source:
            continue
        missing += _check(spec, name, base, catalogue)
    return missing


def table() -> str:
    """The convention as a Markdown table (docs/architecture.md shows it)."""
    rows = [
        "| layer | where (`{name}` with hyphens, `{pkg}` with underscores) | must define | "
        "required | what it is |",
        "|---|---|---|---|---|",
    ]
    for spec in LAYERS:
        place = f"`{spec.path}`" if spec.kind != "catalogue" else f"{CATALOGUE} `{spec.path}`"
        if spec.accepts:
            but = f" but the {spec.besides}" if spec.besides else ""
            place += f" (or any `{spec.accepts}`{but})"
        if spec.sections:
            place += f", {spec.sections}+ sections"
        exports = ", ".join(f"`{e}`" for e in spec.exports) or "-"
        if spec.game_classes:
            exports = f"its Game, State and action classes, {exports}"
        required = "yes" if spec.required else "no"
        rows.append(f"| {spec.name} | {place} | {exports} | {required} | {spec.about} |")
    return "\n".join(rows)


__all__ = [
    "LAYERS",
    "Layer",
    "MissingPart",
    "export",
    "having",
    "layer",
    "missing_parts",
    "module_name",
    "package_name",
    "part",
    "require",
    "table",
    "where",
]
