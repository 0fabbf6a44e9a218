"""``spellstack play``: one game between two bots, told as it happens."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import trio

from .._printable import printable
from ..actors import ENGINE_ERROR, GameClock, GameSetup, SeatConfig, parse_clock
from ..bots import RandomBot
from ..cards import DECKS, Deck, load_cards
from ..rules import Event
from ..seats import BUILT_IN_BOTS, EntrantError, PolicySeat, Seat, parse_entrant, play_seats, seat_of
from ._errors import CommandError
from ._trace_file import check_output_path

__all__ = ["add_parser", "narrate"]

_SHOWN = {"turn", "cast", "activate", "play", "resolve", "attack", "block", "damage", "poison",
          "destroy", "counter", "discard", "sba", "lose", "game_over", "trigger",
          "trigger_removed"}


def narrate(events: list[Event]) -> list[str]:
    """A readable account of a game from its events (private card names left out)."""
    lines: list[str] = []
    for ev in events:
        if ev.kind not in _SHOWN or ev.private_to:
            continue
        lines.append(ev.text if ev.kind == "turn" else f"  {ev.text}")
    return lines


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play", help="play one game between two bots",
        description="Play one game between two bots, told turn by turn: two seeded random bots "
                    "(--deck), or any two entrants (--entrant) as a tournament takes them.",
        epilog=f"built-in decks: {', '.join(DECKS)}. A deck file is UTF-8 TOML (a name and a "
               "[cards] table of card name = count, 40 cards or more) or, for any name not "
               "ending .toml, an MTG Arena or MTGO text list (see docs/decks.md); "
               "`spellstack cards` lists the cards. An entrant is [NAME=]BOT@DECK: BOT is "
               f"{', '.join(BUILT_IN_BOTS)}, module:Class, path/to/file.py:Class or "
               "stdio:COMMAND (docs/bots.md, docs/stdio-bots.md).")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--deck", action="append", default=None, metavar="DECK",
                     help=f"a built-in deck ({', '.join(DECKS)}) or a deck file for a random bot; "
                          "give it twice (default: gruul, orzhov)")
    who.add_argument("--entrant", action="append", default=None, metavar="[NAME=]BOT@DECK",
                     help="a player: a bot and its deck, as a tournament's entrant; give it twice "
                          "(the first plays first)")
    p.add_argument("--trust", action="store_true",
                   help="run Python class bots (module:Class, file.py:Class) in this process; "
                        "without it each runs in a bot process of its own")
    p.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    p.add_argument("--clock", default=None, metavar="BASE+INC",
                   help="give each player a game clock: BASE seconds for the whole game, INC more "
                        "after each answer (60+0.5; 60 means 60+0); running out loses the game")
    p.add_argument("--trace", type=Path, default=None, help="write the message trace here "
                   "(JSON Lines, docs/trace-format.md)")
    p.add_argument("--record", type=Path, default=None, metavar="FILE",
                   help="write the game's record here: one JSON file, a few kilobytes, that "
                        "`spellstack replay` plays again (docs/records.md)")
    p.add_argument("--timestamps", action="store_true",
                   help="give each trace line the time it was written (UTC); without it no line "
                        "holds a clock's reading, and the same seed gives the same file")
    p.set_defaults(run=run)


def _table(args: argparse.Namespace) -> tuple[list[str], list[str | Deck], list[Seat]]:
    """The players' names, decks and seats the arguments give: two random bots on ``--deck``
    (alice and bob), or the two ``--entrant``s."""
    if args.entrant is None:
        decks = args.deck or ["gruul", "orzhov"]
        if len(decks) != 2:
            raise CommandError(f"give --deck exactly twice (or not at all), got {len(decks)}")
        return ["alice", "bob"], list(decks), [PolicySeat(RandomBot), PolicySeat(RandomBot)]
    if len(args.entrant) != 2:
        raise CommandError(f"give --entrant exactly twice (or not at all), got {len(args.entrant)}")
    cards = load_cards()
    try:
        entrants = [parse_entrant(text, cards, trust=args.trust) for text in args.entrant]
    except EntrantError as err:
        raise CommandError(str(err)) from None
    first, second = entrants
    if first.name == second.name:
        raise CommandError(f"both entrants are named {first.name!r}; name them: NAME=BOT@DECK")
    return [e.name for e in entrants], [e.deck for e in entrants], [seat_of(e.factory) for e in entrants]


def run(args: argparse.Namespace) -> int:
    if args.trace is not None:
        check_output_path(args.trace, "--trace")
    elif args.timestamps:
        raise CommandError("--timestamps is for the trace: give --trace FILE too")
    if args.record is not None:
        check_output_path(args.record, "--record")
        if args.trace is not None and args.record.resolve() == args.trace.resolve():
            raise CommandError("--record and --trace name the same file; give each its own")
    clock = clock_option(args.clock)
    names, decks, seats = _table(args)
    configs = [SeatConfig(clock=clock)] * 2 if clock is not None else []
    # The random bots' seeds are 2 * seed + 1 and + 2 (GameSetup's default).
    # Read before the game, so that a deck file is shown by its deck's name (an Arena
    # export's ``Name`` line), as a tournament names it.
    setup = GameSetup(decks, args.seed, names, configs=configs).loaded()
    try:
        game, result = trio.run(lambda: play_seats(setup, seats, trace_path=args.trace, history=True,
                                                   timestamps=args.timestamps, record_path=args.record))
    except OSError as err:  # a file can't be created (permissions, a full disk)
        option, path = ("--record", args.record) if args.record is not None and (
            err.filename == str(args.record)) else ("--trace", args.trace)
        raise CommandError(f"{option} {str(path)!r}: {err.strerror or err}") from None
    shown = [d.name for d in setup.read_decks()]
    print(printable(f"spellstack play: {names[0]} ({shown[0]}) vs {names[1]} ({shown[1]}), "
                    f"seed {args.seed}"))
    print(printable(f"turn 1: {names[0]}"))
    for line in narrate(game.history or []):
        print(line)
    failed = result.reason.startswith(ENGINE_ERROR)
    nobody = "none" if failed else "none (draw)"
    print(printable(f"Winner: {result.winner or nobody} on turn {result.turns}. {result.reason}"))
    print(f"{result.decisions} decisions answered by bots, {result.auto_passes} automatic "
          f"passes, {result.messages} messages")
    if result.clock_left:
        print(printable("time left: " + ", ".join(f"{name} {left:.3f} s" for name, left
                                                   in zip(names, result.clock_left, strict=True))))
    if args.trace:
        print(f"trace written to {args.trace}")
    if args.record:
        print(f"record written to {args.record}")
    if failed:
        print(f"spellstack play: the game stopped on an {result.reason} (seed {result.seed})",
              file=sys.stderr)
        return 1
    return 0


def clock_option(text: str | None) -> GameClock | None:
    """``--clock``'s game clock (None without it); CommandError naming what is wrong."""
    if text is None:
        return None
    try:
        return parse_clock(text)
    except ValueError as err:
        raise CommandError(f"--clock: {err}") from None

