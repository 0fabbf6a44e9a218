"""Views travel as deltas (design.md): the player actor rebuilds the exact view of the moment
from each request, a client may ask for the full view, and after an error reply the request
comes again with the full view."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import trio

from spellstack.actors import (
    Link,
    SeatConfig,
    TraceRecord,
    Wire,
    play_game,
    player_actor,
)
from spellstack.bots import RandomBot
from spellstack.protocol import (
    Accepted,
    DecisionRequest,
    ErrorReply,
    PriorityRequest,
    RequestFullView,
    SubmitAction,
    ViewDelta,
    ViewMirror,
    ViewTracker,
    decode,
)
from spellstack.rules import Action, Decision, Game, PlayerView, Reply, view_for
from spellstack.testing import deck_game
from tests.actors.hostile_table import Table, run_table

NAMES = ("alice", "bob")


@dataclass
class Checking:
    """A RandomBot that checks each view it is given against ``view_for`` at that moment (the
    coordinator waits for the answer, so the state is the one the request was built from)."""

    game: Game
    seat: int
    inner: RandomBot
    views: int = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        assert view == view_for(self.game, self.seat)
        self.views += 1
        return self.inner.decide(view, decision)


async def test_every_view_a_policy_gets_is_exactly_the_view_of_that_moment() -> None:
    deltas = fulls = 0
    for seed in range(1, 7):
        decks = ("gruul", "orzhov") if seed % 2 else ("orzhov", "gruul")
        game = deck_game(*decks, names=NAMES, seed=seed)
        bots = [Checking(game, s, RandomBot(seed * 10 + s)) for s in range(2)]
        send, recv = trio.open_memory_channel[TraceRecord](math.inf)
        configs = [SeatConfig(auto_pass=seed % 3 != 0), SeatConfig()]
        result = await play_game(game, bots, configs=configs, trace=send)
        assert result.forfeits == [] and result.winner in NAMES
        assert all(b.views for b in bots)
        send.close()
        async for rec in recv:
            if rec.kind in ("PriorityRequest", "DecisionRequest"):
                msg = decode(rec.data)
                assert isinstance(msg, PriorityRequest | DecisionRequest)
                fulls += msg.view.full
                deltas += not msg.view.full
    assert fulls == 12  # the first request to each seat of each game, and no other
    assert deltas > 20 * fulls


# --------------------------------------------------------------------------- a raw client


def _run(body: Callable[[Table], Awaitable[None]]) -> Awaitable[Table]:
    """A gruul-orzhov game whose seat 0 (auto-pass off) is held by ``body``; bob is a RandomBot."""
    return run_table(body, seed=7, decks=("gruul", "orzhov"))


async def _pass(t: Table, req: PriorityRequest | DecisionRequest) -> None:
    assert isinstance(req, PriorityRequest)
    await t.send(SubmitAction(req.decision.id, Action("pass")))
    assert await t.receive() == Accepted(req.decision.id)


async def test_a_client_that_asks_for_the_full_view_gets_it() -> None:
    async def body(t: Table) -> None:
        mirror = ViewMirror()
        first = await t.request()
        assert first.view.full and first.view.number == 1
        mirror.apply(first.view)
        await _pass(t, first)
        second = await t.request()
        assert not second.view.full and second.view.base == 1
        mirror.apply(second.view)
        await t.send(RequestFullView(second.decision.id))
        again = await t.request()
        assert again.decision == second.decision
        assert again.view.full and again.view.number == 3
        assert mirror.apply(again.view) == ViewMirror().apply(again.view) == view_for(t.game, 0)
        # Asking twice for the same request, or for another decision, is out of place; the
        # request stays open.
        await t.send(RequestFullView(second.decision.id))
        assert isinstance(reply := await t.receive(), ErrorReply)
        assert "sent already" in reply.reason
        await t.send(RequestFullView(second.decision.id + 5))
        assert isinstance(reply := await t.receive(), ErrorReply)
        assert f"decision {second.decision.id} is pending" in reply.reason
        await _pass(t, again)
        third = await t.request()
        assert third.view.base == 3  # deltas go on from the full view sent last
        mirror.apply(third.view)
        assert mirror.view == view_for(t.game, 0)
        await _pass(t, third)
        result = await t.finish_with_bot(3)
        assert result.forfeits == []

    await _run(body)


async def test_after_an_error_reply_the_request_comes_again_with_the_full_view() -> None:
    async def body(t: Table) -> None:
        mirror = ViewMirror()
        first = await t.request()
        mirror.apply(first.view)
        await _pass(t, first)
        second = await t.request()
        assert not second.view.full
        await t.send_raw(b"\xc1")  # not msgpack
        assert isinstance(await t.receive(), ErrorReply)
        again = await t.request()
        assert again.decision == second.decision and again.view.full
        assert ViewMirror().apply(again.view) == view_for(t.game, 0)
        await _pass(t, again)
        # The seat's next player actor holds no view yet: it asks for the full view, and plays.
        result = await t.finish_with_bot(3)
        assert result.forfeits == []

    await _run(body)


# --------------------------------------------------------------------------- the player actor


@dataclass
class Recorder:
    views: list[PlayerView] = field(default_factory=list)

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.views.append(view)
        return Action("pass")


async def test_the_player_actor_asks_for_the_full_view_when_a_delta_does_not_apply() -> None:
    game = deck_game("gruul", "orzhov", names=NAMES, seed=3)
    coord, player = Link.pair(Wire("g1", None), "coordinator", "player:alice")
    tracker = ViewTracker()
    view = view_for(game, 0)
    full = tracker.update(view)
    decision = Decision(4, 0, "priority", "You have priority.", actions=())
    stray = ViewDelta(9, 8, 0, view.turn, view.step, view.active, view.priority)
    bot = Recorder()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(player_actor, bot, player)
            await coord.send(PriorityRequest(decision, stray))
            assert await coord.receive() == RequestFullView(4)
            assert bot.views == []
            await coord.send(PriorityRequest(decision, full))
            assert await coord.receive() == SubmitAction(4, Action("pass"))
            assert bot.views == [view]
            nursery.cancel_scope.cancel()
