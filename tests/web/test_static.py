"""Checks of the static client that need no browser: every string key the pages use is in the
catalogue, the markup carries no untranslatable text, and the data the renderers read (card
lists, how-to examples) is what the engines hold now."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from . import examples

WEB = examples.WEB
ENGINES = WEB.parent / "games"
CATALOGUE = json.loads((WEB / "i18n" / "en.json").read_text())
SECTIONS = set(CATALOGUE)
SCRIPTS = sorted((WEB / "js").rglob("*.js"))
PAGES = sorted(WEB.glob("*.html"))


def _resolve(key: str) -> Any:
    node: Any = CATALOGUE
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _keys_in_scripts() -> list[tuple[str, str]]:
    """Every string literal in the scripts that names a catalogue section, with its file."""
    found = []
    for path in SCRIPTS:
        for match in re.finditer(
            r"[\"`]([a-z_-]+(?:\.[\w-]+|\.\$\{[^}]+\})+)[\"`]", path.read_text()
        ):
            if match.group(1).split(".")[0] in SECTIONS:
                found.append((path.name, match.group(1)))
    return found


def test_the_scripts_use_catalogue_keys() -> None:
    keys = _keys_in_scripts()
    assert len(keys) > 150  # the scan finds the keys (a broken regex would find none)
    for name, key in keys:
        if "${" in key:
            # A computed key (aztack.colours.${letter}): its fixed part must be a section.
            prefix = key.split(".${")[0]
            assert isinstance(_resolve(prefix), dict), f"{name}: {key}"
        else:
            assert isinstance(_resolve(key), str), f"{name}: no text for {key}"


class _Text(HTMLParser):
    """Collects data-i18n keys and any text not inside an element that gets its text from one."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.keys: list[str] = []
        self.loose: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = False
        for attr, value in attrs:
            if attr.startswith("data-i18n") and value:
                self.keys.append(value)
                named = named or attr == "data-i18n"
        if tag not in ("meta", "link", "input", "br"):
            self.stack.append(named)

    def handle_endtag(self, tag: str) -> None:
        if self.stack and tag not in ("meta", "link", "input", "br"):
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip() and not any(self.stack) and data.strip() != "teocalli":
            self.loose.append(data.strip())


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_pages_take_every_word_from_the_catalogue(page: Path) -> None:
    parser = _Text()
    parser.feed(page.read_text())
    assert parser.keys
    for key in parser.keys:
        assert isinstance(_resolve(key), str), f"{page.name}: no text for {key}"
    assert not parser.loose, f"{page.name} has text outside the catalogue: {parser.loose}"


def test_every_game_has_a_title_a_renderer_and_a_howto() -> None:
    import teocalli

    for name in teocalli.games():
        assert isinstance(_resolve(f"games.{name}.title"), str)
        assert (WEB / "js" / "games" / f"{name}.js").exists()
        pages = _resolve(f"howto.pages.{name}")
        assert isinstance(pages, list) and len(pages) >= 3
        game = teocalli.load(name)
        for option in game.all_options():
            if option.name != "players":
                assert isinstance(_resolve(f"games.{name}.options.{option.name}"), str)


def test_every_end_reason_is_translated() -> None:
    import enum

    import teocalli

    for name in teocalli.games():
        module = __import__(f"teocalli.games.{name.replace('-', '_')}.state", fromlist=["*"])
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, enum.Enum)
                and "Reason" in value.__name__
            ):
                for member in value:
                    assert member.value in CATALOGUE["reasons"], f"{name}: {member.value!r}"


@pytest.mark.parametrize(
    ("copy", "source"),
    [
        ("shifting-stones-cards.json", "shifting_stones/components.json"),
        ("space-aztecs-cards.json", "space_aztecs/components.json"),
    ],
)
def test_card_data_is_the_engines(copy: str, source: str) -> None:
    assert json.loads((WEB / "data" / copy).read_text()) == json.loads(
        (ENGINES / source).read_text()
    ), f"refresh teocalli/web/data/{copy} from teocalli/games/{source}"


def test_space_aztecs_card_names_are_in_the_catalogue() -> None:
    cards = json.loads((ENGINES / "space_aztecs" / "components.json").read_text())["cards"]
    assert {c["id"]: c["name"] for c in cards} == CATALOGUE["aztecs"]["names"]


@pytest.mark.parametrize("game", list(examples.SETUPS))
def test_howto_examples_are_what_the_engines_give(game: str) -> None:
    stored = (examples.EXAMPLES / f"{game}.json").read_text()
    assert stored == examples.text(game), "run: python tests/web/examples.py"
    assert json.loads(stored)["legal"], "an example shows some legal moves"
