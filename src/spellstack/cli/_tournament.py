"""``spellstack tournament``: bots with decks in a round robin or Swiss, best-of-N matches, every
game written to a results database as it ends; the standings at the end."""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from .._printable import error_line, printable
from ..cards import DECKS, load_cards
from ..rules import DEFAULT_TURN_LIMIT
from ..tournament import (
    BACKENDS,
    BATCH_SECONDS,
    BUILT_IN_BOTS,
    DEFAULT_BOT_MEMORY,
    DEFAULT_DB,
    DEFAULT_DEADLINE,
    FORMATS,
    MIN_BOT_MEMORY,
)
from ._errors import CommandError
from ._outputs import check_writable, failure_reason, output_folder
from ._play import clock_option

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping, Sequence
    from typing import Any

    from ..server import EntrantLobby
    from ..tournament import GameRow, Played, SprtResult, TournamentSettings

__all__ = ["add_parser"]

MAX_JOBS = 64
"""The most worker processes ``--jobs`` may ask for."""
MAX_CONCURRENCY = 10_000
"""The most games at once per process ``--concurrency`` may ask for."""
MAX_BEST_OF = 99
"""The longest match ``--best-of`` may ask for."""
MAX_TURN_LIMIT = 10_000
"""The longest game ``--turn-limit`` may allow."""
MAX_REPEAT = 1000
"""The most times ``--repeat`` may play a round robin's schedule."""
DASK_JOBS = 2
"""The local Dask cluster's workers unless ``--jobs`` says."""


def _positive(limit: int) -> type[int]:
    """An argparse type: a whole number from 1 to ``limit``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"must be from 1 to {limit}, got {value}")
        return value

    return parse  # type: ignore[return-value]


def _whole(text: str) -> int:
    """An argparse type: a whole number from 0 up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _seconds(text: str) -> float:
    """An argparse type: a deadline, more than 0 and at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 86400 seconds, got {text}")
    return value


MAX_WRITE_EVERY = 3600.0
"""The longest ``--write-every`` may be (an hour)."""


def _write_every(text: str) -> float:
    """An argparse type: seconds finished games may wait to be written together, 0 to an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 <= value <= MAX_WRITE_EVERY:
        raise argparse.ArgumentTypeError(
            f"must be from 0 to {MAX_WRITE_EVERY:g} seconds, got {text}")
    return value


MAX_BOT_MEMORY = 1 << 40
"""The largest memory limit ``--bot-memory`` may give (1 TiB)."""
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
"""``--bot-memory``'s units: powers of 1024."""
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)
"""A size: a number and a unit (``512M``, ``2G``, ``1.5GiB``; no unit: bytes)."""


def bot_memory(text: str) -> int:
    """``--bot-memory``'s value in bytes; CommandError naming what is wrong with it."""
    shown = text if len(text) <= 60 else text[:57] + "..."
    found = _SIZE.fullmatch(text)
    if found is None:
        if text.strip().startswith("-"):
            raise CommandError(f"--bot-memory {shown!r}: a size can't be negative (such as 512M or 2G)")
        raise CommandError(f"--bot-memory {shown!r}: not a size (such as 512M or 2G: a number and "
                           "K, M, G or T)")
    size = int(float(found.group(1)) * _UNITS[found.group(2).upper()])
    if size == 0:
        raise CommandError(f"--bot-memory {shown!r}: a bot needs some memory (at least 64M)")
    if size < MIN_BOT_MEMORY:
        raise CommandError(f"--bot-memory {shown!r}: under the least a bot process may have, "
                           f"{MIN_BOT_MEMORY >> 20}M")
    if size > MAX_BOT_MEMORY:
        raise CommandError(f"--bot-memory {shown!r}: over the most it may be, 1T")
    return size


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tournament", help="a tournament of bots: round robin or Swiss, best-of-N matches",
        description="Play a tournament between entrants (a bot and a deck each): every game is "
                    "written to a results database the moment it ends, a killed tournament "
                    "goes on with --resume, and the standings, a line per pair (Elo "
                    "difference, LOS) and openskill ratings are printed at the end.",
        epilog=f"An entrant is [NAME=]BOT@DECK. BOT: {', '.join(BUILT_IN_BOTS)}, a Python class "
               "as module:Class or path/to/file.py:Class (see docs/bots.md), or a program "
               "speaking the stdio protocol as stdio:COMMAND (see docs/stdio-bots.md). DECK: a "
               f"built-in deck ({', '.join(DECKS)}), a TOML deck file, or an MTG Arena or MTGO text "
               "list (see docs/decks.md). With no --entrant: the random bot with each built-in "
               "deck. See docs/tournaments.md.")
    p.add_argument("--entrant", action="append", default=None, metavar="[NAME=]BOT@DECK",
                   help="an entrant; give it once per entrant, at least twice")
    p.add_argument("--format", choices=FORMATS, default="round-robin",
                   help="round-robin (default), swiss, or gauntlet (the first --gauntlet N "
                        "entrants each meet every other entrant; the others don't meet)")
    p.add_argument("--gauntlet", type=int, default=None, metavar="N",
                   help="with --format gauntlet: how many of the first entrants play the others "
                        "(default 1: a new version against a field)")
    p.add_argument("--rounds", type=_positive(1000), default=None,
                   help="Swiss rounds (default: enough for the entrants, ceil(log2 N))")
    p.add_argument("--top", type=int, choices=(2, 4, 8), default=None, metavar="N",
                   help="with --format swiss: after the Swiss rounds, the first N (2, 4 or 8) "
                        "play single-elimination matches of --best-of games, seeded 1 v 8, "
                        "4 v 5, 2 v 7, 3 v 6 (a top 8); the higher seed chooses who plays first, "
                        "and a match can't end drawn")
    p.add_argument("--repeat", type=_positive(MAX_REPEAT), default=1, metavar="K",
                   help="a round robin: play its whole schedule K times, so each pair meets K "
                        "times, taking turns in seat 0 (default 1; Swiss has --rounds)")
    p.add_argument("--best-of", type=_positive(MAX_BEST_OF), default=None, metavar="N",
                   help="games a match is the best of (default 3)")
    p.add_argument("--pairs", action="store_true",
                   help="each meeting of two entrants is a game pair, not a match: one deal "
                        "played once from each side (the same seed and library orders, the "
                        "seats swapped), so the luck of the deal cancels; a round robin's or "
                        "gauntlet's --repeat K plays K pairs")
    p.add_argument("--sprt", nargs="+", default=None, metavar="KEY=VALUE",
                   help="stop once a sequential probability ratio test decides: elo0=E0 elo1=E1 "
                        "[alpha=0.05] [beta=0.05] [model=normalized|logistic] (H1: the first "
                        "entrant leads by elo1 rather than elo0); two entrants, with --pairs or "
                        "--best-of 1")
    p.add_argument("--rating-interval", type=_whole, default=0, metavar="N",
                   help="after every N games (in schedule order), the standings so far on "
                        "stderr (two entrants: the pair line, and the SPRT's); default 0: none")
    p.add_argument("--turn-limit", type=_positive(MAX_TURN_LIMIT), default=DEFAULT_TURN_LIMIT,
                   metavar="N", help=f"a game still going after N turns is drawn (default "
                                     f"{DEFAULT_TURN_LIMIT})")
    p.add_argument("--seed", type=int, default=None,
                   help="play from this seed, for runs anyone can reproduce: whoever knows or "
                        "guesses it can work out every hand and draw (default: a secret key "
                        "from the operating system, recorded in --db and --results)")
    p.add_argument("--key-from", type=Path, default=None, metavar="FILE",
                   help="play with the key in FILE, a --results file, and its settings: the "
                        "same tournament again, game for game")
    p.add_argument("--db", type=Path, default=DEFAULT_DB,
                   help=f"the results database, SQLite (default {DEFAULT_DB} in the working "
                        "folder)")
    p.add_argument("--resume", action="store_true",
                   help="finish the tournament the database holds with these settings: play "
                        "only the games it lacks (without it, a tournament the database holds "
                        "is played again and every game checked against its record)")
    p.add_argument("--results", type=Path, default=None, metavar="FILE",
                   help="write every game, match, standing, pair and rating to FILE (JSON)")
    p.add_argument("--games-csv", type=Path, default=None, metavar="FILE",
                   help="write a row per game to FILE (CSV, UTF-8, one header row)")
    p.add_argument("--standings-csv", type=Path, default=None, metavar="FILE",
                   help="write a row per entrant to FILE (CSV): rank, points, W-L-D, byes, "
                        "OMW, GW, OGW, mu, sigma, ordinal")
    p.add_argument("--timings", action="store_true",
                   help="put each game's seconds in the results file (which then differs "
                        "from run to run)")
    p.add_argument("--trace-dir", type=Path, default=None, metavar="DIR",
                   help="keep every game's message trace in DIR, as GAME_ID.jsonl")
    p.add_argument("--record-dir", type=Path, default=None, metavar="DIR",
                   help="keep every game's compact record in DIR, as GAME_ID.json (spellstack "
                        "replay plays one again)")
    p.add_argument("--clock", default=None, metavar="BASE+INC",
                   help="a game clock per seat, in seconds: BASE for the whole game, INC more "
                        "after each answer (60+0.5; 60 means 60+0); running out loses the game. "
                        "--deadline still bounds each decision")
    p.add_argument("--deadline", type=_seconds, default=DEFAULT_DEADLINE, metavar="SECONDS",
                   help=f"seconds each bot has for each decision; a bot over it forfeits the game "
                        f"(default {DEFAULT_DEADLINE:g})")
    p.add_argument("--write-every", type=_write_every, default=BATCH_SECONDS, metavar="SECONDS",
                   help=f"finished games are written to --db together, at most SECONDS after "
                        f"the last write (default {BATCH_SECONDS:g}); 0 writes each game the "
                        f"moment it ends. A kill loses only the games waiting")
    p.add_argument("--trust", action="store_true",
                   help="run Python class bots (module:Class, file.py:Class) in the tournament's "
                        "own processes, which is faster; without it each runs in a bot process "
                        "of its own, so that one that crashes, hangs or spins loses only its own "
                        "game (built-in bots always run in process)")
    p.add_argument("--bot-memory", default=None, metavar="SIZE",
                   help=f"the memory each bot process may use, such as 512M or 2G (default "
                        f"{DEFAULT_BOT_MEMORY >> 30}G); a bot over it forfeits the game; class bots "
                        "with --trust and built-in bots run in the tournament's process and have "
                        "no limit (see docs/stdio-bots.md)")
    p.add_argument("--concurrency", type=_positive(MAX_CONCURRENCY), default=8, metavar="N",
                   help="games at once in each process (default 8)")
    p.add_argument("--jobs", type=_positive(MAX_JOBS), default=None, metavar="J",
                   help="worker processes (default 1: the games are played in this process; "
                        f"with --backend dask and no --scheduler, the local cluster's workers, "
                        f"default {DASK_JOBS})")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where games are played: local (default: this process, or --jobs "
                        "worker processes) or dask (a Dask cluster: the one at --scheduler, "
                        "else a local one it starts; needs pip install 'spellstack[dask]'); "
                        "the results are the same")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --backend dask: the Dask scheduler to play on, such as "
                        "tcp://10.0.0.5:8786 (started with 'dask scheduler', its workers with "
                        "'dask worker ADDRESS')")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (a bar on a terminal, else a line per game)")
    p.add_argument("--serve", default=None, metavar="[HOST:]PORT",
                   help="listen there for the remote entrants (BOT remote: NAME=remote@DECK), each "
                        "a client that joins with its entrant token and is seated game by game "
                        "(see docs/tournaments.md); HOST defaults to 127.0.0.1, PORT 0 picks a "
                        "free one (printed)")
    p.add_argument("--grace", type=_seconds, default=None, metavar="SECONDS",
                   help="with --serve: seconds a game waits for a remote entrant that shows no "
                        "life, and a lost connection has to come back to its game, before the "
                        "entrant forfeits it (default 60)")
    p.add_argument("--tokens", type=Path, default=None, metavar="FILE",
                   help="with --serve: write each remote entrant's token to FILE (a line NAME "
                        "TOKEN each, readable by its owner only) instead of stdout")
    p.set_defaults(run=run)


def settings_from(args: argparse.Namespace, lobby: EntrantLobby | None = None) -> TournamentSettings:
    """The tournament the arguments describe, its remote entrants added to ``lobby``;
    CommandError for bad ones."""
    from ..tournament import EntrantError, TournamentSettings, built_in_entrants, parse_entrant

    memory = DEFAULT_BOT_MEMORY if args.bot_memory is None else bot_memory(args.bot_memory)
    cards = load_cards()
    if args.entrant is None:
        entrants = built_in_entrants(cards)
    else:
        try:
            entrants = tuple(parse_entrant(text, cards, trust=args.trust,
                                           remote=None if lobby is None else lobby.add)
                             for text in args.entrant)
        except (EntrantError, ValueError) as err:
            raise CommandError(str(err)) from None
    if len(entrants) < 2:
        raise CommandError(f"a tournament needs at least 2 entrants, got {len(entrants)}")
    seen: dict[str, int] = {}
    for i, e in enumerate(entrants):
        if e.name in seen:
            raise CommandError(f"entrants {seen[e.name] + 1} and {i + 1} are both named "
                               f"{e.name!r}; name them: NAME=BOT@DECK")
        seen[e.name] = i
    if args.rounds is not None and args.format != "swiss":
        raise CommandError("--rounds is for --format swiss (a round robin has as many rounds "
                           "as it needs)")
    if args.repeat != 1 and args.format == "swiss":
        raise CommandError("--repeat is for a round robin or a gauntlet (a swiss tournament has "
                           "--rounds)")
    if args.gauntlet is not None and args.format != "gauntlet":
        raise CommandError("--gauntlet is for --format gauntlet")
    seeds = 1 if args.gauntlet is None else args.gauntlet
    if args.format == "gauntlet" and not 1 <= seeds < len(entrants):
        raise CommandError(f"--gauntlet {seeds}: from 1 to {len(entrants) - 1} (one fewer than "
                           f"the {len(entrants)} entrants), so that each plays someone")
    if args.top is not None and args.format != "swiss":
        raise CommandError(f"--top is for --format swiss: a top cut follows Swiss rounds, not a "
                           f"{args.format}")
    if args.top is not None and args.top > len(entrants):
        raise CommandError(f"--top {args.top}: there are only {len(entrants)} entrants")
    if args.pairs and args.format == "swiss":
        raise CommandError("--pairs is for a round robin or a gauntlet (a Swiss round pairs "
                           "entrants by their match points)")
    if args.pairs and args.best_of is not None:
        raise CommandError("--pairs and --best-of: a game pair is two games, one from each side; "
                           "give one")
    best_of = 2 if args.pairs else 3 if args.best_of is None else args.best_of
    sprt = None
    if args.sprt is not None:
        from ..tournament import SprtError, parse_sprt

        try:
            sprt = parse_sprt(args.sprt)
        except SprtError as err:
            raise CommandError(str(err)) from None  # its text begins "--sprt: "
        if len(entrants) != 2:
            raise CommandError(f"--sprt tests one entrant against another: give exactly 2 "
                               f"entrants, not {len(entrants)}")
        if args.format == "swiss":
            raise CommandError("--sprt is for a round robin of two entrants, not --format swiss")
        if not args.pairs and best_of != 1:
            raise CommandError(f"--sprt needs games that stand alone: --pairs, or --best-of 1 "
                               f"(not best of {best_of})")
    return TournamentSettings(entrants, args.format, best_of, args.seed, args.rounds or 0,
                              args.repeat, deadline=args.deadline, trust=args.trust, bot_memory=memory,
                              pairs=args.pairs, turn_limit=args.turn_limit, top=args.top or 0,
                              sprt=sprt, gauntlet=seeds, clock=clock_option(args.clock))


def _jobs(args: argparse.Namespace) -> int:
    """The worker processes asked for (``--jobs``, by default as ``--backend`` has it);
    CommandError for ``--scheduler`` or ``--jobs`` where they mean nothing."""
    if args.backend != "dask":
        if args.scheduler is not None:
            raise CommandError("--scheduler is for --backend dask")
        return 1 if args.jobs is None else int(args.jobs)
    if args.scheduler is not None:
        if args.jobs is not None:
            raise CommandError("--jobs starts a local Dask cluster's workers; with --scheduler "
                               "the games go to the workers that joined that scheduler")
        if not args.scheduler.strip():
            raise CommandError("--scheduler: an empty address (such as tcp://10.0.0.5:8786)")
    return DASK_JOBS if args.jobs is None else int(args.jobs)


def describe(row: GameRow, names: list[str]) -> str:
    """One game in a line: its id, who won or that it was drawn, on which turn."""
    a, b = (names[i] for i in row.entrants)
    if row.winner < 0:
        told = f"{a} and {b} draw ({row.reason})"
    else:
        told = f"{(a, b)[row.winner]} beats {(a, b)[1 - row.winner]}"
    return f"{row.game_id} {told} on turn {row.turns}"


def forfeits(rows: list[GameRow], names: list[str]) -> list[str]:
    """A line for each entrant that lost games by forfeit (its bot crashed, hung, broke the
    protocol): how many, and the first one's reason, so that a broken bot is seen at once. One
    that forfeited every game it played is said to have (``forfeited all 3 of its games: …``):
    its bot never played, which standings alone would show as a bot beaten."""
    lost: dict[str, list[str]] = {}
    played: dict[str, int] = {}
    for row in rows:
        for i in row.entrants:
            played[names[i]] = played.get(names[i], 0) + 1
            mark = f"{names[i]} forfeited: "
            at = row.reason.find(mark)
            if at != -1:
                lost.setdefault(names[i], []).append(row.reason[at + len(mark):])
    lines = []
    for name, reasons in lost.items():
        if len(reasons) < played[name]:
            lines.append(f"{name} forfeited {_count(len(reasons), 'game')}; the first: {reasons[0]}")
        elif len(reasons) == 1:
            lines.append(f"{name} forfeited its only game: {reasons[0]}")
        else:
            lines.append(f"{name} forfeited all {len(reasons)} of its games: {reasons[0]}")
    return lines


BAR_FORMAT = ("{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/≤{total_fmt} "
              "[{elapsed}<{remaining}, {rate_fmt}{postfix}]")
"""The progress bar: tqdm's own layout, the total marked as the most games the matches may
still need (it falls as matches end early)."""


def _stopped(played: Played) -> str:
    """``, stopped by the SPRT after 135 pairs`` when the test decided, else nothing."""
    test = played.sprt
    if test is None or test.decision is None:
        return ""
    counted = _count(test.pairs, "pair") if test.pairs is not None else _count(test.games, "game")
    return f", stopped by the SPRT after {counted}"


def _count(n: int, noun: str) -> str:
    """``1 round``, ``3 rounds``."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


SEED_WARNING = ("spellstack tournament: warning: --seed {seed}: anyone who knows or guesses the "
                "seed can work out every hand and draw of every game; leave out --seed for a "
                "secret key")
"""Printed on stderr at the start of a tournament played from ``--seed``, even with --quiet."""


def _differs(settings: TournamentSettings, doc: Mapping[str, Any]) -> str | None:
    """The first setting in which ``settings`` differ from a results file's, or None."""
    mine = {"format": settings.format, "best_of": settings.best_of,
            "rounds": settings.round_count(), "repeat": settings.repeat,
            "entrants": [{"name": e.name, "bot": e.bot, "deck": e.deck.name}
                         for e in settings.entrants]}
    given = {"game_pairs": doc.get("game_pairs", False),
             "turn_limit": doc.get("turn_limit", DEFAULT_TURN_LIMIT)}
    mine |= {"game_pairs": settings.pairs, "turn_limit": settings.turn_limit}
    for name, value in mine.items():
        if given.get(name, doc.get(name)) != value:
            shown = repr(given.get(name, doc.get(name)))
            cut = shown if len(shown) <= 60 else shown[:57] + "..."
            return f"{name.replace('_', '-')} (the file has {cut})"
    return None


def with_key_from(settings: TournamentSettings, args: argparse.Namespace) -> TournamentSettings:
    """``settings`` with ``--key-from``'s key (and the file's seed, if it was played from
    one); CommandError for a file that can't give one or settings that differ from its."""
    from ..tournament import KeyFileError, read_key_file

    if args.key_from is None:
        return settings
    if args.seed is not None:
        raise CommandError("--key-from and --seed: give one (the key in the file, or a key "
                           "from the seed)")
    try:
        key, doc = read_key_file(args.key_from)
    except KeyFileError as err:
        raise CommandError(str(err)) from None
    differ = _differs(settings, doc)
    if differ is not None:
        raise CommandError(f"--key-from {str(args.key_from)!r}: the command line's settings "
                           f"differ from the file's in {differ}; give the settings it was played "
                           "with")
    seed = doc.get("seed")
    if seed is not None and type(seed) is not int:
        raise CommandError(f"--key-from {str(args.key_from)!r}: its seed is not a whole number")
    return replace(settings, seed=seed, key=key)


def _only(group: BaseExceptionGroup[BaseException]) -> BaseException | None:
    """The first of a group's exceptions if all are failures of a file (the database, a
    trace), else None."""
    kinds = (sqlite3.Error, OSError)
    from ..tournament import ClusterError, StoreError, WorkerSetupError

    matched, rest = group.split((*kinds, StoreError, WorkerSetupError, ClusterError))
    if matched is None or rest is not None:
        return None
    first: BaseException = matched
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    return first


def _first_of(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first exception of a group (nested groups opened)."""
    first: BaseException = group
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    return first


def _failed(err: BaseException, args: argparse.Namespace) -> str:
    """A file's failure during a tournament, in a line naming the file (a trace, or the
    database), its cause, and that the recorded games are kept."""
    name = getattr(err, "filename", None)
    what = f"{str(name)!r}" if name else f"--db {str(args.db)!r}"
    return (f"{what}: {failure_reason(err)}; the games recorded in {args.db} are kept, and --resume "
            "goes on from there")


def serve_address(text: str) -> tuple[str, int]:
    """``--serve``'s ``[HOST:]PORT``; CommandError naming what is wrong."""
    host, colon, port_text = text.rpartition(":")
    host = host.strip("[]") if colon else "127.0.0.1"
    try:
        port = int(port_text)
    except ValueError:
        raise CommandError(f"--serve {text!r}: [HOST:]PORT, such as 127.0.0.1:8765 or 8765") from None
    if not 0 <= port <= 65535 or not host:
        raise CommandError(f"--serve {text!r}: a host and a port from 0 to 65535")
    return host, port


def _remote_lobby(args: argparse.Namespace) -> EntrantLobby | None:
    """The lobby of ``--serve``'s remote entrants (None without it); CommandError for options
    that can't go with it."""
    if args.serve is None:
        for flag, given in (("--grace", args.grace), ("--tokens", args.tokens)):
            if given is not None:
                raise CommandError(f"{flag} is for --serve (a tournament with remote entrants)")
        return None
    if args.backend != "local" or (args.jobs is not None and args.jobs != 1):
        raise CommandError("--serve: remote entrants play in the tournament's own process: no --jobs, "
                           "no --backend dask")
    if args.tokens is not None and (args.tokens.is_dir() or not args.tokens.parent.is_dir()):
        raise CommandError(f"--tokens {str(args.tokens)!r}: " + ("is a folder" if args.tokens.is_dir()
                           else f"no folder {str(args.tokens.parent)!r}"))
    from ..server import DEFAULT_GRACE, EntrantLobby

    grace = DEFAULT_GRACE if args.grace is None else args.grace
    return EntrantLobby(grace=grace)


def _tell_tokens(lobby: EntrantLobby, path: Path | None) -> None:
    """Each remote entrant's token: to ``path`` (a line ``NAME TOKEN`` each, owner-only), or
    on stdout."""
    if path is None:
        for name, entrant in lobby.entrants.items():
            print(printable(f"spellstack tournament: entrant {name}'s token: {entrant.token}"), flush=True)
        return
    lines = [f"{name} {entrant.token}\n" for name, entrant in lobby.entrants.items()]
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.writelines(lines)
    except OSError as err:
        raise CommandError(f"--tokens {str(path)!r}: can't be written ({failure_reason(err)})") from None


def _served(args: argparse.Namespace, lobby: EntrantLobby,
            play: Callable[[], Awaitable[Played]]) -> Callable[[], Awaitable[Played]]:
    """``play`` with a server listening at ``--serve`` for ``lobby``'s entrants while it runs."""
    from ..server import GameServer, ServerSettings

    host, port = serve_address(args.serve)
    settings = ServerSettings(host=host, port=port, grace=lobby.grace)

    async def main() -> Played:
        async with trio.open_nursery() as nursery:
            try:
                server: GameServer = await nursery.start(GameServer(settings, lobby=lobby).run)
            except OSError as err:
                raise CommandError(f"--serve {args.serve!r}: can't listen there "
                                   f"({err.strerror or err})") from None
            _tell_tokens(lobby, args.tokens)
            # Last: once it is said, the tokens are where they were to go.
            print(printable(f"spellstack tournament: listening on ws://{host}:{server.port} for "
                            f"{_count(len(lobby.entrants), 'remote entrant')}"), flush=True)
            try:
                played = await play()
            finally:
                with trio.CancelScope(shield=True), trio.move_on_after(5):
                    await lobby.close()
                nursery.cancel_scope.cancel()
        return played

    return main


def run(args: argparse.Namespace) -> int:
    # Imported here: the other commands need none of it.
    from ..tournament import (
        ClusterError,
        StoreError,
        WorkerSetupError,
        field_table,
        games_csv,
        interim_lines,
        play_tournament,
        report,
        results_json,
        round_lines,
        standings_csv,
        standings_table,
        top_cut_lines,
    )

    lobby = _remote_lobby(args)
    settings = with_key_from(settings_from(args, lobby), args)
    if lobby is not None and not lobby.entrants:
        raise CommandError("--serve: no remote entrant to serve (give one as NAME=remote@DECK)")
    jobs = _jobs(args)
    if args.resume and not args.db.exists():
        # Refused before --trace-dir's folder is made: a refused --resume leaves nothing behind.
        raise CommandError(f"{args.db}: no such file, so no tournament to resume; start it "
                           "without --resume, or give --db the file it was recorded in")
    outputs = (("--results", args.results), ("--games-csv", args.games_csv),
               ("--standings-csv", args.standings_csv))
    for flag, path in (*outputs, ("--db", args.db)):
        if path is not None and (path.is_dir() or not path.parent.is_dir()):
            raise CommandError(f"{flag} {str(path)!r}: " + ("is a folder" if path.is_dir() else
                               f"no folder {str(path.parent)!r}"))
    for flag, path in outputs:
        if path is not None:
            check_writable(flag, path)
    for flag, folder in (("--trace-dir", args.trace_dir), ("--record-dir", args.record_dir)):
        if folder is not None:
            output_folder(flag, folder)
    if args.seed is not None:
        print(SEED_WARNING.format(seed=args.seed), file=sys.stderr, flush=True)
    from tqdm import tqdm  # here: no other command needs it

    # On a terminal, a progress bar; otherwise (a log file, a pipe) a line per game.
    lines = not args.quiet and not sys.stderr.isatty()
    bar = tqdm(total=0, unit="game", file=sys.stderr, disable=args.quiet or lines,
               mininterval=0.5, dynamic_ncols=True, desc="games", bar_format=BAR_FORMAT)
    names = [e.name for e in settings.entrants]
    began = time.perf_counter()
    now = [0]  # games played by this run (not those a resumed tournament had recorded)

    def progress(done: int, total: int, row: GameRow | None) -> None:
        if lines:
            if row is not None:
                now[0] += 1
                rate = now[0] / max(time.perf_counter() - began, 1e-9)
                # The total is a maximum: it falls as matches end before their last game.
                print(printable(f"[{done}/≤{total}] {describe(row, names)} ({rate:.1f} games/s)"),
                      file=sys.stderr, flush=True)
            return
        if bar.total != total:
            bar.total = total
            bar.refresh()
        if done > bar.n:
            bar.update(done - bar.n)

    def resuming(held: int) -> None:
        # Said even with --quiet, as the other notes on stderr: what --resume found.
        recorded = f"{held} game{'s' if held != 1 else ''} recorded"
        bar.write(f"spellstack tournament: resuming: {recorded}; playing the rest", file=sys.stderr)

    def interim(rows: Sequence[GameRow], sprt: SprtResult | None) -> None:
        if args.quiet:
            return
        for line in interim_lines(settings, rows, sprt):
            bar.write(line, file=sys.stderr)  # above the bar on a terminal; a line in a log

    def play() -> Awaitable[Played]:
        return play_tournament(
            settings, db=args.db, resume=args.resume, jobs=jobs,
            concurrency=args.concurrency, trace_dir=args.trace_dir, progress=progress,
            backend=args.backend, scheduler=args.scheduler, resuming=resuming,
            interim=interim, interval=args.rating_interval,
            record_dir=None if args.record_dir is None else args.record_dir.resolve(),
            batch_seconds=args.write_every)

    try:
        played = trio.run(play if lobby is None else _served(args, lobby, play))
    except CommandError:
        raise
    except (StoreError, WorkerSetupError, ClusterError) as err:
        raise CommandError(str(err)) from None
    except (sqlite3.Error, OSError) as err:
        raise CommandError(_failed(err, args)) from None
    except BaseExceptionGroup as group:
        refused = group.subgroup(CommandError)  # --serve's address, raised in its nursery
        if refused is not None and refused.split(CommandError)[1] is None:
            raise _first_of(refused) from None
        first = _only(group)
        if first is None:
            raise
        if isinstance(first, (StoreError, WorkerSetupError, ClusterError)):
            raise CommandError(str(first)) from None
        raise CommandError(_failed(first, args)) from None
    finally:
        bar.close()
    if played.checked:
        same = played.checked - len(played.mismatched) - len(played.unchecked)
        print(f"spellstack tournament: {args.db} held this tournament: its {played.checked} "
              f"recorded game{'s' if played.checked != 1 else ''} were played again, {same} the "
              f"same (--resume plays only the games it lacks)", file=sys.stderr)
    if played.unchecked:
        n = len(played.unchecked)
        print(f"spellstack tournament: {n} game{'s' if n != 1 else ''} not checked: lost on time "
              f"(a clock ran out in one play or the other, which depends on the machine): "
              f"{', '.join(played.unchecked[:10])}{', ...' if n > 10 else ''}", file=sys.stderr)
    for before, again in played.mismatched[:10]:
        print(f"spellstack tournament: game {again.game_id} (seed {again.seed}) did not come out "
              f"as recorded: recorded winner seat {before.winner} on turn {before.turns}, hash "
              f"{before.final_hash}; now winner seat {again.winner} on turn {again.turns}, hash "
              f"{again.final_hash} (the database keeps the recorded game)", file=sys.stderr)
    if played.replayed:
        died = played.workers - jobs
        print(f"spellstack tournament: {died} worker process{'es' if died != 1 else ''} died; "
              f"{played.replayed} game{'s' if played.replayed != 1 else ''} in flight on "
              f"{'them' if died != 1 else 'it'} played again from their seeds", file=sys.stderr)
    rep = report(played)
    told = "a secret key" if played.settings.seed is None else f"seed {played.settings.seed}"
    each = f" (each pair meets {settings.repeat} times)" if settings.repeat > 1 else ""
    print(f"spellstack tournament: {settings.format}, {len(settings.entrants)} entrants, "
          f"{_count(settings.round_count(), 'round')}{each}, "
          f"{'game pairs' if settings.pairs else f'best of {settings.best_of}'}, {told}: "
          f"{_count(len(played.rows), 'game')}{_stopped(played)} (results in {args.db})")
    if settings.format == "swiss":
        # A Swiss round's pairings come from the rounds before: each is worth seeing.
        for line in round_lines(rep):
            print(line)
        print()
    print(standings_table(rep), end="")
    field = field_table(rep)
    if field:
        print()
        print("rating list of this tournament's games (Bradley-Terry Elo, 95% bootstrap interval):")
        print(field, end="" if field.endswith("\n") else "\n")
    if played.top_cut:
        print()
        print(f"top {settings.top}, best of {settings.best_of}:")
        for line in top_cut_lines(rep):
            print(f"  {line}")
    files: tuple[tuple[str, Path | None, Callable[[], str]], ...] = (
        ("--results", args.results, lambda: results_json(rep, timings=args.timings)),
        ("--games-csv", args.games_csv, lambda: games_csv(rep, timings=args.timings)),
        ("--standings-csv", args.standings_csv, lambda: standings_csv(rep)))
    for flag, path, text in files:
        if path is None:
            continue
        try:
            # newline="": the csv module writes its own line ends.
            with path.open("w", encoding="utf-8", newline="") as out:
                out.write(text())
        except OSError as err:
            raise CommandError(f"{flag} {str(path)!r}: can't be written "
                               f"({failure_reason(err)}); the {len(played.rows)} games are kept in "
                               f"{args.db}, and --resume writes it again") from None
        print(f"{'results' if flag == '--results' else flag[2:].replace('-', ' ')} written to {path}")
    for line in forfeits(played.rows, names):
        print(error_line(f"spellstack tournament: {line}"), file=sys.stderr)
    failed = [row for row in played.rows if row.reason.startswith("engine error")]
    if played.mismatched:
        return 1
    if failed:
        for row in failed[:10]:
            print(error_line(f"spellstack tournament: game {row.game_id} (seed {row.seed}) stopped "
                             f"on an {row.reason}"), file=sys.stderr)
        return 1
    return 0
