"""The server plays games between remote clients exactly as games between seats in the
engine's process: the same seed and the same bots give the same trace."""

from __future__ import annotations

import json
from pathlib import Path

import trio

from spellstack.actors import GameSetup, SeatConfig, play_setup
from spellstack.bots import RandomBot
from spellstack.server import REMOTE_ENTRANT
from tests.server._clients import create_game, loopback, play_remote, running_server
from tests.viewing_bots import ViewingRandomBot


async def test_two_remote_random_bots_play_the_game_the_same_seed_plays_in_process(tmp_path: Path) -> None:
    async with running_server(loopback(trace_dir=tmp_path)) as server:
        assert server.port
        created = await create_game(server.port, seed=5)
        hosted = server.games[created.game]
        async with trio.open_nursery() as nursery:
            for seat in created.seats:
                nursery.start_soon(play_remote, server.port, seat.token, RandomBot)
        await hosted.done.wait()
    remote = (tmp_path / f"{created.game}.jsonl").read_text("utf-8").splitlines()

    setup = GameSetup(["gruul", "orzhov"], 5, ["alice", "bob"], configs=[SeatConfig(timeout=30.0)] * 2,
                      game_id=created.game)
    here = tmp_path / "in-process.jsonl"
    # A remote seat is sent its view with every request: so is the bot here.
    _, result = await play_setup(setup, [ViewingRandomBot(setup.bot_seed(0)), ViewingRandomBot(setup.bot_seed(1))],
                                 trace_path=here)
    local = here.read_text("utf-8").splitlines()

    # The one difference: who the header says plays each seat (a server can't know the program).
    remote_header, local_header = json.loads(remote[0]), json.loads(local[0])
    assert remote_header.pop("entrants") == {"alice": REMOTE_ENTRANT, "bob": REMOTE_ENTRANT}
    assert local_header.pop("entrants") == {"alice": "tests.viewing_bots.ViewingRandomBot",
                                            "bob": "tests.viewing_bots.ViewingRandomBot"}
    assert remote_header == local_header
    assert remote[1:] == local[1:]
    assert result.decisions > 50 and hosted.result == result
