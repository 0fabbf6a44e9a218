"""``spellstack chat``: the chat text interface in a terminal, against a bot (any bot a
tournament takes) or hot-seat."""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading

from .._printable import printable, short_value
from ..cards import DECKS
from ..chat import BotSeat, GameHost, HumanSeat
from ..seats import EntrantError, Seat, load_bot, seat_of
from ._errors import CommandError

__all__ = ["add_parser"]

_CLEAR = "\033[2J\033[H"
"""Clears a terminal and puts the cursor at the top."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "chat", help="play by text commands in the terminal (the chat bot interface)",
        description="Play a game with the text commands a chat bot offers (docs/chat.md), "
                    "against a bot, or two people sharing the terminal (--hotseat).")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--vs", default="random", metavar="BOT",
                     help="the bot to play against, as a tournament's entrant names it: random "
                          "(the default), heuristic, module:Class, path/to/file.py:Class or "
                          "stdio:COMMAND (docs/bots.md, docs/stdio-bots.md)")
    who.add_argument("--hotseat", action="store_true",
                     help="two people share the terminal; the screen is cleared and the hand "
                          "hidden between their turns")
    p.add_argument("--trust", action="store_true",
                   help="run a Python class bot (module:Class, file.py:Class) in this process; "
                        "without it, it runs in a bot process of its own")
    p.add_argument("--deck", action="append", default=None, metavar="DECK",
                   help=f"a built-in deck ({', '.join(DECKS)}) or a deck file; give it twice "
                        "(default: gruul, dimir)")
    p.add_argument("--seed", type=int, default=None,
                   help="the game's seed, to reproduce a game: whoever knows it can work out "
                        "every hidden card and draw (default: a secret seed from the operating "
                        "system)")
    p.add_argument("--name", action="append", default=None, metavar="NAME",
                   help="a player's name (give it twice with --hotseat; default you/bot, p1/p2)")
    p.add_argument("--time-limit", type=float, default=600.0,
                   help="seconds per decision for a person (default 600)")
    p.add_argument("--turn-limit", type=int, default=50, help="the game is a draw after this "
                   "many turns (default 50)")
    p.set_defaults(run=run)


_MAX_NAME = 60
"""The longest player name."""


def run(args: argparse.Namespace) -> int:
    decks = args.deck or ["gruul", "dimir"]
    if len(decks) != 2:
        raise CommandError(f"give --deck exactly twice (or not at all), got {len(decks)}")
    names = args.name or (["p1", "p2"] if args.hotseat else ["you", "bot"])
    if len(names) != 2 or names[0] == names[1]:
        raise CommandError("give --name twice, two different names (or not at all)")
    for name in names:
        # A name is shown on every line of the game: held to an entrant NAME's rules.
        if not 0 < len(name) <= _MAX_NAME or not name.isprintable():
            raise CommandError(f"--name {short_value(name)}: a name is 1 to {_MAX_NAME} printable "
                               "characters")
    bot: Seat | None = None
    if not args.hotseat:
        try:
            bot = seat_of(load_bot(args.vs, trust=args.trust))
        except EntrantError as err:
            raise CommandError(f"--vs: {err}") from None
    return asyncio.run(_session(args, decks, names, bot))


def _reader(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue[str | None]) -> None:
    """(a daemon thread) Standard input's lines onto ``lines``; None at its end."""
    for line in sys.stdin:
        loop.call_soon_threadsafe(lines.put_nowait, line.rstrip("\n"))
    loop.call_soon_threadsafe(lines.put_nowait, None)


def _say(text: str) -> None:
    # Each line escaped: a text quotes names, reasons and card names nobody here wrote.
    print("\n".join(printable(line) for line in text.split("\n")), flush=True)


async def _session(args: argparse.Namespace, decks: list[str], names: list[str], bot: Seat | None) -> int:
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    threading.Thread(target=_reader, args=(loop, lines), daemon=True).start()
    humans = names if args.hotseat else names[:1]
    seats: list[HumanSeat | BotSeat] = [HumanSeat(n, time_limit=args.time_limit) for n in humans]
    if bot is not None:
        seats.append(BotSeat(names[1], bot))
    async with GameHost() as host:
        gid = await host.create_game(seats, decks, seed=args.seed, turn_limit=args.turn_limit)
        inbox: asyncio.Queue[tuple[str, str | None]] = asyncio.Queue()

        async def forward(name: str) -> None:
            async for text in host.messages(gid, name):
                await inbox.put((name, text))
            await inbox.put((name, None))

        tasks = [asyncio.create_task(forward(n)) for n in humans]
        _say(f"spellstack chat: {names[0]} against {names[1]}; type `help` for the commands.")
        at_terminal = humans[0]
        held: dict[str, list[str]] = {n: [] for n in humans}
        ended: set[str] = set()
        while len(ended) < len(humans):
            # Show what the player at the terminal is told; hold the others' text.
            get_msg = asyncio.ensure_future(inbox.get())
            get_line = asyncio.ensure_future(lines.get())
            done, _ = await asyncio.wait([get_msg, get_line], return_when=asyncio.FIRST_COMPLETED)
            if get_msg in done:
                name, text = get_msg.result()
                if text is None:
                    ended.add(name)
                elif name == at_terminal or not args.hotseat:
                    _say(text)
                else:
                    held[name].append(text)
                    if host.pending(gid, name) is not None and host.pending(gid, at_terminal) is None:
                        at_terminal = await _hand_over(name, held, lines, get_line)
                        get_line = None  # type: ignore[assignment]
            else:
                get_msg.cancel()
                await asyncio.sleep(0)  # let a cancelled get give its item back (none taken)
            if get_line is not None and get_line in done:
                line = get_line.result()
                if line is None:  # end of input: concede, and watch the game end
                    for n in humans:
                        await host.concede(gid, n)
                    continue
                _say(await host.submit(gid, at_terminal, line))
            elif get_line is not None:
                get_line.cancel()
        for task in tasks:
            await task
        info = host.info(gid)
    _say(f"({info.reason})")
    return 0


async def _hand_over(name: str, held: dict[str, list[str]], lines: asyncio.Queue[str | None],
                     pending_line: asyncio.Future[str | None] | None) -> str:
    """Hot-seat: clear the screen (the last player's hand with it), wait for the next player
    to press Enter, show them what they were told meanwhile."""
    print(_CLEAR, end="")
    _say(f"Pass the terminal to {name}, then press Enter.")
    if pending_line is not None:
        await pending_line
    else:
        await lines.get()
    print(_CLEAR, end="")
    for text in held[name]:
        _say(text)
    held[name].clear()
    return name
