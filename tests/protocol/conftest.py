"""Realistic sample messages shared by the protocol tests."""

from __future__ import annotations

import pytest

from spellstack.protocol import (
    Accepted,
    AskPlayer,
    CheckSBA,
    Concede,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    GameEvent,
    GameOver,
    Message,
    PlayerReply,
    PriorityRequest,
    Rejected,
    RequestFullView,
    Resolve,
    Resolved,
    SBABatch,
    SetStops,
    Stops,
    StopsSet,
    SubmitAction,
    SubmitAnswer,
    ViewDelta,
    ViewTracker,
)
from spellstack.rules.state import Action, ActionOption, Answer, Choice, Decision, TargetRequirement
from spellstack.rules.views import ObjectView, PlayerPublic, PlayerView, StackItemView


def make_delta(seat: int = 0) -> ViewDelta:
    """A full view of ``make_view(seat)`` as a request carries it."""
    return ViewTracker().update(make_view(seat))


def make_view(seat: int = 0) -> PlayerView:
    """A mid-game view: two players, a hand, a busy battlefield, a spell on the stack."""
    bears = [
        ObjectView(
            id=100 + i,
            name="Grizzly Bears",
            owner=i % 2,
            controller=i % 2,
            types=("Creature",),
            tapped=i % 3 == 0,
            power=2,
            toughness=2,
            damage=1 if i == 4 else 0,
            counters=(("+1/+1", 1),) if i == 2 else (),
            sick=i == 5,
        )
        for i in range(6)
    ]
    lands = [
        ObjectView(id=200 + i, name="Forest", owner=i % 2, controller=i % 2, types=("Land",))
        for i in range(8)
    ]
    hand = tuple(
        ObjectView(id=300 + i, name=name, owner=seat, controller=seat, types=(kind,))
        for i, (name, kind) in enumerate(
            [("Lightning Bolt", "Instant"), ("Forest", "Land"), ("Giant Growth", "Instant")]
        )
    )
    players = tuple(
        PlayerPublic(
            seat=s,
            name=("Alice", "Bob")[s],
            life=20 - 3 * s,
            poison=0,
            hand_count=3 + s,
            library_count=45 - s,
            graveyard=(ObjectView(id=400 + s, name="Shock", owner=s, controller=s),),
            mana=(("G", 2),) if s == seat else (),
            lost=False,
        )
        for s in range(2)
    )
    return PlayerView(
        seat=seat,
        turn=5,
        step="main1",
        active=0,
        priority=seat,
        players=players,
        hand=hand,
        battlefield=tuple(bears + lands),
        stack=(
            StackItemView(id=500, name="Shock", controller=1, is_ability=False, targets=(101,)),
        ),
        exile=(),
    )


def make_priority_decision() -> Decision:
    """A priority decision with a few actions, one of them targeted."""
    return Decision(
        id=17,
        player=0,
        kind="priority",
        prompt="You have priority (117.3a).",
        actions=(
            ActionOption(kind="pass"),
            ActionOption(
                kind="cast",
                object_id=300,
                name="Lightning Bolt",
                targets=(
                    TargetRequirement(
                        prompt="any target", min=1, max=1, candidates=(100, 101, 102, -1, -2)
                    ),
                ),
            ),
            ActionOption(kind="play", object_id=301, name="Forest"),
            ActionOption(
                kind="cast",
                object_id=302,
                name="Giant Growth",
                targets=(
                    TargetRequirement(
                        prompt="target creature", min=1, max=1, candidates=(100, 101, 102)
                    ),
                ),
            ),
            ActionOption(kind="activate", object_id=200, name="Forest", ability=1),
            ActionOption(kind="concede"),
        ),
    )


def make_choose_decision() -> Decision:
    """A non-priority decision with choices."""
    return Decision(
        id=18,
        player=1,
        kind="choose",
        prompt="Choose a creature to sacrifice (701.21).",
        choices=tuple(Choice(key=i, ref=100 + i, name="Grizzly Bears") for i in range(3)),
        min=1,
        max=1,
    )


def make_messages() -> list[Message]:
    """One realistic message of every kind."""
    return [
        PriorityRequest(decision=make_priority_decision(), view=make_delta(0)),
        DecisionRequest(decision=make_choose_decision(), view=make_delta(1)),
        RequestFullView(decision_id=17),
        SubmitAction(
            decision_id=17,
            action=Action(
                kind="cast",
                object_id=300,
                targets=(101,),
                x=0,
                divide=((101, 2), (-2, 1)),
                pay=(200, 202),
                pay_as=("R", "life"),
            ),
        ),
        SubmitAnswer(answer=Answer(decision_id=18, keys=(2,), pairs=((1, 4), (2, 5)))),
        SetStops(stops=Stops(my_turn=("precombat_main", "postcombat_main"),
                             opponents_turns=("end",), stack=True)),
        StopsSet(stops=Stops(my_turn=("upkeep",), opponents_turns=(), stack=False)),
        Accepted(decision_id=17),
        Rejected(decision_id=17, reason="Lightning Bolt needs a target (601.2c)."),
        ErrorReply(reason="invalid message: truncated (incomplete msgpack data)"),
        Forfeit(reason="policy timed out after 5.0 s"),
        Concede(),
        CheckSBA(),
        SBABatch(count=3),
        SBABatch(count=0),
        Resolve(object_id=500),
        Resolved(object_id=500, name="Shock", count=2),
        AskPlayer(decision=make_choose_decision()),
        PlayerReply(answer=Answer(decision_id=18, keys=(0,))),
        GameOver(winner="Alice", losers=("Bob",), reason="Bob's life total is 0 (704.5a)."),
        GameEvent(turn=3, step="upkeep", kind="auto_pass", player=1, text="only pass was legal"),
        GameEvent(3, "combat_damage", "damage", 1, "Hill Giant deals 3 damage to bob", 140, 3, (140, 2), (), ()),
        GameEvent(3, "draw", "draw", 0, "alice draws Shock", 141, 1, (), ("library", "hand"), (0,)),
    ]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run tests taking ``sample_message`` once per sample message."""
    if "sample_message" in metafunc.fixturenames:
        samples = make_messages()
        ids = [f"{type(m).__name__}-{i}" for i, m in enumerate(samples)]
        metafunc.parametrize("sample_message", samples, ids=ids)


@pytest.fixture
def messages() -> list[Message]:
    """One realistic message of every kind."""
    return make_messages()


@pytest.fixture
def fresh_messages() -> list[Message]:
    """The same messages, built again (equal, not identical)."""
    return make_messages()


@pytest.fixture(scope="session")
def sample_encodings() -> list[bytes]:
    """Every sample message, encoded."""
    from spellstack.protocol import encode

    return [encode(m) for m in make_messages()]


@pytest.fixture
def priority_request() -> PriorityRequest:
    """A typical priority request."""
    return PriorityRequest(decision=make_priority_decision(), view=make_delta(0))
