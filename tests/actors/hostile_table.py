"""A hostile seat's table for the actors tests (``test_actors_bad_input.py``,
``test_actors_message_caps.py``): a real Coordinator over real Links, with alice's end of her link
left to the test and bob a RandomBot behind a real player actor."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import trio

from spellstack.actors import (
    Coordinator,
    GameResult,
    Link,
    SeatConfig,
    Wire,
    player_actor,
    sba_actor,
    stack_actor,
)
from spellstack.bots import RandomBot
from spellstack.protocol import DecisionRequest, Message, PriorityRequest, decode, encode
from spellstack.rules import Game
from spellstack.testing import deck_game

NAMES = ("alice", "bob")
SEED = 7
HOSTILE = 0


@dataclass
class Table:
    """One game: a coordinator, the stack actor and SBA checker, bob's player actor, and
    alice's end of her link, held by the test."""

    game: Game
    hostile: Link
    result: GameResult | None = None
    done: trio.Event = field(default_factory=trio.Event)
    log: list[Message] = field(default_factory=list)
    """Everything alice received, in order."""

    async def receive(self) -> Message:
        msg = decode(await self.hostile.inbox.receive())
        self.log.append(msg)
        return msg

    async def request(self) -> PriorityRequest | DecisionRequest:
        """The next request to alice (there must be one)."""
        msg = await self.receive()
        assert isinstance(msg, PriorityRequest | DecisionRequest), msg
        return msg

    async def send_raw(self, data: bytes) -> None:
        await self.hostile.out.send(data)

    async def send(self, msg: Message) -> None:
        await self.hostile.out.send(encode(msg))

    def hash(self) -> str:
        return self.game.state.state_hash()

    async def finish_with_bot(self, seed: int = 11) -> GameResult:
        """Hand alice's seat to a RandomBot and wait for the end of the game."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(player_actor, RandomBot(seed), self.hostile)
            await self.done.wait()
            nursery.cancel_scope.cancel()
        assert self.result is not None
        return self.result

    async def wait_result(self) -> GameResult:
        await self.done.wait()
        assert self.result is not None
        return self.result


async def run_table(body: Callable[[Table], Awaitable[None]], *, seed: int = SEED,
                    decks: tuple[str, str] = ("gruul", "gruul"), timeout: float = 30.0,
                    limit: float = 60.0, priority_views: bool = True) -> Table:
    """Set up a game like ``play_game`` does, with alice's seat left to ``body``
    (``priority_views``: her ``SeatConfig.priority_views``)."""
    game = deck_game(*decks, names=NAMES, seed=seed)
    wire = Wire("g1", None)
    configs = [SeatConfig(auto_pass=False, timeout=timeout, priority_views=priority_views),
               SeatConfig(timeout=timeout)]
    with trio.fail_after(limit):
        async with trio.open_nursery() as nursery:
            coord_ends: list[Link] = []
            ends: list[Link] = []
            for name in NAMES:
                mine, theirs = Link.pair(wire, "coordinator", f"player:{name}")
                coord_ends.append(mine)
                ends.append(theirs)
            nursery.start_soon(player_actor, RandomBot(5), ends[1])
            stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
            sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
            nursery.start_soon(stack_actor, game, stack_a)
            nursery.start_soon(sba_actor, game, sba_a)
            table = Table(game, ends[0])
            coordinator = Coordinator(game, coord_ends, configs, stack_c, sba_c)

            async def coordinate() -> None:
                table.result = await coordinator.run()
                table.done.set()

            nursery.start_soon(coordinate)
            await body(table)
            await table.done.wait()
            nursery.cancel_scope.cancel()
    return table
