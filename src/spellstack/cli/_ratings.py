"""``spellstack ratings``: a rating list of every game in one or more results databases.

This module reads the arguments and writes the list; reading the games, the fit and the list's
text are the tournament package's (``spellstack.tournament``, see ``docs/tournaments.md``)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from ._errors import CommandError

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "ratings", help="a rating list of every game in results databases",
        description="Rate every entrant of every finished game in the results databases "
                    "(--db files of spellstack tournament): games, score, Elo (the maximum-"
                    "likelihood Bradley-Terry fit, a draw half a win) with its 95% interval "
                    "from 1,000 seeded bootstrap resamples, and openskill's Plackett-Luce mu, "
                    "sigma and ordinal. A game found in two databases counts once; an entrant "
                    "is the same across tournaments when its name, bot and deck list are.")
    p.add_argument("db", nargs="+", type=Path, metavar="DB", help="a results database")
    p.add_argument("--anchor", default=None, metavar="NAME[=RATING]",
                   help="fix NAME's Elo at RATING (default 0) instead of setting the average")
    p.add_argument("--average", default="0", metavar="R",
                   help="the average Elo of the entrants rated together (default 0)")
    p.add_argument("--min-games", default="0", metavar="N",
                   help="list only entrants with at least N games (their games count in every "
                        "rating all the same)")
    p.add_argument("--csv", type=Path, default=None, metavar="FILE",
                   help="also write the list to FILE as CSV")
    p.add_argument("--json", type=Path, default=None, metavar="FILE",
                   help="also write the list, its notes and how it was made to FILE as JSON")
    p.set_defaults(run=run)


def _number(flag: str, text: str) -> float:
    """``text`` as a finite number, or a CommandError naming ``flag``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise CommandError(f"{flag} {text!r}: not a number (such as 0 or 1500)")
    return value


def _anchor(text: str, names: list[str]) -> tuple[str, float]:
    """``--anchor NAME[=RATING]`` as a name and a rating: the whole text if it is an entrant's
    name (a name may hold ``=``), else the name before the last ``=``."""
    name, sep, rating = text.rpartition("=")
    if text in names or not sep:
        return text, 0.0
    try:
        return name, _number("--anchor", rating)
    except CommandError:
        raise CommandError(f"--anchor {text!r}: the rating {rating!r} is not a number (such as 0 "
                           "or 1500)") from None


def _output(flag: str, path: Path | None) -> None:
    """CommandError unless ``path`` can be a file to write: not a folder, in a folder that is."""
    if path is None:
        return
    if path.is_dir():
        raise CommandError(f"{flag} {str(path)!r}: is a folder")
    if not path.parent.is_dir():
        raise CommandError(f"{flag} {str(path)!r}: no folder {str(path.parent)!r}")


def _write(flag: str, path: Path | None, text: str) -> None:
    if path is None:
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise CommandError(f"{flag} {str(path)!r}: can't be written ({err.strerror or err})") from None


def run(args: argparse.Namespace) -> int:
    # Imported here: the list needs numpy, scipy and openskill, which other commands don't.
    from ..tournament import (
        RatingListError,
        StoreError,
        format_rating_list,
        rating_list,
        rating_list_csv,
        rating_list_json,
        read_list_games,
    )

    average = _number("--average", args.average)
    try:
        min_games = int(args.min_games, 10)
    except ValueError:
        min_games = -1
    if min_games < 0:
        raise CommandError(f"--min-games must be a whole number of at least 0, not {args.min_games!r}")
    _output("--csv", args.csv)
    _output("--json", args.json)
    try:
        games = read_list_games(args.db)
        names = [e.name for e in games.entrants]
        anchor = None if args.anchor is None else _anchor(args.anchor, names)
        rl = rating_list(games, anchor=anchor, average=average, min_games=min_games)
    except (StoreError, RatingListError) as err:
        raise CommandError(str(err)) from None
    found = len(args.db)
    twice = f" ({games.duplicates} found twice, counted once)" if games.duplicates else ""
    print(f"spellstack ratings: {rl.games} game{'s' if rl.games != 1 else ''}{twice} of "
          f"{games.tournaments} tournament{'s' if games.tournaments != 1 else ''} in {found} "
          f"database{'s' if found != 1 else ''}, {len(games.entrants)} entrants")
    print(format_rating_list(rl), end="")
    _write("--csv", args.csv, rating_list_csv(rl))
    _write("--json", args.json, rating_list_json(rl, games, [str(p) for p in args.db]))
    return 0
