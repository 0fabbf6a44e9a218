"""A connection's session: its hello, and a seat that survives its connections (coming back
with the token within the grace period, it is sent what it needs to go on), or forfeits."""

from __future__ import annotations

from pathlib import Path

import trio

from spellstack.protocol import (
    PROTOCOL_VERSION,
    Goodbye,
    Hello,
    JoinSeat,
    PriorityRequest,
    Resync,
    Seated,
    SeatSpec,
    SessionError,
    SubmitAction,
    Welcome,
    decode_from_server,
)
from spellstack.rules import Action
from tests.server._clients import connect, create_game, loopback, running_server


async def test_a_client_says_hello_in_the_servers_protocol_first() -> None:
    async with running_server(loopback(grace=7.5)) as server:
        assert server.port
        async with connect(server.port, hello=False) as remote:
            await remote.send(Hello(PROTOCOL_VERSION))
            welcome = await remote.receive()
            assert isinstance(welcome, Welcome) and (welcome.protocol, welcome.grace) == (PROTOCOL_VERSION, 7.5)
        async with connect(server.port, hello=False) as remote:
            await remote.send(Hello(PROTOCOL_VERSION - 1))
            assert await remote.closed() == ([SessionError(f"this server speaks protocol {PROTOCOL_VERSION}, "
                                                           f"not {PROTOCOL_VERSION - 1}")], 1008)
        async with connect(server.port, hello=False) as remote:
            await remote.send(Resync())
            assert await remote.closed() == ([SessionError("say Hello first, not Resync")], 1008)
        async with connect(server.port, hello=False) as remote:
            await remote.ws.send_message("hello")  # a text frame
            assert await remote.closed() == ([SessionError("a text frame: each frame is one binary msgpack message")],
                                             1003)


async def test_a_connection_that_says_nothing_is_closed_after_the_hello_timeout() -> None:
    async with running_server(loopback(hello_timeout=0.2)) as server:
        assert server.port
        async with connect(server.port, hello=False) as remote:
            assert await remote.closed() == ([SessionError("nothing came within 0.2 s")], 1008)


async def test_a_seat_that_comes_back_is_sent_its_pending_request_with_the_full_view(tmp_path: Path) -> None:
    async with running_server(loopback(trace_dir=tmp_path)) as server:
        assert server.port
        created = await create_game(server.port, (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random")),
                                    seed=6)
        token = created.seats[0].token
        async with connect(server.port) as alice:
            await alice.send(JoinSeat(token))
            seated = await alice.receive()
            first = await alice.receive_bytes()
        # Gone (no goodbye) while asked: back within the grace period, asked the same again.
        async with connect(server.port) as alice:
            await alice.send(JoinSeat(token))
            assert await alice.receive() == seated
            assert await alice.receive_bytes() == first
            request = decode_from_server(first)  # it had the full view; answer, take the next
            assert isinstance(request, PriorityRequest) and request.view.full
            await alice.send(SubmitAction(request.decision.id, Action("pass")))
            assert (await alice.receive()).KIND == "Accepted"
            following = await alice.receive()
            assert isinstance(following, PriorityRequest) and not following.view.full
        async with connect(server.port) as alice:
            await alice.send(JoinSeat(token))
            assert isinstance(await alice.receive(), Seated)
            again = await alice.receive()
            # The same decision, with the view in full (the seat asked for it on the client's
            # behalf), and the game goes on from there.
            assert isinstance(again, PriorityRequest) and again.view.full
            assert again.decision == following.decision
            await alice.send(Resync())  # asked again: sent again, as it had the full view
            assert await alice.receive() == again
            await alice.send(SubmitAction(again.decision.id, Action("pass")))
            assert (await alice.receive()).KIND == "Accepted"
            await alice.send(Goodbye())
        trace = (tmp_path / f"{created.game}.jsonl").read_text("utf-8")
    assert trace.count('"kind":"RequestFullView"') == 1


async def test_a_seat_whose_client_never_joins_or_stays_away_forfeits_after_the_grace_period() -> None:
    async with running_server(loopback(grace=0.3)) as server:
        assert server.port
        seats = (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random"))
        never = await create_game(server.port, seats, seed=1)
        away = await create_game(server.port, seats, seed=1)
        hosted = server.games[never.game], server.games[away.game]
        async with connect(server.port) as alice:
            await alice.send(JoinSeat(away.seats[0].token))
            assert isinstance(await alice.receive(), Seated)
            assert isinstance(await alice.receive(), PriorityRequest)
        with trio.fail_after(5):
            for game in hosted:
                await game.done.wait()
    assert [game.result.reason if game.result else "" for game in hosted] == [
        "bob wins: alice forfeited: no client joined the seat within 0.3 s",
        "bob wins: alice forfeited: lost its connection and did not come back within 0.3 s"]


async def test_a_newer_connection_with_the_token_takes_the_seat_from_the_older() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port)
        token = created.seats[0].token
        async with connect(server.port) as older, connect(server.port) as newer:
            await older.send(JoinSeat(token))
            seated = await older.receive()
            await newer.send(JoinSeat(token))
            assert await newer.receive() == seated
            assert await older.closed() == ([SessionError("another connection joined this seat")], 1008)
