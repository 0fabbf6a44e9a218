"""Stops: the steps in which a seat wants priority even when it could act (as MTG Arena has).

design.md: "A seat may also declare stops (the steps in which it wants priority even when it
could act); elsewhere the coordinator passes for it and records a coordinator event. The
default is to pass automatically only when passing is the only legal action."

Stops are a protocol setting (``SetStops`` in place of the reply to a request, acknowledged
by ``StopsSet``), a ``SeatConfig`` field for in-process use, and a policy attribute the player
actor sends with its first reply. Questions other than priority are never skipped.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information
import pytest
import trio

from spellstack.actors import (
    MAX_SETTINGS,
    Coordinator,
    GameResult,
    Link,
    SeatConfig,
    TraceRecord,
    Wire,
    play_game,
    play_one_game,
    player_actor,
    sba_actor,
    stack_actor,
)
from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.protocol import (
    PROTOCOL_VERSION,
    Accepted,
    ErrorReply,
    GameEvent,
    Message,
    PriorityRequest,
    SetStops,
    Stops,
    StopsSet,
    SubmitAction,
    decode,
    encode,
)
from spellstack.rules import Action, Answer, Decision, Game, PlayerView, Reply, legal_actions, new_game
from spellstack.scenarios import build_game

CARDS = load_cards()
DECKS = ["gruul", "orzhov"]
NAMES = ["alice", "bob"]
MAINS = Stops(my_turn=("precombat_main", "postcombat_main"), stack=False)
"""Priority only in the seat's own main phases, not even to respond."""


class Recorder:
    """A RandomBot that notes where it was asked each question, optionally with stops."""

    def __init__(self, seed: int, stops: Stops | None = None) -> None:
        self.inner = RandomBot(seed)
        if stops is not None:
            self.stops = stops
        self.asked: list[tuple[str, str, bool, bool]] = []
        """(decision kind, step, whether it was the seat's own turn, whether the stack held
        something) for each question."""
        self.notes: list[Message] = []

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.asked.append((decision.kind, view.step, view.active == view.seat, bool(view.stack)))
        return self.inner.decide(view, decision)

    def notify(self, msg: Message) -> None:
        self.notes.append(msg)


def _priority_asks(bot: Recorder) -> list[tuple[str, bool]]:
    return [(step, own) for kind, step, own, _ in bot.asked if kind == "priority"]


async def _traced(game: Game, policies: list[Any], configs: list[SeatConfig] | None = None
                  ) -> tuple[GameResult, list[TraceRecord]]:
    """Play with a tap on the trace; returns the result and every record in order."""
    send, recv = trio.open_memory_channel[TraceRecord](math.inf)
    result = await play_game(game, policies, configs=configs, trace=send)
    records = []
    while True:
        try:
            records.append(recv.receive_nowait())
        except trio.WouldBlock:
            break
    return result, records


def _events(records: list[TraceRecord], kind: str) -> list[GameEvent]:
    out = []
    for rec in records:
        if rec.kind == "GameEvent":
            event = rec.decoded()
            assert isinstance(event, GameEvent)
            if event.kind == kind:
                out.append(event)
    return out


# --------------------------------------------------------------------------- a seat with stops


def _bolt_board() -> Game:
    """Alice's upkeep, alice to act; bob holds Lightning Bolt with an untapped Mountain, and
    each has a Grizzly Bears (so alice can attack and bob is asked for blockers)."""
    game, _ = build_game({
        "players": NAMES, "step": "upkeep",
        "alice": {"battlefield": ["Forest", "Grizzly Bears"], "library": ["Forest"] * 8},
        "bob": {"hand": ["Lightning Bolt"], "battlefield": ["Mountain", "Grizzly Bears"],
                "library": ["Mountain"] * 8},
    }, 1, CARDS, "stops test")
    game.state.turn_limit = 4
    return game


class Attacker:
    """Passes with priority, attacks with everything it can, answers the rest at random."""

    def __init__(self) -> None:
        self.inner = RandomBot(3)

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind == "priority":
            return Action("pass")
        if decision.kind == "attackers":
            pairs, used = [], set()
            for a, b in decision.legal_pairs:
                if a not in used:
                    used.add(a)
                    pairs.append((a, b))
            return Answer(decision.id, (), tuple(pairs))
        return self.inner.decide(view, decision)


async def test_a_seat_holding_an_instant_is_passed_for_outside_its_stops() -> None:
    game = _bolt_board()
    bolt = next(o.id for o in game.state.objects.values()
                if o.owner == 1 and o.zone == "hand")
    # Bob could act in alice's upkeep: the Bolt is castable.
    assert any(a.kind == "cast" and a.object_id == bolt for a in legal_actions(game, 1))
    bob = Recorder(7)
    result, records = await _traced(game, [Attacker(), bob], [SeatConfig(), SeatConfig(stops=MAINS)])
    assert result.forfeits == []
    assert result.turns == 4
    # Priority reached bob only in his own main phases...
    assert _priority_asks(bob), "bob was never asked at all"
    assert all(own and step in MAINS.my_turn for step, own in _priority_asks(bob))
    # ...while questions other than priority still came in alice's turn: blockers.
    assert ("blockers", "declare_blockers", False, False) in bob.asked
    # Each pass made for him is a coordinator event; the first one is alice's upkeep, Bolt
    # in hand. No PriorityRequest went to bob in a step outside his stops.
    passes = [e for e in _events(records, "auto_pass") if e.player == 1]
    said = [e.text.removesuffix(" (no state-based action check needed: nothing one reads changed)")
            for e in passes]
    assert said[0] == "bob has no stop here (upkeep)"
    assert set(said) >= {"bob has no stop here (upkeep)", "bob has no stop here (end)"}
    assert result.auto_passes == len(_events(records, "auto_pass"))
    assert "SetStops" not in {r.kind for r in records}  # set in the seat's config


async def test_without_stops_the_same_seat_is_asked_in_the_opponents_turn() -> None:
    """The counterpart: with the default (no stops) bob, Bolt in hand, is asked in alice's
    upkeep, so the test above shows the stops at work, not a board where he can't act."""
    bob = Recorder(7)
    await _traced(_bolt_board(), [Attacker(), bob])
    assert ("upkeep", False) in _priority_asks(bob)


async def _random_game(seed: int, stops: Stops | None = None, in_config: bool = False,
                       trace: Path | None = None, policies: list[Any] | None = None
                       ) -> tuple[list[Recorder], GameResult]:
    bots = [Recorder(2 * seed + 1, None if in_config else stops), Recorder(2 * seed + 2)]
    configs = [SeatConfig(stops=stops), SeatConfig()] if in_config else None
    _, result = await play_one_game(DECKS, policies or bots, seed, names=NAMES, configs=configs,
                                 trace_path=trace)
    return bots, result


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_policy_declares_its_stops_with_its_first_reply(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    bots, result = await _random_game(seed, MAINS, trace=path)
    assert result.forfeits == []
    assert bots[0].notes[0] == StopsSet(MAINS)
    # The first request is asked before the stops are known; every later one is in them.
    asks = _priority_asks(bots[0])
    assert len(asks) > 1 and all(own and step in MAINS.my_turn for step, own in asks[1:])
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()[1:-1]]
    kinds = [m["kind"] for m in lines if "player:alice" in (m["sender"], m["receiver"])]
    first = kinds.index("SetStops")
    assert kinds[first - 1] in ("PriorityRequest", "DecisionRequest")
    assert kinds[first + 1:first + 3] in (["StopsSet", "SubmitAction"], ["StopsSet", "SubmitAnswer"])
    assert kinds.count("SetStops") == 1
    assert any(m["kind"] == "GameEvent" and m["payload"]["text"].startswith(
        "alice has no stop here") for m in lines)


async def test_stops_from_the_seat_config_apply_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    bots, result = await _random_game(1, MAINS, in_config=True, trace=path)
    assert result.forfeits == []
    asks = _priority_asks(bots[0])
    assert asks and all(own and step in MAINS.my_turn for step, own in asks)
    text = path.read_text("utf-8")
    assert '"kind": "SetStops"' not in text
    assert "alice has no stop here" in text


async def test_stops_that_answer_the_stack_still_skip_empty_windows() -> None:
    stops = Stops(my_turn=("precombat_main",), stack=True)
    bots, result = await _random_game(8, stops, in_config=True)
    assert result.forfeits == []
    asks = [(step, own, stack) for kind, step, own, stack in bots[0].asked if kind == "priority"]
    assert all(stack or (own and step == "precombat_main") for step, own, stack in asks)
    # She was asked to respond outside her stop (in the game the RandomBots play, spells are
    # cast in other steps too), and never in an empty window outside it.
    assert any(stack and not (own and step == "precombat_main") for step, own, stack in asks)


async def test_a_game_with_stops_is_deterministic_and_replays(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _, one = await _random_game(4, MAINS, trace=first)
    _, two = await _random_game(4, MAINS, trace=second)
    assert first.read_bytes() == second.read_bytes()
    assert one.final_hash == two.final_hash

    class Replay(Recorder):
        def __init__(self, replies: list[Reply], stops: Stops | None) -> None:
            super().__init__(0, stops)
            self.replies = replies

        def decide(self, view: PlayerView, decision: Decision) -> Reply:
            return self.replies.pop(0)

    from spellstack.protocol import from_plain

    replies: dict[str, list[Reply]] = {f"player:{n}": [] for n in NAMES}
    for line in first.read_text("utf-8").splitlines()[1:-1]:
        m = json.loads(line)
        if m["kind"] == "SubmitAction":
            replies[m["sender"]].append(from_plain(Action, m["payload"]["action"]))
        elif m["kind"] == "SubmitAnswer":
            replies[m["sender"]].append(from_plain(Answer, m["payload"]["answer"]))
    bots = [Replay(replies["player:alice"], MAINS), Replay(replies["player:bob"], None)]
    third = tmp_path / "c.jsonl"
    _, again = await _random_game(4, MAINS, trace=third, policies=bots)
    assert again.final_hash == one.final_hash
    assert [b.replies for b in bots] == [[], []]
    # The same lines, but for the header's entrants (the replaying bots' class).
    replayed, played = third.read_text("utf-8").splitlines(), first.read_text("utf-8").splitlines()
    assert replayed[1:] == played[1:]
    assert {**json.loads(replayed[0]), "entrants": None} == {**json.loads(played[0]), "entrants": None}


async def test_default_seats_have_no_stops_and_keep_todays_auto_pass() -> None:
    assert SeatConfig().stops is None
    assert not hasattr(RandomBot(1), "stops")
    _, result = await _random_game(5)
    _, again = await _random_game(5, None, in_config=True)
    assert (result.final_hash, result.auto_passes) == (again.final_hash, again.auto_passes)


# --------------------------------------------------------------------------- invalid settings


@pytest.mark.parametrize(("stops", "words"), [
    (Stops(my_turn=("lunch",)), "my_turn: unknown step 'lunch'"),
    (Stops(opponents_turns=("upkeep", "untap")), "no player receives priority in the untap step"),
])
async def test_invalid_stops_from_a_policy_get_an_error_and_change_nothing(
        stops: Stops, words: str) -> None:
    bots, result = await _random_game(6, stops)
    plain, same = await _random_game(6)
    assert isinstance(bots[0].notes[0], ErrorReply)
    assert words in bots[0].notes[0].reason
    assert result.forfeits == []
    # The very same game as without the setting.
    assert (result.winner, result.turns, result.decisions, result.auto_passes,
            result.final_hash) == (same.winner, same.turns, same.decisions, same.auto_passes,
                                   same.final_hash)
    assert bots[0].asked == plain[0].asked


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"my_turn": ("precombat_main", "teatime")}, "unknown step 'teatime'"),
    ({"my_turn": "upkeep"}, "my_turn must be a list of step names, got str"),
    ({"opponents_turns": (3,)}, "a step name must be a str, got int"),
    ({"stack": 1}, "stack must be a bool, got int"),
])
def test_invalid_stops_in_a_seat_config_are_refused(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        SeatConfig(stops=Stops(**kwargs))


# --------------------------------------------------------------------------- the raw protocol


async def _with_raw_alice(body: Callable[[Link, Coordinator, Game], Awaitable[None]]) -> None:
    """A game whose alice is the test, talking bytes; bob is a RandomBot. Alice is asked at
    her first upkeep (auto-pass off)."""
    deck = load_deck("gruul", CARDS).cards
    game = new_game(CARDS, [(NAMES[0], deck), (NAMES[1], deck)], 7)
    wire = Wire("g1", None)
    ends = [Link.pair(wire, "coordinator", f"player:{n}") for n in NAMES]
    stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
    sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
    coord = Coordinator(game, [e[0] for e in ends], [SeatConfig(auto_pass=False), SeatConfig()],
                        stack_c, sba_c)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(player_actor, RandomBot(5), ends[1][1])
            nursery.start_soon(stack_actor, game, stack_a)
            nursery.start_soon(sba_actor, game, sba_a)
            nursery.start_soon(coord.run)
            await body(ends[0][1], coord, game)
            nursery.cancel_scope.cancel()


async def _receive(link: Link) -> Message:
    return decode(await link.inbox.receive())


def _raw_stops(stops: Any) -> bytes:
    data: bytes = msgpack.packb({"k": "SetStops", "v": PROTOCOL_VERSION, "b": {"stops": stops}})
    return data


async def test_set_stops_is_acknowledged_and_the_request_stays_open() -> None:
    async def body(alice: Link, coord: Coordinator, game: Game) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest) and req.view.step == "upkeep"
        before = game.state.state_hash()
        await alice.out.send(encode(SetStops(MAINS)))
        assert await _receive(alice) == StopsSet(MAINS)
        assert coord.stops[0] == MAINS
        assert game.state.state_hash() == before
        # Nothing was sent again: the open request is answered as it was.
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))
        assert await _receive(alice) == Accepted(req.decision.id)
        # Her next question comes in her own precombat main phase (bob has his own questions
        # to answer meanwhile; alice's draw step passed for her).
        nxt = await _receive(alice)
        assert isinstance(nxt, PriorityRequest)
        assert (nxt.view.step, nxt.view.active) == ("precombat_main", 0)

    await _with_raw_alice(body)


@pytest.mark.parametrize(("stops", "words"), [
    (Stops(my_turn=("lunch",)), "invalid SetStops: my_turn: unknown step 'lunch'"),
    (Stops(opponents_turns=("untap",)), "no player receives priority in the untap step (502.4)"),
])
async def test_an_invalid_setting_gets_an_error_and_changes_nothing(stops: Stops, words: str) -> None:
    async def body(alice: Link, coord: Coordinator, game: Game) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        await alice.out.send(encode(SetStops(MAINS)))
        assert await _receive(alice) == StopsSet(MAINS)
        before = game.state.state_hash()
        await alice.out.send(encode(SetStops(stops)))
        reply = await _receive(alice)
        assert isinstance(reply, ErrorReply) and words in reply.reason
        assert coord.stops[0] == MAINS
        assert game.state.state_hash() == before
        # The request is still open, not sent again.
        await alice.out.send(encode(SubmitAction(req.decision.id, Action("pass"))))
        assert await _receive(alice) == Accepted(req.decision.id)
        assert coord.gone == set()

    await _with_raw_alice(body)


@pytest.mark.parametrize(("stops", "words"), [
    ({"my_turn": "upkeep", "opponents_turns": [], "stack": True},
     "stops.my_turn: expected list, got str 'upkeep'"),
    ({"my_turn": [], "opponents_turns": [7], "stack": True}, "opponents_turns[0]: expected str"),
    ({"my_turn": [], "opponents_turns": [], "stack": 1}, "stops.stack: expected bool, got int"),
    ("all", "stops: expected map"),
])
async def test_a_setting_of_the_wrong_type_is_a_malformed_message(stops: Any, words: str) -> None:
    async def body(alice: Link, coord: Coordinator, game: Game) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        before = game.state.state_hash()
        await alice.out.send(_raw_stops(stops))
        reply = await _receive(alice)
        assert isinstance(reply, ErrorReply) and words in reply.reason, reply
        assert coord.stops[0] is None
        assert game.state.state_hash() == before
        # Malformed: the request is sent again, as after any malformed message.
        again = await _receive(alice)
        assert isinstance(again, PriorityRequest) and again.decision == req.decision

    await _with_raw_alice(body)


async def test_settings_cannot_stall_a_request() -> None:
    async def body(alice: Link, coord: Coordinator, game: Game) -> None:
        req = await _receive(alice)
        assert isinstance(req, PriorityRequest)
        for _ in range(MAX_SETTINGS):
            await alice.out.send(encode(SetStops(MAINS)))
            assert await _receive(alice) == StopsSet(MAINS)
        await alice.out.send(encode(SetStops(Stops())))
        reply = await _receive(alice)
        assert isinstance(reply, ErrorReply)
        assert f"more than {MAX_SETTINGS} SetStops for one request" in reply.reason
        assert coord.stops[0] == MAINS

    await _with_raw_alice(body)
