"""The player actor: one per seat, turning requests into answers by calling a policy."""

from __future__ import annotations

import inspect
import types
from collections.abc import Awaitable, Generator
from dataclasses import dataclass
from typing import Any, Final

import trio

from ..bots import Bot
from ..protocol import (
    Accepted,
    Concede,
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
from ..rules.base import builder
from ._lag import HeldTime
from ._wire import Link

__all__ = ["REASON_LIMIT", "PlayerActor", "PlayerStatistics", "SeatConcedes", "SeatLeaves", "error_text",
           "player_actor", "raise_unless_policys"]

# Made by ``builder``, faster than the frozen class's own ``__init__``: sent at every priority
# decision.
_SUBMIT_ACTION: Final = builder(SubmitAction)

REASON_LIMIT = 200
"""Longest forfeit reason the player actor sends for its policy's failure, in characters: the
text of a bot's exception or reply is cut to fit, whatever it is."""
_TEXT_LIMIT = 120
"""Longest piece of a bot's own text (an exception's message, a reply's repr) in a reason."""

_now = trio.current_time


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    """A player actor's counters (``PlayerActor.statistics``), from the start of its game."""

    requests_received: int
    """Requests for a decision received (``PriorityRequest``, ``DecisionRequest``), each one
    sent again counted once more."""
    replies_sent: int
    """Actions and answers sent (``SubmitAction``, ``SubmitAnswer``)."""
    full_views_requested: int
    """Requests whose view delta could not be applied, answered by ``RequestFullView``."""
    notifications: int
    """Replies handed to the policy's ``notify`` (``Accepted``, ``Rejected``, ``ErrorReply``,
    ``StopsSet``); counted whether or not it has one."""
    held: float
    """Seconds the policy held the event loop (its ``decide`` and ``notify``): what counts
    against the seat's deadlines."""
    forfeit: str
    """Why the actor forfeited the seat; empty if it did not."""


class PlayerActor:
    """One seat's player actor: turns the coordinator's requests into the policy's replies
    (``run``); ``statistics`` counts what it did."""

    def __init__(self, policy: Bot, link: Link) -> None:
        self.policy = policy
        """The seat's policy."""
        self.link = link
        """The player's end of the seat's link."""
        self._requests = self._replies = self._full_views = self._notifications = 0
        self._forfeit = ""

    def statistics(self) -> PlayerStatistics:
        """The actor's counters so far (as trio's objects give theirs)."""
        return PlayerStatistics(requests_received=self._requests, replies_sent=self._replies,
                                full_views_requested=self._full_views,
                                notifications=self._notifications, held=self.link.held.own,
                                forfeit=self._forfeit)

    async def run(self) -> None:
        """Answer every request with the policy's reply. A policy that raises (any
        ``BaseException``: ``SystemExit``, ``KeyboardInterrupt`` and the like too, whatever its
        exception's text does) or returns something that is not an answer of the right type
        forfeits at once, with a reason of at most ``REASON_LIMIT`` characters (the coordinator
        records it); one that never answers is timed out by the coordinator. Only what is not
        the policy's own passes through (``raise_unless_policys``): the runner's cancellation
        and the operator's Ctrl-C.

        The time the policy holds the event loop (its ``decide`` and ``notify``; each step of
        an async ``decide``) is charged to the seat (``link.held``): it counts against the
        seat's deadline, which the time the loop was held by others does not.

        A policy with a ``stops`` attribute (a ``Stops``, or None) declares them with
        ``SetStops`` in place of its first reply, and answers once the coordinator has
        acknowledged (``StopsSet``) or refused them (``ErrorReply``): both go to its
        ``notify``.

        Requests carry view deltas: the actor keeps the seat's view (``ViewMirror``) and gives
        the policy the rebuilt full view, with the seat's game clock as the request shows it
        (``PlayerView.clock``). A delta it cannot apply gets a ``RequestFullView``; the
        coordinator sends the request again with the full view. A priority request without a
        view (a policy with ``views_at_priority = False``) gives the policy the last view it
        was sent, with the request's clock; with no view held yet (a new actor for the seat)
        the actor asks for the full view."""
        policy, link = self.policy, self.link
        stops = getattr(policy, "stops", None)
        mirror = ViewMirror()
        while True:
            try:
                msg = await link.receive()
            except InvalidMessageError as err:
                await self._leave(f"player received a malformed message: {err}", fit=False)
                return
            if isinstance(msg, GameOver):
                return
            if isinstance(msg, (Accepted, Rejected, ErrorReply)):
                problem = self._notified(msg)
                if problem:
                    await self._leave(problem)
                    return
                continue
            if not isinstance(msg, (PriorityRequest, DecisionRequest)):
                continue
            self._requests += 1
            try:
                view = (mirror.apply(msg.view, msg.clock) if msg.view is not None
                        else mirror.current(msg.clock))
            except InvalidMessageError as err:
                if msg.view is not None and msg.view.full:  # a full view always applies: the coordinator sent nonsense
                    await self._leave(f"player received a malformed message: {err}", fit=False)
                    return
                self._full_views += 1
                await link.send(RequestFullView(msg.decision.id))
                continue
            if stops is not None:
                declared, stops = SetStops(stops), None
                if not await self._declare(declared):
                    return
            held = link.held
            start = _now()
            try:
                reply = policy.decide(view, msg.decision)
                held.own += _now() - start
                # An Action or an Answer (these classes exactly) is no awaitable: tested first, as
                # most replies are one (``isawaitable`` reaches an ABC's slow ``isinstance``).
                cls = type(reply)
                if cls is not Action and cls is not Answer and inspect.isawaitable(reply):
                    reply = await _charged(reply, held)
            except SeatConcedes:
                await link.send(Concede())
                return
            except SeatLeaves as err:  # the policy's own word for why it leaves, as it is
                await self._leave(str(err))
                return
            except BaseException as err:  # a crashing policy loses its own game, nothing else
                raise_unless_policys(err)
                await self._leave(f"policy raised {error_text(err)}")
                return
            out: SubmitAction | SubmitAnswer | None = None
            try:  # a reply of any type: even isinstance may fail on it
                if isinstance(msg, PriorityRequest) and isinstance(reply, Action):
                    out = _SUBMIT_ACTION(msg.decision.id, reply)
                elif isinstance(msg, DecisionRequest) and isinstance(reply, Answer):
                    out = SubmitAnswer(reply)
            except BaseException as err:
                raise_unless_policys(err)
                out = None
            if out is None:
                want = "an Action" if isinstance(msg, PriorityRequest) else "an Answer"
                await self._leave(f"policy answered a {msg.decision.kind} decision with "
                                  f"{_short(reply)}, not {want}")
                return
            try:
                data = link.wire.record(link.me, link.peer, out)
            except BaseException as err:  # fields of the wrong type can't even be encoded
                raise_unless_policys(err)
                await self._leave(f"policy's answer can't be encoded: {error_text(err)}")
                return
            # Nothing of this request is held while waiting for the next (the mirror keeps the view).
            del msg, view, reply, out
            self._replies += 1
            await link.send_bytes(data)

    async def _declare(self, msg: SetStops) -> bool:
        """Send the policy's stops and take the coordinator's acknowledgement (or error reply);
        False if the actor must stop (the game ended, or the stops could not be sent)."""
        link = self.link
        try:
            data = link.wire.record(link.me, link.peer, msg)
        except BaseException as err:  # a ``stops`` attribute that is not a Stops can't be encoded
            raise_unless_policys(err)
            await self._leave(f"policy's stops can't be encoded: {error_text(err)}")
            return False
        await link.send_bytes(data)
        try:
            reply = await link.receive()
        except InvalidMessageError as err:
            await self._leave(f"player received a malformed message: {err}", fit=False)
            return False
        if isinstance(reply, (StopsSet, ErrorReply)):
            problem = self._notified(reply)
            if problem:
                await self._leave(problem)
                return False
        return not isinstance(reply, GameOver)

    def _notified(self, msg: Message) -> str:
        """Hand a reply to the policy's optional ``notify``: why the seat must be left if that
        failed (the policy raised, or its ``notify`` can't be read: the policy's own error loses
        its own game), else empty. Not a coroutine: it runs at every decision."""
        self._notifications += 1
        try:
            notify = getattr(self.policy, "notify", None)
        except BaseException as err:
            raise_unless_policys(err)
            return f"policy's notify can't be read: {error_text(err)}"
        if notify is None:
            return ""
        held = self.link.held
        start = _now()
        try:
            notify(msg)
        except BaseException as err:
            held.own += _now() - start
            raise_unless_policys(err)
            return f"policy's notify raised {error_text(err)}"
        held.own += _now() - start
        return ""

    async def _leave(self, reason: str, *, fit: bool = True) -> None:
        """Forfeit the seat with ``reason``. ``fit``: the reason holds the policy's words, so it
        is cut to ``REASON_LIMIT`` characters and made encodable whatever it holds (the
        actor's own reasons go as they are)."""
        link = self.link
        if not fit:
            self._forfeit = reason
            await link.send(Forfeit(reason))
            return
        reason = _fit(reason, REASON_LIMIT)
        try:
            data = link.wire.record(link.me, link.peer, Forfeit(reason))
        except Exception:  # cannot happen with a plain bounded text; never an engine error
            reason = "policy failed"
            data = link.wire.record(link.me, link.peer, Forfeit(reason))
        self._forfeit = reason
        await link.send_bytes(data)


async def player_actor(policy: Bot, link: Link) -> None:
    """Play the seat with ``policy`` until the game is over for it (``PlayerActor.run``)."""
    await PlayerActor(policy, link).run()


@types.coroutine
def _charged(awaitable: Awaitable[Any], held: HeldTime) -> Generator[Any, Any, Any]:
    """Await ``awaitable`` (an async ``decide``), charging each of its steps to ``held``: the
    time it runs before it next waits is time it holds the event loop."""
    steps = awaitable.__await__()
    value: Any = None
    error: BaseException | None = None
    while True:
        start = _now()
        try:
            signal = steps.send(value) if error is None else steps.throw(error)
        except StopIteration as done:
            held.own += _now() - start
            return done.value
        except BaseException:
            held.own += _now() - start
            raise
        held.own += _now() - start
        try:
            value, error = (yield signal), None
        except GeneratorExit:
            steps.close()
            raise
        except BaseException as err:  # Cancelled and the like, passed on to the policy
            value, error = None, err


def _fit(text: str, limit: int) -> str:
    """``text`` as a plain, encodable ``str`` of at most ``limit`` characters."""
    if type(text) is not str:
        text = str.__str__(text)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text.encode("utf-8", "replace").decode("utf-8")


class SeatLeaves(Exception):
    """Raised by a policy's ``decide`` to leave the game on purpose (a person who stops
    answering): the seat forfeits with the exception's text as the reason, with no ``policy
    raised`` before it."""


class SeatConcedes(SeatLeaves):
    """Raised by a policy's ``decide`` to concede the game (104.3a), whatever it is asked: the
    player actor sends ``Concede``, and the player loses by concession, not by forfeit."""


def error_text(err: BaseException) -> str:
    """``Type: message`` for a policy's exception, bounded, whatever its class, ``__str__`` or
    ``__repr__`` does (each is tried on its own, and may fail, even with a ``BaseException``)."""
    try:
        name = type(err).__name__
        name = _fit(name, 60) if isinstance(name, str) else "exception"
    except BaseException as failed:
        raise_unless_policys(failed)
        name = "exception"
    try:
        text = str(err)
    except BaseException as failed:
        raise_unless_policys(failed)
        try:
            text = repr(err)
        except BaseException as again:
            raise_unless_policys(again)
            text = "<its message can't be shown>"
    try:
        text = _fit(text, _TEXT_LIMIT)
    except BaseException as failed:
        raise_unless_policys(failed)
        text = "<its message can't be shown>"
    return f"{name}: {text}" if text else name


def raise_unless_policys(err: BaseException) -> None:
    """Raise again what came out of a policy's code but is not the policy's own failure, so
    that it stops what it is meant to stop; return if it is the policy's (its seat forfeits).

    Not the policy's: the runner's cancellation (``trio.Cancelled``, alone or in a group), and
    the operator's Ctrl-C. trio raises that as a ``KeyboardInterrupt`` from its SIGINT handler
    in whatever code runs when the signal comes (a policy's ``decide`` that holds the loop), or
    at a checkpoint: either way the innermost frame of its traceback is trio's own. A
    ``KeyboardInterrupt`` the policy raises itself has the policy's code there instead. If
    the policy raised something else while handling the operator's Ctrl-C, the Ctrl-C goes on.
    """
    interrupt = _operators_interrupt(err)
    if interrupt is not None:
        if interrupt is err:
            raise err
        raise interrupt from err
    if isinstance(err, trio.Cancelled):
        raise err
    if isinstance(err, BaseExceptionGroup) and err.subgroup(trio.Cancelled) is not None:
        raise err


_CHAIN_LIMIT = 100
"""Exceptions looked at for the operator's Ctrl-C (the chain and groups of a policy's error
could be made endless)."""


def _operators_interrupt(err: BaseException) -> KeyboardInterrupt | None:
    """The operator's Ctrl-C among ``err``, the exceptions it was raised while handling and
    the members of groups, if there is one (``raise_unless_policys``)."""
    seen: set[int] = set()
    todo: list[BaseException] = [err]
    while todo and len(seen) < _CHAIN_LIMIT:
        one = todo.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        if isinstance(one, KeyboardInterrupt) and _raised_by_trio(one):
            return one
        if isinstance(one, BaseExceptionGroup):
            todo.extend(one.exceptions)
        for linked in (one.__context__, one.__cause__):
            if isinstance(linked, BaseException):
                todo.append(linked)
    return None


def _raised_by_trio(err: BaseException) -> bool:
    """Whether the innermost frame of ``err``'s traceback is trio's (its SIGINT handler, or
    the checkpoint that delivers a pending Ctrl-C)."""
    tb = err.__traceback__
    if tb is None:
        return False
    for _ in range(10_000):  # a traceback is finite; the bound is for a forged one
        if tb.tb_next is None:
            break
        tb = tb.tb_next
    module = tb.tb_frame.f_globals.get("__name__")
    return isinstance(module, str) and (module == "trio" or module.startswith("trio."))


def _short(value: object) -> str:
    """A reply's repr, bounded, or a placeholder if its repr fails."""
    try:
        text = _fit(repr(value), 80)
    except BaseException as err:
        raise_unless_policys(err)
        try:
            text = f"a {_fit(type(value).__name__, 60)} whose repr fails"
        except BaseException as again:
            raise_unless_policys(again)
            text = "a reply whose repr fails"
    return text
