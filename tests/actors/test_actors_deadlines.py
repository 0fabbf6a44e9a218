"""One deadline per player decision.

design.md: "a player decision has one deadline". The time limit of a seat (``SeatConfig.timeout``)
starts when its request is sent and covers sending it, any error replies and requests sent
again, settings (``SetStops``) and receiving the answer; a seat that misses it forfeits, for
not answering or for not reading, whichever it was doing. Time is virtual
(``autojump_clock``): waiting costs nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio

from spellstack.actors import (
    Coordinator,
    GameResult,
    Link,
    SeatConfig,
    Wire,
    play_one_game,
    player_actor,
    sba_actor,
    stack_actor,
)
from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.protocol import (
    Accepted,
    ErrorReply,
    Message,
    PriorityRequest,
    Rejected,
    SetStops,
    Stops,
    StopsSet,
    SubmitAction,
    decode,
    encode,
)
from spellstack.rules import Action, Answer, Decision, PlayerView, Reply, new_game

CARDS = load_cards()
NAMES = ("alice", "bob")
TIMEOUT = 10.0


async def _with_raw_alice(body: Callable[[Link], Awaitable[None]]) -> GameResult:
    """A game whose alice is the test, talking bytes (asked at every grant of priority); bob is
    a RandomBot. Returns the result once the game is over."""
    deck = load_deck("gruul", CARDS).cards
    game = new_game(CARDS, [(NAMES[0], deck), (NAMES[1], deck)], 7)
    wire = Wire("g1", None)
    ends = [Link.pair(wire, "coordinator", f"player:{n}") for n in NAMES]
    stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
    sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
    configs = [SeatConfig(auto_pass=False, timeout=TIMEOUT), SeatConfig(timeout=TIMEOUT)]
    coord = Coordinator(game, [e[0] for e in ends], configs, stack_c, sba_c)
    done = trio.Event()

    async def coordinate() -> None:
        await coord.run()
        done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(player_actor, RandomBot(5), ends[1][1])
        nursery.start_soon(stack_actor, game, stack_a)
        nursery.start_soon(sba_actor, game, sba_a)
        nursery.start_soon(coordinate)
        await body(ends[0][1])
        await done.wait()
        nursery.cancel_scope.cancel()
    return coord.result


async def _receive(link: Link) -> Message:
    return decode(await link.inbox.receive())


def _forfeited(result: GameResult, reason: str) -> None:
    assert result.forfeits == [("alice", reason)]
    assert result.winner == "bob"


async def test_a_re_ask_does_not_restart_the_time_limit(autojump_clock: Any) -> None:
    times: list[float] = []

    async def body(alice: Link) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        start = trio.current_time()
        await trio.sleep(0.6 * TIMEOUT)
        await alice.out.send(b"\xc1")  # malformed: an error reply and the request again
        assert isinstance(await _receive(alice), ErrorReply)
        again = await _receive(alice)
        assert isinstance(again, PriorityRequest) and again.decision == req.decision
        await trio.sleep(0.6 * TIMEOUT)  # in time after the re-ask, too late for the decision
        times.append(trio.current_time() - start)
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))

    result = await _with_raw_alice(body)
    assert times[0] > TIMEOUT
    _forfeited(result, f"no answer within {TIMEOUT:g} s")


async def test_settings_do_not_extend_the_time_limit(autojump_clock: Any) -> None:
    async def body(alice: Link) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        stops = Stops(my_turn=("precombat_main",))
        for _ in range(2):
            await trio.sleep(0.4 * TIMEOUT)
            await alice.out.send(encode(SetStops(stops)))
            assert await _receive(alice) == StopsSet(stops)
        # Each message well within the time limit of the one before, together past it.
        await trio.sleep(0.4 * TIMEOUT)
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))

    _forfeited(await _with_raw_alice(body), f"no answer within {TIMEOUT:g} s")


async def test_a_seat_that_stops_reading_forfeits_for_not_reading(autojump_clock: Any) -> None:
    async def body(alice: Link) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))
        # Alice reads nothing more: her Accepted fills the channel, so the next request to
        # her can't be sent.

    _forfeited(await _with_raw_alice(body), f"did not read its messages within {TIMEOUT:g} s")


async def test_an_answer_in_time_is_taken(autojump_clock: Any) -> None:
    async def body(alice: Link) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        await trio.sleep(0.9 * TIMEOUT)
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))
        assert await _receive(alice) == Accepted(req.decision.id)
        await player_actor(RandomBot(11), alice)  # plays the game out

    result = await _with_raw_alice(body)
    assert result.forfeits == []


class Slow:
    """A RandomBot that takes most of its time limit over every decision."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.answered = 0

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        await trio.sleep(0.9 * TIMEOUT)
        self.answered += 1
        return self.inner.decide(view, decision)


@pytest.mark.slow
async def test_the_time_limit_is_per_decision_not_per_game(autojump_clock: Any) -> None:
    bots = [Slow(1), Slow(2)]
    configs = [SeatConfig(timeout=TIMEOUT)] * 2
    start = trio.current_time()
    _, result = await play_one_game(["gruul", "orzhov"], bots, 3, names=list(NAMES), configs=configs)
    assert result.forfeits == []
    assert result.decisions == sum(b.answered for b in bots) > 10
    assert trio.current_time() - start > 10 * TIMEOUT


async def test_refused_actions_do_not_restart_the_grant_s_time_limit(autojump_clock: Any) -> None:
    asked: list[int] = []

    async def body(alice: Link) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        for _ in range(2):
            asked.append(req.decision.id)
            await trio.sleep(0.45 * TIMEOUT)
            # Refused (no object has an id below 100): the same grant is asked again.
            await alice.out.send(encode(SubmitAction(req.decision.id, Action("play", 99))))
            assert isinstance(await _receive(alice), Rejected)
            req = await _receive(alice)
            assert isinstance(req, PriorityRequest)
        # In time after this request, too late for the grant.
        await trio.sleep(0.45 * TIMEOUT)
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))
        reply = None
        with trio.move_on_after(2 * TIMEOUT):  # a forfeited seat is sent nothing more
            reply = await _receive(alice)
        if reply == Accepted(req.decision.id):
            await player_actor(RandomBot(11), alice)  # taken: play the game out

    result = await _with_raw_alice(body)
    assert len(set(asked)) == 2  # each refusal came in time after its own request
    _forfeited(result, f"no answer within {TIMEOUT:g} s")


class SlowToAnswerRight:
    """A RandomBot that, at its first question other than priority, takes most of its time
    limit to answer wrongly, then most of it again to answer right."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.wrong: int | None = None

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind == "priority" or self.wrong not in (None, decision.id):
            return self.inner.decide(view, decision)
        await trio.sleep(0.6 * TIMEOUT)
        if self.wrong is None:
            self.wrong = decision.id
            return Answer(decision.id, keys=(9999,), pairs=((9999, 9999),))
        return self.inner.decide(view, decision)


async def test_a_rejected_answer_does_not_restart_the_decision_s_time_limit(
        autojump_clock: Any) -> None:
    bot = SlowToAnswerRight(1)
    configs = [SeatConfig(timeout=TIMEOUT)] * 2
    _, result = await play_one_game(["gruul", "orzhov"], [bot, RandomBot(2)], 3,
                                    names=list(NAMES), configs=configs)
    assert bot.wrong is not None
    _forfeited(result, f"no answer within {TIMEOUT:g} s")
