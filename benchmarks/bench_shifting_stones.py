"""Shifting Stones throughput: `python -m benchmarks.bench_shifting_stones [--all-tables]
[--solo-seeds N] [--solo-bot SPEC] [--clairvoyant-seeds N] [--duel-games N] [--duel-bot SPEC]
[--workers W] [--duel-only] [--duel-peek kept|hand] [--clairvoyant-only]
[--duel-compare "SPEC|SPEC..." --duel-deals A-B [--duel-log FILE]]`.

The full measurements of docs/arena.md: `--solo-seeds 100 --clairvoyant-seeds 30` (the solo
bot's win rate over seeds 0-99 and its mean thinking time a turn, beside the clairvoyant search's
verdicts on seeds 0-29 at its node budgets) and `--duel-games 200` (the search bot against
greedy, seats alternated, with its mean CPU thinking time a turn; `--duel-only` runs just that,
`--clairvoyant-only` just the clairvoyant verdicts; `--duel-peek kept` or `hand` lets the bot's
worlds keep the opponent's cards held since before its latest draw, or its whole hand, as they
truly are: `teocalli/analysis/shifting_stones/peek.py`, an upper bound, not a fair bot).
`--duel-compare` is the tuning harness: the specs against greedy on the same training deals
A-B (default 0-199, disjoint from the reported 1000-1099), each from both seats, with paired
differences to the first spec.
`--workers` (default 2) processes play the games.

Prints random playouts per second, legal-move generation rate, the solver's table build time
(one card, or all 72 with --all-tables, into a fresh temporary cache), the planning bot's time
per decision and per turn, and the clairvoyant solo search's time per seed.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

import teocalli
from teocalli.agents import make_agent
from teocalli.analysis.shifting_stones.peek import as_show, peeking
from teocalli.core import Rng
from teocalli.core.match import play_game


def playouts(players: int, games: int) -> None:
    game = teocalli.load("shifting-stones", players=players)
    rng = Rng(1)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_terminal():
            player = state.to_move()[0]
            actions = state.legal_actions(player)
            state.apply(actions[rng.randrange(len(actions))], player)
            steps += 1
    took = time.perf_counter() - start
    print(
        f"random playouts, {players} player(s): {games / took:8.1f} games/s "
        f"({steps / took:,.0f} steps/s, {steps / games:.0f} steps/game)"
    )


def legal_rate(samples: int) -> None:
    game = teocalli.load("shifting-stones", players=3)
    state = game.new_state(2)
    rng = Rng(2)
    states = []
    while not state.is_terminal() and len(states) < 200:
        states.append(state.clone())
        actions = state.legal_actions(state.to_move()[0])
        state.apply(actions[rng.randrange(len(actions))], state.to_move()[0])
    start = time.perf_counter()
    count = 0
    for i in range(samples):
        s = states[i % len(states)]
        count += len(s.legal_actions(s.to_move()[0]))
    took = time.perf_counter() - start
    print(f"legal-move generation: {samples / took:,.0f} calls/s ({count / took:,.0f} actions/s)")


def table_build(all_tables: bool) -> None:
    from teocalli.games.shifting_stones.components import CARD_IDS
    from teocalli.games.shifting_stones.solver import Solver

    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("TEOCALLI_CACHE")
        os.environ["TEOCALLI_CACHE"] = tmp
        try:
            solver = Solver()
            cards = CARD_IDS if all_tables else (20, 21)
            start = time.perf_counter()
            solver.ensure(cards)
            took = time.perf_counter() - start
            per = solver.build_seconds
            print(
                f"solver tables: {len(cards)} card(s) built in {took:.2f} s "
                f"(per card {min(per.values()):.2f}-{max(per.values()):.2f} s)"
            )
        finally:
            if old is None:
                del os.environ["TEOCALLI_CACHE"]
            else:
                os.environ["TEOCALLI_CACHE"] = old


def planning_bot(games: int) -> None:
    from teocalli.games.shifting_stones.solver import SOLVER

    SOLVER.ensure()  # load (or build, once) every table so timing is the planning alone
    game = teocalli.load("shifting-stones", players=2)
    decisions = turns = 0
    took = 0.0
    for seed in range(games):
        bot = make_agent("greedy", game, seed)
        state = game.new_state(seed)
        while not state.is_terminal():
            player = state.to_move()[0]
            if player == 0:
                start = time.perf_counter()
                action = bot.act(state, 0)
                took += time.perf_counter() - start
                decisions += 1
                turns += str(action) in ("end", "skip")
            else:
                action = state.legal_actions(player)[-2]  # the opponent just ends its turn
            state.apply(action, player)
    print(
        f"planning bot: {1000 * took / decisions:.2f} ms/decision, "
        f"{1000 * took / max(1, turns):.2f} ms/turn over {games} games"
    )
    wins = 0
    for seed in range(games):
        actors = [make_agent("greedy", game, seed), make_agent("random", game, seed)]
        wins += 0 in play_game(game, actors, seed).outcome().winners
    print(f"greedy vs random (2 players): won {wins}/{games}")


def _won(state: object) -> bool:
    return bool(state.outcome().won[0])  # type: ignore[attr-defined]


def solo_game(job: tuple[str, int]) -> tuple[bool, int, float]:
    """One solo game of seed `seed` (the bot seeded with it too): won, turns, thinking seconds
    (the process's CPU time in `act`: a loaded machine does not inflate it)."""
    bot_spec, seed = job
    game = teocalli.load("shifting-stones", players=1)
    bot = make_agent(bot_spec, game, seed)
    state = game.new_state(seed)
    think = 0.0
    while not state.is_terminal():
        start = time.process_time()
        action = bot.act(state, 0)
        think += time.process_time() - start
        state.apply(action, 0)
    return _won(state), state.turns, think  # type: ignore[attr-defined]


def clairvoyant_seed(seed: int) -> bool | None:
    from teocalli.analysis.shifting_stones.solo_bound import clairvoyant_wins

    return clairvoyant_wins([seed])[0]


def solo(seeds: int, bot: str, clairvoyant_seeds: int, workers: int) -> None:
    """The solo bot over seeds 0..seeds-1 (win rate, 95% interval, mean thinking time a turn:
    the bot's own budgets are counts, the time is only measured), greedy on the same seeds, and
    the clairvoyant search's verdicts on seeds 0..clairvoyant_seeds-1 at its default node
    budgets (`solo_bound`)."""
    from multiprocessing import Pool

    from teocalli.arena.stats import wilson_interval

    with Pool(max(1, workers)) as pool:
        games = pool.map(solo_game, [(bot, s) for s in range(seeds)], chunksize=1)
        greedy = pool.map(solo_game, [("greedy", s) for s in range(seeds)], chunksize=4)
    wins = sum(won for won, _, _ in games)
    turns = sum(t for _, t, _ in games)
    think = sum(x for _, _, x in games)
    lo, hi = wilson_interval(wins, seeds)
    print(
        f"solo over seeds 0-{seeds - 1}: {bot} won {wins}/{seeds} ({wins / seeds:.0%}, "
        f"95% {lo:.0%}-{hi:.0%}; {think / max(1, turns):.2f} s of CPU thinking a turn on average, "
        f"{turns / max(1, seeds):.1f} turns a game); greedy won "
        f"{sum(won for won, _, _ in greedy)}/{seeds}"
    )
    clairvoyant(clairvoyant_seeds, workers)


def clairvoyant(seeds: int, workers: int) -> None:
    """The clairvoyant search's verdicts on seeds 0..seeds-1 at its default node budgets."""
    from multiprocessing import Pool

    from teocalli.analysis.shifting_stones.solo_bound import (
        BEAM_NODES,
        EXACT_NODES,
        QUICK_NODES,
        WIDE_BEAM,
        WIDE_NODES,
    )

    if seeds <= 0:
        return
    start = time.perf_counter()
    with Pool(max(1, workers)) as pool:
        clair = pool.map(clairvoyant_seed, range(seeds), chunksize=1)
    took = time.perf_counter() - start
    print(
        f"clairvoyant over seeds 0-{seeds - 1} (budgets: {QUICK_NODES:,} + "
        f"{15 * QUICK_NODES:,} turns, {BEAM_NODES:,} + {EXACT_NODES:,} positions, then "
        f"{WIDE_NODES:,} positions of a {WIDE_BEAM:,}-wide beam): "
        f"{clair.count(True)} winnable, {clair.count(False)} proven not winnable, "
        f"{clair.count(None)} unknown ({took * max(1, workers) / seeds:.1f} s a seed)"
    )


def duel_game(job: tuple[str, int, int]) -> tuple[float, float, int, float]:
    """One 2-player game against greedy, dealt with `seed`, the bot in `seat`: the bot's share
    of the win, its points margin (with the bonus), its turns and its thinking seconds (the
    process's CPU time in `act`: a loaded machine does not inflate it)."""
    return peek_game((*job, ""))


def peek_game(job: tuple[str, int, int, str]) -> tuple[float, float, int, float]:
    """`duel_game` with the bot's worlds shown the opponent's cards the fourth item names
    (`peek.peeking`; "" shows nothing)."""
    bot_spec, seed, seat, show = job
    game = teocalli.load("shifting-stones", players=2)
    bots = [make_agent(bot_spec, game, seed), make_agent("greedy", game, seed)]
    if seat:
        bots.reverse()
    state = game.new_state(seed)
    if show:
        state = peeking(state, as_show(show))
    think, turns = 0.0, 0
    while not state.is_terminal():
        player = state.to_move()[0]
        start = time.process_time()
        action = bots[player].act(state, player)
        if player == seat:
            think += time.process_time() - start
            turns += not state.acted  # type: ignore[attr-defined]
        state.apply(action, player)
    winners = state.outcome().winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    points = state.final_scores()  # type: ignore[attr-defined]
    return share, float(points[seat] - points[1 - seat]), turns, think


def duel(games: int, bot: str, workers: int = 2, show: str = "") -> None:
    """The search bot against greedy, 2 players: deals 1000 to 1000 + games/2 - 1, each played
    twice with the seats swapped; a shared win counts as half. Prints the win share with its
    95% interval, the mean points margin and the bot's mean CPU thinking time a turn (it
    searches once a turn, then plays the turn's steps). `show`: the opponent's cards the
    bot's worlds keep as they are (`peek.peeking`; "" for a fair bot)."""
    from multiprocessing import Pool

    from teocalli.arena.stats import wilson_interval

    if games <= 0:
        return
    # each deal twice in a row, seats swapped, so a partial tally (on stderr) is balanced
    jobs = [(bot, 1000 + i, seat, show) for i in range(games // 2) for seat in (0, 1)]
    start = time.perf_counter()
    results: list[tuple[float, float, int, float]] = []
    with Pool(max(1, workers)) as pool:
        for result in pool.imap(peek_game, jobs):
            results.append(result)
            if len(results) % 20 == 0:
                won = sum(r[0] for r in results)
                print(f"  {won:g}/{len(results)} so far", file=sys.stderr, flush=True)
    wins = sum(r[0] for r in results)
    n = len(results)
    turns = sum(r[2] for r in results)
    lo, hi = wilson_interval(wins, n)
    print(
        f"2 players, {bot}{f' (worlds shown: {show})' if show else ''} vs greedy: "
        f"{wins:g}/{n} ({wins / n:.1%}, 95% {lo:.1%}-{hi:.1%}), "
        f"margin {sum(r[1] for r in results) / n:+.2f} points, "
        f"{sum(r[3] for r in results) / max(1, turns):.2f} s of CPU thinking a turn "
        f"({turns / n:.1f} turns a game), {time.perf_counter() - start:.0f} s"
    )


def compare(specs: list[str], first: int, last: int, workers: int = 1, log: str = "") -> None:
    """Paired comparison on training deals `first`-`last` (each from both seats): every spec
    plays the same games against greedy; each later spec's win share and margin minus the first
    spec's, with a 95% interval from the per-game paired differences (the deals are shared, so
    the luck of the deal largely cancels). With `log`, each game is appended to that file as it
    ends (`spec seed seat share margin`, tab-separated) so a long run can be read midway."""
    import math
    from multiprocessing import Pool

    jobs = [
        (spec, seed, seat) for seed in range(first, last + 1) for seat in (0, 1) for spec in specs
    ]
    start = time.perf_counter()
    results: dict[tuple[str, int, int], tuple[float, float]] = {}
    with Pool(max(1, workers)) as pool:
        for job, result in zip(jobs, pool.imap(duel_game, jobs), strict=True):
            results[job] = result[:2]
            if log:
                with open(log, "a") as out:
                    out.write("\t".join(map(str, (*job, *result[:2]))) + "\n")
    games = [(seed, seat) for seed in range(first, last + 1) for seat in (0, 1)]
    n = len(games)

    def paired(values: list[float]) -> tuple[float, float]:
        m = sum(values) / n
        var = sum((v - m) ** 2 for v in values) / max(1, n - 1)
        return m, 1.96 * math.sqrt(var / n)

    print(f"{n} games (deals {first}-{last}, both seats), {time.perf_counter() - start:.0f} s")
    base = specs[0]
    for spec in specs:
        share = [results[(spec, *g)][0] for g in games]
        margin = [results[(spec, *g)][1] for g in games]
        line = f"  {spec}: {sum(share):g}/{n} ({sum(share) / n:.1%}), margin {sum(margin) / n:+.2f}"
        if spec != base:
            dw, hw = paired([s - results[(base, *g)][0] for s, g in zip(share, games, strict=True)])
            dm, hm = paired(
                [m - results[(base, *g)][1] for m, g in zip(margin, games, strict=True)]
            )
            line += f"; vs {base} {dw:+.1%} (+-{hw:.1%}), margin {dm:+.2f} (+-{hm:.2f})"
        print(line, flush=True)


def _flag(argv: list[str], name: str, default: str) -> str:
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv: list[str]) -> None:
    workers = int(_flag(argv, "--workers", "2"))
    if "--duel-only" in argv:
        show = as_show(_flag(argv, "--duel-peek", ""))
        duel(int(_flag(argv, "--duel-games", "4")), _flag(argv, "--duel-bot", "ismcts"), workers,
             show)  # fmt: skip
        return
    if "--duel-compare" in argv:
        first, last = _flag(argv, "--duel-deals", "0-199").split("-")
        specs = _flag(argv, "--duel-compare", "duel").split("|")
        compare(specs, int(first), int(last), workers, _flag(argv, "--duel-log", ""))
        return
    if "--clairvoyant-only" in argv:
        clairvoyant(int(_flag(argv, "--clairvoyant-seeds", "30")), workers)
        return
    playouts(1, 300)
    playouts(2, 30)
    playouts(5, 10)
    legal_rate(20000)
    table_build("--all-tables" in argv)
    planning_bot(20)
    solo_seeds = int(_flag(argv, "--solo-seeds", "5"))
    clair_seeds = int(_flag(argv, "--clairvoyant-seeds", str(min(solo_seeds, 30))))
    solo(solo_seeds, _flag(argv, "--solo-bot", "solo"), clair_seeds, workers)
    duel(
        int(_flag(argv, "--duel-games", "4")),
        _flag(argv, "--duel-bot", "ismcts:iterations=300"),
        workers,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
