"""Stakz's State: a match of rounds, each dealt from all 75 tiles, until some total reaches 12.

Fields (small lists of ints; tile types as in components.py):
  hands[p][t]   how many tiles of type t player p holds; hand_size[p] their total
  stacks[s]     stack s as a tuple of tile types, bottom to top (tuples: a clone copies one list)
  pile          the face-down pile in its hidden order; pile_colours[c] its public colour counts
  used          bit set of the stacks that received a tile this turn (a split clears the bit)
  player        who is taking the turn; placed: tiles they placed this turn
  idle          consecutive turns with the pile empty and no tile placed (the stuck-round ruling)
  scores        match totals; rounds: (points per player, round winner or -1) per finished round
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Self

from teocalli.core import Action, Effect, Outcome, Rng, State, ranks_from_keys
from teocalli.core.outcome import Part

from . import actions as act
from .actions import EndTurn, Place
from .components import (
    ALL_COLOURS,
    COLOUR,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COPIES,
    HAND_PER_COLOUR,
    MATCHES,
    NUM_COLOURS,
    NUM_TILES,
    TILE_NAME,
    TILE_TEXT,
)

if TYPE_CHECKING:
    from .game import Stakz


class EndReason(enum.Enum):
    """How the match's last round ended (the match ends when a total reaches the target)."""

    ROUND_WON = "round_won"  # a player emptied their hand
    STUCK_ROUND = "stuck_round"  # the pile was empty and a full round of turns placed nothing


def colour_bits(stack: tuple[int, ...]) -> tuple[int, int]:
    """(colours present, colours already held twice) of a stack, as bit sets."""
    seen = full = 0
    for t in stack:
        bit = 1 << COLOUR[t]
        if seen & bit:
            full |= bit
        seen |= bit
    return seen, full


class StakzState(State):
    """A Stakz match in progress."""

    game: Stakz

    hands: list[list[int]]
    hand_size: list[int]
    stacks: list[tuple[int, ...]]
    pile: list[int]
    pile_colours: list[int]
    scores: list[int]
    rounds: list[tuple[tuple[int, ...], int]]

    # --- set-up -------------------------------------------------------------------------------
    def _setup(self) -> None:
        n = self.num_players
        self.target: int = self.game.options["target"]
        self.scores = [0] * n
        self.rounds = []
        self.starter = 0
        self.over = False
        self.reason = EndReason.ROUND_WON
        self.splits = 0
        self.placements = 0
        self.turns = 0
        self._deal(0)

    def _deal(self, starter: int) -> None:
        """Shuffle all the tiles; ten to each hand, two of each colour; two stacks of two colours.

        Taking "the first tiles of a colour in the shuffled order" is the same as picking at
        random among the face-down tiles showing that colour on their backs.
        """
        n = self.num_players
        rng = self.rng
        tiles = [t for t in range(NUM_TILES) for _ in range(COPIES)]
        rng.shuffle(tiles)
        first = rng.randrange(NUM_COLOURS)
        second = (first + 1 + rng.randrange(NUM_COLOURS - 1)) % NUM_COLOURS
        hands = [[0] * NUM_TILES for _ in range(n)]
        need = HAND_PER_COLOUR * n
        taken = [0] * NUM_COLOURS
        bases: dict[int, int] = {}
        pile: list[int] = []
        for t in tiles:
            c = COLOUR[t]
            k = taken[c]
            taken[c] = k + 1
            if k < need:
                hands[k // HAND_PER_COLOUR][t] += 1
            elif k == need and c in (first, second):
                bases[c] = t
            else:
                pile.append(t)
        self.hands = hands
        self.hand_size = [HAND_PER_COLOUR * NUM_COLOURS] * n
        self.stacks = [(bases[first],), (bases[second],)]
        self.pile = pile
        self.pile_colours = [0] * NUM_COLOURS
        for t in pile:
            self.pile_colours[COLOUR[t]] += 1
        self.starter = starter
        self.player = starter
        self.used = 0
        self.placed = 0
        self.idle = 0

    # --- whose turn, what is legal ------------------------------------------------------------
    def _to_move(self) -> tuple[int, ...]:
        return (self.player,)

    def _is_terminal(self) -> bool:
        return self.over

    def _legal_actions(self, player: int) -> list[Action]:
        table = act.TABLE
        return [table[i] for i in self.legal_ids(player)]

    def _legal_action_ints(self, player: int) -> list[int]:
        """The move generator, by action id (actions.py's numbering): `_legal_actions` and the
        adapters' masks both read it, through the per-step `legal_ids`."""
        hand = self.hands[player]
        held = [t for t in range(NUM_TILES) if hand[t]]
        out: list[int] = []
        used = self.used
        for s, stack in enumerate(self.stacks):
            if used >> s & 1:
                continue
            _, full = colour_bits(stack)
            fits = MATCHES[stack[-1]]
            base = s * NUM_TILES
            out.extend(base + t for t in held if fits[t] and not full >> COLOUR[t] & 1)
        if self.pile:
            end = act.END_INDEX + 1
            out.extend(end + c for c in range(NUM_COLOURS) if self.pile_colours[c])
        else:
            out.append(act.END_INDEX)
        return out

    _malformed = staticmethod(act.malformed)  # one check of an object's fields, in actions.py

    def _illegal_reason(self, action: object, player: int) -> str | None:
        if isinstance(action, Place):
            t, s = action.tile, action.stack
            if s >= len(self.stacks):
                return f"there is no stack {s}: the stacks are numbered 0 to {len(self.stacks) - 1}"
            if not self.hands[player][t]:
                return f"you have no {TILE_NAME[t]} ({TILE_TEXT[t]}) in your hand"
            if self.used >> s & 1:
                return (
                    f"stack {s} has already received a tile this turn (one tile per stack per turn)"
                )
            top = self.stacks[s][-1]
            if not MATCHES[top][t]:
                return (
                    f"a tile must match the colour or the symbol of the stack's top tile: "
                    f"{TILE_TEXT[t]} matches neither on {TILE_TEXT[top]} (top of stack {s})"
                )
            _, full = colour_bits(self.stacks[s])
            if full >> COLOUR[t] & 1:
                return (
                    f"stack {s} already holds two {COLOUR_NAMES[COLOUR[t]]} tiles "
                    "(a stack may hold at most two of a colour)"
                )
            return None
        if isinstance(action, EndTurn):
            if action.draw is None:
                if self.pile:
                    letters = " ".join(
                        COLOUR_LETTERS[c] for c in range(NUM_COLOURS) if self.pile_colours[c]
                    )
                    return (
                        "you end your turn by drawing a tile while the pile has any: "
                        f"choose its colour, one of {letters} (e.g. end {letters[0]})"
                    )
                return None
            if not self.pile:
                return "the pile is empty, so there is nothing to draw: end your turn with `end`"
            if not self.pile_colours[action.draw]:
                return f"the pile has no {COLOUR_NAMES[action.draw]} tiles left to draw"
            return None
        return f"{action!r} is not a Stakz action"

    # --- applying -----------------------------------------------------------------------------
    def _apply(self, action: object, player: int) -> Effect:
        if isinstance(action, Place):
            return self._place(action.tile, action.stack, player)
        assert isinstance(action, EndTurn)
        return self._end_turn(action.draw, player)

    def _place(self, t: int, s: int, player: int) -> Effect:
        self.hands[player][t] -= 1
        self.hand_size[player] -= 1
        stack = self.stacks[s] + (t,)
        self.used |= 1 << s
        self.placed += 1
        self.placements += 1
        seen, _ = colour_bits(stack)
        if seen == ALL_COLOURS:
            # The fifth colour splits the stack: the top floor(n/2) tiles become a new stack, the
            # rest stay; both halves are new stacks and may each take one more tile this turn.
            keep = len(stack) - len(stack) // 2
            self.stacks[s] = stack[:keep]
            self.stacks.append(stack[keep:])
            self.used &= ~(1 << s)
            self.splits += 1
        else:
            self.stacks[s] = stack
        # The placement shows a symbol the hand hid (only colours show on the backs): REVEALED,
        # so the undo policy never takes it back, as the rulebook says ("once placed, your tile
        # cannot be removed").
        if self.hand_size[player] == 0:
            return Effect.REVEALED | self._end_round(player)
        return Effect.REVEALED

    def _end_turn(self, draw: int | None, player: int) -> Effect:
        effect = Effect.NONE
        if draw is not None:
            pile = self.pile
            i = next(i for i, t in enumerate(pile) if COLOUR[t] == draw)
            t = pile.pop(i)
            self.pile_colours[draw] -= 1
            self.hands[player][t] += 1
            self.hand_size[player] += 1
            effect = Effect.DREW
        self.idle = self.idle + 1 if draw is None and not self.placed else 0
        self.turns += 1
        self.used = 0
        self.placed = 0
        if self.idle >= self.num_players:
            return self._end_round(None) | effect
        self.player = (player + 1) % self.num_players
        return effect

    def _end_round(self, winner: int | None) -> Effect:
        """Score the round (1 point per tile in hand); end the match or deal the next round."""
        points = tuple(self.hand_size)
        for p, pts in enumerate(points):
            self.scores[p] += pts
        self.rounds.append((points, -1 if winner is None else winner))
        if max(self.scores) >= self.target:
            self.over = True
            self.reason = EndReason.ROUND_WON if winner is not None else EndReason.STUCK_ROUND
            return Effect.REVEALED  # a finished match shows every hand: no taking it back
        self._deal((self.starter + 1) % self.num_players)
        return Effect.DREW

    # --- the end ------------------------------------------------------------------------------
    def _outcome(self) -> Outcome:
        return Outcome(
            scores=tuple(float(s) for s in self.scores),
            ranks=ranks_from_keys([-s for s in self.scores]),
            reason=self.reason,
            breakdown=self._breakdown(),
            lower_is_better=True,
        )

    def _breakdown(self) -> tuple[tuple[Part, ...], ...]:
        """Each player's points round by round ("round 1", ...); a position set up with totals
        already on the board carries them as "earlier rounds" first. Equal totals share places."""
        n = self.num_players
        earlier = [self.scores[p] - sum(pts[p] for pts, _ in self.rounds) for p in range(n)]
        head = any(earlier)
        return tuple(
            (
                *((Part("earlier rounds", float(earlier[p])),) if head else ()),
                *(Part(f"round {k}", float(pts[p])) for k, (pts, _) in enumerate(self.rounds, 1)),
            )
            for p in range(n)
        )

    def _stats(self) -> dict[str, float | list[float]]:
        n = self.num_players
        return {
            "rounds": float(len(self.rounds)),
            "stuck_rounds": float(sum(1 for _, w in self.rounds if w < 0)),
            "splits": float(self.splits),
            "tiles_placed_per_turn": self.placements / self.turns if self.turns else 0.0,
            "rounds_won": [float(sum(1 for _, w in self.rounds if w == p)) for p in range(n)],
            "points": [float(s) for s in self.scores],
        }

    # --- views --------------------------------------------------------------------------------
    def _colours_of(self, counts: list[int]) -> dict[str, int]:
        out = dict.fromkeys(COLOUR_LETTERS, 0)
        for t in range(NUM_TILES):
            if counts[t]:
                out[COLOUR_LETTERS[COLOUR[t]]] += counts[t]
        return out

    def _view_with(self, shown: set[int], pile: bool) -> dict[str, Any]:
        hands: list[dict[str, Any]] = []
        for p, hand in enumerate(self.hands):
            entry: dict[str, Any] = {"size": self.hand_size[p], "colours": self._colours_of(hand)}
            if p in shown:
                entry["tiles"] = [TILE_TEXT[t] for t in range(NUM_TILES) for _ in range(hand[t])]
            hands.append(entry)
        pile_view: dict[str, Any] = {
            "size": len(self.pile),
            "colours": dict(zip(COLOUR_LETTERS, self.pile_colours, strict=True)),
        }
        if pile:
            pile_view["tiles"] = [TILE_TEXT[t] for t in self.pile]
        return {
            "round": len(self.rounds) + (0 if self.over else 1),
            "target": self.target,
            "starter": self.starter,
            "scores": list(self.scores),
            "rounds": [
                {"points": list(pts), "winner": None if w < 0 else w} for pts, w in self.rounds
            ],
            "stacks": [[TILE_TEXT[t] for t in st] for st in self.stacks],
            "used": [s for s in range(len(self.stacks)) if self.used >> s & 1],
            "placed": self.placed,
            "idle": self.idle,
            "pile": pile_view,
            "hands": hands,
        }

    def _view(self, player: int | None) -> dict[str, Any]:
        return self._view_with(set() if player is None else {player}, pile=False)

    def _full(self) -> dict[str, Any]:
        return self._view_with(set(range(self.num_players)), pile=True)

    def _render(self, player: int | None) -> str:
        from .render import render

        return render(self, player)

    # --- copies and sampled worlds ------------------------------------------------------------
    def _copy_into(self, other: State) -> None:
        assert isinstance(other, StakzState)
        other.hands = [h.copy() for h in self.hands]
        other.hand_size = self.hand_size.copy()
        other.stacks = self.stacks.copy()
        other.pile = self.pile.copy()
        other.pile_colours = self.pile_colours.copy()
        other.scores = self.scores.copy()
        other.rounds = self.rounds.copy()

    def _determinize(self, player: int, rng: Rng) -> Self:
        """Re-deal what `player` cannot know: other hands' symbols and the pile.

        Colours are public (tile backs), stacks are face up, and the player's own hand is theirs,
        so per colour the unseen tiles (other hands and pile) are shuffled among the unseen slots
        of that colour; then the pile's order is shuffled, and the world gets its own generator
        so later rounds' deals are not the real ones either.
        """
        world = self.clone()
        others = [q for q in range(self.num_players) if q != player]
        pools: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
        for q in others:
            hand = world.hands[q]
            for t in range(NUM_TILES):
                pools[COLOUR[t]].extend([t] * hand[t])
                hand[t] = 0
        for t in world.pile:
            pools[COLOUR[t]].append(t)
        for pool in pools:
            pool.sort()  # from here on the sample depends only on what the player knows
            rng.shuffle(pool)
        for q in others:
            colours = self._colours_of(self.hands[q])
            hand = world.hands[q]
            for c, letter in enumerate(COLOUR_LETTERS):
                for _ in range(colours[letter]):
                    hand[pools[c].pop()] += 1
        pile = [t for pool in pools for t in pool]
        rng.shuffle(pile)
        world.pile = pile
        world.rng = rng.spawn()
        return world
