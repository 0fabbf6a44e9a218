"""``spellstack chat``: the chat text interface in a terminal, against a bot (any bot a
tournament takes) or hot-seat."""

from __future__ import annotations

import argparse
import getpass
import sys
import threading
from typing import TYPE_CHECKING

from .._printable import printable, short_value
from ..cards import DECKS
from ..chat import BotSeat, HumanSeat
from ..seats import EntrantError, Seat, load_bot, seat_of
from ._errors import CommandError

if TYPE_CHECKING:
    import asyncio

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
                   help="your name, given once (the bot is bot); with --hotseat, the two players' names, "
                        "given twice (default: your login name, or player; p1 and p2)")
    p.add_argument("--time-limit", type=float, default=600.0,
                   help="seconds per decision for a person (default 600)")
    p.add_argument("--turn-limit", type=int, default=50, help="the game is a draw after this "
                   "many turns (default 50)")
    p.set_defaults(run=run)


_MAX_NAME = 60
"""The longest player name."""
_BOT_NAME = "bot"
"""The name of the bot one plays against with ``--vs``."""
_DEFAULT_NAME = "player"
"""The player's name when neither ``--name`` nor the login name gives one."""


def _names(given: list[str] | None, *, hotseat: bool) -> list[str]:
    """The players' names, by seat: ``--name`` once with ``--vs`` (the bot is ``bot``), twice
    with ``--hotseat``; without it, the login name (``player`` if there is none) and ``bot``,
    or ``p1`` and ``p2``."""
    if hotseat:
        names = given or ["p1", "p2"]
        if len(names) != 2:
            raise CommandError(f"--hotseat: give --name twice (or not at all), got {len(names)}")
        # Told apart as a reader would: 'Ann' and 'ann' are one name twice.
        if names[0].casefold() == names[1].casefold():
            raise CommandError(f"--name {short_value(names[0])} twice: the two players need two names")
    else:
        if given is not None and len(given) != 1:
            raise CommandError(f"--vs: give --name once (the bot is {_BOT_NAME}), got {len(given)}")
        names = [given[0] if given else _login_name(), _BOT_NAME]
    for name in names:
        _check_name(name)
    if not hotseat and names[0].casefold() == _BOT_NAME:
        raise CommandError(f"--name {short_value(names[0])}: that is the bot's name ({_BOT_NAME}); choose another")
    return names


def _check_name(name: str) -> None:
    """A name is shown on every line of the game: held to an entrant NAME's rules."""
    if not name.strip():
        raise CommandError("--name is empty: a name needs at least one letter or digit"
                           if not name else f"--name {short_value(name)}: a name can't be only spaces")
    if not name.isprintable():
        raise CommandError(f"--name {short_value(name)}: a name can't hold a control character")
    if len(name) > _MAX_NAME:
        raise CommandError(f"--name {short_value(name)}: a name is at most {_MAX_NAME} characters")


def _login_name() -> str:
    """The login name (``getpass.getuser``) if it makes a good player name, else ``player``."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name in the environment nor the password database
        return _DEFAULT_NAME
    try:
        _check_name(name)
    except CommandError:
        return _DEFAULT_NAME
    return name if name.casefold() != _BOT_NAME else _DEFAULT_NAME


def run(args: argparse.Namespace) -> int:
    decks = args.deck or ["gruul", "dimir"]
    if len(decks) != 2:
        raise CommandError(f"give --deck exactly twice (or not at all), got {len(decks)}")
    names = _names(args.name, hotseat=args.hotseat)
    bot: Seat | None = None
    if not args.hotseat:
        try:
            bot = seat_of(load_bot(args.vs, trust=args.trust))
        except EntrantError as err:
            raise CommandError(f"--vs: {err}") from None
    import asyncio  # here: only this command runs an asyncio loop

    return asyncio.run(_session(args, decks, names, bot))


def _reader(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue[str | None]) -> None:
    """(a daemon thread) Standard input's lines onto ``lines``; None at its end."""
    for line in sys.stdin:
        loop.call_soon_threadsafe(lines.put_nowait, line.rstrip("\n"))
    loop.call_soon_threadsafe(lines.put_nowait, None)


_FENCE = "```"
"""A code block's fence line: chat platforms' markup, not shown in a terminal."""


class _Screen:
    """The terminal's output: texts without their chat markup, and the prompt (``ann> ``)
    shown when, and only when, the player at the terminal is asked something."""

    def __init__(self) -> None:
        self.prompted = ""
        """The name whose prompt ends the output now (empty: none)."""

    def say(self, text: str) -> None:
        # Each line escaped: a text quotes names, reasons and card names nobody here wrote.
        if self.prompted:
            print(flush=True)  # text came while the prompt waited: it goes on a line of its own
            self.prompted = ""
        print("\n".join(printable(line) for line in text.split("\n") if line != _FENCE), flush=True)

    def prompt(self, name: str) -> None:
        if not self.prompted:
            print(f"{printable(name)}> ", end="", flush=True)
            self.prompted = name

    def typed(self) -> None:
        """The player typed a line (its newline ended the prompt's line)."""
        self.prompted = ""

    def clear(self) -> None:
        print(_CLEAR, end="")
        self.prompted = ""


_SCREEN = _Screen()


def _say(text: str) -> None:
    _SCREEN.say(text)


async def _session(args: argparse.Namespace, decks: list[str], names: list[str], bot: Seat | None) -> int:
    import asyncio

    from ..chat import GameHost  # the asyncio host, loaded with this command only

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
                _SCREEN.typed()
                _say(await host.submit(gid, at_terminal, line))
            elif get_line is not None:
                get_line.cancel()
            if inbox.empty() and host.pending(gid, at_terminal) is not None:
                _SCREEN.prompt(at_terminal)
        for task in tasks:
            await task
    return 0


async def _hand_over(name: str, held: dict[str, list[str]], lines: asyncio.Queue[str | None],
                     pending_line: asyncio.Future[str | None] | None) -> str:
    """Hot-seat: clear the screen (the last player's hand with it), wait for the next player
    to press Enter, show them what they were told meanwhile."""
    _SCREEN.clear()
    _say(f"Pass the terminal to {name}, then press Enter.")
    if pending_line is not None:
        await pending_line
    else:
        await lines.get()
    _SCREEN.typed()
    _SCREEN.clear()
    for text in held[name]:
        _say(text)
    held[name].clear()
    return name
