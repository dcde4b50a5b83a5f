"""The `teocalli` command: play at the terminal, simulate bots against each other."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import teocalli
from teocalli.core import Decision, Game, State, TeocalliError
from teocalli.core.outcome import TIE_BREAK, Part


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


def breakdown_text(parts: Sequence[Part]) -> str:
    """A player's score line by line: "card points: 15, one-point bonus: 3"; a tie-break part
    (no points) is its label alone."""
    return ", ".join(
        p.label if p.label.startswith(TIE_BREAK) else f"{p.label}: {p.points:g}" for p in parts
    )


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
        if out.lower_is_better:
            self.write("scores: fewer is better")
        for p in range(self.game.num_players):
            self.write(
                f"  player {p} ({self.seats[p]}): score {out.scores[p]:g}, place {out.ranks[p] + 1}"
            )
            self.write(f"    {breakdown_text(out.breakdown[p])}")
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
                    "type a move in notation or its number; 'hint' suggests one; "
                    "'undo' takes back a safe step; 'quit' leaves"
                )
                continue
            if text == "hint":
                from teocalli.agents.solo import hint_with_reason

                action, why = hint_with_reason(state, player)
                self.write(f"hint: {action}  ({why})")
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
            game,
            seats,
            args.games,
            args.seed,
            progress=lambda k: bar.update(task, completed=k),
            workers=args.workers,
            ray_address=args.ray,
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
    outcomes = sim.outcomes()
    means = sim.mean_breakdown(outcomes)
    if means and means[0]:
        fewer = "fewer is better" if outcomes[0].lower_is_better else None
        parts = Table(title="mean score breakdown", caption=fewer)
        parts.add_column("seat")
        parts.add_column("bot")
        for label in means[0]:
            parts.add_column(label, justify="right")
        for k, seat in enumerate(means):
            parts.add_row(str(k), seats[k], *(f"{v:.2f}" for v in seat.values()))
        out.print(parts)
    out.print(f"mean game length: {sim.mean_length():.1f} steps")
    for key, value in stats.items():
        if not isinstance(value, list):
            out.print(f"mean {key.replace('_', ' ')}: {value:.3f}")
    return 0


# --- tournament and report ---------------------------------------------------------------------


def _bar(quiet: bool) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
    )


def cmd_tournament(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table

    from teocalli.arena.tournament import run_tournament

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    options: dict[str, Any] = _options(args.option)
    if args.players:
        options["players"] = args.players
    game = teocalli.load(args.game, **options)
    with _bar(args.quiet) as bar:
        task = bar.add_task(f"{game.info.name} tournament", total=None)
        t = run_tournament(
            game,
            bots,
            args.games,
            args.seed,
            fmt=args.format,
            rounds=args.rounds,
            save=Path(args.save) if args.save else None,
            workers=args.workers,
            ray_address=args.ray,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if args.json:
        print(json.dumps(t.to_json()))
        return 0
    table = Table(
        title=f"{game.info.title} {t.fmt}: {len(t.results)} games, seed {args.seed}, "
        f"{game.num_players} players"
    )
    for col in ("rank", "bot", "mu", "sigma", "95% interval", "games", "wins", "win rate"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for i, e in enumerate(t.leaderboard(), start=1):
        table.add_row(
            str(i),
            e.bot,
            f"{e.mu:.1f}",
            f"{e.sigma:.1f}",
            f"{e.mu - 1.96 * e.sigma:.1f}-{e.mu + 1.96 * e.sigma:.1f}",
            str(e.games),
            f"{e.wins:g}",
            f"{e.wins / max(1, e.games):.1%}",
        )
    Console().print(table)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from teocalli.arena.report import build_report, write_report

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    players = [int(p) for p in args.players.split(",")] if args.players else None
    out = Path(args.out or f"report-{args.game}.{args.format}")
    with _bar(args.quiet) as bar:
        task = bar.add_task(f"{args.game} report", total=None)
        report = build_report(
            args.game,
            bots,
            args.games,
            args.seed,
            players=players,
            options=_options(args.option),
            workers=args.workers,
            ray_address=args.ray,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    for path in write_report(report, out, args.format):
        print(f"wrote {path}")
    return 0


def _add_backend(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers", type=int, default=None, help="local processes (default: one per core)"
    )
    parser.add_argument(
        "--ray", default=None, metavar="ADDRESS", help="run on a Ray cluster ('local' starts one)"
    )


# --- solve -------------------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    """A game's exact solver: `run(argv)` of its optional module `teocalli.games.<package>.
    solve_cli` (teocalli/parts.py), given the rest of the command line."""
    from teocalli import parts
    from teocalli.core import game_class

    game_class(args.game)  # an unknown game is named as such, with the games there are
    if parts.part(args.game, "solver") is None:
        have = ", ".join(parts.having("solver")) or "none"
        raise TeocalliError(
            f"there is no exact solver for {args.game!r} (solvers exist for: {have}; a game "
            f"gets one from {parts.where(args.game, 'solver')} defining run(argv))"
        )
    run: Callable[[list[str]], int] = parts.export(args.game, "solver")
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
        from teocalli.analysis.shifting_stones.solo_bound import (
            BEAM_NODES,
            EXACT_NODES,
            QUICK_NODES,
            WIDE_NODES,
            clairvoyant_wins,
        )

        opts: dict[str, Any] = dict(load_game(game_name, ["x"], options).options)
        opts.pop("players")
        # node budgets, not time: the same seeds give the same verdicts on any machine
        found = clairvoyant_wins(
            range(seed, seed + games),
            nodes=QUICK_NODES,
            beam_nodes=BEAM_NODES,
            exact_nodes=EXACT_NODES,
            wide_nodes=WIDE_NODES,
            **opts,
        )
        proven, unknown = found.count(True), found.count(None)
        label = (
            "clairvoyant (knows the deck; exact search, a budget of "
            f"{16 * QUICK_NODES:,} turns + {BEAM_NODES + EXACT_NODES + WIDE_NODES:,} positions a "
            "seed)"
        )
        if unknown:
            table.add_row(
                f"{label}: {unknown} seed(s) undecided",
                f"winnable: {proven}-{proven + unknown}",
                f"{proven / games:.1%}-{(proven + unknown) / games:.1%}",
            )
        else:
            row(label, float(proven))
    out.print(table)
    return 0


# --- serve -------------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web table with uvicorn on a database (a SQLite file unless a URL is given)."""
    import uvicorn

    from teocalli.server import create_app
    from teocalli.server.app import SERVE_SETTINGS
    from teocalli.server.ratelimit import DEFAULT_LIMITS, Limit

    limits = dict(DEFAULT_LIMITS)
    for text in args.rate_limit:
        kind, _, value = text.partition("=")
        burst, _, every = value.partition("/")
        try:
            limits[kind] = Limit(int(burst), float(every))
        except ValueError:
            raise SystemExit(
                f"--rate-limit {text!r}: write KIND=BURST/SECONDS, e.g. create=10/6"
            ) from None
        if kind not in DEFAULT_LIMITS or limits[kind].burst < 1 or not limits[kind].every > 0:
            raise SystemExit(f"--rate-limit {text!r}: KIND is one of {', '.join(DEFAULT_LIMITS)}")
    options = {
        "database": args.database,
        "bot_workers": args.bot_workers,
        "think_cap": args.think_cap,
        "rate_limits": {k: [v.burst, v.every] for k, v in limits.items()},
        "connections_per_address": args.connections_per_address,
    }
    served = {
        "host": args.host,
        "port": args.port,
        "ws_max_size": 65_536,
        "limit_concurrency": args.max_connections,
        "forwarded_allow_ips": args.forwarded_allow_ips,
        "proxy_headers": args.forwarded_allow_ips is not None,
        "log_level": "warning",
    }
    print(f"teocalli: the web table is at http://{args.host}:{args.port}/", file=sys.stderr)
    if args.workers > 1:
        if "://" not in args.database or args.database.startswith("sqlite"):
            raise SystemExit(
                "--workers: SQLite serves from one process; give a PostgreSQL --database URL "
                "(postgresql+psycopg://...) to run several"
            )
        # each worker process builds its own app (bots, leases, news) from these settings
        os.environ[SERVE_SETTINGS] = json.dumps(options)
        uvicorn.run(
            "teocalli.server.app:app_from_environment",
            factory=True,
            workers=args.workers,
            **served,
        )
        return 0
    app = create_app(
        args.database,
        bot_workers=args.bot_workers,
        think_cap=args.think_cap,
        rate_limits=limits,
        connections_per_address=args.connections_per_address,
        freeze_gc=True,
    )
    uvicorn.run(app, **served)
    return 0


def add_serve_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the web table: lobby, tables, bots, replays")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--database",
        default="teocalli.sqlite3",
        help="a SQLAlchemy URL (postgresql+psycopg://...) or a SQLite file path",
    )
    serve.add_argument(
        "--bot-workers", type=int, default=1, help="processes where bots think (0: threads)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port (PostgreSQL only; each has its own bot workers)",
    )
    serve.add_argument(
        "--think-cap", type=float, default=10.0, help="seconds a bot may think before it is stopped"
    )
    serve.add_argument(
        "--rate-limit",
        action="append",
        default=[],
        metavar="KIND=BURST/SECONDS",
        help="per client address: create (tables), read (lobby, replays), connect (WebSockets); "
        "e.g. create=10/6 allows 10 at once, then one every 6 s",
    )
    serve.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        help="open WebSockets one client address may hold (then close 4429)",
    )
    serve.add_argument(
        "--max-connections", type=int, default=2000, help="open connections at most (then 503)"
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="behind a proxy: the proxy addresses whose X-Forwarded-For is trusted",
    )
    serve.set_defaults(func=cmd_serve)


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
    _add_backend(sim)
    sim.set_defaults(func=cmd_simulate)

    tour = sub.add_parser(
        "tournament", help="round-robin or Swiss between bots, rated with openskill"
    )
    tour.add_argument("game", help=f"one of: {names}")
    tour.add_argument("--bots", required=True, help="bot specs, comma-separated")
    tour.add_argument("--games", type=int, default=20, help="games per pairing (seats rotated)")
    tour.add_argument(
        "--players", type=int, default=None, help="players per game (default: the game's)"
    )
    tour.add_argument("--format", choices=("roundrobin", "swiss"), default=None)
    tour.add_argument(
        "--rounds", type=int, default=None, help="Swiss rounds (default: log2(bots)+1)"
    )
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument(
        "--save", default=None, metavar="FILE", help="save results; an existing file is resumed"
    )
    tour.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    tour.add_argument("--json", action="store_true", help="print one JSON document")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_backend(tour)
    tour.set_defaults(func=cmd_tournament)

    rep = sub.add_parser(
        "report", help="balance report with plots: seats, length, scores, measures"
    )
    rep.add_argument("game", help=f"one of: {names}")
    rep.add_argument("--games", type=int, default=200, help="games per player count")
    rep.add_argument("--bots", default="greedy", help="bot specs filling the seats in turn")
    rep.add_argument("--players", default=None, help="player counts, e.g. 2,3,4 (default: all)")
    rep.add_argument("--seed", type=int, default=0)
    rep.add_argument("--out", default=None, help="output file (default: report-GAME.html)")
    rep.add_argument("--format", choices=("html", "md"), default="html")
    rep.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    rep.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_backend(rep)
    rep.set_defaults(func=cmd_report)

    from teocalli.parts import having

    solve = sub.add_parser(
        "solve", help="exact solvers (Shifting Stones: actions before a card scores)"
    )
    solve.add_argument("game", help=f"one of: {', '.join(having('solver'))}")
    solve.add_argument("rest", nargs=argparse.REMAINDER, help="the solver's own arguments")
    solve.set_defaults(func=cmd_solve)
    add_serve_parser(sub)
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
