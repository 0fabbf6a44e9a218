"""Reading the trace a command is given, its problems as the command's errors (exit 2)."""

from __future__ import annotations

import sys
from pathlib import Path

from .._printable import printable
from ..trace import Trace, TraceError, read_trace
from ._errors import CommandError

__all__ = ["check_output_path", "load_trace", "note_cut"]


def load_trace(path: Path) -> Trace:
    """The trace at ``path``; ``CommandError`` for a missing file, a folder, or a file that is
    not a trace. A trace cut short is read up to its last complete record (``note_cut`` names
    a last line cut off in the middle)."""
    if not path.is_file():
        raise CommandError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    try:
        trace = read_trace(path)
    except OSError as err:
        raise CommandError(f"{path}: {err.strerror or err}") from None
    except TraceError as err:
        raise CommandError(f"not a trace: {err}") from None
    return trace


def note_cut(trace: Trace, path: Path) -> None:
    """For a trace whose last line was cut off in the middle, say so in one line on stderr:
    printed once the command has done its work (a command that fails says only why)."""
    if trace.cut_line:
        print(printable(f"note: {path}: line {trace.cut_line} is cut off; read up to line "
                        f"{trace.cut_line - 1}"), file=sys.stderr)


def check_output_path(path: Path, option: str) -> None:
    """Refuse a path to write that can't be (a folder, a missing folder) before any work is
    done: ``CommandError`` naming ``option``."""
    if path.is_dir():
        raise CommandError(f"{option} {str(path)!r} is a folder; name a file in it")
    if not path.parent.is_dir():
        raise CommandError(f"{option} {str(path)!r}: the folder {str(path.parent)!r} does not exist")
