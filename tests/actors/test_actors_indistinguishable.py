"""Property: every number a seat receives depends only on what that seat may know (400.2).

Over many random games of two to four players, one seat (A) plays a seeded RandomBot and reads
as many numbers as it can: it is asked at every grant of priority (no automatic passes), and at
each it first sends an action that is refused, so that a new priority decision follows. Every
other seat passes at every priority and answers every other question with its first
option. Each game is played twice from the same seed: the second time, every card of the other
seats' libraries and opening hands is another card of the pool, drawn at random (the same
counts; ``new_game`` shuffles a deck list by its length alone, so each replaced card sits where
the card it replaces sat, and every object id is the same).

Until one of the replaced cards becomes public to A (drawn and revealed, cast, discarded:
``visible_to`` says A may see it, where it is or where it last was), A may know nothing that
tells the two games apart, so the bytes sent on A's channel must be identical, message for
message: decision ids, view numbers, object ids, counts. The number of A's decisions compared
is reported; on average at least 20.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import pytest

from spellstack.actors import SeatConfig, TraceRecord, play_game
from spellstack.bots import RandomBot
from spellstack.cards import DECKS, load_cards, load_deck
from spellstack.protocol import DecisionRequest, PriorityRequest, decode_trusted
from spellstack.rules import (
    Action,
    Answer,
    CardDefinition,
    Decision,
    Game,
    GameRandom,
    PlayerView,
    Reply,
    default_answer,
    new_game,
    visible_to,
)

CARDS: Mapping[str, CardDefinition] = load_cards()
POOL = sorted(name for name, card in CARDS.items() if not card.is_token)
"""The pool's cards (tokens are no cards, 111.1)."""
DECKLISTS = {name: load_deck(name, CARDS).cards for name in sorted(DECKS)}
GAMES = 60
NAMES = ("alice", "bob", "carol", "dave")
TURNS = 6
"""The games are draws at the end of this turn (``turn_limit``): by then a replaced card has
always become public (the other seats never play a land, so each discards at the end of its
first turn with eight cards), and nothing is compared after that."""


NEVER = 10**9
"""An id that never exists in these games."""


class Reader:
    """A's policy: a RandomBot that sends, at every other priority decision, an action that is
    refused (casting an id that never existed): a new priority decision follows, with its id."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.refused = True

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """A refused cast first, then the bot's reply, by turns."""
        if decision.kind == "priority":
            self.refused = not self.refused
            if not self.refused:
                return Action("cast", NEVER)
        return self.bot.decide(view, decision)


class Passer:
    """Passes at every priority; answers every other question with its first option."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """The first option: the first choice (as many as must be chosen), yes, the order as
        listed, no attackers or blockers; a division as ``default_answer`` makes it."""
        keys = tuple(c.key for c in decision.choices)
        if decision.kind == "priority":
            return Action("pass")
        if decision.kind == "choose":
            return Answer(decision.id, keys[:max(decision.min, min(1, decision.max))])
        if decision.kind == "yes_no":
            return Answer(decision.id, keys[:1])
        if decision.kind == "order":
            return Answer(decision.id, keys)
        if decision.kind in ("attackers", "blockers"):
            return Answer(decision.id)
        return default_answer(decision)


class Tap:
    """The trace channel's sending end: keeps the bytes of every message sent to A, and notes
    the first of them sent while a replaced card was visible to A (``Wire.record`` hands a
    message over as it is sent, one message of the game in flight: the state is the one the
    message was made from)."""

    def __init__(self, game: Game, seat: int, replaced: frozenset[int]) -> None:
        self.game = game
        self.seat = seat
        self.receiver = f"player:{game.state.players[seat].name}"
        self.replaced = replaced
        """The ids the replaced cards had at the start (``GameObject.card`` keeps a card's
        first id through its zone changes, 400.7)."""
        self.sent: list[bytes] = []
        self.public: int | None = None
        """The index in ``sent`` of the first message sent while a replaced card was visible to
        A; None while none was."""

    def _shown(self) -> bool:
        st = self.game.state
        for table in (st.objects, st.lki):
            for obj in table.values():
                if obj.card in self.replaced and visible_to(self.game, self.seat, obj):
                    return True
        return False

    def send_nowait(self, rec: TraceRecord) -> None:
        if rec.receiver != self.receiver:
            return
        if self.public is None and self._shown():
            self.public = len(self.sent)
        self.sent.append(rec.data)


@dataclass(frozen=True)
class Table:
    """One game's seats: its size, A's seat, every seat's deck list."""

    seed: int
    seat: int
    decks: tuple[tuple[str, ...], ...]


def _table(seed: int) -> Table:
    rng = GameRandom.from_seed(seed * 31 + 7)
    n = 2 + rng.below(3)
    names = sorted(DECKLISTS)
    decks = tuple(tuple(DECKLISTS[rng.choice(names)]) for _ in range(n))
    return Table(seed, rng.below(n), decks)


def _replaced(table: Table) -> Table:
    """The same table, every other seat's cards replaced by pool cards drawn at random."""
    rng = GameRandom.from_seed(table.seed * 131 + 5)
    decks = tuple(deck if s == table.seat else tuple(rng.choice(POOL) for _ in deck)
                  for s, deck in enumerate(table.decks))
    return Table(table.seed, table.seat, decks)


async def _play(table: Table) -> Tap:
    n = len(table.decks)
    game = new_game(CARDS, [(NAMES[s], table.decks[s]) for s in range(n)], table.seed,
                    turn_limit=TURNS)
    st = game.state
    replaced = frozenset(o.card for o in (*st.objects.values(), *st.lki.values())
                         if o.owner != table.seat)
    tap = Tap(game, table.seat, replaced)
    policies = [Reader(table.seed * 7 + 1) if s == table.seat else Passer() for s in range(n)]
    configs = [SeatConfig(auto_pass=s != table.seat) for s in range(n)]
    result = await play_game(game, policies, configs=configs, trace=cast(Any, tap))
    assert result.forfeits == [], result.forfeits
    return tap


def _layout(game: Game) -> list[tuple[int, str, tuple[int, ...], tuple[int, ...]]]:
    """Each seat's zones by ids (and its name): what the replacement must leave alone."""
    return [(p.seat, p.name, tuple(p.hand), tuple(p.library)) for p in game.state.players]


def _decisions(sent: list[bytes]) -> int:
    """How many of these messages ask A a decision."""
    return sum(isinstance(decode_trusted(data), PriorityRequest | DecisionRequest) for data in sent)


@pytest.mark.slow
async def test_a_seat_receives_the_same_bytes_whatever_the_others_hold() -> None:
    compared: list[int] = []
    for seed in range(GAMES):
        table = _table(seed)
        other = _replaced(table)
        assert other.decks != table.decks
        tap_one = await _play(table)
        tap_two = await _play(other)
        start_one = new_game(CARDS, [(NAMES[s], d) for s, d in enumerate(table.decks)], seed)
        start_two = new_game(CARDS, [(NAMES[s], d) for s, d in enumerate(other.decks)], seed)
        # The same ids in the same zones, and A's own cards the same cards.
        assert _layout(start_one) == _layout(start_two)
        mine = [o.name for o in start_one.state.objects.values() if o.owner == table.seat]
        assert mine == [o.name for o in start_two.state.objects.values() if o.owner == table.seat]
        ends = [t.public if t.public is not None else len(t.sent) for t in (tap_one, tap_two)]
        end = min(ends)
        assert tap_one.public is not None and tap_two.public is not None, seed
        for i in range(end):
            a, b = tap_one.sent[i], tap_two.sent[i]
            assert a == b, (f"game {seed} ({len(table.decks)} players, A in seat {table.seat}): "
                            f"message {i + 1} to A differs before any replaced card is public:"
                            f"\n{decode_trusted(a)}\n{decode_trusted(b)}")
        compared.append(_decisions(tap_one.sent[:end]))
    average = sum(compared) / len(compared)
    print(f"A's decisions compared: {average:.1f} on average, {min(compared)} at least, "
          f"over {len(compared)} games")
    assert average >= 20, compared
