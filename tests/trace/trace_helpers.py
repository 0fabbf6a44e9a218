"""Helpers of the trace tools' tests: the games traced, a way to run ``spellstack`` and read
what it printed, a trace's lines read as plain JSON."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from spellstack.cli import main

NAMES = ["alice", "bob"]
GAMES = [(1, ("gruul", "orzhov")), (2, ("dimir", "orzhov")), (3, ("orzhov", "dimir")),
         (4, ("gruul", "dimir"))]
"""(seed, decks) of the games traced; the first is ``spellstack play --seed 1``'s."""

Run = Callable[..., tuple[int, str, str]]


def run_cli(*argv: str) -> tuple[int, str, str]:
    """``spellstack ARGV``: its exit status, what it printed, what it printed on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def raw_records(path: Path) -> list[dict[str, Any]]:
    """The trace's lines as JSON objects, read without ``spellstack.trace``."""
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]
