"""``spellstack soak``: many random games with the whole pool in random decks, every action
checked.

This module reads the arguments, shows progress and prints the report; the games, the checks and
the report's text are the harness's (``spellstack.harness``, see ``docs/fuzzing.md``)."""

from __future__ import annotations

import argparse
import sys

from ..harness import DEFAULT_HASH_EVERY, DEFAULT_STALL, SoakRun, render_soak, soak
from ._errors import CommandError

__all__ = ["add_parser"]

MAX_JOBS = 64
"""The most worker processes a soak starts."""
PROGRESS_SECONDS = 30.0
"""The longest time between two lines of progress."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "soak", help="play many random games with the whole pool, checking every action",
        description="Play random games between random bots, with random legal decks drawn from "
                    "the whole implemented pool, and check after every action: the state's "
                    "invariants (no object in two zones, no card lost), no view showing a card "
                    "its seat may not see, progress within --stall kernel steps, and (at the end "
                    "of each game, replaying its answers) the same state hash every --hash-every "
                    "actions. Each stall, exception or broken invariant is printed with the game "
                    "and a command that replays it; exit status 1 if there is any. CI runs "
                    "--games 300 --hash-every 10 --jobs 2.")
    p.add_argument("--games", default="100", metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", default="1", metavar="S", help="the run's seed (default 1); each "
                   "game's seed comes from it and the game's number")
    p.add_argument("--start", default="0", metavar="K", help="the first game's number (default 0; "
                   "with --games 1, replays game K of the run)")
    p.add_argument("--players", default="2", metavar="P", help="seats per game, 2 to 4 (default 2)")
    p.add_argument("--jobs", default="1", metavar="J", help="worker processes (default 1); the "
                   "report is the same for any number")
    p.add_argument("--hash-every", default=str(DEFAULT_HASH_EVERY), metavar="K",
                   help="compare the replay's state hash every K actions (default "
                        f"{DEFAULT_HASH_EVERY}: every action)")
    p.add_argument("--stall", default=str(DEFAULT_STALL), metavar="M",
                   help="kernel steps without the turn or step changing that make a stall "
                        f"(default {DEFAULT_STALL})")
    p.set_defaults(run=run)


def _whole(name: str, text: str, low: int, high: int | None = None) -> int:
    """``text`` as a whole number from ``low`` (to ``high``), or a ``CommandError`` naming it."""
    bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
    try:
        value = int(text, 10)
    except ValueError:
        raise CommandError(f"--{name} must be a whole number {bound}, not {text!r}") from None
    if value < low or (high is not None and value > high):
        raise CommandError(f"--{name} must be a whole number {bound}, not {value}")
    return value


def run(args: argparse.Namespace) -> int:
    games = _whole("games", args.games, 1)
    seed = _whole("seed", args.seed, 0)
    start = _whole("start", args.start, 0)
    players = _whole("players", args.players, 2, 4)
    jobs = _whole("jobs", args.jobs, 1, MAX_JOBS)
    hash_every = _whole("hash-every", args.hash_every, 1)
    stall = _whole("stall", args.stall, 1)
    step = max(1, games // 10)
    shown = [0.0]

    def progress(done: int, seconds: float, failures: int) -> None:
        # Every tenth of the games, and at least every PROGRESS_SECONDS in a long run.
        if done % step == 0 or done == games or seconds - shown[0] >= PROGRESS_SECONDS:
            shown[0] = seconds
            print(f"  soak: {done}/{games} games, {done / max(seconds, 1e-9):.2f} games/s, "
                  f"{failures} failure{'' if failures == 1 else 's'}", file=sys.stderr, flush=True)

    report = soak(SoakRun(seed, games, start, players, hash_every, stall), min(jobs, games),
                  progress)
    print("\n".join(render_soak(report)))
    return 1 if report.failures else 0
