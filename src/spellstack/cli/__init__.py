"""The ``spellstack`` command."""

from __future__ import annotations

import argparse
import os
import sys
from typing import cast

from .. import __version__
from .._printable import error_line
from ..build import build_label
from ..rules import SpellstackError
from . import (
    _bench,
    _cards,
    _chat,
    _compile,
    _fuzz,
    _play,
    _ratings,
    _replay,
    _scenario,
    _serve,
    _soak,
    _tournament,
    _trace,
)
from ._errors import CommandError
from ._parser import Parser

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="spellstack",
        description="A Magic: The Gathering rules engine run as an actor-based async "
                    "simulation.")
    parser.add_argument("--version", action="version", version=f"spellstack {__version__} ({build_label()})")
    # Each subcommand's parser is a Parser too (argparse makes them of the parent's class);
    # the functions that add them take any ArgumentParser's.
    sub = cast("argparse._SubParsersAction[argparse.ArgumentParser]",
               parser.add_subparsers(dest="command", required=True))
    _play.add_parser(sub)
    _tournament.add_parser(sub)
    _ratings.add_parser(sub)
    _scenario.add_parser(sub)
    _bench.add_parser(sub)
    _fuzz.add_parser(sub)
    _soak.add_parser(sub)
    _cards.add_parser(sub)
    _replay.add_parser(sub)
    _trace.add_parser(sub)
    _chat.add_parser(sub)
    _serve.add_parser(sub)
    _compile.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except CommandError as err:
        print(error_line(f"spellstack {args.command}: {err}"), file=sys.stderr)
        return 2
    except SpellstackError as err:
        print(error_line(f"spellstack {args.command}: {err}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`spellstack play | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code
