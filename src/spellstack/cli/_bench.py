"""``spellstack bench``: games, decisions and messages per second on one core, against the
floor of one msgpack round trip over a trio memory channel measured in the same run.

This module reads the arguments, picks the mode and prints its report; the harness
(``spellstack.harness``) plays and measures."""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from typing import TYPE_CHECKING

import trio

from ..harness import (
    BENCH_DECKS,
    bench_bombing,
    bench_concurrent,
    bench_games,
    bench_jobs,
    bench_kernel,
    bench_layers,
    bench_messages,
    bench_profile,
    bench_trace,
    bomb_kinds,
    machine,
    measure_floor,
    play_games,
)
from ._errors import CommandError

if TYPE_CHECKING:
    from ..tournament import Pace

__all__ = ["add_parser"]


_MODES = ("layers", "kernel", "trace", "jobs", "concurrent", "messages", "profile", "bombing",
          "tournament", "serve")
_COMPATIBLE = {frozenset({"kernel", "jobs"}), frozenset({"kernel", "profile"}),
               frozenset({"trace", "profile"}), frozenset({"tournament", "jobs"}),
               frozenset({"tournament", "concurrent"})}
"""Pairs of modes that go together; every other pair is refused."""


def _modes(args: argparse.Namespace) -> list[str]:
    """The modes asked for, refusing bad values and combinations (CommandError)."""
    for name in ("games", "jobs", "concurrent", "repeat"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise CommandError(f"--{name} must be at least 1, got {value}")
    chosen = [m for m in _MODES if getattr(args, m) not in (None, False)]
    for i, a in enumerate(chosen):
        for b in chosen[i + 1:]:
            if frozenset({a, b}) not in _COMPATIBLE:
                raise CommandError(f"--{a} and --{b} can't be combined")
    if args.repeat is not None and args.jobs is None and not args.tournament:
        raise CommandError("--repeat applies to --jobs and --tournament only")
    if args.connections is not None and not args.serve:
        raise CommandError("--connections applies to --serve only")
    if args.connections is not None and (args.connections < 2 or args.connections % 2):
        raise CommandError(f"--connections must be an even number of at least 2, got {args.connections}")
    return chosen


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench", help="measure games/s and decisions/s on one core",
        description="Measure how fast games are played: by default 200 games between two seeded "
                    "random bots through the real actors, on one core, in games, decisions and "
                    "messages per second, beside the floor of one msgpack round trip over a trio "
                    "memory channel measured in the same run. Each mode option (--kernel, --trace, "
                    "--jobs, --concurrent, --messages, --layers, --bombing, --tournament, "
                    "--profile) measures something else instead: see docs/performance.md.")
    p.add_argument("--games", type=int, default=None,
                   help="games to play (default 200; with --concurrent N, default N)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--layers", action="store_true",
                   help="instead, time the characteristics of a board of 40 permanents under 10 "
                        "continuous effects, with a cold cache each time")
    p.add_argument("--kernel", action="store_true",
                   help="drive the kernel directly (no actors), still building every view and "
                        "action list a player is sent")
    p.add_argument("--trace", action="store_true",
                   help="play each game untraced and traced (to a temporary file): the "
                        "tracing overhead")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="play the games in J worker processes, and in 1: throughput and "
                        "speed-up; with --tournament, the tournament in J worker processes "
                        "against 1 process (default 2), with the parent's share of the time")
    p.add_argument("--repeat", type=int, default=None, metavar="R",
                   help="with --jobs, time each number of workers R times and report the "
                        "median (default 1)")
    p.add_argument("--concurrent", type=int, default=None, metavar="N",
                   help="play N games at a time in one trio run: throughput and resident memory")
    p.add_argument("--messages", action="store_true",
                   help="send the games' messages again alone (links, encoding, channels; no "
                        "rules, views or bots): what the message cycle costs per decision")
    p.add_argument("--bombing", default=None, metavar="KIND", choices=bomb_kinds(),
                   help="instead, play rounds of one game whose seat bombs the coordinator "
                        "(KIND: string, objects, maps, or a fuzz mutation kind) beside 9 honest "
                        "games, and those games alone: their throughput beside the bomber "
                        "against alone (default --games 27)")
    p.add_argument("--tournament", action="store_true",
                   help="instead, a tournament's throughput: a round robin of best-of-one "
                        "matches between random bots (at least --games games, default 400) "
                        "in one process and in --jobs J worker processes (default 2), 8 games "
                        "at once in each, against spellstack bench's games one after another, "
                        "with the parent's share of the time and where the rest goes; "
                        "with --concurrent N, instead N games in flight in one process and "
                        "the resident memory")
    p.add_argument("--serve", action="store_true",
                   help="instead, the network server under load: a spellstack serve process on "
                        "127.0.0.1 and --connections remote random bots (default 200), two a game, "
                        "playing --games games (default half the connections, all at once); "
                        "games/s, decisions/s, each decision's round trip (p50, p99) and the "
                        "server's peak resident memory. It stops by itself")
    p.add_argument("--connections", type=int, default=None, metavar="C",
                   help="with --serve, remote bot connections at once (an even number)")
    p.add_argument("--profile", action="store_true",
                   help="profile the games (with --kernel or --trace: those games) and show "
                        "the time by component")
    p.set_defaults(run=run)


def _bench_pace(seeds: range) -> Pace:
    """The bench's own games of ``seeds``, one after another through the actors, timed."""
    from ..tournament import Pace

    began = time.perf_counter()
    outcomes = play_games(seeds, kernel=False)
    return Pace(len(outcomes), time.perf_counter() - began, sum(o.decisions for o in outcomes),
                sum(o.turns for o in outcomes))


def run(args: argparse.Namespace) -> int:
    modes = _modes(args)
    out: list[str] = []
    if args.serve:
        from ..server import bench_load  # only this mode needs the server

        connections = args.connections or 200
        games = args.games or connections // 2
        out.append(machine())
        try:
            report = trio.run(partial(bench_load, connections, games, args.seed,
                                      progress=lambda line: print(line, file=sys.stderr, flush=True)))
        except RuntimeError as err:  # the server would not start, or refused the games
            raise CommandError(str(err)) from None
        out.extend(report.lines(args.seed))
        print("\n".join(out))
        return 0
    if args.layers:
        bench_layers(2.0, out)
        print("\n".join(out))
        return 0
    if args.bombing is not None:
        out.append(machine())
        bench_bombing(range(args.seed, args.seed + (args.games or 27)), args.bombing, out)
        print("\n".join(out))
        return 0
    if args.tournament:
        from ..tournament import bench_memory, bench_tournament  # only this mode needs them

        out.append(machine())
        if args.concurrent is not None:
            bench_memory(args.games or args.concurrent, args.seed, args.concurrent, BENCH_DECKS,
                         out)
        else:
            bench_tournament(args.games or 400, args.seed, args.jobs or 2, args.repeat or 1, out,
                             decks=BENCH_DECKS, bench_games=_bench_pace)
        print("\n".join(out))
        return 0
    games = args.games if args.games is not None else args.concurrent or 200
    seeds = range(args.seed, args.seed + games)
    if "profile" in modes:
        out.append(machine())
        bench_profile(seeds, args.kernel, args.trace, out)
    elif args.jobs is not None:
        out.append(machine())
        bench_jobs(seeds, args.jobs, args.repeat or 1, args.kernel, out)
    elif args.concurrent is not None:
        out.append(machine())
        bench_concurrent(seeds, args.concurrent, out)
    elif args.kernel:
        out.append(machine())
        bench_kernel(seeds, out)
    elif args.trace:
        out.append(machine())
        bench_trace(seeds, out)
    elif args.messages:
        out.append(machine())
        bench_messages(seeds, measure_floor, out)
    else:
        trio.run(bench_games, games, args.seed, out)
    print("\n".join(out))
    return 0
