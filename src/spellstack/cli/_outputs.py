"""Files and folders a command writes: checked before any work is done for them, so that no
game is played for an output that can't be kept."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ._errors import CommandError

__all__ = ["check_writable", "failure_reason", "output_folder"]


def check_writable(flag: str, path: Path) -> None:
    """CommandError unless ``path`` (a file to write at the end) can be written now."""
    try:
        if path.exists():
            with path.open("r+b"):
                pass
        else:
            fd, probe = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
            os.close(fd)
            os.unlink(probe)
    except OSError as err:
        raise CommandError(f"{flag} {str(path)!r}: can't be written ({failure_reason(err)})") from None


def output_folder(flag: str, folder: Path) -> None:
    """Make ``folder`` (with its parents) if it is missing; CommandError unless it is a folder
    that can be written."""
    if folder.exists() and not folder.is_dir():
        raise CommandError(f"{flag} {str(folder)!r}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CommandError(f"{flag} {str(folder)!r}: can't be made ({failure_reason(err)})") from None
    check_writable(flag, folder / ".spellstack-probe")


def failure_reason(err: BaseException) -> str:
    """An error's cause in a few words (read-only called that)."""
    if isinstance(err, OSError):
        if err.errno == 30:  # EROFS
            return "read-only: its filesystem can't be written"
        return err.strerror or str(err)
    text = str(err)
    if "readonly" in text:
        return "read-only: the file or its filesystem can't be written"
    return text or type(err).__name__
