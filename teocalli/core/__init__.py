"""The game protocol every game implements, and what every other part shares."""

from .errors import (
    CorruptSave,
    IllegalAction,
    InvalidAction,
    InvalidOption,
    TeocalliError,
    UnknownGame,
)
from .game import (
    Action,
    ActionCodec,
    Decision,
    FunctionCodec,
    Game,
    GameInfo,
    Information,
    Option,
)
from .outcome import Outcome, ranks_from_keys
from .registry import game_class, games, load, register
from .rng import Rng, derive_seed, secret_seed
from .state import Effect, State, Step

__all__ = [
    "Action",
    "ActionCodec",
    "CorruptSave",
    "Decision",
    "Effect",
    "FunctionCodec",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Information",
    "InvalidAction",
    "InvalidOption",
    "Option",
    "Outcome",
    "Rng",
    "State",
    "Step",
    "TeocalliError",
    "UnknownGame",
    "derive_seed",
    "game_class",
    "games",
    "load",
    "ranks_from_keys",
    "register",
    "secret_seed",
]
