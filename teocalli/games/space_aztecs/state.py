"""The Space Aztecs position and its rules (docs/games/space-aztecs.md).

Every card has one place, `where[card]`: a pile 0..7, chosen face down by p (CHOSEN + p), in p's
city in view (CITY + p: Aztecs, Temples, Saucers, Codex), under one of p's Temples (TEMPLED + p)
or under one of p's Saucers (CAPTURED + p), with `host[card]` the Temple or Saucer on top; OUT for
the removed set and (younger variant) the Codex. A round is: `take` by each player clockwise
from the Starting Player (TURN), one hidden `choose` each (SIMULTANEOUS; the last one reveals),
then the cards are played from the earliest time clockwise, stopping for the choices a card asks
for (`capture` by a Saucer's owner, `tuck`/`keep` with a Special Agent).

What a player knows of the piles: a player who has ever held a pile saw all of it, and cards
only leave piles by being chosen and then revealed with the pile they came from, so that player
knows the pile exactly from then on (save which card its current holder has just chosen).
`seen_round[p * 8 + x]` records when p last held pile x (0: never); views show it as memory.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from teocalli.core import Decision, Effect, Outcome, Rng, State, ranks_from_keys

from .actions import (
    CAPTURE_BASE,
    CHOOSE_BASE,
    KEEP_INDEX,
    TABLE,
    TAKE_BASE,
    TUCK_INDEX,
    Action,
    Capture,
    Choose,
    Keep,
    Take,
    Tuck,
    malformed,
)
from .components import (
    CARD_ID,
    CARD_TIME,
    COLOUR,
    COLOURS,
    IS_AGENT,
    IS_AZTEC,
    KIND,
    MINUTES,
    NUM_CARDS,
    NUM_PILES,
    PINK,
    Kind,
    card_json,
    deck,
    pile_text,
)
from .scoring import City, Sheet, score_sheets

if TYPE_CHECKING:
    from .game import SpaceAztecs

OUT = -1
CHOSEN = 8
CITY = 16
TEMPLED = 24
CAPTURED = 32


class Phase(enum.IntEnum):
    PICK = 0  # players take piles, clockwise from the Starting Player
    CHOOSE = 1  # the simultaneous hidden choice
    RESOLVE = 2  # cards are being played (never seen by a player: it runs on by itself)
    CAPTURE = 3  # a Saucer's owner picks the victim's card
    TUCK = 4  # a player with a Special Agent in view may tuck the Aztec just played
    OVER = 5


class EndReason(enum.Enum):
    PILES = "two piles are empty"
    SAUCERS = "enough Flying Saucers were played"
    BOTH = "two piles are empty and enough Flying Saucers were played"


class SpaceAztecsState(State):
    game: SpaceAztecs

    # --- set-up -------------------------------------------------------------------------------
    def _setup(self) -> None:
        n = self.game.num_players
        option = self.game.options["removed_set"]
        if n >= 5:
            removed = -1
        elif option == "random":
            removed = self.rng.randrange(len(COLOURS))
        else:
            removed = COLOURS.index(option)
        cards = deck(self.game.options["codex"], removed)
        self.rng.shuffle(cards)
        per_pile = len(cards) // NUM_PILES
        self.removed = removed
        self.where = [OUT] * NUM_CARDS
        for i, card in enumerate(cards):
            self.where[card] = i // per_pile
        self.host = [-1] * NUM_CARDS
        self.pile_size = [per_pile] * NUM_PILES
        self.start = self.rng.randrange(n)  # ruling: the Starting Player is drawn at random
        self._new_round_fields()
        self.seen_round = [0] * (n * NUM_PILES)
        self.round = 1
        self.phase = Phase.PICK
        self.saucers_played = 0
        self.saucer_limit = 7 if n <= 4 else 9
        self.end_reason: EndReason | None = None
        self.last_played: tuple[int, ...] = ()  # the previous round's cards, by player

    def _new_round_fields(self) -> None:
        n = self.game.num_players
        self.holder = [-1] * NUM_PILES
        self.held = [-1] * n
        self.chosen = [-1] * n
        self.picks = 0
        self.order: tuple[int, ...] = ()
        self.playing = 0
        self.saucer = -1
        self.victims: tuple[int, ...] = ()
        self.tuck_card = -1

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, SpaceAztecsState)
        other.where = self.where.copy()
        other.host = self.host.copy()
        other.pile_size = self.pile_size.copy()
        other.holder = self.holder.copy()
        other.held = self.held.copy()
        other.chosen = self.chosen.copy()
        other.seen_round = self.seen_round.copy()

    # --- queries ------------------------------------------------------------------------------
    def pile_cards(self, pile: int) -> list[int]:
        return [c for c in range(NUM_CARDS) if self.where[c] == pile]

    def cards_at(self, place: int) -> list[int]:
        return [c for c in range(NUM_CARDS) if self.where[c] == place]

    def targets(self, victim: int, colour: int) -> list[int]:
        """The victim's Aztecs in view of that colour: what a Saucer of that colour may take."""
        place = CITY + victim
        where = self.where
        return [
            c for c in range(NUM_CARDS) if where[c] == place and IS_AZTEC[c] and COLOUR[c] == colour
        ]

    def has_agent_in_view(self, player: int) -> bool:
        place = CITY + player
        return any(self.where[c] == place and IS_AGENT[c] for c in range(NUM_CARDS))

    def temple_of(self, player: int, colour: int) -> int:
        """The player's latest Temple of that colour, or -1."""
        place = CITY + player
        found = -1
        for c in range(NUM_CARDS):
            if self.where[c] == place and KIND[c] is Kind.TEMPLE and COLOUR[c] == colour:
                found = c
        return found

    def knows_pile(self, player: int, pile: int) -> bool:
        return self.seen_round[player * NUM_PILES + pile] > 0

    def city(self, player: int, cards: Iterable[int] = range(NUM_CARDS)) -> City:
        """The player's city; `cards` (in card order) may narrow the cards looked at to a list
        known to hold every card of the city (the observation encoder's, made in one pass)."""
        where = self.where
        visible, templed, temples, codex = [], [], [], []
        captured = 0
        for c in cards:
            w = where[c]
            if w == CITY + player:
                kind = KIND[c]
                if kind is Kind.AZTEC:
                    visible.append(c)
                elif kind is Kind.TEMPLE:
                    temples.append(c)
                elif kind is Kind.CODEX:
                    codex.append(c)
            elif w == TEMPLED + player:
                templed.append(c)
            elif w == CAPTURED + player:
                captured += 1
        return City(
            tuple(visible),
            tuple(templed),
            tuple(temples),
            tuple(codex),
            captured,
            self.start == player,
        )

    def sheets(self) -> list[Sheet]:
        """Everyone's score if the game ended now (the final score once it has)."""
        cities = [self.city(p) for p in range(self.num_players)]
        return score_sheets(cities, pink_in_game=self.removed != PINK)

    # --- turn structure -----------------------------------------------------------------------
    def _to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is Phase.PICK:
            return ((self.start + self.picks) % self.num_players,)
        if phase is Phase.CHOOSE:
            return tuple(p for p, c in enumerate(self.chosen) if c < 0)
        return (self.order[self.playing],)

    def _decision(self) -> Decision:
        return Decision.SIMULTANEOUS if self.phase is Phase.CHOOSE else Decision.TURN

    def _is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def _legal_actions(self, player: int) -> list[Any]:
        return [TABLE[i] for i in self.legal_ids(player)]

    def _legal_action_ints(self, player: int) -> list[int]:
        """The move generator, by action id (actions.py's numbering): `_legal_actions` and the
        adapters' masks both read it, through the per-step `legal_ids`."""
        phase = self.phase
        if phase is Phase.PICK:
            return [
                TAKE_BASE + x for x in range(NUM_PILES) if self.pile_size[x] and self.holder[x] < 0
            ]
        if phase is Phase.CHOOSE:
            pile = self.held[player]
            where = self.where
            return [CHOOSE_BASE + c for c in range(NUM_CARDS) if where[c] == pile]
        if phase is Phase.CAPTURE:
            targets = self.targets(self.victims[0], COLOUR[self.saucer])
            return [CAPTURE_BASE + c for c in targets]
        return [TUCK_INDEX, KEEP_INDEX]

    def _phase_now(self) -> str:
        phase = self.phase
        if phase is Phase.PICK:
            return "now each player takes a pile (take A)"
        if phase is Phase.CHOOSE:
            return "now each player chooses a card from their pile (choose PNK-05)"
        if phase is Phase.CAPTURE:
            return f"now {CARD_ID[self.saucer]}'s owner picks the card it takes (capture ...)"
        return (
            f"now the owner of {CARD_ID[self.tuck_card]} decides whether to tuck it (tuck or keep)"
        )

    _malformed = staticmethod(malformed)  # one check of an object's fields, in actions.py

    def _illegal_reason(self, action: Action, player: int) -> str | None:
        phase = self.phase
        if isinstance(action, Take):
            if phase is not Phase.PICK:
                return f"piles are taken only at the start of a round; {self._phase_now()}"
            x = action.pile
            if not self.pile_size[x]:
                return f"pile {pile_text(x)} is empty: take a pile that still has cards"
            if self.holder[x] >= 0:
                return (
                    f"pile {pile_text(x)} was already taken this round by player {self.holder[x]}:"
                    " each player takes a different pile"
                )
            return None
        if isinstance(action, Choose):
            if phase is not Phase.CHOOSE:
                return f"cards are chosen once everyone has a pile; {self._phase_now()}"
            if self.where[action.card] != self.held[player]:
                return (
                    f"{CARD_ID[action.card]} is not in your pile {pile_text(self.held[player])}:"
                    " choose one of the cards you hold"
                )
            return None
        if isinstance(action, Capture):
            if phase is not Phase.CAPTURE:
                return f"no Flying Saucer is waiting for its owner's choice; {self._phase_now()}"
            card, victim, colour = action.card, self.victims[0], COLOUR[self.saucer]
            if self.where[card] == TEMPLED + victim:
                return f"{CARD_ID[card]} is under a Temple: Temples protect Aztecs from Saucers"
            if self.where[card] != CITY + victim or not IS_AZTEC[card]:
                return f"{CARD_ID[card]} is not an Aztec in view in player {victim}'s city"
            if COLOUR[card] != colour:
                return (
                    f"a {COLOURS[colour]} Flying Saucer takes only {COLOURS[colour]} Aztecs,"
                    f" and {CARD_ID[card]} is {COLOURS[COLOUR[card]]}"
                )
            return None
        if isinstance(action, Tuck | Keep):
            if phase is not Phase.TUCK:
                return (
                    "tuck and keep answer a Special Agent's offer to put the Aztec you just played"
                    f" under your Temple of its colour; {self._phase_now()}"
                )
            return None
        return f"{action!r} is not a Space Aztecs action"

    # --- applying -----------------------------------------------------------------------------
    def _apply(self, action: Action, player: int) -> Effect:
        if isinstance(action, Take):
            x = action.pile
            self.holder[x] = player
            self.held[player] = x
            self.seen_round[player * NUM_PILES + x] = self.round
            self.picks += 1
            if self.picks == self.num_players:
                self.phase = Phase.CHOOSE
            return Effect.REVEALED  # the taker sees the pile's cards
        if isinstance(action, Choose):
            card = action.card
            self.pile_size[self.where[card]] -= 1
            self.where[card] = CHOSEN + player
            self.chosen[player] = card
            if min(self.chosen) < 0:
                return Effect.NONE
            self._reveal()
            return Effect.REVEALED
        if isinstance(action, Capture):
            self._capture(action.card)
            self.victims = self.victims[1:]
            if not self._saucer_goes_on():
                self._next_card()
            return Effect.NONE
        if isinstance(action, Tuck):
            card = self.tuck_card
            self.where[card] = TEMPLED + player
            self.host[card] = self.temple_of(player, COLOUR[card])
        self.tuck_card = -1
        self._next_card()
        return Effect.NONE

    def _step_text(self, index: int, viewer: int | None) -> str:
        """A card choice stays face down in others' logs until the last choice reveals them all."""
        step = self.history[index]
        if not isinstance(step.action, Choose) or viewer == step.player:
            return str(step.action)
        for later in self.history[index:]:
            if isinstance(later.action, Choose) and later.effect & Effect.REVEALED:
                return str(step.action)
        return "choose ?"

    def _reveal(self) -> None:
        """Every time is announced: the earliest takes the token and plays first, then clockwise."""
        n = self.num_players
        first = min(range(n), key=lambda p: MINUTES[self.chosen[p]])
        self.start = first
        self.order = tuple((first + i) % n for i in range(n))
        self.playing = 0
        self.phase = Phase.RESOLVE
        self._resolve()

    def _resolve(self) -> None:
        """Play the cards in order until one asks its owner a question or the round is over."""
        while self.playing < len(self.order):
            player = self.order[self.playing]
            if self._play(player, self.chosen[player]):
                return
            self.playing += 1
        self._end_round()

    def _next_card(self) -> None:
        self.phase = Phase.RESOLVE
        self.playing += 1
        self._resolve()

    def _play(self, player: int, card: int) -> bool:
        """Put the card into the city and apply its effect; True if its owner must now choose."""
        kind = KIND[card]
        colour = COLOUR[card]
        place = CITY + player
        where = self.where
        if kind is Kind.AZTEC:
            agent = self.has_agent_in_view(player)  # an Agent already there, not the card itself
            where[card] = place
            if agent and self.temple_of(player, colour) >= 0:
                self.tuck_card = card
                self.phase = Phase.TUCK
                return True
            return False
        where[card] = place
        if kind is Kind.TEMPLE:
            for c in range(NUM_CARDS):
                if where[c] == place and IS_AZTEC[c] and COLOUR[c] == colour:
                    where[c] = TEMPLED + player
                    self.host[c] = card
            return False
        if kind is Kind.SAUCER:
            self.saucers_played += 1
            self.saucer = card
            n = self.num_players
            self.victims = tuple(
                v for v in ((player + i) % n for i in range(1, n)) if self.targets(v, colour)
            )
            return self._saucer_goes_on()
        return False  # Codex: beside the city, scored at the end

    def _saucer_goes_on(self) -> bool:
        """Take the only candidate from each victim in turn; stop where the owner must choose."""
        colour = COLOUR[self.saucer]
        while self.victims:
            targets = self.targets(self.victims[0], colour)
            if len(targets) > 1:
                self.phase = Phase.CAPTURE
                return True
            if targets:
                self._capture(targets[0])
            self.victims = self.victims[1:]
        self.saucer = -1
        self.phase = Phase.RESOLVE
        return False

    def _capture(self, card: int) -> None:
        owner = self.order[self.playing]
        self.where[card] = CAPTURED + owner
        self.host[card] = self.saucer

    def _end_round(self) -> None:
        """Finish the round; the world ends on two empty piles or enough Saucers."""
        self.last_played = tuple(self.chosen)
        piles = sum(1 for s in self.pile_size if s == 0) >= 2
        saucers = self.saucers_played >= self.saucer_limit
        self._new_round_fields()
        if piles or saucers:
            self.phase = Phase.OVER
            self.end_reason = (
                EndReason.BOTH
                if piles and saucers
                else EndReason.PILES
                if piles
                else EndReason.SAUCERS
            )
        else:
            self.round += 1
            self.phase = Phase.PICK

    # --- the end ------------------------------------------------------------------------------
    def _outcome(self) -> Outcome:
        sheets = self.sheets()
        totals = [s.total for s in sheets]
        assert self.end_reason is not None
        return Outcome(
            tuple(float(t) for t in totals),
            ranks_from_keys(totals),  # equal totals share
            self.end_reason,
            breakdown=tuple(s.breakdown() for s in sheets),
        )

    def _stats(self) -> dict[str, float | list[float]]:
        sheets = self.sheets()
        stats: dict[str, float | list[float]] = {
            f"points_{colour}": [float(s.aztecs[i]) for s in sheets]
            for i, colour in enumerate(COLOURS)
        }
        stats["points_codex"] = [float(s.codex) for s in sheets]
        stats["points_saucers"] = [float(s.saucers) for s in sheets]
        stats["pink_penalty"] = [float(s.pink_penalty) for s in sheets]
        stats["saucers_played"] = float(self.saucers_played)
        stats["rounds"] = float(self.round)
        reason = self.end_reason
        stats["ended_by_piles"] = float(reason in (EndReason.PILES, EndReason.BOTH))
        stats["ended_by_saucers"] = float(reason in (EndReason.SAUCERS, EndReason.BOTH))
        return stats

    # --- hidden information -------------------------------------------------------------------
    def pending_choice(self, pile: int) -> int:
        """The card the pile's holder chose from it, face down and unrevealed, or -1."""
        if self.phase is not Phase.CHOOSE:
            return -1
        holder = self.holder[pile]
        return self.chosen[holder] if holder >= 0 else -1

    def memory(self, player: int) -> list[dict[str, Any]]:
        """The piles the player has held and what they know is in each (their memory aid).

        While another player holds a remembered pile and has chosen from it, the chosen card is
        still listed: the player knows one of these left, not which.
        """
        out = []
        for x in range(NUM_PILES):
            seen = self.seen_round[player * NUM_PILES + x]
            if not seen:
                continue
            cards = self.pile_cards(x)
            pending = self.pending_choice(x)
            if pending >= 0 and self.holder[x] != player:
                cards = sorted([*cards, pending])
            out.append(
                {"pile": pile_text(x), "held_in_round": seen, "cards": [CARD_ID[c] for c in cards]}
            )
        return out

    def _determinize(self, player: int, rng: Rng) -> SpaceAztecsState:
        """Re-deal what the player never saw; a remembered pile keeps its cards, though which of
        them its holder has just chosen is drawn again."""
        world = self.clone()
        assert isinstance(world, SpaceAztecsState)
        world.rng = rng.spawn()
        where, chosen = world.where, world.chosen
        pool: list[int] = []
        slots: list[int] = []  # places to fill, one card each, in a fixed order
        for x in range(NUM_PILES):
            cards = self.pile_cards(x)
            pending = self.pending_choice(x)
            holder = self.holder[x]
            if self.knows_pile(player, x):
                if pending >= 0 and holder != player:
                    group = sorted([*cards, pending])  # an order the player knows
                    pick = group[rng.randrange(len(group))]
                    for c in group:
                        where[c] = x
                    where[pick] = CHOSEN + holder
                    chosen[holder] = pick
                continue
            pool.extend(cards)
            slots.extend([x] * len(cards))
            if pending >= 0:
                pool.append(pending)
                slots.append(CHOSEN + holder)
        pool.sort()  # the unseen cards as a set: the sample must not depend on where they are
        rng.shuffle(pool)
        for card, place in zip(pool, slots, strict=True):
            where[card] = place
            if place >= CHOSEN:
                chosen[place - CHOSEN] = card
        return world

    # --- views --------------------------------------------------------------------------------
    def _city_json(self, player: int, sheet: Sheet) -> dict[str, Any]:
        place = CITY + player
        where, host = self.where, self.host
        mine = [c for c in range(NUM_CARDS) if where[c] == place]

        def under(top: int) -> list[str]:
            return [CARD_ID[c] for c in range(NUM_CARDS) if host[c] == top and where[c] >= TEMPLED]

        return {
            "aztecs": [CARD_ID[c] for c in mine if KIND[c] is Kind.AZTEC],
            "temples": [
                {"temple": CARD_ID[c], "under": under(c)} for c in mine if KIND[c] is Kind.TEMPLE
            ],
            "saucers": [
                {"saucer": CARD_ID[c], "under": under(c)} for c in mine if KIND[c] is Kind.SAUCER
            ],
            "codex": [CARD_ID[c] for c in mine if KIND[c] is Kind.CODEX],
            "score_now": sheet.to_json(),
        }

    def _view(self, player: int | None) -> dict[str, Any]:
        n = self.num_players
        phase = self.phase
        sheets = self.sheets()
        view: dict[str, Any] = {
            "round": self.round,
            "phase": phase.name.lower(),
            "starting_player": self.start,
            "removed_set": COLOURS[self.removed] if self.removed >= 0 else None,
            "codex": self.game.options["codex"],
            "saucers_played": self.saucers_played,
            "saucer_limit": self.saucer_limit,
            "piles": [
                {
                    "pile": pile_text(x),
                    "size": self.pile_size[x],
                    "holder": self.holder[x] if self.holder[x] >= 0 else None,
                }
                for x in range(NUM_PILES)
            ],
            "cities": [self._city_json(p, sheets[p]) for p in range(n)],
        }
        if phase is Phase.CHOOSE:
            view["has_chosen"] = [c >= 0 for c in self.chosen]
        if self.order:
            view["announced"] = [
                {
                    "player": p,
                    "card": CARD_ID[self.chosen[p]],
                    "time": CARD_TIME[self.chosen[p]],
                    "played": i <= self.playing,
                }
                for i, p in enumerate(self.order)
            ]
        elif self.last_played:
            view["last_round"] = [CARD_ID[c] for c in self.last_played]
        if phase is Phase.CAPTURE:
            owner = self.order[self.playing]
            view["pending"] = {
                "kind": "capture",
                "player": owner,
                "saucer": CARD_ID[self.saucer],
                "victim": self.victims[0],
                "choices": [CARD_ID[c] for c in self.targets(self.victims[0], COLOUR[self.saucer])],
            }
        elif phase is Phase.TUCK:
            view["pending"] = {
                "kind": "tuck",
                "player": self.order[self.playing],
                "card": CARD_ID[self.tuck_card],
            }
        if player is not None:
            x = self.held[player]
            if x >= 0:
                view["your_pile"] = {
                    "pile": pile_text(x),
                    "cards": [card_json(c) for c in self.pile_cards(x)],
                }
            if phase is Phase.CHOOSE and self.chosen[player] >= 0:
                view["your_choice"] = card_json(self.chosen[player])
            view["memory"] = self.memory(player)
        return view

    def _full(self) -> dict[str, Any]:
        view = self._view(None)
        view["pile_cards"] = {
            pile_text(x): [CARD_ID[c] for c in self.pile_cards(x)] for x in range(NUM_PILES)
        }
        view["chosen"] = [CARD_ID[c] if c >= 0 else None for c in self.chosen]
        view["out_of_game"] = [CARD_ID[c] for c in self.cards_at(OUT)]
        view["memories"] = [self.memory(p) for p in range(self.num_players)]
        view["end_reason"] = self.end_reason.value if self.end_reason else None
        return view

    def _render(self, player: int | None) -> str:
        from .render import render

        return render(self, player)
