"""Python class bots that misbehave, for the isolation tests: run in bot processes of their
own, as any class bot is unless the tournament trusts them."""

import os

from spellstack.bots import RandomBot


class Raises(RandomBot):
    """Raises at its first priority decision."""

    def decide(self, view, decision):
        if decision.kind == "priority":
            raise RuntimeError("this bot has a bug")
        return super().decide(view, decision)


class Spins(RandomBot):
    """Spins the CPU, never yielding, at its first priority decision."""

    def decide(self, view, decision):
        if decision.kind == "priority":
            _note_pid()
            # At the lowest priority, so that a test machine's other work goes on: it spins
            # all the same, never yielding, until it is killed.
            os.nice(19)
            while True:
                pass
        return super().decide(view, decision)


def _note_pid() -> None:
    """Write this process's id into the folder ``SPELLSTACK_TEST_PIDS`` names, if set: the
    tests look for the processes bots ran in."""
    folder = os.environ.get("SPELLSTACK_TEST_PIDS")
    if folder:
        with open(os.path.join(folder, f"{os.getpid()}.pid"), "w", encoding="utf-8") as out:
            out.write(str(os.getpid()))


class Noted(RandomBot):
    """The random bot, noting the process it plays in at its first decision."""

    def __init__(self, seed):
        super().__init__(seed)
        self.noted = False

    def decide(self, view, decision):
        if not self.noted:
            _note_pid()
            self.noted = True
        return super().decide(view, decision)


class ForksThenExits(RandomBot):
    """At its first priority decision, starts a child in its process group that sleeps, and
    exits (code 3)."""

    def decide(self, view, decision):
        if decision.kind == "priority":
            import subprocess
            import sys

            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            folder = os.environ.get("SPELLSTACK_TEST_PIDS")
            if folder:
                with open(os.path.join(folder, f"{child.pid}.pid"), "w", encoding="utf-8") as out:
                    out.write(str(child.pid))
            os._exit(3)
        return super().decide(view, decision)


class _Holds(RandomBot):
    """Holds ``SIZE`` bytes (written, so resident) from its first decision on, playing as the
    random bot does."""

    SIZE = 0

    def decide(self, view, decision):
        if not hasattr(self, "held"):
            self.held = b"\x01" * self.SIZE
        return super().decide(view, decision)


class Holds1000MiB(_Holds):
    """Holds 1,000 MiB."""

    SIZE = 1000 << 20


class Holds1GiB(_Holds):
    """Holds 1 GiB: the whole default limit, over it whatever its process holds besides."""

    SIZE = 1 << 30


class Holds400MB(_Holds):
    """Holds 400 MB."""

    SIZE = 400_000_000
