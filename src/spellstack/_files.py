"""Reading a file a user names, safely: only a regular file, and only up to a size."""

from __future__ import annotations

import os
import stat

__all__ = ["MAX_INPUT_FILE", "FileRefused", "read_regular_file"]

MAX_INPUT_FILE = 1 << 20
"""The largest deck or scenario file read (1 MiB): far above any real one."""


class FileRefused(Exception):
    """A file that is not read: its message says why (``not a regular file``, too large, or
    the system's reason), without the path, which the caller names."""

    def __init__(self, reason: str, *, missing: bool = False, folder: bool = False) -> None:
        super().__init__(reason)
        self.missing = missing
        """Whether nothing is at the path."""
        self.folder = folder
        """Whether the path is a folder."""


def _size(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB" if size >= 1 << 20 else f"{size:,} bytes"


def read_regular_file(path: str | os.PathLike[str], limit: int = MAX_INPUT_FILE) -> bytes:
    """The bytes of the regular file at ``path``, of at most ``limit`` bytes.

    A FIFO, a device or a socket is refused before it is opened, and the file is opened
    non-blocking, so that nothing put in its place meanwhile can make the read wait. A file
    over ``limit`` is refused by its size, before it is read.

    Raises:
        FileRefused: not a regular file, over ``limit``, or the system's error (no such file,
            permission denied).
    """
    try:
        before = os.stat(path)
    except FileNotFoundError as err:
        raise FileRefused(err.strerror or "no such file", missing=True) from None
    except OSError as err:
        raise FileRefused(err.strerror or str(err)) from None
    _check(before, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise FileRefused(err.strerror or str(err)) from None
    try:
        # The file opened may not be the one checked (replaced in between): check it again.
        _check(os.fstat(fd), limit)
        chunks: list[bytes] = []
        got = 0
        while True:
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:
                raise FileRefused(f"over {_size(limit)} (it grew while read)")
        return b"".join(chunks)
    except OSError as err:
        raise FileRefused(err.strerror or str(err)) from None
    finally:
        os.close(fd)


def _check(info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise FileRefused("a folder, not a file", folder=True)
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused("not a regular file")
    if info.st_size > limit:
        raise FileRefused(f"{_size(info.st_size)}, over the limit of {_size(limit)}")
