"""``spellstack fuzz``: games in which one seat is a hostile client, checked after every message.

This module reads the arguments, shows progress and prints the report; the games, the checks
and the report's text are the harness's (``spellstack.harness``, see ``docs/fuzzing.md``)."""

from __future__ import annotations

import argparse
import sys

import trio

from ..harness import DEFAULT_BLOCK, FUZZ_NAMES, FuzzReport, fuzz, render_fuzz

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "fuzz", help="play games against a hostile client, checking every message",
        description="Play games in which one seat is a hostile client sending a seeded stream "
                    "of malformed, mutated and out-of-turn messages, and check the game after "
                    "every message; exit 1 if a check failed, each failure with a command that "
                    "replays its game (see docs/fuzzing.md).")
    p.add_argument("--messages", type=int, default=None,
                   help="hostile messages to send (default 20000; with --game: cut that "
                        "game's mutated stream after this many, default none)")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    p.add_argument("--game", type=int, default=None, help="replay only this game of the run")
    p.add_argument("--players", type=int, default=2, help="seats per game, one hostile "
                   "(2 to 4, default 2)")
    p.add_argument("--siblings", type=int, default=0, metavar="N",
                   help="play N honest games beside each hostile game (and alone, to compare "
                        "their results and throughput; default 0)")
    p.add_argument("--block", type=float, default=DEFAULT_BLOCK, metavar="S",
                   help=f"the longest a blocking bot blocks, in seconds (default {DEFAULT_BLOCK:g})")
    p.add_argument("--verbose", action="store_true", help="print every hostile message and "
                   "its reply")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    messages = args.messages
    if messages is None:
        messages = 0 if args.game is not None else 20_000
    if messages < 0 or (args.game is None and messages < 1):
        print("spellstack fuzz: --messages must be at least 1", file=sys.stderr)
        return 2
    if args.game is not None and args.game < 0:
        print("spellstack fuzz: --game must be 0 or more", file=sys.stderr)
        return 2
    if not 2 <= args.players <= len(FUZZ_NAMES):
        print(f"spellstack fuzz: --players must be 2 to {len(FUZZ_NAMES)}", file=sys.stderr)
        return 2
    if args.siblings < 0:
        print("spellstack fuzz: --siblings must be 0 or more", file=sys.stderr)
        return 2
    if not 0 < args.block <= 10:
        print("spellstack fuzz: --block must be more than 0 and at most 10 (seconds)",
              file=sys.stderr)
        return 2
    step = max(1, messages // 10)
    marks = [step]

    def progress(report: FuzzReport) -> None:
        if report.messages >= marks[0]:
            while marks[0] <= report.messages:
                marks[0] += step
            print(f"  fuzz: {report.messages}/{messages} messages, {report.games} games, "
                  f"{report.failure_count} failures", file=sys.stderr, flush=True)

    report = trio.run(lambda: fuzz(args.seed, messages, game=args.game, verbose=args.verbose,
                                   progress=progress, players=args.players,
                                   siblings=args.siblings, block=args.block))
    print("\n".join(render_fuzz(report, messages, args.game)))
    return 1 if report.failure_count else 0
