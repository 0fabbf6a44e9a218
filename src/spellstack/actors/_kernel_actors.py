"""The stack actor (608) and the SBA checker (704): the only callers of those kernel procedures.

Each waits for the coordinator to hand over the state with a request, runs the kernel
procedure, routes any decision it needs back through the coordinator (``AskPlayer`` /
``PlayerReply``), and hands the state back with its reply, which counts the events the
procedure made (a traced game records each event once, as a ``GameEvent`` from the actor that
made it, before the reply).
"""

from __future__ import annotations

from typing import Final

from ..protocol import (
    AskPlayer,
    CheckSBA,
    PlayerReply,
    Resolve,
    Resolved,
    SBABatch,
)
from ..rules import Event, Game, Proc, Procedure, resolve_top, state_based_actions
from ..rules.base import builder
from ._wire import Link

__all__ = ["sba_actor", "stack_actor"]


# Made by ``builder``, faster than the frozen classes' own ``__init__``: the replies to every
# check and every resolution.
_RESOLVED: Final = builder(Resolved)
_SBA_BATCH: Final = builder(SBABatch)


async def _drive(link: Link, proc: Proc[tuple[Event, ...]]) -> tuple[Event, ...]:
    """Run a kernel procedure (``Procedure``), asking the coordinator whenever it needs a
    player's answer."""
    run = Procedure(proc)
    question = run.question
    while question is not None:
        await link.send(AskPlayer(question))
        msg = await link.receive()
        if not isinstance(msg, PlayerReply):
            raise RuntimeError(f"{link.me}: expected PlayerReply, got {msg.KIND}")
        question = run.answer(msg.answer)
    return tuple(run.value or ())


async def stack_actor(game: Game, link: Link) -> None:
    """608: resolve the top of the stack whenever the coordinator says so."""
    while True:
        msg = await link.receive()
        if not isinstance(msg, Resolve):
            raise RuntimeError(f"stack: expected Resolve, got {msg.KIND}")
        top = game.state.objects[game.state.stack[-1]]
        if top.id != msg.object_id:
            raise RuntimeError(f"stack: asked to resolve #{msg.object_id}, top is #{top.id}")
        name = top.name
        events = await _drive(link, resolve_top(game))
        await link.send(_RESOLVED(msg.object_id, name, len(events)))


async def sba_actor(game: Game, link: Link) -> None:
    """704.3: perform all applicable state-based actions as one event, per request."""
    while True:
        msg = await link.receive()
        if not isinstance(msg, CheckSBA):
            raise RuntimeError(f"sba: expected CheckSBA, got {msg.KIND}")
        events = await _drive(link, state_based_actions(game))
        await link.send(_SBA_BATCH(len(events)))
