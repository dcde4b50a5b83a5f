"""One place per game: every registered game has its part in every layer, where the naming
convention of teocalli/parts.py puts it; and the checker names exactly what a new game lacks."""

from __future__ import annotations

import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import teocalli
from teocalli import parts
from teocalli.core import UnknownGame, register, registry

DOCS = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


@pytest.mark.parametrize("name", teocalli.games())
def test_every_registered_game_has_every_part(name: str) -> None:
    missing = parts.missing_parts(name)
    assert not missing, f"{name} lacks (see teocalli/parts.py):\n" + "\n".join(missing)


@pytest.mark.parametrize("name", teocalli.games())
def test_each_part_keeps_its_layers_promise(name: str) -> None:
    """Beyond being there: the encoder is an Encoder, the key measures are statistics the engine
    reports, the heuristic and the solver can be called."""
    from teocalli.arena.simulate import simulate
    from teocalli.interop.observation import Encoder

    assert issubclass(parts.export(name, "observation"), Encoder)
    assert callable(parts.export(name, "heuristics"))
    game = teocalli.load(name)
    stats = simulate(game, ["random"] * game.num_players, 1, 0, workers=1).results[0].stats
    measures = parts.export(name, "measures")
    assert measures, f"{name}: KEY_MEASURES names no statistic"
    assert set(measures) <= set(stats), f"{name}: the engine reports {sorted(stats)}"
    if parts.part(name, "solver") is not None:
        assert callable(parts.export(name, "solver"))


def test_the_architecture_doc_shows_the_convention() -> None:
    assert parts.table() in DOCS.read_text(), (
        "paste teocalli.parts.table() into docs/architecture.md, 'Adding a sixth game'"
    )


# --- a sixth game, registered and nothing else -----------------------------------------------

SIXTH = "fake-sixth"

RULES = '''
"""A sixth game for tests/test_parts.py: registered, with one option, and nothing else."""

from teocalli.core import Decision, Game, GameInfo, Information, Option, State


class FakeSixth(Game[State]):
    info = GameInfo(
        name="fake-sixth",
        title="Fake Sixth",
        min_players=2,
        max_players=2,
        default_players=2,
        information=Information.PERFECT,
        decisions=frozenset({Decision.TURN}),
        version=1,
        options=(Option("short", False, "a shorter game"),),
    )
    state_class = State

    @property
    def max_length(self) -> int:
        return 1
'''


@pytest.fixture
def sixth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register a sixth game from a throwaway module; unregistered again afterwards."""
    (tmp_path / "fake_sixth_rules.py").write_text(textwrap.dedent(RULES))
    monkeypatch.syspath_prepend(str(tmp_path))
    # A copy of the registry: the registration leaves with it, whatever the test does.
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    register(SIXTH, "fake_sixth_rules:FakeSixth")
    yield SIXTH
    sys.modules.pop("fake_sixth_rules", None)


def test_the_sixth_game_is_registered_and_leaves(sixth: str) -> None:
    assert sixth in teocalli.games()
    assert teocalli.load(sixth, short=True).options["short"] is True


def test_the_checker_lists_exactly_what_a_sixth_game_lacks(sixth: str) -> None:
    assert parts.missing_parts(sixth) == [
        "rules: teocalli/games/fake_sixth/ defining Action, EndReason, from_position, parse, "
        "render, to_position",
        "components: teocalli/games/fake_sixth/components.json",
        "heuristics: teocalli/agents/heuristics/fake_sixth.py defining choose",
        "observation: teocalli/interop/observation/fake_sixth.py defining ENCODER",
        "measures: teocalli/arena/measures/fake_sixth.py defining KEY_MEASURES",
        "renderer: teocalli/web/js/games/fake-sixth.js exporting render, describe",
        "title: teocalli/web/i18n/en.json games.fake-sixth.title",
        "option labels: teocalli/web/i18n/en.json games.fake-sixth.options.short",
        "how-to: teocalli/web/i18n/en.json howto.pages.fake-sixth",
        "how-to example: teocalli/web/examples/fake-sixth.json",
        "docs: docs/games/fake-sixth.md",
        "golden playthrough: tests/golden/fake-sixth.playthrough.txt",
        "golden perft: tests/golden/fake-sixth.perft.json",
        "rule tests: tests/games/fake_sixth/test_rules.py",
        "property tests: tests/games/fake_sixth/test_properties.py",
        "benchmark: benchmarks/bench_fake_sixth.py",
    ]  # no solver: that part is optional


def test_parts_that_appear_drop_off_the_list(
    sixth: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Modules are found by their names, files under the checkout (here a stand-in for one)."""
    heuristics = types.ModuleType("teocalli.agents.heuristics.fake_sixth")
    heuristics.choose = lambda state, player, rng: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, heuristics.__name__, heuristics)
    encoder = types.ModuleType("teocalli.interop.observation.fake_sixth")  # no ENCODER yet
    monkeypatch.setitem(sys.modules, encoder.__name__, encoder)
    root = tmp_path / "checkout"
    for path, text in {
        "teocalli/web/js/games/fake-sixth.js": "export function render(view, ui) {}\n",
        "teocalli/web/i18n/en.json": '{"games": {"fake-sixth": {"title": "Fake Sixth"}}}',
        "docs/games/fake-sixth.md": "# Fake Sixth\n",
        "tests/games/fake_sixth/test_fs_properties.py": "",
        "benchmarks/bench_fake_sixth.py": "",
    }.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    missing = parts.missing_parts(sixth, root)
    assert missing == [
        "rules: teocalli/games/fake_sixth/ defining Action, EndReason, from_position, parse, "
        "render, to_position",
        "components: teocalli/games/fake_sixth/components.json",
        "observation: teocalli/interop/observation/fake_sixth.py must define ENCODER",
        "measures: teocalli/arena/measures/fake_sixth.py defining KEY_MEASURES",
        "renderer: teocalli/web/js/games/fake-sixth.js must export describe",
        "option labels: teocalli/web/i18n/en.json games.fake-sixth.options.short",
        "how-to: teocalli/web/i18n/en.json howto.pages.fake-sixth",
        "how-to example: teocalli/web/examples/fake-sixth.json",
        "golden playthrough: tests/golden/fake-sixth.playthrough.txt",
        "golden perft: tests/golden/fake-sixth.perft.json",
        "rule tests: tests/games/fake_sixth/test_rules.py",  # a property test is not one
    ]
    (root / "tests/games/fake_sixth/test_fs_scoring.py").write_text("")
    assert "rule tests: tests/games/fake_sixth/test_rules.py" not in parts.missing_parts(
        sixth, root
    )


def test_a_game_package_names_the_roles_it_lacks(
    sixth: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rules package without some of the roles (here a Game class and a render only) is told
    each missing name: the common exports, its State class and its action classes."""
    from fake_sixth_rules import FakeSixth

    package = types.ModuleType("teocalli.games.fake_sixth")
    package.FakeSixth = FakeSixth  # type: ignore[attr-defined]
    package.render = lambda state, viewer: ""  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, package.__name__, package)
    assert parts.missing_parts(sixth)[0] == (
        "rules: teocalli/games/fake_sixth/ must define Action, EndReason, from_position, parse, "
        "to_position, State"
    )


@pytest.mark.parametrize("name", teocalli.games())
def test_a_game_package_exports_its_roles_in_order(name: str) -> None:
    """`__all__` lists what the package defines, sorted as ruff sorts it (constants, classes,
    functions), and nothing it does not define."""
    package = parts.require(name, "rules")
    names = list(package.__all__)
    assert names == sorted(names, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    assert all(hasattr(package, n) for n in names)
    assert set(parts.layer("rules").exports) <= set(names)


def test_the_layers_tell_a_sixth_game_what_to_add(
    sixth: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from teocalli.arena.report import key_measures
    from teocalli.cli import main
    from teocalli.interop.observation import encoder_for

    with pytest.raises(parts.MissingPart, match=r"teocalli/interop/observation/fake_sixth\.py"):
        encoder_for(teocalli.load(sixth))
    assert key_measures(sixth) == ()  # the report draws the engine's statistics as they come
    assert main(["solve", sixth]) == 2
    error = capsys.readouterr().err
    assert "no exact solver for 'fake-sixth'" in error
    assert "teocalli/games/fake_sixth/solve_cli.py" in error
    assert "solvers exist for: shifting-stones" in error


def test_an_unknown_game_is_not_a_list_of_everything() -> None:
    with pytest.raises(UnknownGame):
        parts.missing_parts("no-such-game")
