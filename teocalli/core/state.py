"""The State side of the protocol, as a template method.

The base class does the cross-cutting work once (game over, not your turn, parsing, illegal
actions, history, views of finished games, saves, undo); a game implements only the private hooks
(`_setup`, `_to_move`, `_legal_actions`, `_malformed`, `_illegal_reason`, `_apply`, `_is_terminal`,
`_outcome`, `_view`, ...).
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from .errors import IllegalAction, InvalidAction
from .game import Action, Decision, Information
from .outcome import Outcome
from .rng import Rng

if TYPE_CHECKING:
    from .game import Game


class Effect(enum.Flag):
    """What a step did besides moving pieces: an undo policy is derived from these alone."""

    NONE = 0
    REVEALED = enum.auto()  # some player learnt something hidden (a card shown, choices revealed)
    DREW = enum.auto()  # something came from a shuffled supply


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: who, what, and what it revealed or drew."""

    player: int
    action: Action
    effect: Effect


class State(ABC):
    """A position of a game; mutable, applied to in place; `clone` before exploring."""

    _legal_memo: tuple[int, int, list[int]] | None = None
    """The legal ids last listed: (steps taken, player, ids). Replaced, never changed in place,
    so clones may share it; keyed by the number of steps, so any `apply` invalidates it;
    `determinize` drops it (a sampled world may deal other cards at the same step)."""

    def __init__(self, game: Game, seed: int | None) -> None:
        self.game = game
        self.seed = seed
        self.rng = Rng(seed if seed is not None else 0)
        self.history: list[Step] = []
        self._legal_memo = None
        self._setup()

    # --- hooks a game implements --------------------------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        """Deal the starting position using `self.rng` and `self.game.options`."""

    @abstractmethod
    def _to_move(self) -> tuple[int, ...]:
        """Players who may act now (the game is not over)."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[Any]:
        """The player's legal actions, in one deterministic order (player is in `to_move`)."""

    def _malformed(self, action: Any) -> str | None:
        """Why the object `action` is no action of this game at all (another game's or no
        game's, a field of the wrong type, out of range, or fields that contradict each other);
        None if it is well formed.

        `apply` asks this of action objects only (notation and indices parse into well-formed
        actions), before `_illegal_reason`, so the rules and `_apply` may trust every field. Keep
        it to type and range checks: playouts apply an action object every step.
        """
        return None

    def _illegal_reason(self, action: Any, player: int) -> str | None:
        """Why `action` is illegal for `player` now, in a player's words; None if it is legal.

        Games override this with a direct check that names the rule; the default only knows
        whether the action is in the legal list.
        """
        if action in self._legal_actions(player):
            return None
        return f"{action} is not a legal move now"

    @abstractmethod
    def _apply(self, action: Any, player: int) -> Effect:
        """Carry out a legal action and say what it revealed or drew."""

    @abstractmethod
    def _is_terminal(self) -> bool: ...

    @abstractmethod
    def _outcome(self) -> Outcome: ...

    @abstractmethod
    def _view(self, player: int | None) -> dict[str, Any]:
        """What `player` may know (None: a spectator); at the end views show `_full()`."""

    def _decision(self) -> Decision:
        """The kind of decision asked for now."""
        return Decision.TURN

    def _copy_into(self, other: State) -> None:
        """Hook for `clone`: give `other` its own copies of every mutable field."""

    def _determinize(self, player: int, rng: Rng) -> Self:
        """A world consistent with what `player` knows; perfect-information games just clone."""
        return self.clone()

    def _full(self) -> dict[str, Any]:
        """Everything in the state, hidden parts included (tests, debugging, golden files)."""
        return self._view(None)

    def _render(self, player: int | None) -> str:
        """A text picture of the position as `player` sees it."""
        import json

        return json.dumps(self._view(player), indent=1)

    def _step_text(self, index: int, viewer: int | None) -> str:
        """How step `index` reads in `viewer`'s game log (None: a spectator).

        The default shows the action's notation; a game whose actions can be hidden (a secret
        choice before its reveal) overrides this to redact what `viewer` may not see.
        """
        return str(self.history[index].action)

    def _stats(self) -> dict[str, float | list[float]]:
        """Per-game measures of a finished game for simulations and balance reports."""
        return {}

    # --- the public protocol ------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def to_move(self) -> tuple[int, ...]:
        return () if self._is_terminal() else self._to_move()

    def decision(self) -> Decision | None:
        """The kind of decision asked for now; None at the end."""
        return None if self._is_terminal() else self._decision()

    def current_player(self) -> int:
        """The single player to move; an error at a decision of several players or at the end."""
        movers = self.to_move()
        if len(movers) != 1:
            who = "nobody" if not movers else f"players {list(movers)}"
            raise IllegalAction(f"there is no single player to move now ({who} may act)")
        return movers[0]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The player's legal actions now (empty if they may not act)."""
        if player is None:
            player = self.current_player()
        self._check_player(player)
        if self._is_terminal() or player not in self._to_move():
            return []
        return self._legal_actions(player)

    def pass_action(self, player: int) -> Action | None:
        """The legal action that only passes (declared in `GameInfo.passes`), if there is one."""
        passes = self.game.info.passes
        return next((a for a in self.legal_actions(player) if str(a) in passes), None)

    def legal_action_ints(self, player: int | None = None) -> list[int]:
        """The action ids `player` may play now (the mask of the adapters; empty if they may not
        act): the ids of `legal_actions`, or a game's own list when its ids depend on the
        position (`Game.positional_ids`)."""
        if player is None:
            player = self.current_player()
        self._check_player(player)
        if self._is_terminal() or player not in self._to_move():
            return []
        return list(self.legal_ids(player))

    def legal_ids(self, player: int) -> list[int]:
        """`legal_action_ints` of a player who may act now, computed once per position and
        player: the adapters' mask and the check of `apply(int)` share it. The list is the
        state's own: read it, never change it."""
        memo = self._legal_memo
        steps = len(self.history)
        if memo is not None and memo[0] == steps and memo[1] == player:
            return memo[2]
        ids = self._legal_action_ints(player)
        self._legal_memo = (steps, player, ids)
        return ids

    def _legal_action_ints(self, player: int) -> list[int]:
        """Hook: the legal ids of a player to move (the default: those of the legal actions)."""
        to_int = self.game.action_to_int
        return [to_int(a) for a in self._legal_actions(player)]

    def action_from_int(self, index: int, player: int | None = None) -> Action:
        """The action that id `index` plays here for `player` (None: the player to move).

        For most games an id names one action everywhere (`Game.action_from_int`). A game whose
        ids depend on the position (`Game.positional_ids`: Stack Back's ids are bins of poses)
        decodes them here, and raises IllegalAction for an id that plays nothing now. InvalidAction
        if `index` is no id of the game at all."""
        return self.game.action_from_int(index)

    def apply(self, action: Action | str | int, player: int | None = None) -> None:
        """Apply one action; nothing changes if it is refused: InvalidAction if it names no action
        of the game, IllegalAction if the rules forbid it now."""
        if self._is_terminal():
            raise IllegalAction("the game is over")
        movers = self._to_move()
        if player is None:
            if len(movers) != 1:
                raise IllegalAction(f"say which player acts: players {list(movers)} may act now")
            player = movers[0]
        self._check_player(player)
        if player not in movers:
            raise IllegalAction(f"it is not player {player}'s turn")
        if isinstance(action, str):
            action = self.game.parse_action(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            index = action
            action = self.action_from_int(index, player)
            memo = self._legal_memo
            if (
                memo is not None
                and memo[0] == len(self.history)
                and memo[1] == player
                and index in memo[2]
            ):  # listed legal at this very position: no need to ask the rules again
                effect = self._apply(action, player)
                self.history.append(Step(player, action, effect))
                return
        else:
            problem = self._malformed(action)
            if problem is not None:
                raise InvalidAction(problem)
        reason = self._illegal_reason(action, player)
        if reason is not None:
            raise IllegalAction(reason)
        effect = self._apply(action, player)
        self.history.append(Step(player, action, effect))

    def is_terminal(self) -> bool:
        return self._is_terminal()

    def outcome(self) -> Outcome:
        if not self._is_terminal():
            raise IllegalAction("the game is not over yet")
        return self._outcome()

    def returns(self) -> tuple[float, ...]:
        """Rewards in [-1, 1] at the end, zeros before."""
        if not self._is_terminal():
            return (0.0,) * self.num_players
        return self._outcome().returns()

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything `player` may know, JSON-ready; None is a spectator's public view."""
        if player is not None:
            self._check_player(player)
        terminal = self._is_terminal()
        decision = self.decision()
        view: dict[str, Any] = {
            "game": self.game.info.name,
            "player": player,
            "players": self.num_players,
            "step": len(self.history),
            "to_move": list(self.to_move()),
            "decision": decision.value if decision else None,
            "terminal": terminal,
            "outcome": self._outcome().to_json() if terminal else None,
            "state": self._full() if terminal else self._view(player),
        }
        return view

    def render(self, player: int | None = None) -> str:
        return self._render(None if self._is_terminal() else player)

    def stats(self) -> dict[str, float | list[float]]:
        return self._stats()

    def log(self, viewer: int | None) -> list[tuple[int, str]]:
        """The game log as `viewer` may read it: (player, text) per step; all of it at the end."""
        if viewer is not None:
            self._check_player(viewer)
        if self._is_terminal():
            return [(s.player, str(s.action)) for s in self.history]
        return [(s.player, self._step_text(i, viewer)) for i, s in enumerate(self.history)]

    def clone(self) -> Self:
        """An independent copy: component tables are shared, mutable state copied."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.rng = self.rng.copy()
        other.history = self.history.copy()
        self._copy_into(other)
        return other

    def determinize(self, player: int, rng: Rng) -> Self:
        """A full state consistent with everything `player` knows, the rest sampled with `rng`."""
        self._check_player(player)
        if self.game.info.information is Information.PERFECT:
            return self.clone()
        world = self._determinize(player, rng)
        world._legal_memo = None  # listed for the real deal, not for this world
        world.seed = None  # a sampled world has no seed that deals it: it cannot be saved
        return world

    # --- saves, replays and undo --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A save: game, rules version, options, seed and steps; loading replays and checks them."""
        if self.seed is None:
            raise IllegalAction(
                "a sampled world (from determinize) has no seed and cannot be saved"
            )
        return {
            "game": self.game.info.name,
            "version": self.game.info.version,
            "options": dict(self.game.options),
            "seed": self.seed,
            "steps": [[s.player, str(s.action)] for s in self.history],
        }

    def can_undo(self, player: int) -> bool:
        """Whether `player` may take back the last step without harm.

        Only their own last step, only if it neither revealed anything nor drew from a shuffled
        supply, and only if nobody has acted since: derived from the history alone.
        """
        if not self.history or self.seed is None:
            return False
        last = self.history[-1]
        return last.player == player and last.effect == Effect.NONE

    def undo(self, player: int) -> State:
        """The state before `player`'s last step (a new state, rebuilt by replay)."""
        if not self.can_undo(player):
            raise IllegalAction("that step cannot be taken back")
        assert self.seed is not None
        return self.game.replay(self.seed, [(s.player, s.action) for s in self.history[:-1]])

    # --- helpers ------------------------------------------------------------------------------
    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            raise IllegalAction(
                f"there is no player {player!r} in a {self.num_players}-player game"
            )

    def __str__(self) -> str:
        return self.render(None)
