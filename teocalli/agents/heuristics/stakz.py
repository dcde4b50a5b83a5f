"""Stakz greedy: shed as many tiles as possible, keep the turn going, draw the most useful colour.

It looks only at what the player may know: it plays its own placements in a determinized world
(placing reveals and draws nothing, so the world's hidden parts never matter to the score).
- Placements: a placement that empties the hand wins the round; otherwise prefer one that splits
  a stack (two fresh stacks to place on), then one that leaves the most placements open for the
  rest of the turn. Every placement sheds a point, so the bot never ends a turn early.
- The draw: the colour whose tiles fit the most stack tops by colour (below the two-of-a-colour
  cap), minus how many of that colour the hand already has to place.
"""

from __future__ import annotations

from teocalli.core import Action, Rng, State
from teocalli.games.stakz.actions import EndTurn, Place
from teocalli.games.stakz.components import COLOUR, NUM_COLOURS, NUM_TILES
from teocalli.games.stakz.state import StakzState, colour_bits


def _placement_score(world: StakzState, action: Place, player: int) -> float:
    after = world.clone()
    assert isinstance(after, StakzState)
    stacks_before = len(after.stacks)
    after.apply(action, player)
    if after.is_terminal() or after.player != player or after.placed == 0:
        return 1e9  # the hand is empty: the round (or the match) is won
    split = len(after.stacks) > stacks_before
    follow_ups = sum(1 for a in after.legal_actions(player) if isinstance(a, Place))
    return 100.0 * split + follow_ups


def _draw_score(world: StakzState, colour: int, player: int) -> float:
    fits = 0
    for stack in world.stacks:
        _, full = colour_bits(stack)
        if COLOUR[stack[-1]] == colour and not full >> colour & 1:
            fits += 1
    held = sum(world.hands[player][t] for t in range(NUM_TILES) if COLOUR[t] == colour)
    return fits - 0.5 * held


def choose(state: State, player: int, rng: Rng) -> Action:
    """The greedy action for `player` (see the module docstring)."""
    actions = state.legal_actions(player)
    if len(actions) == 1:
        return actions[0]
    world = state.determinize(player, rng)
    assert isinstance(world, StakzState)
    places = [a for a in actions if isinstance(a, Place)]
    if places:
        scored = [(_placement_score(world, a, player) + 0.01 * rng.random(), a) for a in places]
        return max(scored, key=lambda sa: sa[0])[1]
    ends = [a for a in actions if isinstance(a, EndTurn)]
    if len(ends) == 1:
        return ends[0]
    return max(
        ends,
        key=lambda a: (
            _draw_score(world, a.draw if a.draw is not None else NUM_COLOURS, player)
            + 0.01 * rng.random()
        ),
    )


def rollout(state: State, player: int, rng: Rng) -> Action:
    """A cheap playout policy for search: place a random tile while any fits, then draw."""
    actions = state.legal_actions(player)
    places = [a for a in actions if isinstance(a, Place)]
    pool = places or actions
    return pool[rng.randrange(len(pool))]


def evaluate(state: State) -> list[float]:
    """Returns in [-1, 1] for a cut-off playout: the match totals if the round ended now.

    Each player's projected total is their score plus the tiles in hand; a player's value is how
    far they are below the others' mean, squashed so that ~6 points of margin is decisive.
    """
    import math

    assert isinstance(state, StakzState)
    if state.is_terminal():
        return list(state.outcome().returns())
    projected = [s + h for s, h in zip(state.scores, state.hand_size, strict=True)]
    n = len(projected)
    total = sum(projected)
    return [math.tanh(((total - x) / (n - 1) - x) / 6.0) for x in projected]
