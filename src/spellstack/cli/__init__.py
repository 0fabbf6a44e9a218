"""The ``spellstack`` command."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import cast

from .. import __version__
from .._collector import tune_collector
from .._printable import error_line
from ..build import build_label
from ..rules import SpellstackError
from ._errors import CommandError
from ._parser import Parser

__all__ = ["main"]


_COMMANDS = ("play", "tournament", "ratings", "scenario", "bench", "fuzz", "soak", "cards",
             "replay", "trace", "chat", "serve", "compile")
"""The subcommands, in the order help lists them; ``spellstack.cli._<name>`` adds each one's
parser (``add_parser``) and runs it."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. ``command``: the subcommand about to run; only its module is
    imported (the others are names it accepts, to no avail), so a command loads what it uses
    and no more: the tournament's database, the chat's event loop and the server stay out of
    a bench. None, or a name that is no subcommand: every subcommand's parser, for help and for
    the error that names the closest."""
    parser = Parser(
        prog="spellstack",
        description="A Magic: The Gathering rules engine run as an actor-based async "
                    "simulation.")
    parser.add_argument("--version", action="version", version=f"spellstack {__version__} ({build_label()})")
    # Each subcommand's parser is a Parser too (argparse makes them of the parent's class);
    # the functions that add them take any ArgumentParser's.
    sub = cast("argparse._SubParsersAction[argparse.ArgumentParser]",
               parser.add_subparsers(dest="command", required=True))
    whole = command not in _COMMANDS
    for name in _COMMANDS:
        if whole or name == command:
            importlib.import_module(f"{__name__}._{name}").add_parser(sub)
        else:
            sub.add_parser(name)
    return parser


def _command_in(argv: list[str]) -> str | None:
    """The subcommand ``argv`` starts with; None when it starts with an option (``--help``,
    ``--version``: what they print needs every subcommand's parser) or is empty."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = sys.argv[1:] if argv is None else argv
    tune_collector()
    args = build_parser(_command_in(words)).parse_args(words)
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
