"""The server's limits, each with a safe default and each configurable: connections per
address, spectators per game, games at once, the frame size. A connection over a limit is told
why in one error frame and closed (1013: the same may succeed later); nobody else notices."""

from __future__ import annotations

from pathlib import Path

import pytest
from trio.testing import wait_all_tasks_blocked
from trio_websocket import ConnectionClosed

from spellstack.cli import main
from spellstack.protocol import (
    MAX_PLAYER_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CreateGame,
    GameCreated,
    Hello,
    SeatSpec,
    SessionError,
    Spectate,
    Watching,
    Welcome,
)
from spellstack.server import MIN_FRAME_BYTES, ServerSettings
from tests.server._clients import connect, create_game, loopback, running_server
from tests.server._raw import connect_from

FOUR = tuple(SeatSpec(name * 40, "orzhov") for name in "abcd")
"""The largest game a client may ask for: four seats with the longest names."""


def test_the_defaults_are_the_documented_ones() -> None:
    s = ServerSettings()
    assert (s.max_games, s.max_connections_per_address, s.max_frame_bytes, s.max_messages_per_second,
            s.max_spectators, s.hello_timeout, s.send_timeout, s.grace) == (100, 32, 8192, 20, 100, 10, 10, 60)


async def test_connections_over_the_limit_of_their_address_are_refused_and_other_addresses_are_not() -> None:
    async with running_server(loopback(max_connections_per_address=2)) as server:
        assert server.port
        async with connect(server.port) as first, connect(server.port):
            async with connect_from(server.port) as third:  # 127.0.0.1, like the two open
                assert await third.closed() == (
                    [SessionError("2 connections from this address at once, the limit: try again later")], 1013)
            async with connect_from(server.port, "127.0.0.2") as elsewhere:
                await elsewhere.send(Hello(PROTOCOL_VERSION))
                assert isinstance(await elsewhere.receive(), Welcome)
            await first.send(CreateGame(()))  # the open ones never noticed
            assert await first.receive() == SessionError("a game has 2 to 4 seats, not 0")
        while server.connections:  # both closed: the address may connect again
            await wait_all_tasks_blocked()
        async with connect(server.port) as again:  # welcomed
            assert again.ws.closed is None


async def test_a_spectator_over_the_limit_of_its_game_is_refused() -> None:
    async with running_server(loopback(max_spectators=1)) as server:
        assert server.port
        created = await create_game(server.port)
        async with connect(server.port) as watcher, connect(server.port) as late:
            await watcher.send(Spectate(created.spectator))
            assert isinstance(await watcher.receive(), Watching)
            await late.send(Spectate(created.spectator))
            assert await late.closed() == ([SessionError("this game has 1 spectators, its limit: try again later")],
                                           1013)
            assert watcher.ws.closed is None


async def test_a_game_over_the_limit_of_games_at_once_is_refused_and_the_connection_goes_on() -> None:
    async with running_server(loopback(max_games=1)) as server:
        assert server.port
        async with connect(server.port) as remote:
            two = (SeatSpec("alice", "gruul"), SeatSpec("bob", "orzhov"))
            await remote.send(CreateGame(two))
            assert isinstance(await remote.receive(), GameCreated)
            await remote.send(CreateGame(two))
            refused = SessionError("the server hosts 1 games at once, its limit: try again later")
            assert await remote.receive() == refused
            assert remote.ws.closed is None


async def test_a_smaller_frame_limit_closes_a_larger_frame_and_every_session_message_still_fits() -> None:
    async with running_server(loopback(max_frame_bytes=MIN_FRAME_BYTES)) as server:
        assert server.port
        async with connect(server.port) as remote:
            await remote.send(CreateGame(FOUR, clock="600+10.5", seed=2**62, spectate="token"))
            assert isinstance(await remote.receive(), GameCreated)
            await remote.ws.send_message(b"\x00" * (MIN_FRAME_BYTES + 1))
            with pytest.raises(ConnectionClosed) as closed:
                await remote.receive()
            assert closed.value.reason is not None and closed.value.reason.code == 1009


@pytest.mark.parametrize(("field", "value", "error"), [
    ("max_frame_bytes", MIN_FRAME_BYTES - 1, f"max frame bytes 1023: 1024 to {MAX_PLAYER_MESSAGE_BYTES}"),
    ("max_frame_bytes", MAX_PLAYER_MESSAGE_BYTES + 1, f"max frame bytes 8193: 1024 to {MAX_PLAYER_MESSAGE_BYTES}"),
    ("max_connections_per_address", 0, "max connections per address 0: at least 1"),
    ("max_messages_per_second", 0.5, "max messages per second 0.5: at least 1"),
    ("send_timeout", 0.0, "send timeout 0.0: must be more than 0 seconds"),
    ("hello_timeout", float("inf"), "hello timeout inf: must be more than 0 seconds"),
])
def test_a_bad_limit_is_refused_naming_it(field: str, value: float, error: str) -> None:
    with pytest.raises(ValueError, match=f"^{error}$"):
        ServerSettings(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "error"), [
    (["--max-frame-bytes", "100"], "--max-frame-bytes 100: 1024 to 8192"),
    (["--max-connections-per-address", "0"], "--max-connections-per-address 0: at least 1"),
    (["--max-messages-per-second", "0"], "--max-messages-per-second 0: at least 1"),
    (["--max-spectators", "-1"], "--max-spectators -1: at least 0"),
    (["--hello-timeout", "0"], "--hello-timeout 0: more than 0 seconds"),
    (["--send-timeout", "nan"], "--send-timeout nan: more than 0 seconds"),
])
def test_serve_refuses_a_bad_limit_in_one_line(args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", *args]) == 2
    assert capsys.readouterr().err == f"spellstack serve: {error}\n"


def test_serve_refuses_a_trace_dir_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("", "utf-8")
    assert main(["serve", "--port", "0", "--trace-dir", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err == f"spellstack serve: --trace-dir {str(tmp_path / 'file')!r}: not a folder\n"


def test_serve_help_names_every_limit_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option, default in (("--max-games", "100"), ("--max-connections-per-address", "32"),
                            ("--max-frame-bytes", "8192"), ("--max-messages-per-second", "20"),
                            ("--max-spectators", "100"), ("--hello-timeout", "10"), ("--send-timeout", "10"),
                            ("--grace", "60")):
        assert option in text
        assert f"(default {default}" in text.split(option, 2)[-1].split("--", 1)[0], option
