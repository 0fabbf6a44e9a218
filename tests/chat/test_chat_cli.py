"""``spellstack chat --vs random`` in a pseudo-terminal: a person's session, start to end."""

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
"""Seconds the whole session may take (real time, generous: it takes about one)."""


class Terminal:
    """A child process on a pseudo-terminal; waits for its output, never sleeps."""

    def __init__(self, *args: str) -> None:
        main, child = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "spellstack", *args], stdin=child,
                                     stdout=child, stderr=child, cwd=ROOT, env=env, close_fds=True)
        os.close(child)
        self.fd = main
        self.out = ""
        self.deadline = time.monotonic() + LIMIT

    def expect(self, text: str) -> str:
        """Read until ``text`` appears; returns what was read up to and including it."""
        start = len(self.out)
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
        return self.out[start:end]

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=max(1.0, self.deadline - time.monotonic()))
        os.close(self.fd)
        return code


def test_a_terminal_session_against_the_random_bot() -> None:
    term = Terminal("chat", "--vs", "random", "--seed", "3")
    try:
        term.expect("type `help` for the commands.")
        first = term.expect("> Your priority. You can:")
        assert "Your hand: [1] Giant Spider" in first and "you (you) | 20 life" in first
        term.send("help")
        term.expect("attack with <a>, <b> [at <player>]")
        term.send("cast Counterspell")
        term.expect("you have no 'Counterspell' in your hand")
        term.send("play mou")  # a unique prefix
        term.expect("OK: play Mountain.")
        term.expect("> Your priority")
        term.send("cast bolt targeting bot")
        term.expect("OK: cast Lightning Bolt targeting bot.")
        term.send("board")
        term.expect("graveyard: [10] Lightning Bolt")  # it resolved; the bot took 3
        term.send("concede")
        term.expect("Game over: bot wins. bot wins: you conceded (104.3a)")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_a_hotseat_session_clears_the_screen_and_hides_the_hand_between_players() -> None:
    term = Terminal("chat", "--hotseat", "--seed", "3", "--turn-limit", "4")
    try:
        first = term.expect("> Your priority. You can:")
        assert "p1 (you)" in first and "Your hand: [1] Giant Spider" in first
        term.send("pass")
        term.expect("Turn 1, p1's main 2")
        term.send("pass")
        # p2 is asked next: the screen is cleared (p1's hand with it) before anything of p2's.
        handover = term.expect("Pass the terminal to p2, then press Enter.")
        assert handover.endswith("\x1b[2J\x1b[HPass the terminal to p2, then press Enter.")
        assert "Typhoid Rats" not in handover  # p2's hand waits for Enter
        term.send("")
        second = term.expect("> Your priority")
        assert "\x1b[2J\x1b[H" in second  # cleared again once p2 pressed Enter
        assert "p2 (you)" in second and "[8] Typhoid Rats" in second
        assert "Giant Spider" not in second  # p1's hand is not shown to p2
        term.send("concede")
        term.expect("Game over")
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
