"""Connections fail, and clients misbehave: a seat that comes back within its grace period
plays on (sent what it needs to go on); one that does not forfeits, the reason recorded; a
flood, a text frame, an oversized frame, a slow reader and a connection that never says hello
are each closed with a reason, and no other game or connection notices.

Where time is the event loop's (the grace period, the hello timeout, a frame waiting for a
client that reads nothing, messages a second), the tests run on trio's ``MockClock``, standing
still but when a test moves it on: each limit is met exactly, at its default."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock, wait_all_tasks_blocked
from trio_websocket import ConnectionClosed

from spellstack.actors import GameResult, GameSetup, SeatConfig, play_setup
from spellstack.bots import RandomBot
from spellstack.protocol import (
    PROTOCOL_VERSION,
    CreateGame,
    DecisionRequest,
    Hello,
    JoinSeat,
    PriorityRequest,
    Resync,
    Seated,
    SeatSpec,
    SessionError,
    Welcome,
    decode_from_server,
)
from tests.server._clients import Remote, connect, create_game, loopback, play_remote, running_server
from tests.server._raw import connect_from, tcp_from

AGAINST_A_BOT = (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random"))
"""alice plays remotely against the server's own random bot."""
FLOOD = "a flood: more than 20 messages a second beyond its answers"


async def _settle(done: Callable[[], bool]) -> None:
    """Let the server run until ``done()``, and every task waits."""
    await wait_all_tasks_blocked()
    while not done():
        await wait_all_tasks_blocked()


def _solo(seed: int, game: str, deadline: float) -> Awaitable[tuple[object, GameResult]]:
    """The game of ``seed`` between two random bots, played in this process."""
    setup = GameSetup(["gruul", "orzhov"], seed, ["alice", "bob"], configs=[SeatConfig(timeout=deadline)] * 2,
                      game_id=game)
    return play_setup(setup, [RandomBot(setup.bot_seed(0)), RandomBot(setup.bot_seed(1))])


def _outcome(result: GameResult | None) -> tuple[object, ...]:
    assert result is not None
    return result.winner, result.reason, result.turns, result.decisions, result.forfeits, result.final_hash


async def _told(remote: Remote) -> tuple[list[object], int]:
    """What a connection is told until its close, and the close code: at most one error."""
    got: list[object] = []
    while True:
        try:
            msg = await remote.receive()
        except ConnectionClosed as closed:
            assert closed.reason is not None
            return got, closed.reason.code
        assert not got and isinstance(msg, SessionError), msg  # a refusal, and only one
        got.append(msg)


async def _join(remote: Remote, token: str) -> bytes:
    """Join the seat ``token`` opens: its first request's bytes."""
    await remote.send(JoinSeat(token))
    assert isinstance(await remote.receive(), Seated)
    first = await remote.receive_bytes()
    request = decode_from_server(first)
    assert isinstance(request, PriorityRequest | DecisionRequest) and request.view.full
    return first


async def test_a_seat_away_for_most_of_its_grace_period_comes_back_and_its_game_goes_on(mock_clock: MockClock) -> None:
    async with running_server(loopback()) as server:  # the default grace period, 60 s
        assert server.port and server.settings.grace == 60
        created = await create_game(server.port, seed=3, deadline=120.0)
        hosted = server.games[created.game]
        alice, bob = (seat.token for seat in created.seats)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_remote, server.port, bob, RandomBot)
            async with connect(server.port) as remote:
                first = await _join(remote, alice)
            # Gone without a goodbye, before answering: the game waits, its deadline running.
            await _settle(lambda: not hosted.remote[0].connected)
            mock_clock.jump(59.9)
            await wait_all_tasks_blocked()
            assert not hosted.remote[0].forfeited and hosted.result is None
            frames: list[bytes] = []
            await play_remote(server.port, alice, RandomBot, frames=frames)
        await hosted.done.wait()
    assert frames[2] == first  # after Welcome and Seated: asked the same again, with the full view
    # Played on to its end exactly as the same seed in process: nothing was lost.
    _, solo = await _solo(3, created.game, 120.0)
    assert _outcome(hosted.result) == _outcome(solo) and solo.forfeits == []


async def _flood(remote: Remote, first: bytes) -> None:
    """One message per request the seat was sent and 20 more, at once, are in order (each
    ``Resync`` is answered); one more is a flood."""
    for _ in range(1 + 20):
        await remote.send(Resync())
        assert await remote.receive_bytes() == first
    await remote.send(Resync())


async def _text(remote: Remote, first: bytes) -> None:
    await remote.ws.send_message("SubmitAction")


async def _oversized(remote: Remote, first: bytes) -> None:
    await remote.ws.send_message(b"\x00" * 8193)


FAULTS: dict[str, tuple[Callable[[Remote, bytes], Awaitable[None]], list[object], int, str]] = {
    "flood": (_flood, [SessionError(FLOOD)], 1008, FLOOD),
    "text frame": (_text, [SessionError("a text frame: each frame is one binary msgpack message")], 1003,
                   "a text frame: each frame is one binary msgpack message"),
    "oversized frame": (_oversized, [], 1009, "a frame over 8192 bytes"),
}
"""Each fault a seated client commits: what it does, the frames it gets then, the close code,
and the fault its seat's forfeit names."""


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_seat_closed_for_a_fault_forfeits_after_its_grace_period_the_fault_recorded(
        fault: str, mock_clock: MockClock, tmp_path: Path) -> None:
    commit, told, code, named = FAULTS[fault]
    async with running_server(loopback(trace_dir=tmp_path)) as server:
        assert server.port
        created = await create_game(server.port, AGAINST_A_BOT, seed=2, deadline=120.0)
        hosted = server.games[created.game]
        async with connect(server.port) as remote:
            first = await _join(remote, created.seats[0].token)
            await commit(remote, first)
            assert await _told(remote) == (told, code)
        await _settle(lambda: not hosted.remote[0].connected)
        mock_clock.jump(59.9)
        await wait_all_tasks_blocked()
        assert hosted.result is None
        mock_clock.jump(0.1)
        await hosted.done.wait()
    reason = f"alice forfeited: lost its connection (closed for {named}) and did not come back within 60 s"
    assert hosted.result is not None and hosted.result.reason == f"bob wins: {reason}"
    assert f'"reason":"bob wins: {reason}"' in (tmp_path / f"{created.game}.jsonl").read_text("utf-8")


async def test_a_flood_before_a_seat_is_joined_closes_that_connection_alone(mock_clock: MockClock) -> None:
    unplayable = CreateGame(())
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as flooder, connect(server.port) as other:
            for _ in range(19):  # with the Hello, 20 messages at once: each answered
                await flooder.send(unplayable)
                assert await flooder.receive() == SessionError("a game has 2 to 4 seats, not 0")
            await flooder.send(unplayable)
            assert await flooder.receive() == SessionError(FLOOD)
            assert await _told(flooder) == ([], 1008)
            for _ in range(19):  # the other connection's allowance is its own
                await other.send(unplayable)
                assert await other.receive() == SessionError("a game has 2 to 4 seats, not 0")
            assert other.ws.closed is None


async def test_an_oversized_frame_closes_its_connection_before_it_is_kept_and_a_kinds_cap_is_said() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as remote:
            await remote.ws.send_message(b"\x00" * 8193)
            with pytest.raises(ConnectionClosed) as closed:
                await remote.receive()
            assert closed.value.reason is not None and closed.value.reason.code == 1009
            assert "8192 bytes" in str(closed.value.reason.reason)
        async with connect(server.port) as remote:  # under the frame limit, over JoinSeat's
            await remote.send(JoinSeat("x" * 200))
            got, code = await remote.closed()
            assert code == 1008 and len(got) == 1 and isinstance(got[0], SessionError)
            assert "JoinSeat" in got[0].reason and "128" in got[0].reason
        async with connect(server.port) as remote:  # nobody else noticed
            assert remote.ws.closed is None


async def test_a_slow_reader_is_closed_after_the_send_timeout_and_no_other_game_notices(mock_clock: MockClock) -> None:
    async with running_server(loopback(max_messages_per_second=1e9)) as server:
        assert server.port
        slow = await create_game(server.port, AGAINST_A_BOT, seed=2, deadline=600.0)
        honest = await create_game(server.port, seed=5, deadline=600.0)
        stalled = server.games[slow.game]
        seat = stalled.remote[0]
        hosted = server.games[honest.game]
        async with trio.open_nursery() as nursery:
            for token in honest.seats:
                nursery.start_soon(play_remote, server.port, token.token, RandomBot)
            async with connect_from(server.port, receive_buffer=4096) as remote:
                await remote.send(Hello(PROTOCOL_VERSION))
                assert isinstance(await remote.receive(), Welcome)
                await _join(remote, slow.seats[0].token)

                async def ask_and_never_read() -> None:  # each Resync: the full view again
                    try:
                        while True:
                            await remote.send(Resync())
                    except ConnectionClosed:
                        pass

                nursery.start_soon(ask_and_never_read)
                # The network's buffers fill: the server's send waits for alice, who reads nothing.
                while seat.connected:
                    await wait_all_tasks_blocked()
                    mock_clock.jump(2.5)  # the default send timeout, 10 s, within four steps
                await hosted.done.wait()
        mock_clock.jump(60)
        await stalled.done.wait()
    assert stalled.result is not None and stalled.result.reason == (
        "bob wins: alice forfeited: lost its connection (closed for a slow reader: a frame not taken within 10 s) "
        "and did not come back within 60 s")
    # The game played meanwhile is the game its seed plays in process.
    _, solo = await _solo(5, honest.game, 600.0)
    assert _outcome(hosted.result) == _outcome(solo)


async def test_a_connection_that_never_says_hello_is_closed_after_the_hello_timeout(mock_clock: MockClock) -> None:
    async with running_server(loopback()) as server:  # the default hello timeout, 10 s
        assert server.port
        silent_tcp = await tcp_from(server.port)  # not even the WebSocket handshake
        async with connect(server.port, hello=False) as silent:
            await wait_all_tasks_blocked()
            mock_clock.jump(9.9)
            async with connect(server.port) as other:  # its hello just in time: its own clock starts
                assert silent.ws.closed is None
                mock_clock.jump(0.1)
                assert await silent.closed() == ([SessionError("nothing came within 10 s")], 1008)
                assert await silent_tcp.receive_some() == b""  # closed unheard: there is no WebSocket yet
                await wait_all_tasks_blocked()
                assert other.ws.closed is None

