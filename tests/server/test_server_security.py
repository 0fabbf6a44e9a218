"""Who may do what with which token: each refusal is one error frame and the close, in words
that tell nothing; a seat acts only for itself, a spectator never; decks are named, never
opened by path; tokens are in no trace, log or error."""

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path

import pytest
import trio

import spellstack.server._tokens as tokens_module
from spellstack.bots import RandomBot
from spellstack.protocol import (
    CreateGame,
    ErrorReply,
    GameCreated,
    Goodbye,
    JoinSeat,
    PriorityRequest,
    SeatSpec,
    SessionError,
    Spectate,
    SubmitAction,
    Watching,
)
from spellstack.rules import Action
from spellstack.server import TOKEN_REFUSED, Grant, TokenBook, new_token
from tests.server._clients import Remote, connect, create_game, loopback, play_remote, running_server

PASS = Action("pass")


async def _refused(remote: Remote) -> str:
    """The one frame a refused connection gets before its close: the reason."""
    got, code = await remote.closed()
    assert code == 1008
    [error] = got
    assert isinstance(error, SessionError)
    return error.reason


def _no_token_in(tokens: GameCreated, *texts: bytes | str) -> None:
    secrets = [s.token for s in tokens.seats if s.token] + [tokens.spectator]
    for text in texts:
        data = text.encode() if isinstance(text, str) else text
        assert not any(secret.encode() in data for secret in secrets)


async def test_a_wrong_token_a_spectators_token_for_a_seat_and_a_seats_to_watch_are_refused_alike() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port)
        wrong = created.seats[0].token[:-1] + ("A" if created.seats[0].token[-1] != "A" else "B")
        for attempt in (JoinSeat(wrong), JoinSeat(created.spectator), Spectate(created.seats[1].token),
                        Spectate(wrong), JoinSeat("")):
            async with connect(server.port) as remote:
                await remote.send(attempt)
                assert await _refused(remote) == TOKEN_REFUSED
                _no_token_in(created, *remote.frames)


async def test_a_seated_connection_can_not_take_the_other_seat() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port)
        alice_token, bob_token = (s.token for s in created.seats)
        async with connect(server.port) as alice:
            await alice.send(JoinSeat(alice_token))
            await alice.receive()  # Seated
            await alice.send(JoinSeat(bob_token))
            assert await _refused(alice) == "a seated connection sends the player's messages, Resync or Goodbye"
            _no_token_in(created, *alice.frames)
        # bob's seat is still bob's to take (and alice's to take again, within the grace period).
        async with connect(server.port) as bob:
            await bob.send(JoinSeat(bob_token))
            assert (await bob.receive()).KIND == "Seated"


async def test_a_token_said_goodbye_with_opens_nothing_again() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port)
        token = created.seats[0].token
        async with connect(server.port) as alice:
            await alice.send(JoinSeat(token))
            await alice.receive()
            await alice.send(Goodbye())
            got, code = await alice.closed()
            assert got == [] and code == 1000
        async with connect(server.port) as again:
            await again.send(JoinSeat(token))
            assert await _refused(again) == TOKEN_REFUSED


async def test_the_tokens_of_a_game_that_is_over_open_nothing() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port, (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random")),
                                    seed=4, turn_limit=3)
        hosted = server.games[created.game]
        await play_remote(server.port, created.seats[0].token, RandomBot)
        await hosted.done.wait()
        for attempt in (JoinSeat(created.seats[0].token), Spectate(created.spectator)):
            async with connect(server.port) as remote:
                await remote.send(attempt)
                assert await _refused(remote) == TOKEN_REFUSED


async def test_a_spectator_trying_to_act_is_refused() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port)
        async with connect(server.port) as watcher:
            await watcher.send(Spectate(created.spectator))
            assert isinstance(await watcher.receive(), Watching)
            await watcher.send(SubmitAction(1, PASS))
            assert await _refused(watcher) == "a spectator sends Resync or Goodbye only, not SubmitAction"


async def test_an_answer_naming_a_decision_not_the_seats_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    async with running_server(loopback(trace_dir=tmp_path)) as server:
        assert server.port
        created = await create_game(server.port, seed=3)
        async with trio.open_nursery() as nursery, connect(server.port) as alice:
            nursery.start_soon(play_remote, server.port, created.seats[1].token, RandomBot)
            await alice.send(JoinSeat(created.seats[0].token))
            await alice.receive()  # Seated
            request = await alice.receive()
            assert isinstance(request, PriorityRequest)
            mine = request.decision.id
            await alice.send(SubmitAction(mine + 7, PASS))  # another seat's id, or one to come
            error = await alice.receive()
            assert error == ErrorReply(f"SubmitAction names decision {mine + 7}, but decision {mine} is pending")
            # A grant of priority answered out of place is a new decision (docs/protocol.md).
            again = await alice.receive()
            assert isinstance(again, PriorityRequest) and again.decision.id == mine + 1
            await alice.send(SubmitAction(mine + 1, PASS))
            assert (await alice.receive()).KIND == "Accepted"
            await alice.send(Goodbye())  # and the game ends: bob wins by alice's forfeit
        trace = (tmp_path / f"{created.game}.jsonl").read_text("utf-8")
    assert "alice's message is refused: SubmitAction names decision" in trace
    assert '"reason":"bob wins: alice forfeited: said goodbye before the game was over"' in trace


async def test_a_deck_named_by_a_path_is_refused_unopened_and_the_connection_goes_on(tmp_path: Path) -> None:
    deck = tmp_path / "secret.toml"
    deck.write_text('name = "secret"\n[cards]\nForest = 40\n', encoding="utf-8")
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as remote:
            for name in (str(deck), "../cards/decks/gruul.toml", "gruul.toml", "Gruul"):
                await remote.send(CreateGame((SeatSpec("alice", name), SeatSpec("bob", "orzhov"))))
                error = await remote.receive()
                assert error == SessionError("seat 0: unknown deck (decks are named: dimir, gruul, orzhov)")
            assert server.games == {}
            await remote.send(CreateGame((SeatSpec("alice", "gruul"), SeatSpec("bob", "orzhov"))))
            assert isinstance(await remote.receive(), GameCreated)


async def test_no_token_is_in_a_trace_a_log_line_or_a_frame_to_a_player(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="spellstack.server")
    frames: list[bytes] = []
    async with running_server(loopback(trace_dir=tmp_path)) as server:
        assert server.port
        created = await create_game(server.port, seed=9)
        hosted = server.games[created.game]
        async with trio.open_nursery() as nursery:
            for seat in created.seats:
                nursery.start_soon(partial(play_remote, server.port, seat.token, RandomBot, frames=frames))
        await hosted.done.wait()
        async with connect(server.port) as remote:  # refused: logged
            await remote.send(JoinSeat(created.seats[0].token))
            await _refused(remote)
    assert any(isinstance(r.msg, str) and "refused" in r.getMessage() for r in caplog.records)
    assert any(r.getMessage().startswith(f"game {created.game} over") for r in caplog.records)
    _no_token_in(created, (tmp_path / f"{created.game}.jsonl").read_bytes(), *frames,
                 *(r.getMessage() for r in caplog.records))
    assert any(frame.startswith(b"\x83\xa1k\xa8GameOver") for frame in frames)


def test_a_token_never_begins_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    # A command line would read it as an option (``remote_bot.py URL --entrant -abc...``).
    drawn = iter(["-" + "a" * 42, "--" + "b" * 41, "c" * 42 + "-"])
    monkeypatch.setattr(tokens_module.secrets, "token_urlsafe", lambda n: next(drawn))
    assert new_token() == "c" * 42 + "-"
    monkeypatch.undo()
    assert not any(new_token().startswith("-") for _ in range(2_000))


def test_a_token_is_256_random_bits_and_found_only_whole() -> None:
    book = TokenBook()
    tokens = {book.issue(Grant("g", "seat", n)) for n in range(100)}
    assert len(tokens) == 100 and all(len(t) == 43 for t in tokens)
    token = next(iter(tokens))
    assert book.find(token) is not None
    assert book.find(token[:-1]) is None and book.find(token + "x") is None and book.find("") is None
    book.revoke(token)
    assert book.find(token) is None
