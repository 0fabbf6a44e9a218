"""``spellstack trace ...``: tools that read a trace (``spellstack play --trace FILE``)."""

from __future__ import annotations

import argparse

from . import _trace_why

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("trace", help="read a game's trace",
                       description="Tools that read a game's trace (JSON Lines).")
    inner = p.add_subparsers(dest="trace_command", required=True)
    _trace_why.add_parser(inner)
