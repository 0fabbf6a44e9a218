"""One run at a time per tournament: a lock held while a run plays it.

The lock is a byte range of ``DB.lock`` beside the results database, one range per
tournament, taken with ``fcntl.lockf`` (a POSIX record lock). The operating system drops it
when the process ends, however it ends (SIGKILL included), so a killed run never leaves a
stale lock for ``--resume`` to trip on; different tournaments of one file lock different
ranges and run side by side. The holder writes its process id into its range, so a refused
run can name it.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["RunLock", "RunLocked", "lock_path"]

_SLOT = 16
"""Bytes of the lock file per tournament: the holder's process id, in ASCII."""

try:
    import fcntl
except ImportError:  # not a POSIX system: no lock (one run at a time is then the user's care)
    fcntl = None  # type: ignore[assignment]


class RunLocked(Exception):
    """Another run holds the tournament's lock."""

    def __init__(self, pid: int | None) -> None:
        super().__init__(pid)
        self.pid = pid
        """The other run's process id, if it could be read."""


def lock_path(db: Path) -> Path:
    """The lock file of the results database ``db``."""
    return db.with_name(db.name + ".lock")


class RunLock:
    """The lock of one tournament of one results database, held until ``release``."""

    def __init__(self, fd: int | None, slot: int) -> None:
        self._fd = fd
        self._slot = slot

    @classmethod
    def acquire(cls, db: Path, tournament: int) -> RunLock:
        """Take tournament ``tournament``'s lock (its id in the database); RunLocked if
        another run holds it, OSError if the lock file can't be made."""
        if fcntl is None:
            return cls(None, tournament)
        fd = os.open(lock_path(db), os.O_RDWR | os.O_CREAT, 0o644)
        start = tournament * _SLOT
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, _SLOT, start, os.SEEK_SET)
        except OSError:
            held = os.pread(fd, _SLOT, start).strip(b"\0 ")
            os.close(fd)
            raise RunLocked(int(held) if held.isdigit() else None) from None
        os.pwrite(fd, str(os.getpid()).encode().ljust(_SLOT, b" "), start)
        return cls(fd, tournament)

    def release(self) -> None:
        """Give the lock up (closing the file drops it)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.pwrite(fd, b" " * _SLOT, self._slot * _SLOT)
            except OSError:
                pass  # the lock goes with the file all the same
            os.close(fd)
