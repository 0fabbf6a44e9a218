"""A tournament's remote entrants: clients that join the tournament's server with an entrant
token each and are seated game by game. The games are those the same entrants play in process
(the same seeds, the same answers, each answer recorded: a record replays), and an entrant
that drops its connection forfeits its games, each with a reason, and nothing else."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
import trio

from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.protocol import (
    CreateGame,
    Entered,
    GameOver,
    Goodbye,
    JoinEntrant,
    JoinSeat,
    NextGame,
    SeatSpec,
    SessionError,
    Unseated,
)
from spellstack.seats import Entrant, EntrantError, Seat, parse_entrant
from spellstack.server import TOKEN_REFUSED, WITHDRAWN, EntrantLobby
from spellstack.tournament import Played, TournamentSettings, play_tournament, untimed
from spellstack.trace import check_record, parse_record
from tests.server._clients import connect, loopback, play_entrant, running_server

FIELD = ("alice=remote@gruul", "bob=remote@dimir", "carol=random@orzhov")
"""Two remote entrants and a built-in one."""
HERE = ("alice=random@gruul", "bob=random@dimir", "carol=random@orzhov")
"""The same entrants, each a random bot played in process."""


def settings(texts: tuple[str, ...], lobby: EntrantLobby | None = None) -> TournamentSettings:
    """A round robin played twice, a game a match, from a seed."""
    cards = load_cards()
    entrants = tuple(parse_entrant(t, cards, remote=None if lobby is None else lobby.add) for t in texts)
    return TournamentSettings(entrants, "round-robin", 1, seed=7, repeat=2)


async def in_process(tmp_path: Path) -> Played:
    return await play_tournament(settings(HERE), db=tmp_path / "here.db")


@pytest.mark.slow
async def test_remote_entrants_play_the_games_the_same_entrants_play_in_process(tmp_path: Path) -> None:
    lobby = EntrantLobby(grace=10)
    tournament = settings(FIELD, lobby)
    records = tmp_path / "records"
    records.mkdir()
    async with running_server(loopback(), lobby=lobby) as server:
        assert server.port
        async with trio.open_nursery() as nursery:
            for name in ("alice", "bob"):
                nursery.start_soon(play_entrant, server.port, lobby.entrants[name].token, RandomBot)
            await lobby.all_ready()
            played = await play_tournament(tournament, db=tmp_path / "remote.db", record_dir=records)
            await lobby.close()  # the clients are told: their connections close
    here = await in_process(tmp_path)
    assert len(played.rows) == 6 and all(r.decisions > 20 for r in played.rows)
    assert [untimed(r) for r in played.rows] == [untimed(r) for r in here.rows]
    # Each remote entrant's answers are in the game's record: it replays to the same end.
    for row in played.rows:
        check = await check_record(parse_record((records / f"{row.game_id}.json").read_bytes(), row.game_id))
        assert check.identical, row.game_id


async def test_an_entrant_that_drops_its_connection_forfeits_its_games_and_nothing_else(tmp_path: Path) -> None:
    lobby = EntrantLobby(grace=0.3)
    tournament = settings(FIELD, lobby)
    async with running_server(loopback(), lobby=lobby) as server:
        assert server.port
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_entrant, server.port, lobby.entrants["alice"].token, RandomBot)
            nursery.start_soon(partial(play_entrant, server.port, lobby.entrants["bob"].token, RandomBot,
                                       drop_after=5))
            await lobby.all_ready()  # the grace is short: both are there before the first game
            played = await play_tournament(tournament, db=tmp_path / "remote.db")
            await lobby.close()
    here = await in_process(tmp_path)
    bob = 1
    lost = [r for r in played.rows if bob in r.entrants]
    reasons = [r.reason.partition("bob forfeited: ")[2] for r in lost]
    # The game it dropped: it did not come back. Every later one: no client of it was there.
    assert reasons.count("lost its connection and did not come back within 0.3 s") == 1
    assert reasons.count("no client of its was ready for the game within 0.3 s") == len(lost) - 1
    assert all(r.winner == r.entrants.index(bob) ^ 1 for r in lost)
    # Nothing else noticed: alice's games against carol are those played in process.
    others = [(untimed(a), untimed(b)) for a, b in zip(played.rows, here.rows, strict=True) if bob not in a.entrants]
    assert len(others) == 2 and all(a == b for a, b in others)


async def test_a_connection_that_comes_back_within_the_grace_period_plays_its_game_on(tmp_path: Path) -> None:
    cards = load_cards()
    lobby = EntrantLobby(grace=10)
    entrants = tuple(parse_entrant(t, cards, remote=lobby.add) for t in ("alice=remote@gruul", "carol=random@orzhov"))
    tournament = TournamentSettings(entrants, "round-robin", 1, seed=3)
    async with running_server(loopback(), lobby=lobby) as server:
        assert server.port
        token = lobby.entrants["alice"].token
        async with trio.open_nursery() as nursery:

            async def alice() -> None:
                first = await play_entrant(server.port, token, RandomBot, drop_after=5)
                again = await play_entrant(server.port, token, RandomBot)
                assert [s.game for s in first] == [s.game for s in again] == ["r1-m1-g1"]

            nursery.start_soon(alice)
            played = await play_tournament(tournament, db=tmp_path / "remote.db")
            await lobby.close()
    [row] = played.rows
    assert "forfeited" not in row.reason and row.decisions > 5


async def test_an_entrant_that_does_not_answer_forfeits_on_its_deadline_and_its_next_game_for_its_absence(
        tmp_path: Path) -> None:
    cards = load_cards()
    lobby = EntrantLobby(grace=0.3, after_game=0.1)
    entrants = tuple(parse_entrant(t, cards, remote=lobby.add) for t in ("mute=remote@gruul", "carol=random@orzhov"))
    tournament = TournamentSettings(entrants, "round-robin", 1, seed=3, repeat=2, deadline=0.2)
    async with running_server(loopback(), lobby=lobby) as server:
        assert server.port
        async with trio.open_nursery() as nursery:

            async def mute() -> None:  # takes its first game, answers nothing, never asks for another
                async with connect(server.port or 0) as remote:
                    await remote.send(JoinEntrant(lobby.entrants["mute"].token))
                    assert isinstance(await remote.receive(), Entered)
                    await remote.send(NextGame())
                    while not isinstance(told := await remote.receive(), Unseated):
                        assert not isinstance(told, GameOver)  # a seat that forfeited is sent none
                    await trio.sleep_forever()

            nursery.start_soon(mute)
            await lobby.all_ready()
            played = await play_tournament(tournament, db=tmp_path / "remote.db")
            await lobby.close()
            nursery.cancel_scope.cancel()
    # Whichever of the two games took the connection first, the other waited for it to end.
    assert sorted(row.reason.partition("mute forfeited: ")[2] for row in played.rows) == [
        "no answer within 0.2 s", "no client of its was ready for the game within 0.3 s"]


async def test_entrant_tokens_open_an_entrant_only_and_a_goodbye_withdraws_it(tmp_path: Path) -> None:
    lobby = EntrantLobby(grace=10)
    gruul = load_deck("gruul", load_cards())
    entrant = lobby.add("alice", gruul)
    async with running_server(loopback(), lobby=lobby) as server:
        assert server.port
        for wrong in (JoinSeat(entrant.token), JoinEntrant("x" * 43)):
            async with connect(server.port) as remote:
                await remote.send(wrong)
                assert await remote.closed() == ([SessionError(TOKEN_REFUSED)], 1008)
        async with connect(server.port) as remote:
            await remote.send(CreateGame((SeatSpec("a", "gruul"), SeatSpec("b", "dimir", "random"))))
            assert await remote.receive() == SessionError("this server plays a tournament: it hosts no other games")
        async with connect(server.port) as remote:
            await remote.send(JoinEntrant(entrant.token))
            assert await remote.receive() == Entered("alice", "gruul")
            await remote.send(NextGame())
            await remote.send(NextGame())
            assert await remote.closed() == ([SessionError("NextGame twice: wait for Seated")], 1008)
        async with connect(server.port) as remote:
            await remote.send(JoinEntrant(entrant.token))
            assert isinstance(await remote.receive(), Entered)
            await remote.send(Goodbye())
            assert await remote.closed() == ([], 1000)
        assert entrant.withdrawn
        async with connect(server.port) as remote:  # spent by the goodbye
            await remote.send(JoinEntrant(entrant.token))
            assert await remote.closed() == ([SessionError(TOKEN_REFUSED)], 1008)
        carol = parse_entrant("carol=random@orzhov", load_cards())
        tournament = TournamentSettings((Entrant("alice", "remote", gruul, entrant), carol), "round-robin", 1, seed=3)
        played = await play_tournament(tournament, db=tmp_path / "remote.db")
    [row] = played.rows
    assert row.reason.endswith(f"alice forfeited: {WITHDRAWN}")


async def test_a_server_without_a_tournament_refuses_an_entrant_token() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as remote:
            await remote.send(JoinEntrant("t" * 43))
            assert await remote.closed() == ([SessionError(TOKEN_REFUSED)], 1008)


def test_a_remote_entrant_needs_a_server_and_is_a_seat_of_its_lobby() -> None:
    cards = load_cards()
    with pytest.raises(EntrantError, match=r"bot 'remote' is a client that connects over the network: "
                                           r"it needs a server to connect to \(spellstack tournament --serve\)"):
        parse_entrant("alice=remote@gruul", cards)
    lobby = EntrantLobby()
    entrant = parse_entrant("remote@gruul", cards, remote=lobby.add)
    assert (entrant.name, entrant.bot) == ("remote-gruul", "remote")
    assert isinstance(entrant.factory, Seat) and lobby.entrants["remote-gruul"] is entrant.factory
    token = lobby.entrants["remote-gruul"].token
    assert len(token) == 43 and token not in repr(entrant.factory) and token not in repr(entrant)
    with pytest.raises(ValueError, match="there is one of that name already"):
        lobby.add("remote-gruul", entrant.deck)
