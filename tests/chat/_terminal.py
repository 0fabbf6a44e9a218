"""A child process on a pseudo-terminal, for tests of ``spellstack chat`` as a person meets it."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60.0
"""Seconds a whole session may take (real time, generous: one takes about a second)."""


class Terminal:
    """A child process on a pseudo-terminal; waits for its output, never sleeps."""

    def __init__(self, *args: str, login: str = "ann") -> None:
        main, child = pty.openpty()
        # getpass.getuser reads LOGNAME first: the session's default name is ``login``.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))), "LOGNAME": login}
        self.proc = subprocess.Popen([sys.executable, "-m", "spellstack", *args], stdin=child,
                                     stdout=child, stderr=child, cwd=ROOT, env=env, close_fds=True)
        os.close(child)
        self.fd = main
        self.out = ""
        self.pos = 0
        """Where the next ``expect`` looks from: the end of the last text expected."""
        self.deadline = time.monotonic() + LIMIT

    def expect(self, text: str) -> str:
        """Read until ``text`` appears; returns what was read up to and including it."""
        start = self.pos
        while text not in self.out[start:]:
            left = self.deadline - time.monotonic()
            assert left > 0, f"no {text!r} in: {self.out[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:  # the child closed the terminal
                    chunk = ""
                assert chunk, f"the session ended before {text!r}: {self.out[-2000:]}"
                self.out += chunk
        end = self.out.index(text, start) + len(text)
        self.pos = end
        return self.out[start:end]

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=max(1.0, self.deadline - time.monotonic()))
        os.close(self.fd)
        return code
