"""The `teocalli` command: play at the terminal, simulate bots against each other."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import teocalli
from teocalli.core import Decision, Game, State, TeocalliError


def _options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise TeocalliError(f"an option is written key=value, not {pair!r}")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def load_game(name: str, seats: Sequence[str], option_pairs: Sequence[str]) -> Game:
    options: dict[str, Any] = _options(option_pairs)
    options["players"] = len(seats)
    return teocalli.load(name, **options)


# --- play --------------------------------------------------------------------------------------


class TerminalTable:
    """A game at one terminal: people type moves, bots answer; a refused move is explained."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        seed: int,
        *,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        race_wait: Callable[[float], str | None] | None = None,
        bot_delay: float = 2.0,
    ) -> None:
        from teocalli.agents import make_agent

        self.game = game
        self.seats = list(seats)
        self.state = game.new_state(seed)
        self.read, self.write = read, write
        self.race_wait = race_wait
        self.bot_delay = bot_delay
        self.bots = {
            k: make_agent(spec, game, seed * 101 + k)
            for k, spec in enumerate(seats)
            if spec != "human"
        }
        self.humans = [k for k, spec in enumerate(seats) if spec == "human"]

    def run(self) -> State:
        state = self.state
        while not state.is_terminal():
            movers = state.to_move()
            if state.decision() is Decision.RACE and len(movers) > 1:
                self._race_step(movers)
                continue
            player = movers[0]
            if player in self.bots:
                self._bot_move(player)
            elif not self._human_move(player):
                self.write("game abandoned")
                return state
        self.write(state.render(None))
        out = state.outcome()
        self.write(f"game over: {out.reason.value}")
        for p in range(self.game.num_players):
            self.write(
                f"  player {p} ({self.seats[p]}): score {out.scores[p]:g}, place {out.ranks[p] + 1}"
            )
        winners = ", ".join(f"player {w}" for w in out.winners) or "nobody"
        self.write(f"winner: {winners}")
        return state

    def _bot_move(self, player: int) -> None:
        action = self.bots[player].act(self.state, player)
        self.state.apply(action, player)
        self.write(f"player {player} ({self.seats[player]}) plays {action}")

    def _race_step(self, movers: tuple[int, ...]) -> None:
        humans = [p for p in movers if p in self.humans]
        if humans and self.race_wait is not None:
            self.write(self.state.render(humans[0]))
            self.write(f"race! type a move within {self.bot_delay:g}s, or the bots go first")
            text = self.race_wait(self.bot_delay)
            if text:
                self._try(humans[0], text.strip())
                return
        bots = [p for p in movers if p in self.bots]
        if bots:
            self._bot_move(bots[self.state.rng.copy().randrange(len(bots))])
        elif humans:
            self._human_move(humans[0])

    def _human_move(self, player: int) -> bool:
        state = self.state
        if len(self.humans) > 1:
            self.write(f"--- player {player}, your move (others look away) ---")
        self.write(state.render(player))
        actions = state.legal_actions(player)
        self.write("legal moves: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(actions)))
        while True:
            text = self.read(f"player {player}> ").strip()
            if text in ("quit", "exit"):
                return False
            if text in ("help", "?"):
                self.write(
                    "type a move in notation or its number; "
                    "'undo' takes back a safe step; 'quit' leaves"
                )
                continue
            if text == "undo":
                if state.can_undo(player):
                    self.state = state = state.undo(player)
                    self.write("step taken back")
                    return True
                self.write(
                    "that step cannot be taken back "
                    "(it revealed or drew something, or was not yours)"
                )
                continue
            if text.isdigit() and int(text) < len(actions):
                text = str(actions[int(text)])
            if self._try(player, text):
                return True

    def _try(self, player: int, text: str) -> bool:
        try:
            self.state.apply(text, player)
        except TeocalliError as err:
            self.write(f"refused: {err}")
            return False
        self.write(f"player {player} plays {self.state.history[-1].action}")
        return True


def _stdin_wait(seconds: float) -> str | None:
    """Read a line if one arrives within `seconds` (Unix terminals)."""
    import select

    ready, _, _ = select.select([sys.stdin], [], [], seconds)
    return sys.stdin.readline() if ready else None


def cmd_play(args: argparse.Namespace) -> int:
    seats = [s.strip() for s in args.seats.split(",")]
    game = load_game(args.game, seats, args.option)
    table = TerminalTable(game, seats, args.seed, race_wait=_stdin_wait, bot_delay=args.bot_delay)
    table.run()
    return 0


# --- simulate ----------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from rich.table import Table

    from teocalli.arena.simulate import simulate

    seats = [s.strip() for s in args.seats.split(",")]
    if args.solo:
        return solo_report(args.game, seats, args.games, args.seed, args.option)
    game = load_game(args.game, seats, args.option)
    err = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=args.quiet,
    ) as bar:
        task = bar.add_task(f"{game.info.name}", total=args.games)
        sim = simulate(
            game, seats, args.games, args.seed, progress=lambda k: bar.update(task, completed=k)
        )
    if args.json:
        print(json.dumps(sim.to_json()))
        return 0
    out = Console()
    table = Table(
        title=f"{game.info.title}: {args.games} games, seed {args.seed}, "
        f"options {dict(game.options)}"
    )
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right")
    stats = sim.mean_stats()
    per_seat = {k: v for k, v in stats.items() if isinstance(v, list)}
    for key in per_seat:
        table.add_column(f"mean {key.replace('_', ' ')}", justify="right")
    for k, (wins, (lo, hi)) in enumerate(zip(sim.wins, sim.win_intervals(), strict=True)):
        rate = wins / max(1, args.games)
        cells = [str(k), seats[k], f"{wins:g}", f"{rate:.1%} ({lo:.1%}-{hi:.1%})"]
        cells += [f"{v[k]:.2f}" for v in per_seat.values()]
        table.add_row(*cells)
    out.print(table)
    out.print(f"mean game length: {sim.mean_length():.1f} steps")
    for key, value in stats.items():
        if not isinstance(value, list):
            out.print(f"mean {key.replace('_', ' ')}: {value:.3f}")
    return 0


# --- solve -------------------------------------------------------------------------------------

SOLVERS = {"shifting-stones": "teocalli.games.shifting_stones.solve_cli:run"}
"""Games with an exact solver, and the entry point that takes the rest of the command line."""


def cmd_solve(args: argparse.Namespace) -> int:
    import importlib

    target = SOLVERS.get(args.game)
    if target is None:
        have = ", ".join(SOLVERS)
        raise TeocalliError(
            f"there is no exact solver for {args.game!r} (solvers exist for: {have})"
        )
    module, _, func = target.partition(":")
    run: Callable[[list[str]], int] = getattr(importlib.import_module(module), func)
    return run(list(args.rest))


def solo_report(
    game_name: str, bots: Sequence[str], games: int, seed: int, options: Sequence[str]
) -> int:
    """Each bot's solo win rate over the same seeds, beside the clairvoyant search's rate."""
    from rich.console import Console
    from rich.table import Table

    from teocalli.arena.simulate import simulate
    from teocalli.arena.stats import wilson_interval

    out = Console()
    table = Table(title=f"{game_name} solo: {games} seeds from {seed}")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right")

    def row(label: str, wins: float) -> None:
        lo, hi = wilson_interval(wins, games)
        table.add_row(label, f"{wins:g}", f"{wins / games:.1%} ({lo:.1%}-{hi:.1%})")

    for bot in bots:
        game = load_game(game_name, [bot], options)
        row(bot, simulate(game, [bot], games, seed).wins[0])
    if game_name == "shifting-stones":
        from teocalli.games.shifting_stones.solo_bound import clairvoyant_wins

        opts: dict[str, Any] = dict(load_game(game_name, ["x"], options).options)
        opts.pop("players")
        found = clairvoyant_wins(range(seed, seed + games), **opts)
        row("clairvoyant search (knows the deck; a lower bound)", float(sum(found)))
    out.print(table)
    return 0


# --- entry point -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="teocalli", description=__doc__)
    parser.add_argument("--version", action="version", version=f"teocalli {teocalli.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    names = ", ".join(teocalli.games())

    play = sub.add_parser("play", help="play a game at the terminal against people or bots")
    play.add_argument("game", help=f"one of: {names}")
    play.add_argument(
        "--seats",
        default="human,greedy",
        help="comma-separated: human or a bot spec, one per player",
    )
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )
    play.add_argument(
        "--bot-delay", type=float, default=2.0, help="race variants: seconds before bots react"
    )
    play.set_defaults(func=cmd_play)

    sim = sub.add_parser("simulate", help="play many seeded games between bots and summarise them")
    sim.add_argument("game", help=f"one of: {names}")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--seats", default="random,greedy", help="bot specs, one per player (sets the player count)"
    )
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )
    sim.add_argument(
        "--json", action="store_true", help="print one JSON document instead of a table"
    )
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument(
        "--solo",
        action="store_true",
        help="solo game: play each seat's bot alone over the same seeds (and, for Shifting Stones, "
        "the clairvoyant search that knows the deck order)",
    )
    sim.set_defaults(func=cmd_simulate)

    solve = sub.add_parser(
        "solve", help="exact solvers (Shifting Stones: actions before a card scores)"
    )
    solve.add_argument("game", help=f"one of: {', '.join(SOLVERS)}")
    solve.add_argument("rest", nargs=argparse.REMAINDER, help="the solver's own arguments")
    solve.set_defaults(func=cmd_solve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except TeocalliError as err:
        print(f"teocalli: {err}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
