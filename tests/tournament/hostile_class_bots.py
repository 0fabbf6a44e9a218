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
