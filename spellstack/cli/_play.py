"""``spellstack play``: one game between two random bots, told as it happens."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import trio

from .._printable import printable
from ..actors import ENGINE_ERROR, play_one_game
from ..bots import RandomBot
from ..cards import DECKS
from ..rules import Event
from ._errors import CommandError

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
        "play", help="play one game between two random bots",
        description="Play one game between two seeded random bots, told turn by turn.",
        epilog=f"built-in decks: {', '.join(DECKS)}. A deck file is UTF-8 TOML (a name and a "
               "[cards] table of card name = count, 40 cards or more) or, for any name not "
               "ending .toml, an MTG Arena or MTGO text list (see docs/decks.md); "
               "`spellstack cards` lists the cards.")
    p.add_argument("--deck", action="append", default=None, metavar="DECK",
                   help=f"a built-in deck ({', '.join(DECKS)}) or a deck file; give it twice "
                        "(default: gruul, orzhov)")
    p.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    p.add_argument("--trace", type=Path, default=None, help="write the message trace here "
                   "(JSON Lines, docs/trace-format.md)")
    p.add_argument("--timestamps", action="store_true",
                   help="give each trace line the time it was written (UTC); without it no line "
                        "holds a clock's reading, and the same seed gives the same file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    decks = args.deck or ["gruul", "orzhov"]
    if len(decks) != 2:
        raise CommandError(f"give --deck exactly twice (or not at all), got {len(decks)}")
    if args.trace is not None:
        _check_trace_path(args.trace)
    elif args.timestamps:
        raise CommandError("--timestamps is for the trace: give --trace FILE too")
    names = ["alice", "bob"]
    bots = [RandomBot(args.seed * 2 + 1), RandomBot(args.seed * 2 + 2)]
    try:
        game, result = trio.run(lambda: play_one_game(decks, bots, args.seed, names=names,
                                                   trace_path=args.trace, history=True,
                                                   timestamps=args.timestamps))
    except OSError as err:  # the trace file can't be created (permissions, a full disk)
        raise CommandError(f"--trace {str(args.trace)!r}: {err.strerror or err}") from None
    print(printable(f"spellstack play: {names[0]} ({decks[0]}) vs {names[1]} ({decks[1]}), "
                    f"seed {args.seed}"))
    print(f"turn 1: {names[0]}")
    for line in narrate(game.history or []):
        print(line)
    failed = result.reason.startswith(ENGINE_ERROR)
    nobody = "none" if failed else "none (draw)"
    print(f"Winner: {result.winner or nobody} on turn {result.turns}. {result.reason}")
    print(f"{result.decisions} decisions answered by bots, {result.auto_passes} automatic "
          f"passes, {result.messages} messages")
    if args.trace:
        print(f"trace written to {args.trace}")
    if failed:
        print(f"spellstack play: the game stopped on an {result.reason} (seed {result.seed})",
              file=sys.stderr)
        return 1
    return 0


def _check_trace_path(path: Path) -> None:
    """Refuse a trace path that can't be written before the game starts."""
    if path.is_dir():
        raise CommandError(f"--trace {str(path)!r} is a folder; name a file in it")
    if not path.parent.is_dir():
        raise CommandError(f"--trace {str(path)!r}: the folder {str(path.parent)!r} does not "
                           "exist")
