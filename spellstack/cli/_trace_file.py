"""Reading the trace a command is given, its problems as the command's errors (exit 2)."""

from __future__ import annotations

from pathlib import Path

from ..trace import Trace, TraceError, read_trace
from ._errors import CommandError

__all__ = ["load_trace"]


def load_trace(path: Path) -> Trace:
    """The trace at ``path``; ``CommandError`` for a missing file, a folder, or a file that is
    not a whole trace."""
    try:
        return read_trace(path)
    except FileNotFoundError:
        raise CommandError(f"{str(path)!r}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{str(path)!r} is a folder, not a trace") from None
    except TraceError as err:
        raise CommandError(str(err)) from None
