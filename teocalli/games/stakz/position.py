"""Positions written as text, so that rule tests read like the rulebook.

One `key: value` per line; blank lines and `#` comments are ignored:

    stacks: Rc Rt Bt / Oh      # stacks bottom to top, separated by '/', numbered from 0
    hand 0: Rs Bx              # every player's hand (required for each player)
    hand 1: Gx Ph Ph
    pile: Rc Bt                # the pile in draw order; '-' is empty; omitted: every tile
                               # not elsewhere, in tile order
    turn: 0                    # whose turn (default 0); also: used, placed, idle, scores, starter

`used: 0 2` lists the stacks that received a tile this turn. A built position has no seed, so it
cannot be saved; it can be played on, cloned and determinized like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from teocalli.core import InvalidAction

from .components import (
    COLOUR,
    COPIES,
    MAX_OF_A_COLOUR,
    MAX_STACKS,
    NUM_COLOURS,
    NUM_TILES,
    TILE_TEXT,
    parse_tile,
)
from .state import StakzState, colour_bits

if TYPE_CHECKING:
    from .game import Stakz

_KEYS = ("stacks", "pile", "turn", "used", "placed", "idle", "scores", "starter")


def _tiles(text: str, where: str) -> list[int]:
    if text.strip() == "-":
        return []
    out = []
    for word in text.split():
        t = parse_tile(word)
        if t is None:
            raise InvalidAction(f"position: {word!r} in {where} is not a tile like Rc")
        out.append(t)
    return out


def _ints(text: str, where: str) -> list[int]:
    try:
        return [int(w) for w in text.split()]
    except ValueError:
        raise InvalidAction(f"position: {where} takes whole numbers, not {text!r}") from None


def from_position(game: Stakz, text: str) -> StakzState:
    """The position `text` describes (see the module docstring); InvalidAction if it is not one."""
    n = game.num_players
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not colon or (key not in _KEYS and not key.startswith("hand ")):
            raise InvalidAction(f"position: cannot read the line {raw.strip()!r}")
        if key in fields:
            raise InvalidAction(f"position: {key!r} is given twice")
        fields[key] = value
    state = game.new_state(0)
    state.seed = None
    stacks = [tuple(_tiles(part, "stacks")) for part in fields.get("stacks", "").split("/")]
    if not all(stacks):
        raise InvalidAction("position: every stack needs at least one tile")
    if len(stacks) > MAX_STACKS:
        raise InvalidAction(f"position: there are never more than {MAX_STACKS} stacks")
    for s, stack in enumerate(stacks):
        seen, _ = colour_bits(stack)
        counts = [0] * NUM_COLOURS
        for t in stack:
            counts[COLOUR[t]] += 1
        if max(counts) > MAX_OF_A_COLOUR:
            raise InvalidAction(f"position: stack {s} holds three tiles of one colour")
        if seen == (1 << NUM_COLOURS) - 1:
            raise InvalidAction(f"position: stack {s} holds all five colours (it would have split)")
    hands = []
    for p in range(n):
        if f"hand {p}" not in fields:
            raise InvalidAction(f"position: give every hand, 'hand {p}:' is missing")
        hand = [0] * NUM_TILES
        for t in _tiles(fields.pop(f"hand {p}"), f"hand {p}"):
            hand[t] += 1
        if not any(hand):
            raise InvalidAction(f"position: hand {p} is empty, so the round would be over")
        hands.append(hand)
    extra = [k for k in fields if k.startswith("hand ")]
    if extra:
        raise InvalidAction(f"position: {extra[0]!r} names no player of a {n}-player game")
    used_count = [0] * NUM_TILES
    for stack in stacks:
        for t in stack:
            used_count[t] += 1
    for hand in hands:
        for t in range(NUM_TILES):
            used_count[t] += hand[t]
    if "pile" in fields:
        pile = _tiles(fields["pile"], "pile")
    else:
        pile = [t for t in range(NUM_TILES) for _ in range(max(0, COPIES - used_count[t]))]
    for t in pile:
        used_count[t] += 1
    for t in range(NUM_TILES):
        if used_count[t] > COPIES:
            raise InvalidAction(f"position: there are only {COPIES} tiles {TILE_TEXT[t]}")
    state.stacks = stacks
    state.hands = hands
    state.hand_size = [sum(h) for h in hands]
    state.pile = pile
    state.pile_colours = [0] * NUM_COLOURS
    for t in pile:
        state.pile_colours[COLOUR[t]] += 1
    (state.player,) = _one(fields.get("turn", "0"), "turn", n)
    (state.starter,) = _one(fields.get("starter", "0"), "starter", n)
    used = _ints(fields.get("used", ""), "used")
    if any(not 0 <= s < len(stacks) for s in used):
        raise InvalidAction(f"position: used names a stack that is not there: {used}")
    state.used = sum(1 << s for s in set(used))
    state.placed = _ints(fields.get("placed", str(len(set(used)))), "placed")[0]
    state.idle = _ints(fields.get("idle", "0"), "idle")[0]
    if "scores" in fields:
        scores = _ints(fields["scores"], "scores")
        if len(scores) != n:
            raise InvalidAction(f"position: give {n} scores, not {len(scores)}")
        state.scores = scores
    return state


def _one(text: str, where: str, n: int) -> list[int]:
    values = _ints(text, where)
    if len(values) != 1 or not 0 <= values[0] < n:
        raise InvalidAction(f"position: {where} must be one player, 0 to {n - 1}")
    return values
