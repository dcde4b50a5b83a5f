"""Monte Carlo tree search over the game protocol: UCT, and single-observer ISMCTS.

One tree, nodes keyed by what the searching ("root") player can observe:

- Every iteration plays in a world: the state itself for perfect-information games, otherwise a
  fresh `determinize(root, rng)`, so the search never reads what the root player cannot know.
- An edge is (acting player, action). An opponent's action at a simultaneous choice is hidden from
  the root player, so all such actions share one edge `(player, HIDDEN)` and are drawn from the
  heuristic (or the rollout policy): the root player's later decisions never depend on a choice
  it cannot see.
- Selection is UCB1 on the acting player's mean return; in ISMCTS a child's exploration term uses
  how often it was *available* (legal in the sampled world), after Cowling, Powley and Whitehouse
  (2012). Multi-player games back up every player's return (max^n style).
- Rollouts use the game's rollout policy and evaluation from `teocalli.agents.heuristics.<game>`
  when it defines `rollout(state, player, rng)` / `evaluate(state) -> returns per player`, else a
  uniform random policy to the end.
- With `guide > 0` the game's greedy move is a prior, as in PUCT: it is expanded first and gets
  a bonus `guide * sqrt(parent visits) / (1 + child visits)`, so with few iterations the search
  plays like the heuristic and departs from it only on evidence. The heuristic is asked once per
  node (in ISMCTS, in the first world that reaches it; for the searching player's own nodes its
  answer uses only that player's knowledge, so it is the same in every world).
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from teocalli.core import Action, Decision, Information, Rng, State

HIDDEN = "hidden"
Rollout = Callable[[State, int, Rng], Action]
Evaluate = Callable[[State], Sequence[float]]
Policy = Callable[[State, int, Rng], Action]


class Node:
    """Statistics of one edge into a node, and the node's children."""

    __slots__ = ("avail", "children", "prior", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[int, Any], Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.prior: tuple[int, Any] | None = None  # the heuristic's move here, once asked


def random_rollout(state: State, player: int, rng: Rng) -> Action:
    actions = state.legal_actions(player)
    return actions[rng.randrange(len(actions))]


def game_policies(game_name: str) -> tuple[Rollout, Evaluate | None, Policy | None]:
    """The game's rollout policy, evaluation and greedy move, where its heuristics define them."""
    try:
        module = importlib.import_module(
            f"teocalli.agents.heuristics.{game_name.replace('-', '_')}"
        )
    except ModuleNotFoundError:
        return random_rollout, None, None
    return (
        getattr(module, "rollout", random_rollout),
        getattr(module, "evaluate", None),
        getattr(module, "choose", None),
    )


def game_hook(game_name: str, name: str) -> Any:
    """A function the game's heuristics module defines (`turns`, `beliefs`, ...), or None."""
    try:
        module = importlib.import_module(
            f"teocalli.agents.heuristics.{game_name.replace('-', '_')}"
        )
    except ModuleNotFoundError:
        return None
    return getattr(module, name, None)


def game_turns(game_name: str) -> Callable[[State, int, Rng], Sequence[tuple[Action, ...]]] | None:
    """The game's proposals of whole turns for `turn_search`, where its heuristics define them."""
    hook: Callable[[State, int, Rng], Sequence[tuple[Action, ...]]] | None
    hook = game_hook(game_name, "turns")
    return hook


class Search:
    """A configured tree search; `choose` runs it from a state for one player."""

    def __init__(
        self,
        rng: Rng,
        *,
        iterations: int = 1000,
        seconds: float = 0.0,
        exploration: float = 0.8,
        rollout_depth: int = 0,
        rollout: Rollout = random_rollout,
        evaluate: Evaluate | None = None,
        guide: float = 0.0,
        policy: Policy | None = None,
    ) -> None:
        self.rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.depth = rollout_depth
        self.rollout = rollout
        self.evaluate = evaluate
        self.guide = guide if policy is not None else 0.0
        self.policy = policy
        self.last_iterations = 0

    def choose(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = Node()
        hidden = state.game.info.information is Information.HIDDEN
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        while True:
            world = state.determinize(player, self.rng) if hidden else state.clone()
            self._iterate(root, world, player, first=True)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
        self.last_iterations = done
        best = None
        best_rank = (-1, False)
        for action in legal:  # ties: the heuristic's move, then the legal order
            child = root.children.get((player, action))
            rank = (child.visits if child is not None else 0, (player, action) == root.prior)
            if rank > best_rank:
                best, best_rank = action, rank
        return best

    def _iterate(self, root: Node, world: State, root_player: int, first: bool) -> None:
        """Select down the tree, expand one node, play out, back up every player's return."""
        path: list[tuple[Node, int]] = []
        node = root
        hidden_game = world.game.info.information is Information.HIDDEN
        while not world.is_terminal():
            movers = world.to_move()
            decision = world.decision()
            if first and root_player in movers:
                candidates: Sequence[int] = (root_player,)
            elif decision is Decision.RACE:
                candidates = movers
            else:
                candidates = (movers[0],)
            first = False
            p = candidates[0]
            if hidden_game and decision is Decision.SIMULTANEOUS and p != root_player:
                key: tuple[int, Any] = (p, HIDDEN)
                # the opponent's secret choice, modelled by the heuristic when there is one
                model = self.policy if self.guide and self.policy is not None else self.rollout
                action = model(world, p, self.rng)
            else:
                options = [(q, a) for q in candidates for a in world.legal_actions(q)]
                policy = self.policy
                if self.guide and policy is not None and node.prior is None and len(options) > 1:
                    q = options[0][0]
                    node.prior = (q, policy(world, q, self.rng))  # heuristics never mutate
                unvisited = [k for k in options if k not in node.children]
                if node.prior is not None and node.prior in unvisited:
                    key = node.prior
                elif unvisited and self._widen(node, options):
                    key = unvisited[self.rng.randrange(len(unvisited))]
                    for k in options:
                        if k in node.children:
                            node.children[k].avail += 1
                else:
                    key = self._select(node, [k for k in options if k in node.children])
                action = key[1]
            world.apply(action, key[0])
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                path.append((child, key[0]))
                break  # one new node per iteration, then a playout
            if key[1] == HIDDEN:
                child.avail += 1
            path.append((child, key[0]))
            node = child
        values = self._playout(world)
        for child, p in path:
            child.visits += 1
            child.total += values[p]

    def _widen(self, node: Node, options: list[tuple[int, Any]]) -> bool:
        """Whether to try one more child here (else choose among those already tried).

        Unguided, every child is tried once first (plain UCT). Guided by a heuristic prior, the
        children grow with the visits (progressive widening, 1 + sqrt(visits)), so with fewer
        iterations than moves the search still concentrates on the heuristic's move.
        """
        if node.prior is None:
            return True
        tried = [node.children[k] for k in options if k in node.children]
        if not tried:
            return True
        return len(tried) < 1 + math.sqrt(sum(c.visits for c in tried))

    def _select(self, node: Node, options: list[tuple[int, Any]]) -> tuple[int, Any]:
        best_key = options[0]
        best = -math.inf
        c = self.c
        bonus = self.guide * math.sqrt(sum(node.children[k].visits for k in options))
        for key in options:
            child = node.children[key]
            child.avail += 1
            score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if key == node.prior:
                score += bonus / (1 + child.visits)
            if score > best:
                best, best_key = score, key
        return best_key

    def _playout(self, world: State) -> Sequence[float]:
        steps = 0
        rollout, rng = self.rollout, self.rng
        while not world.is_terminal():
            if self.depth and steps >= self.depth and self.evaluate is not None:
                return self.evaluate(world)
            movers = world.to_move()
            p = movers[rng.randrange(len(movers))] if len(movers) > 1 else movers[0]
            world.apply(rollout(world, p, rng), p)
            steps += 1
        return world.outcome().returns()
