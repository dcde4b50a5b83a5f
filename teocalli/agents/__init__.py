"""Bots, named the same way in every command: `random`, `greedy`, `mcts`, `ismcts`, `solo`,
`duel`."""

from __future__ import annotations

from typing import Any

from teocalli.core import Game, InvalidOption

from .base import Agent
from .duel import DuelAgent
from .greedy import GreedyAgent
from .mcts import ISMCTSAgent, MCTSAgent
from .random_agent import RandomAgent
from .solo import SoloAgent

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (RandomAgent, GreedyAgent, MCTSAgent, ISMCTSAgent, SoloAgent, DuelAgent)
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split 'mcts:iterations=2000,time=1' into ('mcts', {'iterations': '2000', 'time': '1'})."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise InvalidOption(f"bot option {part!r} in {spec!r} must look like key=value")
        options[key.strip()] = value.strip()
    return name, options


def make_agent(spec: str, game: Game, seed: int = 0) -> Agent:
    """Build the bot a spec names, for a game, with its own seed."""
    name, raw = parse_spec(spec)
    try:
        cls = AGENTS[name]
    except KeyError:
        raise InvalidOption(
            f"there is no bot {name!r}; the bots are: {', '.join(sorted(AGENTS))}"
        ) from None
    options: dict[str, Any] = {}
    for key, text in raw.items():
        default = cls.options.get(key)
        if default is None:
            options[key] = text  # the constructor names the unknown option
        elif isinstance(default, bool):
            options[key] = text.lower() in ("1", "true", "yes", "on")
        else:
            try:
                options[key] = type(default)(text)
            except ValueError:
                raise InvalidOption(
                    f"bot option {key!r} takes a {type(default).__name__}, not {text!r}"
                ) from None
    return cls(game, seed, **options)


__all__ = [
    "AGENTS",
    "Agent",
    "DuelAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "SoloAgent",
    "make_agent",
    "parse_spec",
]
