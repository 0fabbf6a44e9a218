"""The bench's default run (games, decisions and messages per second through the actors,
against the floor of one msgpack round trip over a trio memory channel measured in the same
run), ``--layers`` and ``--profile``."""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import trio

from ..actors import ENGINE_ERROR, play_one_game
from ..bots import RandomBot
from ..build import build_label
from ..cards import load_cards
from ..rules import Game
from ..rules.layers import add_effect, characteristics, new_effect
from ..scenarios import build_game
from ._bench_kernel import BENCH_DECKS
from ._bench_modes import CARDS_READ, Outcome, Progress, describe, play_actor_games, play_kernel_games
from ._bench_profile import profile_call, profile_report

__all__ = ["LAYER_OTHERS", "LAYER_STATICS", "bench_games", "bench_layers", "bench_profile", "layer_board",
           "machine", "measure_floor"]


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
    was when the run started (a shared machine's figures vary with it), and the build says
    whether the compiled modules ran."""
    try:
        load = f", load average {os.getloadavg()[0]:.2f} at the start"
    except (AttributeError, OSError):  # not on every platform
        load = ""
    return (f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, {platform.system()}{load}; build: {build_label()}")


async def bench_games(games: int, seed: int, out: list[str]) -> None:
    """The default run: ``games`` games from ``seed`` through the actors, one after another,
    then the floor; progress on stderr."""
    first_line = machine()
    decisions = autos = messages = turns = 0
    wins: dict[str, int] = {}
    load_cards()  # ``CARDS_READ``
    start = time.perf_counter()
    step = max(1, games // 10)
    for i in range(games):
        s = seed + i
        _, result = await play_one_game(BENCH_DECKS, [RandomBot(2 * s + 1), RandomBot(2 * s + 2)], s,
                                     names=list(BENCH_DECKS))
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
    out.append(f"games: {games} ({' vs '.join(BENCH_DECKS)}, seeds {seed}..{seed + games - 1}), "
               f"{elapsed:.2f} s ({CARDS_READ}), results {dict(sorted(wins.items()))}")
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
    profile_report(profile, decisions, f"{describe(seeds)} through {how}, {decisions} decisions", out)
