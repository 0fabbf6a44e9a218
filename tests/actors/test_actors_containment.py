"""A failure stays inside its own game.

A hostile action is refused by the kernel, so it can't crash anything (before the kernel
checked references, one ``cast`` targeting player ref 3 in a two-player game raised
``IndexError`` in the coordinator and took down all ten games of the nursery). And an
unexpected exception in any actor of a game (coordinator, stack actor, SBA checker, player
actor, tracer) ends that game alone with reason ``engine error: ...`` and its seed recorded,
while the sibling games in the same nursery finish exactly as they do alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import GameResult, Link, TraceWriter, _kernel_actors, _run, _seat_channel, play_one_game
from spellstack.bots import RandomBot
from spellstack.cli import main
from spellstack.protocol import Accepted, ErrorReply, Rejected
from spellstack.rules import Action, Answer, Decision, Game, PlayerView, Reply, ViewMemo

DECKS = [("gruul", "orzhov"), ("dimir", "gruul"), ("orzhov", "dimir")]
SEEDS = list(range(70, 80))
"""Ten games; each seed also picks the decks and the bots' seeds."""
HOSTILE_SEED = 74
FAULTY_SEED = 71
SIBLINGS = [70, 72, 73]
"""Games played next to the faulty one in the fault-injection tests."""


def _decks(seed: int) -> tuple[str, str]:
    return DECKS[seed % len(DECKS)]


def _key(r: GameResult) -> tuple[object, ...]:
    return (r.winner, r.reason, r.turns, r.final_hash, r.seed)


async def _play(seed: int, first: Any = None, trace: Path | None = None) -> tuple[Game, GameResult]:
    bots = [first or RandomBot(2 * seed), RandomBot(2 * seed + 1)]
    return await play_one_game(_decks(seed), bots, seed, names=["alice", "bob"], trace_path=trace)


_ALONE: dict[int, tuple[object, ...]] = {}


async def _alone(seed: int) -> tuple[object, ...]:
    """The result of the game with ``seed`` played by itself with two RandomBots."""
    if seed not in _ALONE:
        _ALONE[seed] = _key((await _play(seed))[1])
    return _ALONE[seed]


# ---------------------------------------------------------------------- hostile actions


def _hostile_actions(view: PlayerView, decision: Decision, seen: set[int]) -> list[Action]:
    """Every kind of hostile priority action, built from what the player can see now; always
    the same number of them, so that a bot cycling through the list sends each kind."""
    big, top = 2**63 - 1, 2**64 - 1  # the largest signed and unsigned ints msgpack carries
    never = 2**62  # an object id that never existed
    casts = [o for o in decision.actions if o.kind == "cast"]
    cast = casts[0].object_id if casts else (view.hand[0].id if view.hand else never)
    theirs = [o.id for o in view.battlefield if o.controller != view.seat] + [never]
    mine = [o.id for o in view.battlefield if o.controller == view.seat] + [never]
    visible = {o.id for o in view.hand} | {o.id for o in view.battlefield}
    # Ids it saw that no longer exist (last known information only).
    gone = [*sorted(seen - visible)[-2:], never, never]
    out = [Action("cast", cast, targets=(ref,))
           for ref in (3, 8, 0, -1, 9, 99, big, top, -(2**63), gone[0], gone[1])]
    for oid in (0, 1, -7, big, top, theirs[0], gone[0]):
        out += [Action("cast", oid), Action("play", oid), Action("activate", oid, 1)]
    out += [Action("activate", mine[0], ability) for ability in (0, -1, 99, big)]
    out += [Action("cast", cast, x=x) for x in (-1, -(2**63), big)]
    out += [Action("cast", cast, pay=pay)
            for pay in ((3,), (0,), (top,), (theirs[0],), (gone[0],), (cast, cast))]
    out += [
        Action("cast", cast, pay_as=("bogus",)),
        Action("cast", cast, pay_as=("life",) * 50),
        Action("cast", cast, divide=((2, 1),)),
        Action("pass", targets=(3,)),
        Action("pass", big),
        Action("play", cast, targets=(3,), x=5),
        Action("untap-everything", cast),
    ]
    return out


def _hostile_answers(decision: Decision) -> list[Answer]:
    """Every kind of hostile answer to a question other than priority."""
    big = 2**63 - 1
    n = len(decision.choices)
    return [
        Answer(decision.id, (-1,)),
        Answer(decision.id, (n,)),
        Answer(decision.id, (big,)),
        Answer(decision.id, (0, 0)),
        Answer(decision.id, (), ((0, 0), (0, 0))),
        Answer(decision.id, (), ((n, n + 1),)),
        Answer(decision.id, (), ((0, -5), (1, big))),
        Answer(decision.id, tuple(range(n + 3)), ((0, 1),)),
    ]


class HostileBot:
    """A RandomBot that sends three hostile replies (cycling through every kind) for each
    legal one, so it stays below the forfeit limits while most of what it sends is hostile."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.asked = 0
        self.actions_sent = 0
        self.answers_sent = 0
        self.refusals: list[str] = []
        self.accepted = 0
        self.errors: list[str] = []
        self.seen: set[int] = set()

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.seen |= {o.id for o in view.hand} | {o.id for o in view.battlefield}
        self.asked += 1
        if self.asked % 4:
            if decision.kind == "priority":
                actions = _hostile_actions(view, decision, self.seen)
                self.actions_sent += 1
                return actions[self.actions_sent % len(actions)]
            answers = _hostile_answers(decision)
            self.answers_sent += 1
            return answers[self.answers_sent % len(answers)]
        return self.inner.decide(view, decision)

    def notify(self, msg: Accepted | Rejected | ErrorReply) -> None:
        if isinstance(msg, Rejected):
            self.refusals.append(msg.reason)
        elif isinstance(msg, Accepted):
            self.accepted += 1
        else:
            self.errors.append(msg.reason)


class RefThree:
    """The crafted action of the bug report: a spell targeting player ref 3 (no such seat in a
    two-player game), sent whenever the bot could cast a targeted spell; legal play between."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.crafted = 0
        self.refusals: list[str] = []
        self._last_crafted = False

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        targeted = [o for o in decision.actions if o.kind == "cast" and o.targets]
        if decision.kind == "priority" and targeted and not self._last_crafted:
            self._last_crafted = True
            self.crafted += 1
            return Action("cast", targeted[0].object_id, targets=(3,))
        self._last_crafted = False
        return self.inner.decide(view, decision)

    def notify(self, msg: Accepted | Rejected | ErrorReply) -> None:
        if isinstance(msg, Rejected):
            self.refusals.append(msg.reason)


async def _ten_games(hostile: Any) -> dict[int, GameResult]:
    results: dict[int, GameResult] = {}

    async def one(seed: int) -> None:
        first = hostile if seed == HOSTILE_SEED else None
        results[seed] = (await _play(seed, first))[1]

    async with trio.open_nursery() as nursery:
        for seed in SEEDS:
            nursery.start_soon(one, seed)
    return results


@pytest.mark.slow
async def test_the_crafted_action_is_refused_and_ten_games_finish(autojump_clock: Any) -> None:
    bot = RefThree(2 * HOSTILE_SEED)
    results = await _ten_games(bot)
    assert sorted(results) == SEEDS
    assert bot.crafted > 0 and len(bot.refusals) == bot.crafted
    assert all(r.startswith("115.1: target 3 names no player") for r in bot.refusals)
    hostile = results[HOSTILE_SEED]
    assert not hostile.reason.startswith("engine error") and not hostile.forfeits
    for seed in SEEDS:
        if seed != HOSTILE_SEED:
            assert _key(results[seed]) == await _alone(seed), seed


@pytest.mark.slow
async def test_every_kind_of_hostile_reply_is_refused_and_nine_games_are_unchanged(
        autojump_clock: Any) -> None:
    bot = HostileBot(2 * HOSTILE_SEED)
    results = await _ten_games(bot)
    assert sorted(results) == SEEDS
    hostile = results[HOSTILE_SEED]
    assert not hostile.reason.startswith("engine error")
    # Every hostile reply was refused (the menu has no legal action in it), none forfeited
    # the seat, and the bot's legal play between them was accepted.
    menu = len(_hostile_actions(PlayerView(0, 1, "upkeep", 0, 0, (), (), (), (), ()),
                                    Decision(1, 0, "priority", ""), set()))
    assert bot.actions_sent > menu and bot.answers_sent > len(_hostile_answers(Decision(1, 0, "x", "")))
    assert len(bot.refusals) + len(bot.errors) == bot.actions_sent + bot.answers_sent
    assert not hostile.forfeits and bot.accepted > 0
    for seed in SEEDS:
        if seed != HOSTILE_SEED:
            assert _key(results[seed]) == await _alone(seed), seed


# ---------------------------------------------------------------------- fault injection


class Injected(RuntimeError):
    """The fault the tests inject."""


def _only_in(game: Game) -> bool:
    return game.state.seed == FAULTY_SEED


def _coordinator_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    # The coordinator builds each request's view in the seat's channel (it runs in its task).
    real = _seat_channel.view_for

    def faulty(game: Game, seat: int, memo: ViewMemo | None = None) -> PlayerView:
        if _only_in(game) and game.state.turn >= 3:
            raise Injected("view_for failed")
        return real(game, seat, memo)

    monkeypatch.setattr(_seat_channel, "view_for", faulty)


def _stack_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _kernel_actors.resolve_top

    def faulty(game: Game) -> Any:
        if _only_in(game):
            raise Injected("resolve_top failed")
        return real(game)

    monkeypatch.setattr(_kernel_actors, "resolve_top", faulty)


def _sba_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _kernel_actors.state_based_actions

    def faulty(game: Game) -> Any:
        if _only_in(game) and game.state.turn >= 2:
            raise Injected("state_based_actions failed")
        return real(game)

    monkeypatch.setattr(_kernel_actors, "state_based_actions", faulty)


class _BreakingLink(Link):
    """A player's end of its channel that fails on its 12th receive (the actor's machinery,
    not the policy, fails: a policy's own errors are forfeits)."""

    received = 0

    async def receive(self) -> Any:
        self.received += 1
        if self.received >= 12:
            raise Injected("the player's link failed")
        return await Link.receive(self)


def _player_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _run.player_actor

    async def faulty(policy: Any, link: Link) -> None:
        if getattr(policy, "faulty", False):
            link = _BreakingLink(link.wire, link.me, link.peer, link.out, link.inbox)
        await real(policy, link)

    monkeypatch.setattr(_run, "player_actor", faulty)


class _BreakingWriter(TraceWriter):
    """A trace writer whose 40th message line fails to write."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.lines = 0

    def message(self, rec: Any) -> None:
        self.lines += 1
        if self.lines >= 40:
            raise Injected("the trace could not be written")
        super().message(rec)


def _tracer_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    def writer(stream: Any, **options: Any) -> TraceWriter:
        faulty = f"seed{FAULTY_SEED}" in getattr(stream, "name", "")
        return _BreakingWriter(stream) if faulty else TraceWriter(stream, **options)

    monkeypatch.setattr(_run, "TraceWriter", writer)


class _FaultyBot(RandomBot):
    faulty = True


FAULTS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "coordinator": _coordinator_fault,
    "stack": _stack_fault,
    "sba": _sba_fault,
    "player:alice": _player_fault,
    "tracer": _tracer_fault,
}


def _footer(path: Path) -> dict[str, Any]:
    lines = path.read_text(encoding="utf-8").splitlines()
    footer = json.loads(lines[-1])
    assert isinstance(footer, dict) and footer["event"] == "result"
    return footer


@pytest.mark.parametrize("actor", list(FAULTS))
async def test_an_actor_failure_ends_its_own_game_only(actor: str, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path, autojump_clock: Any) -> None:
    alone = {seed: await _alone(seed) for seed in SIBLINGS}
    FAULTS[actor](monkeypatch)
    results: dict[int, tuple[Game, GameResult]] = {}

    async def one(seed: int, trace: Path | None) -> None:
        first = _FaultyBot(2 * seed) if seed == FAULTY_SEED else None
        results[seed] = await _play(seed, first, trace)

    trace = tmp_path / f"seed{FAULTY_SEED}.jsonl"
    async with trio.open_nursery() as nursery:
        nursery.start_soon(one, FAULTY_SEED, trace)
        for seed in SIBLINGS:
            nursery.start_soon(one, seed, tmp_path / f"seed{seed}.jsonl")

    game, failed = results[FAULTY_SEED]
    assert failed.reason.startswith(f"engine error: {actor}: Injected: "), failed.reason
    assert failed.winner is None and failed.seed == FAULTY_SEED
    assert isinstance(failed.error, Injected) and failed.error.__traceback__ is not None
    st = game.state
    assert st.game_over and st.winner == -1 and st.end_reason == failed.reason
    assert failed.final_hash == st.state_hash()
    footer = _footer(trace)
    assert footer["seed"] == FAULTY_SEED and footer["reason"] == failed.reason
    for seed in SIBLINGS:
        assert _key(results[seed][1]) == alone[seed], seed
        assert _footer(tmp_path / f"seed{seed}.jsonl")["seed"] == seed


@pytest.mark.parametrize(("actor", "told"), [
    ("coordinator", {"player:alice", "player:bob"}),
    ("stack", {"player:alice", "player:bob"}),
    ("sba", {"player:alice", "player:bob"}),
    ("player:alice", {"player:bob"}),  # alice's actor is the one that failed
])
async def test_the_other_seats_are_told_the_game_is_over(actor: str, told: set[str],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path,
                                                         autojump_clock: Any) -> None:
    FAULTS[actor](monkeypatch)
    trace = tmp_path / "t.jsonl"
    await _play(FAULTY_SEED, _FaultyBot(2 * FAULTY_SEED), trace)
    lines = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    over = [ln for ln in lines if ln.get("kind") == "GameOver"]
    assert {ln["receiver"] for ln in over} == told
    # Only the actor is named to the players: an exception's text could name a hidden card.
    assert all(ln["payload"]["reason"] == f"engine error ({actor})" for ln in over)


async def test_a_result_line_that_cannot_be_written_fails_the_game(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, autojump_clock: Any) -> None:
    class NoFooter(TraceWriter):
        def footer(self, **fields: Any) -> None:
            raise Injected("the result line could not be written")

    monkeypatch.setattr(_run, "TraceWriter", NoFooter)
    game, result = await _play(FAULTY_SEED, trace=tmp_path / "t.jsonl")
    assert result.reason == ("engine error: tracer: Injected: the result line could not be "
                             "written")
    assert result.seed == FAULTY_SEED and result.winner is None
    assert game.state.end_reason == result.reason and result.final_hash == game.state.state_hash()


class _Stop(BaseException):
    """Not an ordinary exception: like KeyboardInterrupt, it must not be contained."""


async def test_base_exceptions_are_not_contained(monkeypatch: pytest.MonkeyPatch,
                                                 autojump_clock: Any) -> None:
    def stop(game: Game) -> Any:
        raise _Stop()

    monkeypatch.setattr(_kernel_actors, "state_based_actions", stop)
    with pytest.raises(BaseExceptionGroup) as info:
        await _play(FAULTY_SEED)
    assert info.value.subgroup(_Stop) is not None


async def test_cancellation_is_not_turned_into_an_engine_error(autojump_clock: Any) -> None:
    finished: list[GameResult] = []

    class Slow(RandomBot):
        async def decide(self, view: PlayerView, decision: Decision) -> Reply:  # type: ignore[override]
            await trio.sleep(0.5)
            return super().decide(view, decision)

    async def one() -> None:
        finished.append((await _play(FAULTY_SEED, Slow(1)))[1])

    with trio.move_on_after(3) as scope:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(one)
    assert scope.cancelled_caught and finished == []


def test_spellstack_play_reports_an_engine_error_with_its_seed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def faulty(game: Game) -> Any:
        raise Injected("resolve_top failed")

    monkeypatch.setattr(_kernel_actors, "resolve_top", faulty)
    assert main(["play", "--seed", "5"]) == 1
    out, err = capsys.readouterr()
    assert "Winner: none on turn" in out and "engine error: stack: Injected" in out
    assert err.strip().endswith("(seed 5)") and "engine error: stack: Injected" in err
