"""OpenSpiel: every teocalli game registered as a pyspiel Python game, so OpenSpiel's own
algorithms (MCTS, CFR-family solvers, RL environments) run on it.

`load(name, **options)` returns `pyspiel.load_game("teocalli_<name>", options)`; importing this
module registers `teocalli_aztack`, `teocalli_stakz`, `teocalli_shifting_stones`,
`teocalli_space_aztecs` and `teocalli_stack_back` (parameters: the game's options, plus `deals`).

How the games map onto OpenSpiel's model:

- Chance: explicit stochastic. Our engines draw every random thing (the deal, later draws,
  reshuffles, dexterity noise) from the state's generator, seeded once. So the tree has one chance
  node at the root whose outcome k (uniform over `deals` outcomes, default 1024) is the seed:
  state k is teocalli's `new_state(k)`, and all later randomness follows from it. This is exact for
  the sampled deals; `deals=1` gives a deterministic tree for solvers. In a race (Aztack's Speed
  Stack), who acts first is a second kind of chance node: uniform over the players who may act.
- Dynamics: simultaneous for games with a simultaneous choice (Space Aztecs: its hidden card
  choice is a simultaneous node; pile picks and effect choices stay single-player nodes), otherwise
  sequential. The parameter `turn_based=True` (games with a simultaneous choice only) presents each
  simultaneous choice as turns instead, lowest seat first, every chooser seeing nothing of the
  earlier choices (views hide them): a sequential game for MCTSBot, ISMCTS, `rl_environment` and
  every other sequential-only algorithm.
- Resampling: `resample_from_infostate(player, sampler)` gives a world consistent with what the
  player knows: teocalli's `determinize`, seeded from the sampler, and a fresh generator for the
  world's later chance events (so a search never sees the real future draws). Perfect-information
  games give a copy.
- Information: perfect or imperfect as the game declares. Utility: zero-sum with 2+ players
  (rank-based returns sum to 0), general-sum solo. Reward model: terminal, returns in [-1, 1].
- Observation string: the player's view as canonical JSON; observation tensor: the game's encoder
  (teocalli/interop/observation/), with its named fields as the observer's tensor dict.
  Information-state string: the player's game log (others' hidden choices redacted) and then the
  view; perfect recall holds because whatever a player saw and no longer sees became public (in
  the log) or stays in the view (Space Aztecs' memory of piles). Information-state tensor: the
  same fixed-shape encoding as the observation (a tensor of fixed shape cannot hold the log).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import teocalli
from teocalli.core import Decision, Game, IllegalAction, Information, Rng, State, game_class

from .common import SEED_BOUND
from .observation import Encoder, encoder_for

PREFIX = "teocalli_"
DEFAULT_DEALS = 1024
_SIM_NODE = "simultaneous"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


def short_name(name: str) -> str:
    """The OpenSpiel name of a teocalli game: `teocalli_shifting_stones` for shifting-stones."""
    return PREFIX + name.replace("-", "_")


class _Shared:
    """What every state of one loaded game shares; never copied by OpenSpiel's deep copies."""

    def __init__(
        self, name: str, options: dict[str, Any], deals: int, turn_based: bool = False
    ) -> None:
        self.name, self.options, self.deals = name, options, deals
        self.turn_based = turn_based
        self.game: Game = teocalli.load(name, **options)
        self.encoder: Encoder = encoder_for(self.game)
        self.race = Decision.RACE in self.game.info.decisions
        self.simultaneous = Decision.SIMULTANEOUS in self.game.info.decisions and not turn_based

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Shared, (self.name, self.options, self.deals, self.turn_based))


class _Core:
    """The teocalli state inside an OpenSpiel state: copied with `clone` (shared tables stay
    shared), pickled as a save (a replay of seed and steps) for OpenSpiel's serialization."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        return (_load_core, (game.info.name, dict(game.options), self.state.to_json()))


def _load_core(name: str, options: dict[str, Any], save: dict[str, Any]) -> _Core:
    return _Core(teocalli.load(name, **options).state_from_json(save))


def _game_type(name: str, num_players: int | None = None, turn_based: bool = False) -> Any:
    cls = game_class(name)
    info = cls.info
    params: dict[str, Any] = {o.name: o.default for o in cls.all_options()}
    params["deals"] = DEFAULT_DEALS
    sim = Decision.SIMULTANEOUS in info.decisions
    if sim:
        params["turn_based"] = False
    sim = sim and not turn_based
    zero_sum = (num_players if num_players is not None else info.min_players) >= 2
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"teocalli {info.title}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS if sim else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if info.information is Information.PERFECT
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class TeocalliGame(pyspiel.Game):
    """One teocalli game with its options, as a pyspiel game."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        options = {k: v for k, v in params.items() if k not in ("deals", "turn_based")}
        deals = int(params.get("deals", DEFAULT_DEALS))
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        turn_based = bool(params.get("turn_based", False))
        self.shared = _Shared(name, options, deals, turn_based)
        game = self.shared.game
        n = game.num_players
        zero_sum = n >= 2
        race_nodes = game.max_length if self.shared.race else 0
        super().__init__(
            _game_type(name, n, turn_based),
            pyspiel.GameInfo(
                num_distinct_actions=game.num_distinct_actions,
                max_chance_outcomes=max(deals, n),
                num_players=n,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if zero_sum else None,
                max_game_length=1 + game.max_length + race_nodes,
            ),
            params,
        )

    def new_initial_state(self) -> TeocalliState:
        return TeocalliState(self, self.shared)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TeocalliObserver:
        return TeocalliObserver(self.shared, iig_obs_type, params)


class TeocalliState(pyspiel.State):
    """A position: a root chance node (the deal), then the teocalli state's decisions."""

    def __init__(self, game: TeocalliGame, shared: _Shared) -> None:
        super().__init__(game)
        self._shared = shared
        self._core: _Core | None = None
        self._racer = -1  # in a race: the player the last chance node let act first
        self._asked: tuple[int, int, int] | None = None
        """`current_player`'s last answer: (steps taken, racer, answer); reset with `_core`."""

    @property
    def teocalli_state(self) -> State | None:
        """The teocalli state (None before the deal): for tools that want the rich protocol."""
        return None if self._core is None else self._core.state

    def _race_pending(self, state: State) -> bool:
        return state.decision() is Decision.RACE and len(state.to_move()) > 1 and self._racer < 0

    def current_player(self) -> int:
        # OpenSpiel asks this several times per step (is_chance_node, legal_actions, ...): the
        # answer is kept until a step is taken (the teocalli state's history grows) or the racer
        # changes; the race and simultaneous checks run only for the games that have them.
        if self._core is None:
            return _CHANCE
        state = self._core.state
        steps = len(state.history)
        asked = self._asked
        if asked is not None and asked[0] == steps and asked[1] == self._racer:
            return asked[2]
        shared = self._shared
        if state.is_terminal():
            answer = _TERMINAL
        elif shared.race and self._race_pending(state):
            answer = _CHANCE
        elif shared.simultaneous and state.decision() is Decision.SIMULTANEOUS:
            answer = _SIMULTANEOUS
        else:
            answer = self._racer if self._racer >= 0 else state.to_move()[0]
        self._asked = (steps, self._racer, answer)
        return answer

    def is_chance_node(self) -> bool:
        """pyspiel's `is_chance_node` (current player is chance), without the trip to C++."""
        return self.current_player() == _CHANCE

    def is_simultaneous_node(self) -> bool:
        """pyspiel's `is_simultaneous_node`, without the trip to C++."""
        return self.current_player() == _SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's `legal_actions`, answered here for a player who may act (a Python caller
        then skips the round trip through C++, which costs more than the answer); every other
        case (chance, terminal, the joint actions of a simultaneous node, any other player)
        goes to pyspiel's own, unchanged."""
        current = self.current_player()
        if player is None:
            if current >= 0:
                return self._legal_actions(current)
            return list(pyspiel.State.legal_actions(self))
        if current >= 0 and player == current:
            return self._legal_actions(player)
        if current == _SIMULTANEOUS and 0 <= player < self._shared.game.num_players:
            return self._legal_actions(player)
        return list(pyspiel.State.legal_actions(self, player))

    def _legal_actions(self, player: int) -> list[int]:
        assert self._core is not None
        state = self._core.state
        if player not in state.to_move():
            return []
        return sorted(state.legal_ids(player))  # the ids the masks mark, in OpenSpiel's order

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._core is None:
            deals = self._shared.deals
            return [(k, 1.0 / deals) for k in range(deals)]
        movers = self._core.state.to_move()
        return [(p, 1.0 / len(movers)) for p in movers]

    def _apply_action(self, action: int) -> None:
        if self._core is None:
            self._core = _Core(self._shared.game.new_state(int(action)))
            self._asked = None
            return
        state = self._core.state
        if self._shared.race and self._race_pending(state):
            self._racer = int(action)
            return
        player = self._racer if self._racer >= 0 else state._to_move()[0]
        state.apply(action, player)  # an int: pyspiel passes its actions as Python ints
        self._racer = -1

    def _apply_actions(self, actions: list[int]) -> None:
        assert self._core is not None
        state = self._core.state
        movers = state.to_move()
        if len(movers) != state.num_players:
            raise pyspiel.SpielError(
                f"a simultaneous node expects every player to choose; players {list(movers)} may"
            )
        trial = state.clone()  # all or nothing: an illegal action changes nothing
        for p in movers:
            trial.apply(int(actions[p]), p)
        self._core = _Core(trial)
        self._asked = None

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TeocalliState:
        """A state consistent with everything `player_id` knows here, the rest sampled: the
        teocalli state's `determinize`, seeded from `probability_sampler()` (a uniform [0, 1)
        draw, as OpenSpiel's ISMCTS passes), with a fresh generator for later chance events."""
        world = self.clone()
        if self._core is None or self._core.state.is_terminal():
            return world
        rng = Rng(int(float(probability_sampler()) * SEED_BOUND))
        sampled = self._core.state.determinize(player_id, rng)
        sampled.rng = rng.spawn()
        world._core = _Core(sampled)
        world._asked = None
        return world

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._core is None:
                return f"deal {action}"
            return f"player {action} acts first"
        core = self._core.state if self._core is not None else None
        if core is not None:
            try:  # the action the id plays here (Stack Back: a pose of its bin)
                return str(core.action_from_int(int(action), player))
            except IllegalAction:
                pass  # nothing to play for that id now: its name
        return str(self._shared.game.action_from_int(int(action)))

    def is_terminal(self) -> bool:
        return self._core is not None and self._core.state.is_terminal()

    def returns(self) -> list[float]:
        if self._core is None:
            return [0.0] * self._shared.game.num_players
        return list(self._core.state.returns())

    def __str__(self) -> str:
        if self._core is None:
            return "before the deal"
        return self._core.state.render(None)


class TeocalliObserver:
    """Observation and information-state strings and tensors from `view(player)` only."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"teocalli observers take no parameters, not {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "teocalli observations are a player's view: public information and that player's "
                "private information (no other observation type)"
            )
        self._shared = shared
        self._recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        encoder = shared.encoder
        self.tensor = np.zeros(encoder.layout.size, np.float32)
        self.dict = {name: f.of(self.tensor) for name, f in encoder.layout.fields.items()}
        self._written: tuple[State, int, int] | None = None  # what `tensor` holds now

    def set_from(self, state: TeocalliState, player: int) -> None:
        core = state.teocalli_state
        if core is None:
            self._written = None
            self.tensor.fill(0.0)
            self.tensor[self._shared.encoder.f_seat.start + player] = 1.0
            return
        # pyspiel's observation_tensor calls this twice for one observation: write it once
        key = (core, len(core.history), player)
        if self._written != key:
            self.tensor[:] = self._shared.encoder.observe(core, player)
            self._written = key

    def string_from(self, state: TeocalliState, player: int) -> str:
        core = state.teocalli_state
        if core is None:
            return f"player {player}, before the deal"
        view = json.dumps(core.view(player), sort_keys=True, separators=(",", ":"))
        if not self._recall:
            return view
        log = "\n".join(f"{p}: {text}" for p, text in core.log(player))
        return f"{log}\n{view}"


def _register(name: str) -> None:
    # pyspiel keeps the creator until C++ static destruction, after Python has finalized: a class
    # (as OpenSpiel's own Python games register) outlives that safely, where a closure crashes the
    # interpreter at exit.
    def init(self: TeocalliGame, params: dict[str, Any] | None = None) -> None:
        TeocalliGame.__init__(self, name, dict(params or {}))

    cls_name = f"Teocalli_{name.replace('-', '_')}"
    cls = type(cls_name, (TeocalliGame,), {"__init__": init, "__module__": __name__})
    globals()[cls_name] = cls  # found by name, so that pickle can rebuild the game
    pyspiel.register_game(_game_type(name), cls)


def register_all() -> list[str]:
    """Register every teocalli game with pyspiel (once per process); their OpenSpiel names."""
    known = set(pyspiel.registered_names())
    names = []
    for name in teocalli.games():
        if short_name(name) not in known:
            _register(name)
        names.append(short_name(name))
    return names


def load(name: str, **options: Any) -> Any:
    """A teocalli game as a pyspiel game, e.g. `load("aztack", players=3, deals=1)`."""
    register_all()
    game_class(name)  # an unknown name fails with teocalli's message
    return pyspiel.load_game(short_name(name), options)


register_all()

__all__ = ["TeocalliGame", "TeocalliObserver", "TeocalliState", "load", "register_all"]
