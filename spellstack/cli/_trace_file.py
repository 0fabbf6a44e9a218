"""Reading the trace a command is given, its problems as the command's errors (exit 2)."""

from __future__ import annotations

from pathlib import Path

from ..trace import Trace, TraceError, read_trace
from ._errors import CommandError

__all__ = ["load_trace"]


def load_trace(path: Path) -> Trace:
    """The trace at ``path``; ``CommandError`` for a missing file, a folder, or a file that is
    not a whole trace."""
    if not path.is_file():
        raise CommandError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    try:
        return read_trace(path)
    except OSError as err:
        raise CommandError(f"{path}: {err.strerror or err}") from None
    except TraceError as err:
        raise CommandError(f"not a trace: {err}") from None
