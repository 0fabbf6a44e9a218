"""Python class bots that raise a ``BaseException`` (``SystemExit``, ``KeyboardInterrupt``,
``GeneratorExit``, a class of their own) from ``decide``, from ``notify`` or from their
constructor, for the tests that each loses only its own game; and a bot that holds the event
loop while it decides, for the Ctrl-C test. Each class is named by the tests as
``path/to/base_exception_bots.py:CLASS``."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

from spellstack.bots import RandomBot


class Escape(BaseException):
    """A bot's own BaseException, neither an Exception nor one Python knows."""


EXCEPTIONS: dict[str, tuple[Callable[[], BaseException], str]] = {
    "SystemExit0": (lambda: SystemExit(0), "SystemExit: 0"),
    "SystemExit3": (lambda: SystemExit(3), "SystemExit: 3"),
    "KeyboardInterrupt": (KeyboardInterrupt, "KeyboardInterrupt"),
    "GeneratorExit": (GeneratorExit, "GeneratorExit"),
    "Escape": (lambda: Escape("out of here"), "Escape: out of here"),
}
"""Each exception by its part of a class name: how to make it, and how a reason names it."""

WHERE = ("Decide", "Notify")
"""Where the bots raise, by the first part of their class names."""


def _raising(where: str, make: Callable[[], BaseException]) -> type[RandomBot]:
    """The random bot, raising ``make()`` at its first decision or its first ``notify``."""

    class Raising(RandomBot):
        def decide(self, view: Any, decision: Any) -> Any:
            if where == "Decide":
                raise make()
            return super().decide(view, decision)

        def notify(self, msg: Any) -> None:
            if where == "Notify":
                raise make()

    return Raising


class _AsyncSystemExit3(RandomBot):
    async def decide(self, view: Any, decision: Any) -> Any:  # type: ignore[override]
        raise SystemExit(3)


class _BuildRaises(RandomBot):
    """Built with seed 0 (as a spec is checked when loaded), it works; built with any other
    seed (a game's), its constructor raises."""

    make: Callable[[], BaseException] = SystemExit

    def __init__(self, seed: int) -> None:
        if seed != 0:
            raise type(self).make()
        super().__init__(seed)


CLASSES: dict[str, str] = {}
"""Every raising class's name, with how a forfeit's reason names what it raised: ``policy
raised SystemExit: 3``, ``policy's notify raised KeyboardInterrupt``, ``bot's constructor
raised Escape: out of here``."""

for _name, (_make, _shown) in EXCEPTIONS.items():
    for _where in WHERE:
        _cls = _raising(_where, _make)
        _cls.__name__ = _cls.__qualname__ = f"{_where}{_name}"
        globals()[_cls.__name__] = _cls
        said = "policy raised" if _where == "Decide" else "policy's notify raised"
        CLASSES[_cls.__name__] = f"{said} {_shown}"
    _built = type(f"Build{_name}", (_BuildRaises,), {"make": staticmethod(_make)})
    _built.__qualname__ = _built.__name__
    globals()[_built.__name__] = _built
    CLASSES[_built.__name__] = f"bot's constructor raised {_shown}"

AsyncDecideSystemExit3 = _AsyncSystemExit3
AsyncDecideSystemExit3.__name__ = AsyncDecideSystemExit3.__qualname__ = "AsyncDecideSystemExit3"
CLASSES["AsyncDecideSystemExit3"] = "policy raised SystemExit: 3"


class HoldsTheLoopOnce(RandomBot):
    """The random bot; but at its first decision, if the file ``SPELLSTACK_TEST_HOLD`` names
    does not exist yet, it creates it, says ``holding the loop`` on stderr and then holds the
    event loop (never returning) until a signal's exception ends it. Once the file exists it
    plays as the random bot does, so a tournament it stopped plays on to the same end as one
    it never stopped."""

    def decide(self, view: Any, decision: Any) -> Any:
        marker = os.environ.get("SPELLSTACK_TEST_HOLD")
        if marker and not os.path.exists(marker):
            with open(marker, "w", encoding="utf-8") as out:
                out.write(str(os.getpid()))
            print("holding the loop", file=sys.stderr, flush=True)
            while True:  # a bot stuck in its own code: only a signal gets it out
                time.sleep(0.05)
        return super().decide(view, decision)
