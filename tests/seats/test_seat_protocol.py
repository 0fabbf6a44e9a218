"""The seat protocol's parts: what each seat is told (``hellos``), which seat a bot spec
becomes (``seat_of``), and what a bot that can't be built leaves in its seat."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spellstack.actors import Client, GameSetup, SeatConfig
from spellstack.bots import HeuristicBot, RandomBot
from spellstack.chat._seats import HumanSeat, Session
from spellstack.harness import HostileSeat, HostileStream
from spellstack.seats import BuiltBot, PolicySeat, ProcessBot, Seat, SeatHello, hellos, load_bot, play_seats, seat_of


def test_every_kind_of_seat_is_a_seat() -> None:
    kinds = [PolicySeat(RandomBot), BuiltBot(RandomBot(1)), ProcessBot((sys.executable, "bot.py")),
             Session("g", 0, HumanSeat("ann"), None, lambda s, t: None),  # type: ignore[arg-type]
             HostileSeat(HostileStream(1))]
    assert all(isinstance(k, Seat) for k in kinds)
    assert not isinstance(RandomBot(1), Seat) and not isinstance(RandomBot, Seat)


def test_each_seat_is_told_its_game_deadline_and_seed() -> None:
    setup = GameSetup(["gruul", "dimir"], 4, ["ann", "ben"], configs=[SeatConfig(timeout=2.5), SeatConfig()],
                      bot_seeds=[11, 12], game_id="r1-m1-g1")
    assert hellos(setup) == [SeatHello("r1-m1-g1", 0, ("ann", "ben"), 2.5, 11),
                             SeatHello("r1-m1-g1", 1, ("ann", "ben"), SeatConfig().timeout, 12)]


def test_a_spec_s_bot_becomes_its_seat() -> None:
    hello = SeatHello("g", 0, ("a", "b"), 30.0, 7)
    heuristic = seat_of(load_bot("heuristic"))
    assert heuristic == PolicySeat(HeuristicBot)
    made = heuristic.player(hello)
    assert isinstance(made, HeuristicBot)
    command = seat_of(load_bot(f"stdio:{sys.executable} bot.py"))
    assert command == ProcessBot((sys.executable, "bot.py"))
    client = command.player(hello)
    assert isinstance(client, Client) and client.starts  # the game waits for it to be ready
    bot = RandomBot(3)
    assert BuiltBot(bot).player(hello) is bot and seat_of(BuiltBot(bot)) == BuiltBot(bot)


class Broken:
    """A bot whose constructor raises."""

    def __init__(self, seed: int) -> None:
        raise RuntimeError(f"no bot today ({seed})")

    def decide(self, view: object, decision: object) -> object:
        raise AssertionError("never built")


async def test_a_bot_that_can_t_be_built_forfeits_and_is_named_in_the_header(tmp_path: Path) -> None:
    trace = tmp_path / "g.jsonl"
    setup = GameSetup(["gruul", "dimir"], 2, ["broken", "random"])
    _, result = await play_seats(setup, [PolicySeat(Broken), PolicySeat(RandomBot)], trace_path=trace)
    assert result.forfeits == [("broken", "bot's constructor raised RuntimeError: no bot today (5)")]
    header = json.loads(trace.read_text("utf-8").splitlines()[0])
    assert header["entrants"]["broken"] == f"{__name__}.Broken"
