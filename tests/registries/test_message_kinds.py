"""Every message kind (the ``Message`` union; ``MESSAGE_TYPES`` is read off it, each class with
its ``ROUTES``, ``protocol/_messages.py``) against the codec, the tracer and each actor it is
routed to.

A message of each kind, with sample field values: encoded and decoded back to itself; written as a
trace line whose payload reads back as the message; and sent to the player actor, the stack actor,
the SBA checker and the coordinator where each waits for messages from its sender, each of which
must deal with it rather than drop or refuse it. The last tests add a kind to the registry and see
the codec and each receiver report it.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, get_args

import msgpack  # type: ignore[import-untyped]  # ships no type information
import orjson
import pytest
import trio

from spellstack.actors import (
    Coordinator,
    Link,
    SeatConfig,
    TraceRecord,
    TraceWriter,
    Wire,
    player_actor,
    sba_actor,
    stack_actor,
)
from spellstack.bots import RandomBot
from spellstack.cards import load_deck
from spellstack.protocol import (
    ACTORS,
    PROTOCOL_VERSION,
    AskPlayer,
    CheckSBA,
    DecisionRequest,
    Forfeit,
    Message,
    PlayerReply,
    PriorityRequest,
    RequestFullView,
    Resolve,
    Resolved,
    SBABatch,
    SetStops,
    Stops,
    SubmitAction,
    SubmitAnswer,
    ViewMirror,
    ViewTracker,
    _codec,
    _messages,
    decode,
    decode_trusted,
    encode,
    from_plain,
    to_wire,
)
from spellstack.rules import (
    Action,
    Answer,
    Choice,
    Decision,
    Game,
    PlayerView,
    Reply,
    default_answer,
    new_game,
    play_sync,
    player_ref,
    priority_decision,
    view_for,
)
from tests.registries.registry_samples import CARDS, NAMES, Missing, problem, sample_decision, sample_message, table


def message_types() -> Mapping[str, type]:
    """The registry as it stands now (a test may add a kind to it)."""
    return _messages.MESSAGE_TYPES


def raw_bytes(msg: Any) -> bytes:
    """``msg`` as ``encode`` would send it, for a kind ``encode`` was not built with too."""
    data: bytes = msgpack.packb({"k": msg.KIND, "v": PROTOCOL_VERSION, "b": to_wire(msg)},
                                use_bin_type=True)
    return data


def routed(receiver: str) -> dict[str, type]:
    """The message kinds routed to ``receiver``."""
    return {k: cls for k, cls in message_types().items()
            if any(to == receiver for _, to in getattr(cls, "ROUTES", ()))}


def codec_missing_messages() -> Missing:
    """The message kinds the codec can't carry: one of each encoded, then decoded (validated,
    and trusted) back to itself, under its own kind."""
    missing: Missing = {}
    for kind, cls in message_types().items():
        try:
            msg = sample_message(cls)
            data = encode(msg)
            assert msgpack.unpackb(data)["k"] == kind, "sent under another kind"
            assert decode(data) == msg, "decode changed it"
            assert decode_trusted(data) == msg, "decode_trusted changed it"
        except Exception as err:
            missing[kind] = problem(err)
    return missing


def tracer_missing() -> Missing:
    """The message kinds the tracer can't write: one of each, written as a trace line whose
    payload reads back (``from_plain``) as the message."""
    missing: Missing = {}
    for kind, cls in message_types().items():
        try:
            msg = sample_message(cls)
            stream = io.StringIO()
            TraceWriter(stream).message(TraceRecord("g1", 1, "coordinator", "player:alice", kind,
                                                    raw_bytes(msg)))
            line = orjson.loads(stream.getvalue())
            assert line["kind"] == kind
            assert from_plain(cls, line["payload"]) == msg, "the payload reads back differently"
        except Exception as err:
            missing[kind] = problem(err)
    return missing


def test_every_message_kind_has_routes_between_actors() -> None:
    for kind, cls in message_types().items():
        routes = cls.ROUTES  # type: ignore[attr-defined]
        assert routes, kind
        for sender, receiver in routes:
            assert sender in ACTORS and receiver in ACTORS and sender != receiver, (kind, sender, receiver)
    assert _messages.MESSAGE_TYPES == {cls.KIND: cls for cls in get_args(Message)}


def test_the_codec_carries_every_message_kind() -> None:
    missing = codec_missing_messages()
    assert not missing, f"the protocol codec does not carry message kinds {missing}"


def test_the_tracer_writes_every_message_kind() -> None:
    missing = tracer_missing()
    assert not missing, f"the tracer does not write message kinds {missing}"


# ---------------------------------------------------------------------- the player actor


class Recorder:
    """A policy that answers as the kernel would and records what reaches it."""

    def __init__(self, stops: Stops | None) -> None:
        self.stops = stops
        self.decided: list[Decision] = []
        self.notified: list[object] = []

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.decided.append(decision)
        return default_answer(decision)

    def notify(self, msg: object) -> None:
        self.notified.append(msg)


def player_probe(cls: type, game: Game, labels: Mapping[str, int]) -> Any:
    """A message of kind ``cls`` as the coordinator sends it to a player: requests carry a
    question of the table's game and a full view."""
    view = ViewTracker().update(view_for(game, 0))
    if cls is PriorityRequest:
        return PriorityRequest(priority_decision(game), view)
    if cls is DecisionRequest:
        return DecisionRequest(sample_decision(game, labels, "choose"), view)
    return sample_message(cls)


async def player_takes(cls: type, declaring: bool) -> bool:
    """Whether the player actor deals with a message of kind ``cls``: hands it to its policy (a
    request's question to ``decide``, anything else to ``notify``) or stops on it.
    ``declaring``: it comes while the actor waits for the reply to the stops it declared."""
    game, labels = table()
    opening = PriorityRequest(priority_decision(game), ViewTracker().update(view_for(game, 0)))
    probe = player_probe(cls, game, labels)
    to_player, inbox = trio.open_memory_channel[bytes](math.inf)
    out, from_player = trio.open_memory_channel[bytes](math.inf)
    policy = Recorder(Stops() if declaring else None)
    stopped = False

    async def play() -> None:
        nonlocal stopped
        try:
            await player_actor(policy, Link(Wire("g1", None), "player:alice", "coordinator", out, inbox, True))
            stopped = True
        except trio.EndOfChannel:
            pass  # it waited for more: the probe did not end it

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play)
        if declaring:
            to_player.send_nowait(encode(opening))
            assert isinstance(decode_trusted(await from_player.receive()), SetStops)
        to_player.send_nowait(raw_bytes(probe))
        await to_player.aclose()
    reached = probe in policy.notified or any(d == getattr(probe, "decision", None) for d in policy.decided)
    return reached or stopped


async def player_missing() -> Missing:
    """The kinds routed to players that the player actor drops, whether it waits for a request
    or for the acknowledgement of its stops."""
    missing: Missing = {}
    for kind, cls in routed("player").items():
        if not (await player_takes(cls, False) or await player_takes(cls, True)):
            missing[kind] = "dropped: it reached neither the policy nor ended the actor"
    return missing


async def test_the_player_actor_takes_every_kind_sent_to_players() -> None:
    missing = await player_missing()
    assert not missing, f"the player actor does not handle message kinds {missing}"


# ---------------------------------------------------------------------- the stack actor and SBA checker

STACK_SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {"hand": ["Mind Rot"], "battlefield": ["Swamp", "Swamp", "Swamp"]},
    "bob": {"hand": ["Forest", "Forest", "Forest"]},
}
"""Mind Rot on its way to the stack: resolving it asks bob which cards to discard."""
SBA_SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {"battlefield": ["Isamaru, Hound of Konda", "Isamaru, Hound of Konda"]},
}
"""Two legends of one name: the state-based action check asks alice which to keep (704.5j)."""


def stack_game() -> Game:
    """The stack table with Mind Rot, targeting bob, on the stack and about to resolve."""
    game, _ = table(STACK_SETUP)

    def answer(decision: Decision) -> Reply:
        for option in decision.actions:
            if option.kind == "cast":
                return Action("cast", option.object_id, targets=(player_ref(1),))
        return default_answer(decision)

    play_sync(game, answer, max_tasks=100, until=lambda g, task: task == "resolve")
    assert [game.state.objects[i].name for i in game.state.stack] == ["Mind Rot"]
    return game


KernelActor = Callable[[Game, Link], Awaitable[None]]
KERNEL_ACTORS: dict[str, tuple[KernelActor, Callable[[], Game], Callable[[Game], Any]]] = {
    "stack": (stack_actor, stack_game, lambda game: Resolve(game.state.stack[-1])),
    "sba": (sba_actor, lambda: table(SBA_SETUP)[0], lambda game: CheckSBA()),
}
"""Each kernel actor, a game in which its work asks a player something, and its request."""


def kernel_probe(cls: type, game: Game, request: Any, asked: AskPlayer | None) -> Any:
    """A message of kind ``cls`` as the coordinator sends it to a kernel actor: its request, or
    a reply to the question it asked."""
    if type(request) is cls:
        return request
    if cls is PlayerReply and asked is not None:
        return PlayerReply(default_answer(asked.decision))  # type: ignore[arg-type]
    return sample_message(cls)


async def kernel_actor_takes(actor: str, cls: type, asking: bool) -> str:
    """``""`` if the kernel actor ``actor`` goes on with its work after a message of kind
    ``cls`` (it answers the coordinator), else what it did instead. ``asking``: the message
    comes while the actor waits for the answer to the question it asked."""
    run, make_game, make_request = KERNEL_ACTORS[actor]
    game = make_game()
    request = make_request(game)
    to_actor, inbox = trio.open_memory_channel[bytes](math.inf)
    out, from_actor = trio.open_memory_channel[bytes](math.inf)
    failure: list[str] = []

    async def work() -> None:
        try:
            await run(game, Link(Wire("g1", None), actor, "coordinator", out, inbox, True))
        except Exception as err:  # it refused the message (or ran out of them: trio.EndOfChannel)
            failure.append(problem(err))
        await out.aclose()

    asked: AskPlayer | None = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(work)
        if asking:
            to_actor.send_nowait(encode(request))
            first = decode_trusted(await from_actor.receive())
            assert isinstance(first, AskPlayer), first
            asked = first
        to_actor.send_nowait(raw_bytes(kernel_probe(cls, game, request, asked)))
        await to_actor.aclose()
        try:
            reply = decode_trusted(await from_actor.receive())
        except trio.EndOfChannel:
            return failure[0] if failure else "no reply"
        nursery.cancel_scope.cancel()
    return "" if reply is not None else "no reply"


async def kernel_actor_missing(actor: str) -> Missing:
    """The kinds routed to ``actor`` that it refuses, whether it waits for a request or for the
    answer to a question it asked."""
    missing: Missing = {}
    for kind, cls in routed(actor).items():
        idle = await kernel_actor_takes(actor, cls, False)
        if idle and (asking := await kernel_actor_takes(actor, cls, True)):
            missing[kind] = f"waiting for a request: {idle}; waiting for an answer: {asking}"
    return missing


@pytest.mark.parametrize("actor", sorted(KERNEL_ACTORS))
async def test_the_kernel_actors_take_every_kind_sent_to_them(actor: str) -> None:
    missing = await kernel_actor_missing(actor)
    assert not missing, f"the {actor} actor does not handle message kinds {missing}"


# ---------------------------------------------------------------------- the coordinator


CONTEXTS: dict[str, tuple[str, ...]] = {
    "player": ("priority", "decision"),
    "stack": ("stack",),
    "sba": ("sba",),
}
"""Where the coordinator waits for a message from each sender: a seat's open priority request
or question, the stack actor's resolution, the SBA checker's check."""


def coordinator_probe(cls: type, opening: Any) -> Any:
    """A message of kind ``cls`` as its sender sends it to the coordinator, in reply to
    ``opening`` (the request to the seat, or Resolve, or CheckSBA)."""
    decision = getattr(opening, "decision", None)
    if cls is SubmitAction and decision is not None:
        return SubmitAction(decision.id, Action("pass"))
    if cls is SubmitAnswer and decision is not None:
        answer = default_answer(decision)
        return SubmitAnswer(answer if isinstance(answer, Answer) else Answer(decision.id))
    if cls is RequestFullView and decision is not None:
        return RequestFullView(decision.id)
    if cls is SetStops:
        return SetStops(Stops())
    if cls is Forfeit:
        return Forfeit("the probe leaves")
    if cls is Resolved and isinstance(opening, Resolve):
        return Resolved(opening.object_id, "probe", ())
    if cls is SBABatch:
        return SBABatch(0)
    if cls is AskPlayer:
        return AskPlayer(Decision(10**6, 0, "yes_no", "608.2d: Probe: you may draw",
                                  (Choice(1, 0, "yes"), Choice(0, 0, "no")), min=1, max=1))
    return sample_message(cls)


@dataclass
class Probe:
    """One probe of the coordinator: where it waits, and what it was sent there."""

    context: str
    cls: type
    seq: int | None = None
    """The wire's number when the probe was sent: later records are the coordinator's reaction."""
    done: trio.Event = dataclasses.field(default_factory=trio.Event)

    async def send(self, link: Link, opening: Any) -> None:
        self.seq = link.wire.seq
        await link.send_bytes(raw_bytes(coordinator_probe(self.cls, opening)))


async def _raw_seat(link: Link, probe: Probe) -> None:
    """Alice, answering as a RandomBot until the request the probe waits for (one with a view
    delta, so that asking for the full view is in place), where it sends the probe instead."""
    bot, mirror = RandomBot(3), ViewMirror()
    while True:
        msg = await link.receive()
        if not isinstance(msg, PriorityRequest | DecisionRequest):
            continue
        view = mirror.apply(msg.view)
        kind = "priority" if isinstance(msg, PriorityRequest) else "decision"
        if kind == probe.context and not msg.view.full and probe.seq is None:
            await probe.send(link, msg)
            return
        reply = bot.decide(view, msg.decision)
        await link.send(SubmitAction(msg.decision.id, reply) if isinstance(reply, Action) else SubmitAnswer(reply))


async def _kernel_peer(link: Link, probe: Probe) -> None:
    """The stack actor or SBA checker, sending the probe in reply to its first request."""
    await probe.send(link, await link.receive())


async def coordinator_takes(cls: type, context: str) -> str:
    """``""`` if the coordinator deals with a message of kind ``cls`` sent where it waits in
    ``context``, else what it did instead: an ErrorReply to the seat (a message out of place),
    or an exception (one from a kernel actor)."""
    deck = load_deck("gruul", CARDS).cards
    game = new_game(CARDS, [(name, deck) for name in NAMES], 5)
    trace_in, trace = trio.open_memory_channel[TraceRecord](math.inf)
    wire = Wire("g1", trace_in)
    ends = [Link.pair(wire, "coordinator", f"player:{name}") for name in NAMES]
    stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
    sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
    coordinator = Coordinator(game, [c for c, _ in ends], [SeatConfig(auto_pass=False), SeatConfig()],
                              stack_c, sba_c)
    probe = Probe(context, cls)
    seat = context in ("priority", "decision")
    reaction: list[str] = []
    """What the coordinator's first message after the probe says of it."""
    ended: list[str] = []
    """How the coordinator stopped, if it did: "" or the exception."""

    def note(rec: TraceRecord) -> None:
        if (probe.seq is not None and rec.seq > probe.seq and rec.sender == "coordinator"
                and (not seat or rec.receiver == "player:alice")):
            reaction.append("answered with an ErrorReply: out of place" if rec.kind == "ErrorReply" else "")
            probe.done.set()

    async def coordinate() -> None:
        try:
            await coordinator.run()
            ended.append("")
        except Exception as err:
            ended.append(problem(err))
        probe.done.set()

    async def watch() -> None:
        async for rec in trace:
            note(rec)
            if reaction:
                return

    with trio.move_on_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(coordinate)
            nursery.start_soon(watch)
            if seat:
                nursery.start_soon(_raw_seat, ends[0][1], probe)
            else:
                nursery.start_soon(player_actor, RandomBot(3), ends[0][1])
            nursery.start_soon(player_actor, RandomBot(4), ends[1][1])
            if context == "stack":
                nursery.start_soon(_kernel_peer, stack_a, probe)
            else:
                nursery.start_soon(stack_actor, game, stack_a)
            if context == "sba":
                nursery.start_soon(_kernel_peer, sba_a, probe)
            else:
                nursery.start_soon(sba_actor, game, sba_a)
            await probe.done.wait()
            nursery.cancel_scope.cancel()
    if probe.seq is None:
        return f"the game never reached a {context} wait"
    while not reaction:  # records the watcher had not read when the coordinator stopped
        try:
            rec = trace.receive_nowait()
        except (trio.WouldBlock, trio.EndOfChannel):
            break
        note(rec)
    if reaction:
        return reaction[0]
    return ended[0] if ended else "no reaction within 60 s"


async def coordinator_missing() -> Missing:
    """The kinds routed to the coordinator that it treats as out of place wherever their
    sender sends them."""
    missing: Missing = {}
    for kind, cls in routed("coordinator").items():
        senders = {sender for sender, to in cls.ROUTES if to == "coordinator"}  # type: ignore[attr-defined]
        problems = []
        for context in (c for sender in sorted(senders) for c in CONTEXTS[sender]):
            problem = await coordinator_takes(cls, context)
            if not problem:
                break
            problems.append(f"{context}: {problem}")
        else:
            missing[kind] = "; ".join(problems)
    return missing


async def test_the_coordinator_takes_every_kind_sent_to_it() -> None:
    missing = await coordinator_missing()
    assert not missing, f"the coordinator does not handle message kinds {missing}"


# ---------------------------------------------------------------------- the checks can fail


def _fake_message(routes: tuple[tuple[str, str], ...], field_type: Any = str) -> type:
    """A message class the actors were not written for."""

    @dataclass(frozen=True, slots=True)
    class Ping:
        KIND: ClassVar[str] = "Ping"
        ROUTES: ClassVar[tuple[tuple[str, str], ...]] = routes
        note: field_type  # type: ignore[valid-type]

    Ping.__annotations__["note"] = field_type  # a real type for get_type_hints, not a string
    return Ping


def test_a_new_message_kind_the_codec_cant_carry_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    ping = _fake_message((("coordinator", "player"),), frozenset[int])
    monkeypatch.setitem(_messages.MESSAGE_TYPES, "Ping", ping)
    monkeypatch.setitem(_codec._KIND_OF, ping, "Ping")
    assert set(codec_missing_messages()) == {"Ping"}


@pytest.mark.parametrize("receiver", ["player", "stack", "sba", "coordinator"])
async def test_a_new_message_kind_is_reported_by_its_receiver(receiver: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    sender = "player" if receiver == "coordinator" else "coordinator"
    monkeypatch.setitem(_messages.MESSAGE_TYPES, "Ping", _fake_message(((sender, receiver),)))
    check = {"player": player_missing, "coordinator": coordinator_missing}.get(receiver)
    missing = await (check() if check is not None else kernel_actor_missing(receiver))
    assert set(missing) == {"Ping"}
