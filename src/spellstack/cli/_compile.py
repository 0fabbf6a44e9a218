"""``spellstack compile [--clean] [--list] [--module NAME]``: the optional compiled build of the
kernel and the protocol (``python -m spellstack.build`` does the same without importing them)."""

from __future__ import annotations

import argparse

from ..build import DESCRIPTION, add_arguments, run_command

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compile", help="compile the kernel and the protocol with mypyc, in place "
                                       "(optional; --clean removes the build)",
                       description=DESCRIPTION)
    add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build, list or remove the compiled modules (the exit status of ``run_command``)."""
    return run_command(args, "spellstack compile")
