"""Spectators see only public information: every public event, in order, then the game's end;
the same frames whatever cards a player holds hidden, until one of them becomes public."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import trio

from spellstack.actors import GameSetup, TraceRecord, play_game, tracer_actor
from spellstack.bots import RandomBot
from spellstack.cards import Deck, load_cards, load_deck
from spellstack.protocol import (
    GameEvent,
    GameOver,
    Goodbye,
    JoinSeat,
    PriorityRequest,
    Resync,
    Seated,
    SeatSpec,
    Spectate,
    Watched,
    Watching,
    encode,
    to_plain,
)
from spellstack.rules import Decision, PlayerView, Reply, default_answer
from spellstack.server import NOT_WATCHED, SpectatorFeed
from tests.server._clients import connect, create_game, loopback, play_remote, running_server

CARDS = load_cards()


async def test_a_spectator_is_sent_every_public_event_of_the_trace_then_the_end(tmp_path: Path) -> None:
    async with running_server(loopback(trace_dir=tmp_path)) as server:
        assert server.port
        created = await create_game(server.port, (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random")),
                                    seed=11, turn_limit=20)
        async with connect(server.port) as watcher:
            await watcher.send(Spectate(created.spectator))
            assert await watcher.receive() == Watching(created.game, ("alice", "bob"))
            async with trio.open_nursery() as nursery:  # the game waits for alice: nothing is missed
                nursery.start_soon(play_remote, server.port, created.seats[0].token, RandomBot)
                got, code = await watcher.closed()
    *batches, end = got
    assert isinstance(end, GameOver) and code == 1000
    events: list[GameEvent] = []
    for batch in batches:
        assert isinstance(batch, Watched) and batch.first == len(events)
        events.extend(batch.events)
    lines = [json.loads(line) for line in (tmp_path / f"{created.game}.jsonl").read_text("utf-8").splitlines()]
    public = [line["payload"] for line in lines if line.get("kind") == "GameEvent"
              and not line["payload"]["private_to"] and line["payload"]["kind"] not in NOT_WATCHED]
    assert [to_plain(e) for e in events] == public
    assert len(public) > 100
    assert {e.kind for e in events} & {"auto_pass", "priority"} == set()
    assert end.reason == lines[-1]["reason"]


async def test_resync_sends_a_spectator_every_public_event_again() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        created = await create_game(server.port, (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random")),
                                    seed=2)
        async with connect(server.port) as watcher, connect(server.port) as alice:
            await watcher.send(Spectate(created.spectator))
            assert isinstance(await watcher.receive(), Watching)
            await alice.send(JoinSeat(created.seats[0].token))
            assert isinstance(await alice.receive(), Seated)
            # The game waits for alice's first answer, which does not come yet.
            assert isinstance(await alice.receive(), PriorityRequest)
            first = await watcher.receive()
            assert isinstance(first, Watched) and first.first == 0 and first.events
            await watcher.send(Resync())
            again = await watcher.receive()
            while isinstance(again, Watched) and again.first > 0:  # events traced meanwhile
                again = await watcher.receive()
            assert isinstance(again, Watched) and again.first == 0
            assert again.events[:len(first.events)] == first.events
            await alice.send(Goodbye())  # alice leaves: bob wins
            got, code = await watcher.closed()
            assert isinstance(got[-1], GameOver) and code == 1000
            assert got[-1].reason == "bob wins: alice forfeited: said goodbye before the game was over"


# --------------------------------------------------------------------- hidden cards swapped


class Passer:
    """Passes and answers every question with the first legal answer: what it does depends on
    nothing hidden but the order of its hand, never on its cards."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        return default_answer(decision)


@dataclass
class Watch:
    """What one game shows: the spectator feed, and each message's bytes to each seat."""

    feed: SpectatorFeed = field(default_factory=lambda: SpectatorFeed("g1", ("alice", "bob")))
    seqs: list[int] = field(default_factory=list)
    """Each public event's number in the trace."""
    to: dict[str, list[tuple[int, bytes]]] = field(default_factory=lambda: {"player:alice": [], "player:bob": []})

    def message(self, rec: TraceRecord) -> None:
        before = len(self.feed.events)
        self.feed.message(rec)
        if len(self.feed.events) > before:
            self.seqs.append(rec.seq)
        if rec.receiver in self.to:
            self.to[rec.receiver].append((rec.seq, rec.data))


def _opening(deck: Deck) -> tuple[list[str], list[str]]:
    game = GameSetup([deck, "orzhov"], 3, ["alice", "bob"]).build(CARDS)
    alice = game.state.players[0]
    names = game.state.objects
    return [names[i].name for i in alice.hand], [names[i].name for i in alice.library]


def _swapped() -> tuple[Deck, Deck, str, str]:
    """gruul, and gruul with two cards of its list swapped so that alice's first card in hand
    is another (the library's top dozen the same): the two decks and the two cards."""
    gruul = load_deck("gruul", CARDS)
    hand, library = _opening(gruul)
    cards = list(gruul.cards)
    for j in range(1, len(cards)):
        if cards[j] == cards[0]:
            continue
        other = cards[:]
        other[0], other[j] = other[j], other[0]
        hand2, library2 = _opening(Deck(gruul.name, tuple(other)))
        if hand2[0] != hand[0] and hand2[1:] == hand[1:] and library2[:12] == library[:12]:
            return gruul, Deck(gruul.name, tuple(other)), hand[0], hand2[0]
    raise AssertionError("no swap changes the first card in hand alone")


async def _watched(deck: Deck) -> Watch:
    setup = GameSetup([deck, "orzhov"], 3, ["alice", "bob"], turn_limit=10)
    watch = Watch()
    send, recv = trio.open_memory_channel[TraceRecord](math.inf)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(tracer_actor, recv, watch)
        async with send:
            await play_game(setup.build(CARDS), [Passer(), RandomBot(setup.bot_seed(1))], trace=send)
    return watch


def _first_difference(a: list[bytes], b: list[bytes]) -> int:
    return next((n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


async def test_spectator_and_opponent_frames_are_the_same_until_a_swapped_hidden_card_is_public() -> None:
    deck, other, card, card2 = _swapped()
    one, two = await _watched(deck), await _watched(other)
    # The swap shows where it may: alice's own first request (her hand) differs.
    assert one.to["player:alice"][0][1] != two.to["player:alice"][0][1]

    # The spectators': the same events until alice discards her first card to hand size
    # (cleanup, 514.1), the swapped card, which every player then sees.
    events = [encode(e) for e in one.feed.events], [encode(e) for e in two.feed.events]
    at = _first_difference(*events)
    shown = one.feed.events[at], two.feed.events[at]
    assert (shown[0].step, shown[0].zones) == ("cleanup", ("hand", "graveyard"))
    assert card in shown[0].text and card2 in shown[1].text
    assert at > 20
    revealed = one.seqs[at]
    assert revealed == two.seqs[at]

    # Bob's: every message sent him before that is the same, byte for byte.
    bob = [[d for seq, d in game.to["player:bob"] if seq < revealed] for game in (one, two)]
    assert bob[0] == bob[1] and len(bob[0]) >= 3
