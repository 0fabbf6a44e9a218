"""Priority requests without a view (``SeatConfig.priority_views``): a seat whose bot acts
without reading its view is sent none with a priority request, and nothing else changes: the
same games, a view with every other question, the full view when asked for."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trio

from spellstack.actors import SeatConfig, TraceRecord, play_game, play_one_game
from spellstack.bots import RandomBot
from spellstack.protocol import (
    Accepted,
    DecisionRequest,
    ErrorReply,
    PriorityRequest,
    RequestFullView,
    SubmitAction,
    ViewMirror,
    decode,
)
from spellstack.rules import Action, Decision, PlayerView, Reply, view_for
from spellstack.testing import deck_game
from spellstack.trace import check_replay, read_trace
from tests.actors.hostile_table import NAMES, Table, run_table
from tests.viewing_bots import ViewingRandomBot


@dataclass
class Watching:
    """A RandomBot (reading no view at priority) that keeps each view it is given, by kind."""

    inner: RandomBot
    views_at_priority: bool = False
    given: list[tuple[str, PlayerView]] = field(default_factory=list)

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.given.append((decision.kind, view))
        return self.inner.decide(view, decision)


async def _traced(game_seed: int, bots: list[RandomBot | Watching]) -> tuple[object, list[object]]:
    game = deck_game("gruul", "orzhov", names=NAMES, seed=game_seed)
    send, recv = trio.open_memory_channel[TraceRecord](math.inf)
    result = await play_game(game, bots, trace=send)
    send.close()
    requests = [decode(r.data) async for r in recv if r.kind in ("PriorityRequest", "DecisionRequest")]
    return result, requests


async def test_a_bot_that_reads_no_view_at_priority_is_sent_none_and_given_its_last_view() -> None:
    alice, bob = Watching(RandomBot(11)), ViewingRandomBot(12)
    result, requests = await _traced(5, [alice, bob])
    to_alice = [m for m in requests if isinstance(m, PriorityRequest | DecisionRequest) and m.decision.player == 0]
    to_bob = [m for m in requests if isinstance(m, PriorityRequest | DecisionRequest) and m.decision.player == 1]
    # alice: a view with her first request and every question; none with a later grant
    assert to_alice[0].view is not None and to_alice[0].view.full
    bare = [m for m in to_alice[1:] if m.view is None]
    assert bare and all(isinstance(m, PriorityRequest) for m in bare)
    assert all(m.view is not None for m in to_alice if isinstance(m, DecisionRequest))
    # bob, whose bot reads its view, gets one every time
    assert all(m.view is not None for m in to_bob)
    # alice's bot is handed, with a request without a view, the view she was last sent
    mirror = ViewMirror()
    last = None
    for m, (kind, view) in zip(to_alice, alice.given, strict=True):
        assert m.decision.kind == kind
        if m.view is not None:
            last = mirror.apply(m.view)
        assert view == last
    assert result.forfeits == []  # type: ignore[attr-defined]


async def test_the_games_are_the_same_with_views_at_priority_or_without() -> None:
    for seed in (2, 9):
        without, _ = await _traced(seed, [RandomBot(seed * 2), RandomBot(seed * 2 + 1)])
        with_views, _ = await _traced(seed, [ViewingRandomBot(seed * 2), ViewingRandomBot(seed * 2 + 1)])
        assert (without.final_hash, without.decisions, without.winner, without.turns) == (  # type: ignore[attr-defined]
            with_views.final_hash, with_views.decisions, with_views.winner, with_views.turns)  # type: ignore[attr-defined]


async def test_a_client_asking_for_the_view_of_a_request_without_one_gets_it_in_full() -> None:
    async def body(t: Table) -> None:
        mirror = ViewMirror()
        first = await t.request()
        assert first.view is not None and first.view.full  # the first request always has it
        mirror.apply(first.view)
        await t.send(SubmitAction(first.decision.id, Action("pass")))
        assert await t.receive() == Accepted(first.decision.id)
        second = await t.request()
        assert isinstance(second, PriorityRequest) and second.view is None
        await t.send(RequestFullView(second.decision.id))
        again = await t.request()
        assert again.decision == second.decision and again.view is not None and again.view.full
        assert ViewMirror().apply(again.view) == view_for(t.game, 0)
        # asked again for the same request: the full view was sent already
        await t.send(RequestFullView(second.decision.id))
        assert isinstance(reply := await t.receive(), ErrorReply) and "sent already" in reply.reason
        await t.send(SubmitAction(again.decision.id, Action("pass")))
        assert await t.receive() == Accepted(again.decision.id)
        result = await t.finish_with_bot(3)
        assert result.forfeits == []

    await run_table(body, seed=7, decks=("gruul", "orzhov"), priority_views=False)


async def test_the_trace_keeps_each_seats_setting_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    await play_one_game(["gruul", "orzhov"], [RandomBot(1), ViewingRandomBot(2)], 3, names=NAMES,
                        trace_path=path)
    trace = read_trace(path)
    assert [s.priority_views for s in trace.header.seats] == [False, True]
    check = await check_replay(trace)
    assert check.identical


def test_priority_views_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="invalid priority_views: not a bool: 'no'"):
        SeatConfig(priority_views="no")  # type: ignore[arg-type]
