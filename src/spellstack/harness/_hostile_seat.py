"""A hostile client: the stream's messages (``HostileStream``) sent to the coordinator.

Two ways to use it. ``run_hostile_seat`` is a raw seat: it talks bytes over a seat's channel
ends, so every mutation (random bytes, truncations, wrong types, out-of-range values, ids
from every zone, player refs of absent seats, actions out of turn, messages nobody asked
for) crosses the channel exactly as a hostile program's would. ``HostileBot`` is a policy
for a real player actor: only the mutations that are an Action or an Answer (a player actor
encodes whatever its policy returns).

Either way the stream keeps its seat below the coordinator's forfeit limits (``ForfeitGuard``
counts as the coordinator does), so that most mutated messages decode and reach the kernel's
checks instead of ending the game at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import msgpack  # type: ignore[import-untyped]  # ships no type information

from ..actors import MAX_REJECTIONS, MAX_STRIKES, Client, Link, ReceiveEnd, SendEnd, Wire
from ..protocol import (
    Accepted,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    GameOver,
    Message,
    PriorityRequest,
    Rejected,
    SubmitAction,
    ViewMirror,
    decode,
    encode,
    from_wire,
)
from ..rules import FIRST_OBJECT_ID, Action, Decision, Game, PlayerView, Reply
from ..seats import SeatHello
from ._hostile import HOSTILE_KINDS, NO_DELTA, HostileStream, Outgoing, submission
from ._hostile_bombs import BombCycle

__all__ = ["ForfeitGuard", "HostileBot", "HostileSeat", "decode_incoming", "run_hostile_seat"]


class ForfeitGuard:
    """Counts, as the coordinator does, how close a seat is to forfeiting: malformed or
    out-of-place messages in a row (any ErrorReply; reset only by an accepted action or
    answer, never by a refused one) and illegal actions or answers in a row (priority
    rejections reset only by an accepted action; answer rejections count per decision)."""

    def __init__(self) -> None:
        self.strikes = 0
        """ErrorReplies in a row."""
        self.priority_rejections = 0
        """Rejected priority actions since the last accepted one."""
        self.answer_rejections = 0
        """Rejected answers to the current decision."""
        self.answer_decision = -1
        """The decision ``answer_rejections`` counts for."""

    def update(self, reply: Message, context: str, decision_id: int) -> str:
        """Count a reply given for a ``context`` (``priority`` or ``decision``) request; returns
        the forfeit the coordinator's rules now call for, or an empty string."""
        if isinstance(reply, ErrorReply):
            self.strikes += 1
            return "strikes" if self.strikes >= MAX_STRIKES else ""
        if context == "priority":
            if isinstance(reply, Rejected):
                self.priority_rejections += 1
                return "rejections" if self.priority_rejections >= MAX_REJECTIONS else ""
            self.strikes = self.priority_rejections = 0
            return ""
        if isinstance(reply, Rejected):
            if self.answer_decision != decision_id:
                self.answer_decision, self.answer_rejections = decision_id, 0
            self.answer_rejections += 1
            return "rejections" if self.answer_rejections >= MAX_REJECTIONS else ""
        self.strikes = 0
        return ""

    def safe(self, context: str, decision_id: int, margin: int = 1) -> bool:
        """Whether one more refused message leaves the seat at least ``margin`` below both
        limits."""
        if self.strikes + margin >= MAX_STRIKES:
            return False
        if context == "priority":
            return self.priority_rejections + margin < MAX_REJECTIONS
        used = self.answer_rejections if self.answer_decision == decision_id else 0
        return used + margin < MAX_REJECTIONS


def decode_incoming(data: bytes, *, full: bool) -> Message:
    """Decode a message from the coordinator. Unless ``full``, a request's view is skipped:
    the stream then reads ids from the game itself, and the legal bot needs only the
    decision (decoding views is most of a client's cost)."""
    if not full:
        raw = msgpack.unpackb(data, raw=False)
        if raw.get("k") in ("PriorityRequest", "DecisionRequest"):
            decision = from_wire(Decision, raw["b"]["decision"])
            cls = PriorityRequest if raw["k"] == "PriorityRequest" else DecisionRequest
            return cls(decision, NO_DELTA)
    return decode(data)


async def run_hostile_seat(
    stream: HostileStream,
    inbox: ReceiveEnd[bytes],
    out: SendEnd[bytes],
    *,
    on_send: Callable[[Outgoing], None] | None = None,
    on_reply: Callable[[Message, str, str], None] | None = None,
    quota: Callable[[], bool] = lambda: True,
    leave_at: int = 0,
    leave_how: str = "",
) -> int:
    """Play one seat as a hostile program: read every message from ``inbox`` and answer
    requests on ``out`` with the stream's messages, one at a time (each waits for its reply).
    Returns the number of messages sent; returns at GameOver.

    ``on_send(outgoing)`` is called before each message is sent; ``on_reply(reply, context,
    forfeit)`` for each reply, with the request kind it answered (``priority``/``decision``)
    and the forfeit the coordinator's rules call for after it (``strikes``, ``rejections``
    or ``""``). ``quota()``: whether mutations are still wanted. ``leave_at``/``leave_how``:
    at that message number, leave on purpose (``strikes``: malformed messages until forfeited;
    ``rejections``: illegal actions until forfeited; ``forfeit``: a Forfeit message;
    ``concede``: a concession; ``bombs``: object-count bombs alternating with refused actions
    until forfeited, ``BombCycle``).
    """
    guard = ForfeitGuard()
    mirror = ViewMirror()
    request: PriorityRequest | DecisionRequest | None = None
    awaiting = False
    sent = 0
    leaving = False
    cycle = BombCycle(stream.rng)

    async def send(item: Outgoing) -> None:
        nonlocal sent, awaiting
        sent += 1
        awaiting = True
        if on_send is not None:
            on_send(item)
        await out.send(item.data)

    while True:
        msg = decode_incoming(await inbox.receive(), full=stream.game is None)
        if isinstance(msg, GameOver):
            return sent
        if isinstance(msg, PriorityRequest | DecisionRequest):
            request = msg
            if msg.view is not None and msg.view is not NO_DELTA:
                stream.view = mirror.apply(msg.view)
            if awaiting:
                continue  # an unsolicited message is being read as the answer to this one
        elif isinstance(msg, Accepted | Rejected | ErrorReply):
            awaiting = False
            context = "priority" if isinstance(request, PriorityRequest) else "decision"
            rid = request.decision.id if request is not None else -1
            forfeit = guard.update(msg, context, rid)
            if on_reply is not None:
                on_reply(msg, context, forfeit)
            if forfeit:
                leaving = False
            if (isinstance(msg, Accepted) and request is not None and quota() and not leaving
                    and guard.safe("decision", -2, margin=2) and stream.chance(0.03)):
                await send(stream.unsolicited(request))
            continue
        else:
            continue
        if leave_at and sent + 1 >= leave_at and not leaving and leave_how:
            leaving = True
            if leave_how == "forfeit":
                await send(Outgoing("leave", encode(Forfeit("the hostile client leaves"))))
                return sent
            if leave_how == "concede" and isinstance(request, PriorityRequest):
                await send(Outgoing("leave", encode(SubmitAction(request.decision.id,
                                                                 Action("concede")))))
                continue
            if leave_how == "concede":
                leaving = False
        if leaving and leave_how == "strikes":
            await send(Outgoing("random_bytes", b"\xc1"))
            continue
        if leaving and leave_how == "bombs":
            if not cycle.started and guard.strikes:
                # The legal reply first, so that the cycle starts with no malformed message
                # counted: its third bomb is the one that forfeits.
                await send(stream.next_message(request, False))
                continue
            cycle.started = True
            legal = submission(request, stream.legal_reply(request))
            await send(Outgoing(*cycle.next(request, legal)))
            continue
        if leaving and leave_how == "rejections" and isinstance(request, PriorityRequest):
            # No object has an id below FIRST_OBJECT_ID: refused every time.
            await send(Outgoing("out_of_turn", encode(SubmitAction(
                request.decision.id, Action("play", FIRST_OBJECT_ID - 1)))))
            continue
        ctx = "priority" if isinstance(request, PriorityRequest) else "decision"
        allow = quota() and guard.safe(ctx, request.decision.id)
        await send(stream.next_message(request, allow))


# ---------------------------------------------------------------------- the policy


class HostileBot:
    """A policy that answers most decisions with a hostile Action or Answer of every kind in
    ``HOSTILE_KINDS`` (illegal targets, player refs of absent seats, ids from every zone and
    of vanished objects, boundary ints, wrong types, stale decision ids, actions out of turn),
    and legally often enough to stay below the forfeit limits. ``sent`` counts each kind."""

    def __init__(self, seed: int, game: Game | None = None, rate: float = 0.75) -> None:
        self.stream = HostileStream(seed, game=game, rate=rate, kinds=HOSTILE_KINDS)
        self.stream.encodable = True
        self.guard = ForfeitGuard()
        self.sent: dict[str, int] = {}
        """Replies returned, by kind (``legal`` included)."""
        self._context = "priority"
        self._decision = -1

    def notify(self, reply: Message) -> None:
        """Count the coordinator's reply (the player actor passes it on)."""
        self.guard.update(reply, self._context, self._decision)

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """A hostile reply while that is safe, else the legal one."""
        self._context = "priority" if decision.kind == "priority" else "decision"
        self._decision = decision.id
        self.stream.view = view
        request: PriorityRequest | DecisionRequest = (
            PriorityRequest(decision, NO_DELTA) if decision.kind == "priority"
            else DecisionRequest(decision, NO_DELTA))
        legal = self.stream.legal_reply(request)
        kind = "legal"
        reply = legal
        if self.guard.safe(self._context, decision.id) and self.stream.chance(self.stream.rate):
            kind = self.stream.rng.choice(HOSTILE_KINDS)
            for _ in range(8):
                reply = self.stream.mutate(kind, request, legal)
                try:  # the player actor forfeits the seat for a reply it can't encode
                    encode(submission(request, reply))
                    break
                except Exception:
                    reply = legal
            else:
                kind = "legal"
        self.sent[kind] = self.sent.get(kind, 0) + 1
        return reply


# ---------------------------------------------------------------------- the seat


@dataclass(frozen=True)
class HostileSeat:
    """The hostile client as a seat of a game (a ``spellstack.seats.Seat``): a ``Client`` that
    ``run_hostile_seat`` plays over the seat's link with ``stream``'s messages (the other
    fields are that function's)."""

    stream: HostileStream
    """Where its messages come from."""
    link: Callable[[Wire, str, str], tuple[Link, Link]] = Link.pair
    """Makes the seat's link (``Client.link``: the fuzz's coordinator end watches what crosses)."""
    on_send: Callable[[Outgoing], None] | None = None
    """Called before each message is sent."""
    quota: Callable[[], bool] = lambda: True
    """Whether mutations are still wanted."""
    leave_at: int = 0
    """The message number at which it leaves on purpose (0: never)."""
    leave_how: str = ""
    """How it leaves then (``run_hostile_seat``)."""

    def player(self, hello: SeatHello) -> Client:
        """The client playing the seat in the game ``hello`` describes."""

        async def play(link: Link) -> None:
            await run_hostile_seat(self.stream, link.inbox, link.out, on_send=self.on_send, quota=self.quota,
                                   leave_at=self.leave_at, leave_how=self.leave_how)

        return Client(play, self.link)
