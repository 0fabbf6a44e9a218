"""``spellstack fuzz``: the CI run, determinism, replay, and proof that its checks catch what they
claim to (broken coordinators fed to the same harness must be reported)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
import trio
import trio.testing

from spellstack.actors import MAX_REJECTIONS, Coordinator, SeatChannel, SeatClock
from spellstack.cards import load_cards, load_deck
from spellstack.cli import main
from spellstack.harness import (
    POLICY_KINDS,
    SIBLING_TIMEOUT,
    ForfeitGuard,
    FuzzReport,
    beside,
    fuzz,
    hidden_leaks,
)
from spellstack.protocol import Accepted, ErrorReply, Message, Rejected
from spellstack.rules import Action, Answer, new_game, visible_to
from spellstack.rules.turn import Ask, AskPriority


def _reached(out: str) -> tuple[int, int, int, int]:
    m = re.search(r"reached the kernel \(take_action or check_answer\): (\d+) of (\d+) messages "
                  r"\([\d.]+%\); mutated: (\d+) of (\d+)", out)
    assert m is not None, out
    a, b, c, d = (int(g) for g in m.groups())
    return a, b, c, d


@pytest.mark.slow
def test_the_ci_run_has_no_failures_and_most_messages_reach_the_kernel(
        capsys: pytest.CaptureFixture[str]) -> None:
    start = time.perf_counter()
    code = main(["fuzz", "--messages", "20000", "--seed", "1", "--siblings", "2", "--block", "0.2"])
    elapsed = time.perf_counter() - start
    out = capsys.readouterr().out
    assert code == 0, out[-4000:]
    assert "failures: 0" in out
    assert "FAIL " not in out
    reached, total, reached_mutated, mutated = _reached(out)
    assert total >= 20000
    assert reached > total / 2
    assert reached_mutated > mutated / 2
    # Every kind of mutation was sent, and the protocol's forfeits were exercised and allowed.
    for kind in ("random_bytes", "truncated", "bit_flip", "envelope", "structure",
                 "wrong_message", "unsolicited", "boundary", "zone_id", "player_ref",
                 "wrong_action", "out_of_turn", "answer", "wrong_type", "legal", "object_bomb",
                 "bomb_cycle"):
        assert re.search(rf"^\s*{kind}\s+[1-9]", out, re.M), kind
    assert "hostile forfeits the protocol called for" in out
    assert re.search(r"^hostile forfeits the protocol called for .*bomb cycle [1-9]", out, re.M)
    assert re.search(r"^object-count bombs refused: [1-9]\d*, in [\d.]+ ms on average", out, re.M)
    # Every hostile policy was played, and forfeited as called for (a blocking one only when
    # it blocked past its deadline: not in every game).
    line = re.search(r"^policy games .*$", out, re.M)
    assert line is not None, out
    for kind in POLICY_KINDS:
        m = re.search(rf"\b{kind} (\d+)/(\d+)", line.group(0))
        assert m is not None, kind
        games, forfeits = int(m.group(1)), int(m.group(2))
        assert games >= 1 and (forfeits == games if kind != "block" else 0 < forfeits < games), (
            kind, line.group(0))
    sib = re.search(r"^siblings: (\d+) honest games beside the hostile ones, (\d+) decisions", out,
                    re.M)
    assert sib is not None and int(sib.group(1)) >= 2 * 2 * 16 and int(sib.group(2)) > 0, out
    print(f"fuzz --messages 20000 --siblings 2 took {elapsed:.1f} s")


@pytest.mark.slow
async def test_same_seed_same_counts() -> None:
    a = await fuzz(5, 1500)
    b = await fuzz(5, 1500)
    assert a.messages == b.messages >= 1500
    assert a.games == b.games
    assert a.kinds == b.kinds
    assert a.forfeits == b.forfeits
    assert a.results == b.results
    c = await fuzz(6, 1500)
    assert c.kinds != a.kinds


@pytest.mark.slow
async def test_a_three_player_table() -> None:
    report = await fuzz(2, 1500, players=3)
    assert report.failure_count == 0, report.failures
    assert report.messages >= 1500
    reached = sum(c.take_action + c.check_answer for c in report.kinds.values())
    assert reached > report.messages / 2


@pytest.mark.parametrize("argv", [["--messages", "0"], ["--game", "-1"], ["--messages", "-3"],
                                  ["--players", "1"], ["--players", "5"], ["--siblings", "-1"],
                                  ["--block", "0"], ["--block", "11"]])
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", *argv]) == 2
    assert "spellstack fuzz: --" in capsys.readouterr().err


def test_an_ill_typed_argument_exits_2() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["fuzz", "--messages", "many"])
    assert exc.value.code == 2


# --------------------------------------------------------------------------- broken fakes


class LeakyChannel(SeatChannel):
    """Tells a refused player the top card of the opponent's library in every refusal."""

    async def send(self, msg: Message, *, last_word: bool = False) -> bool:
        if isinstance(msg, Rejected):
            st = self.game.state
            top = st.objects[st.players[1 - self.seat].library[0]]
            msg = Rejected(msg.decision_id, f"{msg.reason}; by the way: {top.name} (#{top.id})")
        return await super().send(msg, last_word=last_word)


class LeakyCoordinator(Coordinator):
    channel_class = LeakyChannel


class CostlyChannel(SeatChannel):
    """Charges a life for every refused action: a refusal that changes the state."""

    async def send(self, msg: Message, *, last_word: bool = False) -> bool:
        if isinstance(msg, Rejected):
            self.game.state.players[self.seat].life -= 1
        return await super().send(msg, last_word=last_word)


class CostlyRefusals(Coordinator):
    channel_class = CostlyChannel


class FragileChannel(SeatChannel):
    """Dies on the fortieth refusal of its game, like a kernel that raises on a strange
    reference."""

    refusals: list[int]
    """Refusals so far in the game, shared by its channels (``FragileCoordinator``)."""

    async def send(self, msg: Message, *, last_word: bool = False) -> bool:
        if isinstance(msg, Rejected):
            self.refusals[0] += 1
            if self.refusals[0] == 40:
                raise IndexError("list index out of range")
        return await super().send(msg, last_word=last_word)


class FragileCoordinator(Coordinator):
    channel_class = FragileChannel

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        shared = [0]
        for channel in self.channels:
            assert isinstance(channel, FragileChannel)
            channel.refusals = shared


class ImpatientChannel(SeatChannel):
    """Forfeits the seat at its first malformed message."""

    async def strike(self, why: str) -> bool:
        self._strikes = 2
        return await super().strike(why)


class ImpatientCoordinator(Coordinator):
    channel_class = ImpatientChannel


class GameWideIdsCoordinator(Coordinator):
    """Runs its game with decision ids numbered per game instead of per seat: as it asks a
    decision, every seat's count of decisions becomes the highest, so the next one of any seat
    follows it, and the ids a seat receives jump by what the other seats were asked."""

    def _count_for_the_game(self) -> None:
        counts = self.game.state.decisions
        top = max(counts.values(), default=0)
        for seat in range(len(self.game.state.players)):
            counts[seat] = top

    async def ask_priority(self, request: AskPriority) -> Action | None:
        self._count_for_the_game()
        return await super().ask_priority(request)

    async def ask(self, request: Ask) -> Answer:
        self._count_for_the_game()
        return await super().ask(request)


def _whats(report: FuzzReport) -> list[str]:
    return [f.what for f in report.failures]


@pytest.mark.slow
async def test_a_leaky_coordinator_is_caught() -> None:
    report = await fuzz(1, 600, coordinator=LeakyCoordinator)
    assert report.failure_count > 0
    assert any("identifies hidden" in w and "by the way" in w for w in _whats(report))


@pytest.mark.slow
async def test_decision_ids_numbered_per_game_are_caught() -> None:
    report = await fuzz(1, 600, coordinator=GameWideIdsCoordinator)
    assert any("to the hostile seat has decision id" in w and "a gap counts decisions of others"
               in w for w in _whats(report)), _whats(report)
    # Numbered per seat, the same games pass the check.
    assert not any("decision id" in w for w in _whats(await fuzz(1, 600)))


@pytest.mark.slow
async def test_a_refusal_that_changes_the_state_is_caught() -> None:
    report = await fuzz(1, 600, coordinator=CostlyRefusals)
    assert any("refused (Rejected" in w and "state hash changed" in w for w in _whats(report))


@pytest.mark.slow
async def test_an_engine_exception_is_caught_with_the_message_that_caused_it() -> None:
    report = await fuzz(1, 600, coordinator=FragileCoordinator)
    crashes = [f for f in report.failures if "engine exception IndexError" in f.what]
    assert crashes
    first = crashes[0]
    assert first.message > 0 and first.data
    assert first.replay() == f"spellstack fuzz --seed 1 --game {first.game}" + (
        f" --messages {first.quota}" if first.quota else "")
    # The printed replay reproduces it exactly: same game, same message, same bytes.
    again = await fuzz(1, first.quota, game=first.game, coordinator=FragileCoordinator)
    replayed = [f for f in again.failures if "engine exception IndexError" in f.what]
    assert (replayed[0].message, replayed[0].data) == (first.message, first.data)


@pytest.mark.slow
async def test_a_forfeit_the_protocol_does_not_call_for_is_caught() -> None:
    report = await fuzz(1, 600, coordinator=ImpatientCoordinator)
    whats = _whats(report)
    assert any(w.startswith("refused (ErrorReply") and "state hash changed" in w for w in whats)
    assert any(w.startswith("forfeit the protocol did not call for") and "malformed" in w
               for w in whats)


def test_the_guard_counts_as_the_coordinator_does() -> None:
    g = ForfeitGuard()
    assert g.update(ErrorReply("x"), "priority", 1) == ""
    assert g.safe("priority", 1)
    assert g.update(ErrorReply("x"), "priority", 1) == ""
    assert not g.safe("priority", 1)  # one more malformed message would forfeit
    # A refused action does not reset the strikes: only an accepted one does.
    assert g.update(Rejected(2, "no"), "priority", 2) == ""
    assert g.strikes == 2 and g.priority_rejections == 1
    assert not g.safe("priority", 2)
    assert g.update(ErrorReply("x"), "priority", 2) == "strikes"
    g = ForfeitGuard()
    g.update(ErrorReply("x"), "priority", 2)
    g.update(Accepted(2), "priority", 2)
    assert g.strikes == 0
    assert g.update(Rejected(2, "no"), "priority", 2) == ""
    for i in range(MAX_REJECTIONS - 2):
        assert g.update(Rejected(3 + i, "no"), "priority", 3 + i) == ""
    assert not g.safe("priority", 99)
    assert g.update(Rejected(99, "no"), "priority", 99) == "rejections"
    g.update(Accepted(100), "priority", 100)
    assert g.priority_rejections == 0 and g.safe("priority", 101)
    # Refused answers count per decision, and don't reset the strikes.
    g.update(ErrorReply("x"), "decision", 5)
    g.update(Rejected(5, "no"), "decision", 5)
    assert g.strikes == 1 and g.answer_rejections == 1
    g.update(Rejected(6, "no"), "decision", 6)
    assert g.answer_rejections == 1
    assert g.update(ErrorReply("x"), "decision", 6) == ""
    assert g.update(ErrorReply("x"), "decision", 6) == "strikes"


def test_hidden_leaks_finds_a_hidden_name_and_a_hidden_id() -> None:
    cards = load_cards()
    game = new_game(cards, [("alice", load_deck("gruul", cards).cards),
                            ("bob", load_deck("orzhov", cards).cards)], 3)
    st = game.state
    theirs = st.objects[st.players[1].hand[0]]
    mine = st.objects[st.players[0].hand[0]]
    assert not visible_to(game, 0, theirs)
    assert visible_to(game, 0, mine)
    assert hidden_leaks(game, 0, {"reason": f"{mine.name} (#{mine.id}) is not legal"}) == []
    assert hidden_leaks(game, 0, {"reason": f"#{theirs.id} is not legal"}) == []
    found = hidden_leaks(game, 0, {"reason": f"{theirs.name} (#{theirs.id}) is not legal"})
    assert any("identifies hidden" in f for f in found)
    assert hidden_leaks(game, 0, [{"id": theirs.id, "name": theirs.name}])
    assert hidden_leaks(game, 1, [{"id": theirs.id, "name": theirs.name}]) == []


async def test_siblings_that_forfeit_are_caught(autojump_clock: trio.testing.MockClock,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """With deadlines read by the wall clock again (the seat's time never given back), a
    hostile game that holds the loop makes honest siblings forfeit, and the siblings mode
    reports each of them."""

    async def hog() -> None:
        for _ in range(40):
            await trio.sleep(0)
            autojump_clock.jump(2 * SIBLING_TIMEOUT)  # the loop held by the hostile game

    report = FuzzReport(1)
    await beside(report, 0, 12345, 2, hog)
    assert report.failure_count == 0, report.failures
    assert report.siblings.games == 2 and report.siblings.decisions > 0

    monkeypatch.setattr(SeatClock, "charged", lambda self, lag, mine: trio.current_time() - self.start)
    broken = FuzzReport(1)
    await beside(broken, 0, 12345, 2, hog)
    whats = _whats(broken)
    assert any(w.startswith("honest sibling") and ("forfeited: no answer within 1 s" in w or (
        "forfeited: answered after" in w and "over its 1 s deadline" in w)) for w in whats), whats
    assert broken.failures[0].replay() == "spellstack fuzz --seed 1 --game 0 --siblings 2"
