"""The player actor: one per seat, turning requests into answers by calling a policy."""

from __future__ import annotations

import inspect

from ..bots import Bot
from ..protocol import (
    Accepted,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    GameOver,
    Message,
    PriorityRequest,
    Rejected,
    RequestFullView,
    SetStops,
    StopsSet,
    SubmitAction,
    SubmitAnswer,
    ViewMirror,
)
from ..rules import Action, Answer, InvalidMessageError
from ._wire import Link

__all__ = ["player_actor"]


async def player_actor(policy: Bot, link: Link) -> None:
    """Answer every request with the policy's reply. A policy that raises or returns something
    that is not an answer of the right type forfeits (the coordinator records the reason);
    one that never answers is timed out by the coordinator.

    A policy with a ``stops`` attribute (a ``Stops``, or None) declares them with
    ``SetStops`` in place of its first reply, and answers once the coordinator has
    acknowledged (``StopsSet``) or refused them (``ErrorReply``): both go to its ``notify``.

    Requests carry view deltas: the actor keeps the seat's view (``ViewMirror``) and gives the
    policy the rebuilt full view. A delta it cannot apply gets a ``RequestFullView``; the
    coordinator sends the request again with the full view."""
    stops = getattr(policy, "stops", None)
    mirror = ViewMirror()
    while True:
        try:
            msg = await link.receive()
        except InvalidMessageError as err:
            await link.send(Forfeit(f"player received a malformed message: {err}"))
            return
        if isinstance(msg, GameOver):
            return
        if isinstance(msg, (Accepted, Rejected, ErrorReply)):
            if not await _notify(policy, link, msg):
                return
            continue
        if not isinstance(msg, (PriorityRequest, DecisionRequest)):
            continue
        try:
            view = mirror.apply(msg.view)
        except InvalidMessageError as err:
            if msg.view.full:  # a full view always applies: the coordinator sent nonsense
                await link.send(Forfeit(f"player received a malformed message: {err}"))
                return
            await link.send(RequestFullView(msg.decision.id))
            continue
        if stops is not None:
            declared, stops = SetStops(stops), None
            if not await _declare(policy, link, declared):
                return
        try:
            reply = policy.decide(view, msg.decision)
            if inspect.isawaitable(reply):
                reply = await reply
        except Exception as err:  # a crashing policy loses its own game, nothing else
            await link.send(Forfeit(f"policy raised {type(err).__name__}: {err}"))
            return
        out: SubmitAction | SubmitAnswer
        if isinstance(msg, PriorityRequest) and isinstance(reply, Action):
            out = SubmitAction(msg.decision.id, reply)
        elif isinstance(msg, DecisionRequest) and isinstance(reply, Answer):
            out = SubmitAnswer(reply)
        else:
            want = "an Action" if isinstance(msg, PriorityRequest) else "an Answer"
            await link.send(Forfeit(f"policy answered a {msg.decision.kind} decision with "
                                    f"{_short(reply)}, not {want}"))
            return
        try:
            data = link.wire.record(link.me, link.peer, out)
        except Exception as err:  # fields of the wrong type can't even be encoded
            await link.send(Forfeit(f"policy's answer can't be encoded: {_short(err)}"))
            return
        # Nothing of this request is held while waiting for the next (the mirror keeps the view).
        del msg, view, reply, out
        await link.send_bytes(data)


async def _declare(policy: Bot, link: Link, msg: SetStops) -> bool:
    """Send the policy's stops and take the coordinator's acknowledgement (or error reply);
    False if the actor must stop (the game ended, or the stops could not be sent)."""
    try:
        data = link.wire.record(link.me, link.peer, msg)
    except Exception as err:  # a ``stops`` attribute that is not a Stops can't be encoded
        await link.send(Forfeit(f"policy's stops can't be encoded: {_short(err)}"))
        return False
    await link.send_bytes(data)
    try:
        reply = await link.receive()
    except InvalidMessageError as err:
        await link.send(Forfeit(f"player received a malformed message: {err}"))
        return False
    if isinstance(reply, (StopsSet, ErrorReply)) and not await _notify(policy, link, reply):
        return False
    return not isinstance(reply, GameOver)


async def _notify(policy: Bot, link: Link, msg: Message) -> bool:
    """Hand a reply to the policy's optional ``notify``; False if it raised (it forfeits: the
    policy's own error loses its own game)."""
    notify = getattr(policy, "notify", None)
    if notify is None:
        return True
    try:
        notify(msg)
    except Exception as err:
        await link.send(Forfeit(f"policy's notify raised {type(err).__name__}: {_short(err)}"))
        return False
    return True


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
