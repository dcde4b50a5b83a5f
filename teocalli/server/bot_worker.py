"""A bot worker process, started by `BotPool`: `python -P bot_worker.py --parent PID --path DIR`.

It is run by file path (not `-m teocalli.server.bot_worker`) so that it imports only the engines
and the bots, not the web server's package (Starlette, SQLAlchemy): it starts in about 0.05 s
with 18 MB instead of 0.4 s with 57 MB. `--path` is the directory holding the `teocalli` package
the server runs, put first on `sys.path` unless it is there already.

It speaks line JSON on its standard streams, one job at a time:

- at start it writes `{"ready": <its pid>}` once its imports are done, so the think cap of the
  first job does not count the interpreter's start-up;
- a job is one line `{"name", "options", "seed", "steps", "spec", "bot_seed", "player"}` (the
  fields of `BotJob`; seeds are JSON integers of any size, read back as Python ints); the answer
  is one line, `{"move": "<notation>"}`, or `{"error": "<traceback>"}` when the bot raised (the
  worker lives on).

It never outlives its server: `prctl(PR_SET_PDEATHSIG, SIGKILL)` has the kernel kill it when the
thread that started it ends, even when the server is SIGKILLed mid-search, and it exits at the
end of its standard input (the pool closed the pipe, or the server is gone). What a bot prints
goes to standard error, so it can never corrupt the answers. SIGINT is ignored: a Ctrl-C in the
server's terminal is the server's to handle, and the server then stops its workers.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, BinaryIO

PR_SET_PDEATHSIG = 1


def _setup(args: Sequence[str]) -> None:
    """Die with the parent, and find the `teocalli` package, before importing anything else."""
    opts = dict(zip(args[::2], args[1::2], strict=False))
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"prctl(PR_SET_PDEATHSIG) failed: {os.strerror(err)}")
    if "--parent" in opts and os.getppid() != int(opts["--parent"]):
        os._exit(0)  # the parent died before prctl took effect
    root = opts.get("--path")
    if root and root not in sys.path:
        sys.path.insert(0, root)


if __name__ == "__main__":
    _setup(sys.argv[1:])

import teocalli  # noqa: E402 (after _setup, when run as a script)
from teocalli.agents import make_agent  # noqa: E402
from teocalli.core import Game  # noqa: E402


@dataclass(frozen=True)
class BotJob:
    """Plain data a worker needs to rebuild the position and think."""

    name: str
    options: Mapping[str, Any]
    seed: int
    steps: Sequence[tuple[int, str]]
    spec: str
    bot_seed: int
    player: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "options": dict(self.options),
            "seed": self.seed,
            "steps": [list(step) for step in self.steps],
            "spec": self.spec,
            "bot_seed": self.bot_seed,
            "player": self.player,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BotJob:
        return cls(
            name=str(data["name"]),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            steps=[(int(p), str(a)) for p, a in data["steps"]],
            spec=str(data["spec"]),
            bot_seed=int(data["bot_seed"]),
            player=int(data["player"]),
        )


@lru_cache(maxsize=64)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return teocalli.load(name, **dict(options))


def choose_move(job: BotJob) -> str:
    """The bot's move, in notation, for the job's player in the position its steps lead to."""
    game = _game(job.name, tuple(sorted(job.options.items())))
    state = game.replay(job.seed, job.steps)
    agent = make_agent(job.spec, game, job.bot_seed)
    return str(agent.act(state, job.player))


def answer(line: bytes) -> dict[str, str]:
    """The answer to one job line: the move, or the traceback of the bot's failure."""
    try:
        return {"move": choose_move(BotJob.from_json(json.loads(line)))}
    except Exception:
        return {"error": traceback.format_exc()}


def serve(jobs: BinaryIO, answers: BinaryIO) -> None:
    """Say ready, then answer jobs until the end of `jobs`."""

    def send(message: Mapping[str, Any]) -> None:
        answers.write(json.dumps(message).encode() + b"\n")
        answers.flush()

    send({"ready": os.getpid()})
    for line in jobs:
        if line.strip():
            send(answer(line))


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the answers get a private copy of stdout; fd 1 (print, stray C output) goes to stderr
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    jobs = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    try:
        with jobs, answers:
            serve(jobs, answers)
    except BrokenPipeError:
        pass  # the server is gone


if __name__ == "__main__":
    main()
