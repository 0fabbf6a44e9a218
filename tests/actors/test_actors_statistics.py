"""The actors' counters: a player actor's ``statistics()`` (requests, replies, full views asked
for, notifications, the time its policy held the loop, its forfeit) and the coordinator's,
added up from its own and its seat channels' counters, agreeing with the game's result."""

from __future__ import annotations

from dataclasses import dataclass, field

import trio

from spellstack.actors import (
    ChannelStatistics,
    Coordinator,
    CoordinatorStatistics,
    Link,
    PlayerActor,
    PlayerStatistics,
    SeatConfig,
    Wire,
    play_game,
)
from spellstack.bots import RandomBot
from spellstack.protocol import (
    Accepted,
    DecisionRequest,
    Forfeit,
    GameOver,
    Message,
    PriorityRequest,
    RequestFullView,
    SubmitAction,
    ViewDelta,
    ViewTracker,
)
from spellstack.rules import Action, Decision, Game, PlayerView, Reply, view_for
from spellstack.testing import deck_game

NAMES = ["alice", "bob"]


@dataclass
class Passer:
    """Passes every priority; answers any other question with an action (a wrong reply)."""

    told: list[Message] = field(default_factory=list)

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        return Action("pass")

    def notify(self, msg: Message) -> None:
        self.told.append(msg)


async def test_a_player_actor_counts_what_it_did(autojump_clock: trio.abc.Clock) -> None:
    game = deck_game("gruul", "orzhov", names=NAMES, seed=3)
    coord, player = Link.pair(Wire("g1", None), "coordinator", "player:alice")
    view = view_for(game, 0)
    full = ViewTracker().update(view)
    stray = ViewDelta(9, 8, 0, view.turn, view.step, view.active, view.priority)
    bot = Passer()
    actor = PlayerActor(bot, player)
    assert actor.statistics() == PlayerStatistics(requests_received=0, replies_sent=0, full_views_requested=0,
                                                  notifications=0, held=0.0, forfeit="")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(actor.run)
        await coord.send(PriorityRequest(Decision(1, 0, "priority", "p", actions=()), stray))
        assert await coord.receive() == RequestFullView(1)
        await coord.send(PriorityRequest(Decision(1, 0, "priority", "p", actions=()), full))
        assert await coord.receive() == SubmitAction(1, Action("pass"))
        await coord.send(Accepted(1))
        # A question answered with an action: the actor forfeits the seat, with the reason.
        await coord.send(DecisionRequest(Decision(2, 0, "yes_no", "q"), ViewTracker().update(view)))
        left = await coord.receive()
        assert isinstance(left, Forfeit)
        await coord.send(GameOver("bob", ("alice",), "alice forfeited"))
    assert bot.told == [Accepted(1)]
    stats = actor.statistics()
    assert stats == PlayerStatistics(requests_received=3, replies_sent=1, full_views_requested=1,
                                     notifications=1, held=stats.held, forfeit=left.reason)
    assert left.reason.startswith("policy answered a yes_no decision with Action(")
    assert stats.held == player.held.own >= 0.0


async def test_the_coordinators_counters_add_up_to_the_game() -> None:
    kept: list[Coordinator] = []

    def keep(game: Game, *args: object) -> Coordinator:
        kept.append(Coordinator(game, *args))  # type: ignore[arg-type]
        return kept[-1]

    game = deck_game("gruul", "orzhov", names=NAMES, seed=5)
    result = await play_game(game, [RandomBot(11), RandomBot(12)], configs=[SeatConfig(), SeatConfig()],
                             coordinator=keep)
    [coord] = kept
    stats = coord.statistics()
    seats = [c.statistics() for c in coord.channels]
    assert all(isinstance(s, ChannelStatistics) for s in seats)
    # Every message of the game has the coordinator at one end.
    assert stats.messages_sent + stats.messages_received == result.messages > 0
    assert stats.decisions_asked == sum(s.decisions_asked for s in seats) == result.decisions
    assert stats.automatic_passes == result.auto_passes > 0
    assert stats.strikes == sum(s.strikes for s in seats) == 0
    assert stats.actions_refused == stats.answers_refused == 0
    assert stats.actions_taken + stats.answers_checked == result.decisions
    # Sent to the seats: each request once, its Accepted, and GameOver.
    assert sum(s.messages_sent for s in seats) == 2 * result.decisions + 2
    assert isinstance(stats, CoordinatorStatistics)
