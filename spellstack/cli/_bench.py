"""``spellstack bench``: games, decisions and messages per second on one core, against the
floor of one msgpack round trip over a trio memory channel measured in the same run."""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import trio

from ..actors import ENGINE_ERROR, play_match
from ..bots import RandomBot
from ..cards import load_cards
from ..rules import Game
from ..rules.layers import add_effect, characteristics, new_effect
from ..scenarios import build_game
from ._bench_kernel import DECKS
from ._bench_messages import bench_messages
from ._bench_modes import (
    Outcome,
    Progress,
    bench_concurrent,
    bench_jobs,
    bench_kernel,
    bench_trace,
    describe,
    play_actor_games,
    play_kernel_games,
)
from ._bench_profile import profile_call, report
from ._errors import CommandError

__all__ = ["DECKS", "add_parser", "bench_layers", "bench_profile", "layer_board", "machine",
           "measure_floor"]


async def measure_floor(seconds: float = 1.0) -> float:
    """msgpack round trips per second over a pair of trio memory channels: encode, send,
    receive, decode, and back."""
    to_echo, echo_in = trio.open_memory_channel[bytes](1)
    to_main, main_in = trio.open_memory_channel[bytes](1)
    payload = {"k": "Accepted", "v": 1, "b": {"decision_id": 1}}

    async def echo() -> None:
        async for data in echo_in:
            await to_main.send(msgpack.packb(msgpack.unpackb(data)))

    count = 0
    async with trio.open_nursery() as nursery:
        nursery.start_soon(echo)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(200):
                await to_echo.send(msgpack.packb(payload))
                msgpack.unpackb(await main_in.receive())
            count += 200
        nursery.cancel_scope.cancel()
    return count / seconds


def machine() -> str:
    """The machine line every report starts with; the load average says how busy the machine
    was when the run started (a shared machine's figures vary with it)."""
    try:
        load = f", load average {os.getloadavg()[0]:.2f} at the start"
    except (AttributeError, OSError):  # not on every platform
        load = ""
    return (f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, {platform.system()}{load}")


async def bench(games: int, seed: int, out: list[str]) -> None:
    first_line = machine()
    decisions = autos = messages = turns = 0
    wins: dict[str, int] = {}
    start = time.perf_counter()
    step = max(1, games // 10)
    for i in range(games):
        s = seed + i
        _, result = await play_match(DECKS, [RandomBot(2 * s + 1), RandomBot(2 * s + 2)], s,
                                     names=list(DECKS))
        decisions += result.decisions
        autos += result.auto_passes
        messages += result.messages
        turns += result.turns
        # A game stopped by an engine error is no draw: it is counted apart.
        outcome = result.winner or ("engine error" if result.reason.startswith(ENGINE_ERROR)
                                    else "draw")
        wins[outcome] = wins.get(outcome, 0) + 1
        if (i + 1) % step == 0:
            print(f"  {i + 1}/{games} games", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    floor = await measure_floor()
    dps = decisions / elapsed
    out.append(first_line)
    out.append(f"games: {games} ({' vs '.join(DECKS)}, seeds {seed}..{seed + games - 1}), "
               f"{elapsed:.2f} s, results {dict(sorted(wins.items()))}")
    out.append(f"games/s: {games / elapsed:.2f}   average turns: {turns / games:.1f}")
    out.append(f"decisions/s: {dps:.0f} (answered by bots: {decisions}; automatic passes, "
               f"not counted: {autos})")
    out.append(f"messages/s: {messages / elapsed:.0f}   messages per decision: "
               f"{messages / max(decisions, 1):.1f}")
    out.append(f"floor: {floor:.0f} msgpack round trips/s over a trio memory channel "
               f"({1e6 / floor:.1f} us each)")
    out.append(f"per-decision cost: {1e6 / dps:.1f} us = {floor / dps:.1f}x the floor round "
               "trip (target: <= 10x, design target: <= 5x)")


LAYER_STATICS = ("Nature's Revolt", "March of the Machines", "Concordant Crossroads", "Dress Down",
                 "Living Plane")
"""Five permanents whose static abilities make continuous effects (layers 4, 6, 7b)."""
LAYER_OTHERS = ("Grizzly Bears", "Serra Angel", "Hill Giant", "Forest", "Island", "Giant Spider",
                "Savannah Lions")
"""What else fills the board: creatures (some with keywords) and lands."""


def layer_board() -> Game:
    """A two-player game with 40 permanents under 10 continuous effects: 5 from static abilities
    and 5 from resolved spells (P/T changes, a control change, a colour change, a switch)."""
    cards = load_cards()
    setup = {"players": ["alice", "bob"],
             "alice": {"battlefield": list(LAYER_STATICS) + [LAYER_OTHERS[i % len(LAYER_OTHERS)]
                                                             for i in range(15)]},
             "bob": {"battlefield": [LAYER_OTHERS[i % len(LAYER_OTHERS)] for i in range(20)]}}
    game, _ = build_game(setup, 0, cards, "bench --layers")
    st = game.state
    ids = list(st.battlefield)
    creatures = [st.objects[i] for i in ids if game.is_creature(st.objects[i])]
    src = st.objects[ids[0]]
    for verb, args, who in (("modify_pt", (("power", 3), ("toughness", 3)), creatures[0]),
                            ("modify_pt", (("power", -1),), creatures[1]),
                            ("gain_control", (), creatures[-1]),
                            ("set_colors", (("colors", "U"),), creatures[2]),
                            ("switch_pt", (), creatures[3])):
        add_effect(game, new_effect(game, verb, args, (who.id,), src, "end_of_turn"))
    return game


def bench_layers(seconds: float, out: list[str]) -> None:
    """Characteristics of the whole board with a cold cache each time (613 layers)."""
    game = layer_board()
    st = game.state
    objs = [st.objects[i] for i in st.battlefield]
    n_effects = len(st.effects) + sum(len(game.cards[o.name].static) for o in objs)
    count = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            game.changed()  # a cold cache: the next query evaluates the board
            for obj in objs:
                characteristics(game, obj)
        count += 20
    elapsed = time.perf_counter() - start
    out.append(f"layers: {len(objs)} permanents under {n_effects} continuous effects, "
               f"{count} cold evaluations in {elapsed:.2f} s")
    out.append(f"per full board evaluation: {1e6 * elapsed / count:.0f} us "
               f"({1e6 * elapsed / count / len(objs):.1f} us per permanent)")


def bench_profile(seeds: Sequence[int], kernel: bool, trace: bool, out: list[str],
                  progress: bool = True) -> None:
    """``--profile``: the games (through the actors, traced with ``--trace``, or through the
    kernel driver with ``--kernel``) under cProfile, their time by component."""
    played: list[Outcome] = []
    tick = Progress(len(seeds), progress)

    def work() -> None:
        if kernel:
            played.extend(play_kernel_games(seeds, tick)[0])
        elif trace:
            with tempfile.TemporaryDirectory(prefix="spellstack-bench-") as folder:
                played.extend(trio.run(play_actor_games, seeds, tick,
                                       Path(folder) / "bench.jsonl"))
        else:
            played.extend(trio.run(play_actor_games, seeds, tick))

    profile = profile_call(work)
    decisions = sum(o.decisions for o in played)
    how = "the kernel driver" if kernel else "the actors, traced" if trace else "the actors"
    report(profile, decisions, f"{describe(seeds)} through {how}, {decisions} decisions", out)


_MODES = ("layers", "kernel", "trace", "jobs", "concurrent", "messages", "profile")
_COMPATIBLE = {frozenset({"kernel", "jobs"}), frozenset({"kernel", "profile"}),
               frozenset({"trace", "profile"})}
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
    if args.repeat is not None and args.jobs is None:
        raise CommandError("--repeat applies to --jobs only")
    return chosen


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="measure games/s and decisions/s on one core")
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
                        "speed-up")
    p.add_argument("--repeat", type=int, default=None, metavar="R",
                   help="with --jobs, time each number of workers R times and report the "
                        "median (default 1)")
    p.add_argument("--concurrent", type=int, default=None, metavar="N",
                   help="play N games at a time in one trio run: throughput and resident memory")
    p.add_argument("--messages", action="store_true",
                   help="send the games' messages again alone (links, encoding, channels; no "
                        "rules, views or bots): what the message cycle costs per decision")
    p.add_argument("--profile", action="store_true",
                   help="profile the games (with --kernel or --trace: those games) and show "
                        "the time by component")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    modes = _modes(args)
    out: list[str] = []
    if args.layers:
        bench_layers(2.0, out)
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
        trio.run(bench, games, args.seed, out)
    print("\n".join(out))
    return 0
