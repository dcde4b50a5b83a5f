"""The Game side of the protocol: metadata as data, validated options, notation and replays."""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from .errors import CorruptSave, InvalidOption, TeocalliError

if TYPE_CHECKING:
    from .state import State

Action = Hashable
"""Every game's actions are small frozen dataclasses; the core only needs them hashable."""

S = TypeVar("S", bound="State")


class ActionCodec(Protocol):
    """A game's two faces of an action: its notation and its dense index."""

    @property
    def size(self) -> int:
        """Number of distinct dense indices."""
        ...

    def parse(self, text: str) -> Action:
        """Read notation; raise InvalidAction saying what is wrong."""
        ...

    def to_int(self, action: Any) -> int: ...

    def from_int(self, index: int) -> Action: ...


@dataclass(frozen=True)
class FunctionCodec:
    """An ActionCodec made of a game's module-level functions."""

    parse: Callable[[str], Action]
    to_int: Callable[[Any], int]
    from_int: Callable[[int], Action]
    size: int


class Information(enum.Enum):
    """Whether some player may ever lack knowledge another has or the rules hide."""

    PERFECT = "perfect"
    HIDDEN = "hidden"


class Decision(enum.Enum):
    """The three ways a game asks for actions."""

    TURN = "turn"  # one player, in turn order
    SIMULTANEOUS = "simultaneous"  # several players choose hidden; resolved when all are in
    RACE = "race"  # several players may act; whichever action arrives first is applied


@dataclass(frozen=True)
class Option:
    """One rulebook variant or setting, with its default and what it accepts."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def validate(self, value: Any) -> Any:
        """Coerce `value` (possibly text from a command line) to the default's type and check it."""
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            value = _parse_text(self.name, value, kind)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise InvalidOption(f"option {self.name!r} takes a {kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOption(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOption(
                f"option {self.name!r} must be at least {self.minimum}, not {value}"
            )
        if self.maximum is not None and value > self.maximum:
            raise InvalidOption(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value


def _parse_text(name: str, text: str, kind: type) -> Any:
    if kind is bool:
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise InvalidOption(f"option {name!r} takes true or false, not {text!r}")
    try:
        return kind(text)
    except ValueError:
        raise InvalidOption(f"option {name!r} takes a {kind.__name__}, not {text!r}") from None


@dataclass(frozen=True)
class GameInfo:
    """What a game declares once: every other part reads it instead of asking the code."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    information: Information
    decisions: frozenset[Decision]
    version: int
    options: tuple[Option, ...] = ()
    variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named option sets that together cover every rulebook variant (tests run them all)."""
    passes: frozenset[str] = frozenset()
    """Notations of actions that only end the player's part (pass, keep, end the turn): what a
    table may play for an absent player whose time is up, where the rules allow it."""


class Game(ABC, Generic[S]):
    """A game with its options fixed; it deals states and knows the action notation."""

    info: ClassVar[GameInfo]
    state_class: type[S]
    codec: ActionCodec
    """Notation and indices: a class attribute, or set in `_check_options` if options change it."""
    positional_ids: ClassVar[bool] = False
    """Whether an id's action depends on the position. False for most games: an id names one
    action everywhere, and `action_from_int(action_to_int(a)) == a`. True for Stack Back, whose
    poses are continuous: an id names a bin of poses (`action_to_int` gives the bin a pose lies
    in), and a state decodes it to one legal pose of that bin (`State.action_from_int`), its legal
    ids being the bins that hold a legal pose (`State.legal_action_ints`). Adapters always decode
    through the state."""

    def __init__(self, **options: Any) -> None:
        specs = {o.name: o for o in self.all_options()}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            known = ", ".join(sorted(specs))
            raise InvalidOption(
                f"{self.info.name} has no option {unknown[0]!r} (its options: {known})"
            )
        values = {name: spec.default for name, spec in specs.items()}
        for name, value in options.items():
            values[name] = specs[name].validate(value)
        self.options: Mapping[str, Any] = MappingProxyType(values)
        self.num_players: int = values["players"]
        self._check_options()

    @classmethod
    def all_options(cls) -> tuple[Option, ...]:
        info = cls.info
        players = Option(
            "players",
            info.default_players,
            "number of players",
            minimum=info.min_players,
            maximum=info.max_players,
        )
        return (players, *info.options)

    def _check_options(self) -> None:
        """Hook: refuse combinations of options that no rulebook allows."""

    @property
    def name(self) -> str:
        return self.info.name

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load({self.info.name!r}, {opts})"

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its class and options, rebuilt on loading (its options' read-only
        mapping cannot be pickled, and its tables are rebuilt from the options anyway): so a
        state, and an env holding one, pickles (Ray, SB3's subprocess vector envs)."""
        return (_rebuild, (type(self), dict(self.options)))

    # --- states -------------------------------------------------------------------------------
    def new_state(self, seed: int) -> S:
        """Deal a fresh position; the same options and seed always give the same game."""
        return self.state_class(self, seed)

    def replay(self, seed: int, steps: Iterable[tuple[int, Action | str]]) -> S:
        """Rebuild a game from its seed and its (player, action) steps."""
        state = self.new_state(seed)
        for player, action in steps:
            state.apply(action, player)
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Load what `State.to_json` wrote, checking every part and every step."""
        if not isinstance(data, Mapping):
            raise CorruptSave("a saved game must be a JSON object")
        if data.get("game") != self.info.name:
            raise CorruptSave(f"this save is of {data.get('game')!r}, not {self.info.name!r}")
        if data.get("version") != self.info.version:
            raise CorruptSave(
                f"this save was made by version {data.get('version')!r} of {self.info.name}'s "
                f"rules; this engine is version {self.info.version}"
            )
        options = data.get("options")
        if not isinstance(options, Mapping) or dict(options) != dict(self.options):
            raise CorruptSave(
                f"the save's options {options!r} are not this game's {dict(self.options)!r}"
            )
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise CorruptSave(f"the save's seed must be an integer, not {seed!r}")
        steps = data.get("steps")
        if not isinstance(steps, list):
            raise CorruptSave("the save has no list of steps")
        state = self.new_state(seed)
        for i, step in enumerate(steps):
            if (
                not isinstance(step, list)
                or len(step) != 2
                or not isinstance(step[0], int)
                or not isinstance(step[1], str)
            ):
                raise CorruptSave(f"step {i} must be [player, action text], not {step!r}")
            try:
                state.apply(step[1], step[0])
            except TeocalliError as err:
                raise CorruptSave(f"step {i} ({step[1]!r} by player {step[0]}): {err}") from None
        return state

    # --- actions ------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        """Read the game's notation; raise InvalidAction saying what is wrong."""
        return self.codec.parse(text)

    def action_to_int(self, action: Action) -> int:
        """The action's stable dense index in [0, num_distinct_actions)."""
        return self.codec.to_int(action)

    def action_from_int(self, index: int) -> Action:
        """The action with that dense index; raise InvalidAction if there is none. With
        `positional_ids`, only a name for the id (play it through `State.action_from_int`)."""
        return self.codec.from_int(index)

    @property
    def num_distinct_actions(self) -> int:
        """Size of the dense action space (RL action masks)."""
        return self.codec.size

    @property
    @abstractmethod
    def max_length(self) -> int:
        """An upper bound on the number of steps any game with these options can last."""


def _rebuild(cls: type[Game[Any]], options: dict[str, Any]) -> Game[Any]:
    """The game of a pickle (`Game.__reduce__`)."""
    return cls(**options)
