"""``LoopDriver``: what performs the game loop's requests, one method per kind.

In a module of its own so that the loop's module can be compiled (the compiled build): the
coordinator and the kernel bench's driver subclass it, and an interpreted class can't inherit
from a compiled Protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from ._driver import (
        ActionOutcome,
        Ask,
        AskPriority,
        AutoPasses,
        BeginTask,
        NoStopPass,
        RunResolve,
        RunSBA,
        SBASkipped,
    )

__all__ = ["LoopDriver"]

R_co = TypeVar("R_co", covariant=True)


class LoopDriver(Protocol[R_co]):
    """What performs ``GameLoop``'s requests: one method per kind of ``LoopRequest``, called by
    ``perform``. Each method returns the reply its request's kind names (``R_co`` is the reply
    itself for a driver that performs in place, an awaitable of it for one that performs over
    channels: the coordinator). A kind added to ``LoopRequest`` must be handled in ``perform``,
    which mypy checks (``assert_never``), and so by every driver."""

    def auto_passes(self, request: AutoPasses) -> R_co:
        """117.3d: count (and, if ``traced`` is false and the game is traced, record) the
        automatic passes. Reply: None."""
        ...

    def run_sba(self, request: RunSBA) -> R_co:
        """704.3: perform the state-based action check. Reply: how many events it made."""
        ...

    def sba_skipped(self, request: SBASkipped) -> R_co:
        """704.3: no check before this grant of priority. Reply: None."""
        ...

    def ask_priority(self, request: AskPriority) -> R_co:
        """117.1: ask the seat for an action. Reply: the ``Action``, or None."""
        ...

    def action_outcome(self, request: ActionOutcome) -> R_co:
        """Tell the seat what became of its action. Reply: None."""
        ...

    def ask(self, request: Ask) -> R_co:
        """Ask the seat a question. Reply: a legal ``Answer``."""
        ...

    def run_resolve(self, request: RunResolve) -> R_co:
        """608.1: resolve the top of the stack. Reply: None."""
        ...

    def no_stop_pass(self, request: NoStopPass) -> R_co:
        """117.3d: the engine passes for a seat outside its stops. Reply: None."""
        ...

    def begin_task(self, request: BeginTask) -> R_co:
        """A stepwise loop's next task (``GameLoop(stepwise=True)``). Reply: None."""
        ...
