"""The message-level trace of a real game, checked against the design's priority cycle.

design.md, "One priority cycle": ``CheckSBA`` -> ``SBABatch`` (again until empty; the
coordinator may skip the round trip when nothing happened since the last check, and records
that it did) -> triggers placed -> ``PriorityRequest`` -> ``SubmitAction`` ->
``Accepted``/``Rejected`` ... -> all players pass in succession -> ``Resolve`` -> ``Resolved``.
Only one message per game is in flight; every message is numbered when it is sent.

One traced game (gruul vs orzhov, seed 1, two RandomBots) is played once per module and every
invariant is a separate test over its JSON Lines trace. Determinism and replay play more games.

Over 600 lines on purpose: every check here reads the one module-scoped traced game and the
helpers that walk its messages; split in two, each half would play and trace it again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack import __version__
from spellstack.actors import TRACE_FORMAT, GameResult, play_one_game
from spellstack.bots import RandomBot
from spellstack.protocol import MESSAGE_TYPES, ViewDelta, ViewMirror, from_plain
from spellstack.rules import Action, Answer, Decision, PlayerView, Reply
from spellstack.trace import ReplayBot, TraceHeader, TraceMessage, TraceResult, read_trace, replay_trace
from spellstack.trace import Trace as RecordedTrace

DECKS = ["gruul", "orzhov"]
NAMES = ["alice", "bob"]
SEED = 1
PLAYERS = [f"player:{n}" for n in NAMES]

# Messages that hand the turn to speak to their receiver; the others (notifications and
# coordinator events) leave it with the sender.
HANDS_OVER = frozenset({
    "CheckSBA", "SBABatch", "Resolve", "Resolved", "AskPlayer", "PlayerReply",
    "PriorityRequest", "DecisionRequest", "SubmitAction", "SubmitAnswer", "Forfeit",
})
NOTIFICATIONS = frozenset({"Accepted", "Rejected", "ErrorReply", "GameOver", "GameEvent"})


# --------------------------------------------------------------------------- helpers


@dataclass(frozen=True)
class Trace:
    path: Path
    header: TraceHeader
    messages: list[TraceMessage]
    footer: TraceResult
    result: GameResult
    read: RecordedTrace


def _bots(seed_a: int = 1, seed_b: int = 2) -> list[RandomBot]:
    return [RandomBot(seed_a), RandomBot(seed_b)]


async def _play_traced(path: Path, seed: int = SEED, policies: list[Any] | None = None
                       ) -> GameResult:
    _, result = await play_one_game(DECKS, policies if policies is not None else _bots(), seed=seed,
                                 names=NAMES, trace_path=path)
    return result


# The trace-only records the checks of the message flow below read: the automatic passes the
# coordinator makes, and forfeits. A grant of priority records a skipped state-based action
# check (amount 1); the flow below shows it as an ``sba_skipped`` marker just before the grant,
# so that a check or a skip before each grant reads the same way. The other GameEvents (what
# happened in the game) sit between messages and are checked in tests/trace_format.
_FLOW_EVENTS = frozenset({"auto_pass", "forfeit"})


def _flow(messages: Iterable[TraceMessage]) -> list[TraceMessage]:
    """The messages, the trace-only records of ``_FLOW_EVENTS``, and a marker for each skipped
    check before the grant it was recorded with."""
    out = []
    for m in messages:
        if m.kind != "GameEvent":
            out.append(m)
            continue
        kind = m.payload["kind"]
        if kind in ("priority", "auto_pass") and m.payload["amount"] == 1:
            out.append(replace(m, payload={**m.payload, "kind": "sba_skipped", "player": -1}))
        if kind in _FLOW_EVENTS:
            out.append(m)
    return out


def _load(path: Path, result: GameResult) -> Trace:
    read = read_trace(path)
    return Trace(path, read.header, _flow(read.messages), read.result, result, read)


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Trace:
    path = tmp_path_factory.mktemp("trace") / "t.jsonl"
    result = trio.run(_play_traced, path)
    return _load(path, result)


def _is_event(msg: TraceMessage, kind: str) -> bool:
    return bool(msg.kind == "GameEvent" and msg.payload["kind"] == kind)


def _is_sba_marker(msg: TraceMessage) -> bool:
    return msg.kind == "SBABatch" or _is_event(msg, "sba_skipped")


def _sba_marker_ok(msg: TraceMessage) -> bool:
    """A check before priority that found nothing to do: an empty batch, or a recorded skip."""
    return _is_event(msg, "sba_skipped") or (
        msg.kind == "SBABatch" and msg.payload["count"] == 0)


def _seat_of(actor: str) -> int:
    return PLAYERS.index(actor)


@dataclass(frozen=True)
class Outcome:
    """What became of one grant of priority."""

    index: int
    seat: int
    action: str
    accepted: bool


def _priority_outcomes(msgs: list[TraceMessage]) -> Iterator[Outcome]:
    """Every priority grant's outcome in trace order: an auto-pass event, or a player's
    SubmitAction with the coordinator's verdict on it."""
    for i, m in enumerate(msgs):
        if _is_event(m, "auto_pass"):
            yield Outcome(i, m.payload["player"], "pass", True)
        elif m.kind == "SubmitAction":
            verdict = next(v for v in msgs[i + 1:]
                           if v.receiver == m.sender and v.kind in ("Accepted", "Rejected"))
            yield Outcome(i, _seat_of(m.sender), m.payload["action"]["kind"],
                          verdict.kind == "Accepted")


# --------------------------------------------------------------------------- shape of the file


def test_the_game_ends_normally(trace: Trace) -> None:
    assert trace.result.winner in NAMES
    assert trace.result.forfeits == []
    assert trace.result.decisions > 0
    assert trace.result.auto_passes > 0


def test_first_line_is_a_header_with_format_engine_seed_and_decks(trace: Trace) -> None:
    h = trace.header
    assert h.format == TRACE_FORMAT
    assert h.engine == __version__
    assert h.seed == SEED
    assert h.decks == dict(zip(NAMES, DECKS, strict=True))
    assert h.players == tuple(NAMES)


def test_last_line_is_the_result(trace: Trace) -> None:
    f = trace.footer
    assert f.winner == trace.result.winner
    assert f.reason == trace.result.reason
    assert f.turns == trace.result.turns
    assert f.final_hash == trace.result.final_hash
    assert f.seed == trace.result.seed == SEED


def test_sequence_numbers_are_1_to_n_consecutive(trace: Trace) -> None:
    every = trace.read.messages
    seqs = [m.seq for m in every]
    assert seqs == list(range(1, len(seqs) + 1))
    # GameResult.messages counts what crossed channels; GameEvents are trace-only.
    crossed = [m for m in every if m.kind != "GameEvent"]
    assert trace.result.messages == len(crossed)
    assert all(m.receiver == "tracer" for m in every if m not in crossed)
    assert {m.game for m in every} == {"g1"}


def test_every_payload_decodes_as_its_kind(trace: Trace) -> None:
    assert len({m.kind for m in trace.messages}) > 10
    for m in trace.messages:
        cls = MESSAGE_TYPES[m.kind]
        assert from_plain(cls, m.payload).KIND == m.kind


def test_actors_talk_only_along_the_designed_channels(trace: Trace) -> None:
    allowed = {
        ("coordinator", "sba"): {"CheckSBA", "PlayerReply"},
        ("sba", "coordinator"): {"SBABatch", "AskPlayer"},
        ("coordinator", "stack"): {"Resolve", "PlayerReply"},
        ("stack", "coordinator"): {"Resolved", "AskPlayer"},
        ("coordinator", "tracer"): {"GameEvent"},
        ("stack", "tracer"): {"GameEvent"},
        ("sba", "tracer"): {"GameEvent"},
    }
    for p in PLAYERS:
        allowed[("coordinator", p)] = {"PriorityRequest", "DecisionRequest", "Accepted",
                                       "Rejected", "ErrorReply", "GameOver"}
        allowed[(p, "coordinator")] = {"SubmitAction", "SubmitAnswer", "Forfeit"}
    for m in trace.messages:
        assert m.kind in allowed.get((m.sender, m.receiver), set()), m


def test_counts_agree_with_the_result(trace: Trace) -> None:
    msgs = trace.messages
    auto = sum(_is_event(m, "auto_pass") for m in msgs)
    assert auto == trace.result.auto_passes
    submitted = sum(m.kind in ("SubmitAction", "SubmitAnswer") for m in msgs)
    assert submitted == trace.result.decisions
    game_over = [m for m in msgs if m.kind == "GameOver"]
    assert sorted(m.receiver for m in game_over) == PLAYERS
    assert all(m.payload["winner"] == trace.result.winner for m in game_over)
    assert msgs[-2:] == game_over


# --------------------------------------------------------------------------- the priority cycle


def _is_grant(msg: TraceMessage) -> bool:
    """A grant of priority: a request to the player, or a pass the coordinator made for it."""
    return msg.kind == "PriorityRequest" or _is_event(msg, "auto_pass")


def check_sba_before_priority(msgs: list[TraceMessage]) -> None:
    """Before each grant of priority, since the previous grant or anything that changed the
    state: an SBA check or a recorded skip, the last of them finding nothing to do."""
    checked = 0
    last: tuple[str, int] | None = None
    for i, m in enumerate(msgs):
        if not _is_grant(m):
            continue
        checked += 1
        if m.kind == "PriorityRequest":
            asked = (m.receiver, m.payload["decision"]["id"])  # ids are numbered per seat
            if asked == last:
                continue  # the same question asked again after a malformed reply: nothing changed
            last = asked
        # Look back to the previous grant of priority or anything that changed the state.
        j = i - 1
        marker = None
        while j >= 0:
            prev = msgs[j]
            if marker is None and _is_sba_marker(prev):
                marker = prev
            if prev.kind in ("Accepted", "Rejected", "Resolved", "ErrorReply") or _is_grant(prev):
                break
            j -= 1
        assert marker is not None, f"no SBA check or recorded skip before seq {m.seq}"
        assert _sba_marker_ok(marker), (
            f"seq {m.seq}: the last check before priority was {marker}")
    assert checked == sum(_is_grant(m) for m in msgs) > 0


def test_a_skipped_check_is_recorded_with_the_grant_it_is_for(trace: Trace) -> None:
    """The coordinator records a skipped check with the grant of priority made without one: a
    ``priority`` event just before its request, or an ``auto_pass``; each says so in its text,
    and no other event carries the mark."""
    every = trace.read.messages
    marked = [(i, m) for i, m in enumerate(every) if m.kind == "GameEvent" and m.payload["amount"] == 1
              and m.payload["kind"] in ("priority", "auto_pass")]
    assert marked
    for i, m in marked:
        assert m.payload["text"].endswith("(no state-based action check needed: nothing one reads changed)")
        if m.payload["kind"] == "priority":
            assert every[i + 1].kind == "PriorityRequest", f"seq {m.seq} is followed by {every[i + 1]}"
    unmarked = [m for m in every if m.kind == "GameEvent" and m.payload["kind"] in ("priority", "auto_pass")
                and m.payload["amount"] == 0]
    assert all("check needed" not in m.payload["text"] for m in unmarked)


def test_every_auto_pass_follows_a_clean_sba_check_or_a_recorded_skip(trace: Trace) -> None:
    msgs = trace.messages
    auto_passes = 0
    for i, m in enumerate(msgs):
        if not _is_event(m, "auto_pass"):
            continue
        auto_passes += 1
        before = [p for p in msgs[:i] if _is_sba_marker(p) or p.kind == "PriorityRequest"
                  or _is_event(p, "auto_pass")]
        assert before and _sba_marker_ok(before[-1]), f"seq {m.seq}"
    assert auto_passes > 0


def test_sba_checks_repeat_until_a_batch_is_empty(trace: Trace) -> None:
    """After a batch that did something, the next thing the coordinator does about the game is
    another check (triggers aside), never a grant of priority."""
    msgs = trace.messages
    nonempty = 0
    for i, m in enumerate(msgs):
        if m.kind != "SBABatch" or not m.payload["count"]:
            continue
        nonempty += 1
        for later in msgs[i + 1:]:
            if later.kind == "CheckSBA":
                break
            assert later.kind not in ("PriorityRequest", "Resolve") and not _is_event(
                later, "auto_pass"), f"seq {later.seq} after non-empty batch {m.seq}"
            if later.kind == "GameOver":
                break
    assert nonempty > 0, "the game should have had state-based actions (a player died)"


def test_a_skipped_check_is_recorded_only_when_nothing_sba_relevant_changed(trace: Trace) -> None:
    """Between the last real check (which found nothing) and a recorded skip: nothing resolved
    (a resolution is always followed by a check) and no land was played (a permanent entering
    the battlefield is a change to the board); casting a spell, declaring attackers or blockers
    and passing make no change a state-based action reads. That no change was missed is
    tested in the kernel (``tests/rules/test_sba_changes.py``)."""
    msgs = trace.messages
    skips = 0
    after_cast = 0
    for i, m in enumerate(msgs):
        if not _is_event(m, "sba_skipped"):
            continue
        skips += 1
        j = max(k for k in range(i) if msgs[k].kind == "SBABatch")
        assert msgs[j].payload["count"] == 0
        between = msgs[j + 1:i]
        assert not [b for b in between if b.kind in ("Resolve", "Resolved")], f"seq {m.seq}"
        for b in between:
            if b.kind == "SubmitAction":
                assert b.payload["action"]["kind"] != "play", f"seq {m.seq}: {b}"
                after_cast += b.payload["action"]["kind"] == "cast"
    assert skips > 0
    assert after_cast > 0, "a spell cast changes nothing SBAs read: no round trip after it"


def check_passes_before_resolve(msgs: list[TraceMessage]) -> None:
    outcomes = list(_priority_outcomes(msgs))
    resolves = [i for i, m in enumerate(msgs) if m.kind == "Resolve"]
    assert resolves
    for r in resolves:
        accepted = [o for o in outcomes if o.index < r and o.accepted]
        # The brief's count: passes since the last non-pass action or resolution.
        last_resolved = max((i for i in range(r) if msgs[i].kind == "Resolved"), default=-1)
        passes = 0
        for o in reversed(accepted):
            if o.action != "pass" or o.index < last_resolved:
                break
            passes += 1
        assert passes >= len(NAMES), f"Resolve at seq {msgs[r].seq}: {passes} passes"
        # Stricter: the last grants before it were passes by every player, one each.
        last = accepted[-len(NAMES):]
        assert {o.seat for o in last} == set(range(len(NAMES))), msgs[r].seq
        assert all(o.action == "pass" for o in last)


def test_every_resolve_is_answered_by_resolved_from_the_stack(trace: Trace) -> None:
    msgs = trace.messages
    answered = 0
    for i, m in enumerate(msgs):
        if m.kind != "Resolve":
            continue
        assert (m.sender, m.receiver) == ("coordinator", "stack")
        from_stack = [n for n in msgs[i + 1:] if n.sender == "stack"]
        replies = iter(from_stack)
        reply = next(replies)
        while reply.kind == "AskPlayer":
            reply = next(replies)
        assert reply.kind == "Resolved", reply
        assert reply.payload["object_id"] == m.payload["object_id"]
        # Nothing of the game moves on until it arrives.
        for n in msgs[i + 1:msgs.index(reply)]:
            assert n.kind in ("AskPlayer", "PlayerReply", "DecisionRequest", "SubmitAnswer",
                                 "Accepted", "Rejected", "ErrorReply"), n
        answered += 1
    # The loop checked something: the game resolved spells and abilities.
    assert answered == sum(m.kind == "Resolved" for m in msgs) > 0


def test_each_request_is_answered_by_its_reply(trace: Trace) -> None:
    msgs = trace.messages
    checked: Counter[str] = Counter()
    for i, m in enumerate(msgs):
        checked[m.kind] += m.kind in ("PriorityRequest", "DecisionRequest", "CheckSBA")
        if m.kind == "PriorityRequest":
            player = m.receiver
            thread = [n for n in msgs[i + 1:] if player in (n.sender, n.receiver)]
            submit, verdict = thread[0], thread[1]
            assert (submit.kind, submit.sender) == ("SubmitAction", player), submit
            assert submit.payload["decision_id"] == m.payload["decision"]["id"]
            assert verdict.kind in ("Accepted", "Rejected")
            assert verdict.payload["decision_id"] == m.payload["decision"]["id"]
            assert m.payload["decision"]["player"] == _seat_of(player)
            # RandomBot reads no view when it acts: its priority requests carry one only
            # before its first view (the first request of a seat always carries its view).
            view = m.payload["view"]
            assert view is None or view["seat"] == _seat_of(player)
            checked["no view"] += view is None
        elif m.kind == "DecisionRequest":
            player = m.receiver
            thread = [n for n in msgs[i + 1:] if player in (n.sender, n.receiver)]
            submit, verdict = thread[0], thread[1]
            assert (submit.kind, submit.sender) == ("SubmitAnswer", player), submit
            assert submit.payload["answer"]["decision_id"] == m.payload["decision"]["id"]
            assert verdict.kind in ("Accepted", "Rejected")
            assert m.payload["decision"]["player"] == _seat_of(player)
        elif m.kind == "CheckSBA":
            thread = [n for n in msgs[i + 1:] if "sba" in (n.sender, n.receiver)]
            k = 0
            while thread[k].kind == "AskPlayer":
                assert thread[k + 1].kind == "PlayerReply"
                k += 2
            assert thread[k].kind == "SBABatch"
    # The loop checked something of each kind of request.
    assert checked["PriorityRequest"] > 0
    assert checked["DecisionRequest"] > 0
    assert checked["CheckSBA"] > 0
    assert checked["no view"] > checked["PriorityRequest"] // 2


def test_each_seat_numbers_only_its_own_decisions_from_one(trace: Trace) -> None:
    # A seat's decision ids count the decisions asked of it (a request sent again keeps its
    # id); nothing else takes one: not another seat's question, not an automatic pass.
    ids: dict[str, list[int]] = {}
    for m in trace.messages:
        if m.kind in ("PriorityRequest", "DecisionRequest"):
            seen = ids.setdefault(m.receiver, [])
            if not seen or seen[-1] != m.payload["decision"]["id"]:
                seen.append(m.payload["decision"]["id"])
    assert sorted(ids) == PLAYERS
    for seen in ids.values():
        assert seen == list(range(1, len(seen) + 1))
    assert sum(len(seen) for seen in ids.values()) == trace.result.decisions


def check_alternation(msgs: list[TraceMessage]) -> None:
    """Per pair of actors: after a message that expects an answer, the next message between
    them goes the other way."""
    awaiting: dict[frozenset[str], str] = {}  # pair -> who must speak next
    for m in msgs:
        if m.receiver == "tracer":
            continue
        pair = frozenset((m.sender, m.receiver))
        due = awaiting.get(pair)
        if m.kind in NOTIFICATIONS:
            assert due is None, f"seq {m.seq}: {m.kind} while {due} owes a reply"
            continue
        assert due in (None, m.sender), f"seq {m.seq}: {m.sender} spoke out of turn"
        if m.kind in ("SubmitAction", "SubmitAnswer", "Forfeit", "SBABatch", "Resolved"):
            assert due == m.sender, f"seq {m.seq}: an unrequested {m.kind}"
            awaiting.pop(pair)
        else:
            awaiting[pair] = m.receiver
        # An AskPlayer is answered by PlayerReply, which in turn awaits the final reply.
    assert awaiting == {}


def check_one_in_flight(msgs: list[TraceMessage]) -> None:
    """The turn to speak passes like a baton: every message is sent by the actor that holds it.
    A request hands it to the receiver, a reply hands it back; notifications keep it."""
    holder = "coordinator"
    for m in msgs:
        assert m.sender == holder, (
            f"seq {m.seq}: {m.sender} sent {m.kind} while {holder} had the turn")
        if m.kind in HANDS_OVER:
            holder = m.receiver
        else:
            assert m.kind in NOTIFICATIONS
    assert holder == "coordinator"


def _views_seen(trace: Trace) -> Iterator[PlayerView]:
    """Each request's view, rebuilt from the trace's view deltas as its player rebuilt it."""
    mirrors = [ViewMirror(), ViewMirror()]
    for m in trace.messages:
        if m.kind in ("PriorityRequest", "DecisionRequest") and m.payload["view"] is not None:
            delta = from_plain(ViewDelta, m.payload["view"])
            yield mirrors[delta.seat].apply(delta)


def test_players_never_see_the_opponents_hand(trace: Trace) -> None:
    hands: dict[int, set[int]] = {0: set(), 1: set()}
    views = list(_views_seen(trace))
    assert views
    for view in views:
        hands[view.seat].update(o.id for o in view.hand)
    for view in views:
        seen = {o.id for o in view.hand}
        assert not seen & hands[1 - view.seat]
        assert all(o.owner == view.seat for o in view.hand)


def test_every_priority_request_follows_a_clean_sba_check_or_a_recorded_skip(
        trace: Trace) -> None:
    check_sba_before_priority(trace.messages)


def test_every_resolve_follows_passes_by_all_players_in_succession(trace: Trace) -> None:
    check_passes_before_resolve(trace.messages)


def test_request_and_reply_alternate_on_every_channel(trace: Trace) -> None:
    check_alternation(trace.messages)


def test_only_one_message_is_in_flight(trace: Trace) -> None:
    check_one_in_flight(trace.messages)


# --------------------------------------------------------------------------- the checks can fail
# Each check above is run on a copy of the trace with one plausible bug planted in it, to show
# that it would notice.


def _first(msgs: list[TraceMessage], pred: Any, start: int = 0) -> int:
    return next(i for i in range(start, len(msgs)) if pred(msgs[i]))


def _check_dropped(msgs: list[TraceMessage]) -> list[TraceMessage]:
    """Priority granted after a state change with no SBA check in between."""
    boundary = ("Accepted", "Resolved")
    i = next(k for k in range(3, len(msgs))
             if msgs[k].kind == "PriorityRequest" and msgs[k - 1].kind == "SBABatch"
             and msgs[k - 2].kind == "CheckSBA" and msgs[k - 3].kind in boundary)
    return msgs[:i - 2] + msgs[i:]


def _skip_dropped(msgs: list[TraceMessage]) -> list[TraceMessage]:
    """An automatic pass made with no SBA check or recorded skip before it."""
    i = next(k for k in range(1, len(msgs))
             if _is_event(msgs[k], "auto_pass") and _is_event(msgs[k - 1], "sba_skipped"))
    return msgs[:i - 1] + msgs[i:]


def _dirty_batch(msgs: list[TraceMessage]) -> list[TraceMessage]:
    """Priority granted right after a batch that did something."""
    i = next(k for k in range(1, len(msgs))
             if msgs[k].kind == "PriorityRequest" and msgs[k - 1].kind == "SBABatch")
    out = list(msgs)
    out[i - 1] = replace(out[i - 1], payload={"count": 1})
    return out


def _pass_dropped(msgs: list[TraceMessage]) -> list[TraceMessage]:
    """A Resolve after only one player passed."""
    r = _first(msgs, lambda m: m.kind == "Resolve")
    last_pass = max(o.index for o in _priority_outcomes(msgs[:r]) if o.action == "pass")
    drop = {last_pass}
    if msgs[last_pass].kind == "SubmitAction":  # with its request and verdict
        drop |= {last_pass - 1, last_pass + 1}
    return [m for k, m in enumerate(msgs) if k not in drop]


def _reply_before_request(msgs: list[TraceMessage]) -> list[TraceMessage]:
    """A player's SubmitAction recorded before the PriorityRequest it answers."""
    i = _first(msgs, lambda m: m.kind == "PriorityRequest")
    out = list(msgs)
    out[i], out[i + 1] = out[i + 1], out[i]
    return out


def _two_requests(msgs: list[TraceMessage]) -> list[TraceMessage]:
    """The coordinator asks the SBA checker while a player still owes an answer."""
    i = _first(msgs, lambda m: m.kind == "PriorityRequest")
    check = next(m for m in msgs if m.kind == "CheckSBA")
    return [*msgs[:i + 1], check, *msgs[i + 1:]]


@pytest.mark.parametrize(("check", "plant", "match"), [
    (check_sba_before_priority, _check_dropped, r"^no SBA check or recorded skip before seq \d+\n"),
    (check_sba_before_priority, _dirty_batch, r"^seq \d+: the last check before priority was "),
    (check_sba_before_priority, _skip_dropped, r"^no SBA check or recorded skip before seq \d+\n"),
    (check_passes_before_resolve, _pass_dropped, r"^Resolve at seq \d+: 1 passes"),
    (check_alternation, _reply_before_request, r"^seq \d+: an unrequested SubmitAction"),
    (check_alternation, _two_requests, r"^seq \d+: coordinator spoke out of turn"),
    (check_one_in_flight, _reply_before_request,
     r"^seq \d+: player:\w+ sent SubmitAction while coordinator had the turn"),
    (check_one_in_flight, _two_requests,
     r"^seq \d+: coordinator sent CheckSBA while player:\w+ had the turn"),
])
def test_the_checks_notice_a_planted_bug(trace: Trace, check: Any, plant: Any, match: str) -> None:
    # Each check fails on the planted bug with the message that names that bug, not with some
    # other assertion that the planting happened to trip.
    check(trace.messages)
    with pytest.raises(AssertionError, match=match):
        check(plant(trace.messages))


# --------------------------------------------------------------------------- determinism


async def test_same_seed_gives_a_byte_identical_trace(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ra = await _play_traced(a)
    rb = await _play_traced(b)
    assert a.read_bytes() == b.read_bytes()
    assert ra == rb


async def test_the_module_trace_is_reproduced_byte_for_byte(tmp_path: Path,
                                                            trace: Trace) -> None:
    again = tmp_path / "again.jsonl"
    await _play_traced(again)
    assert again.read_bytes() == trace.path.read_bytes()


async def test_a_different_seed_gives_a_different_game(tmp_path: Path, trace: Trace) -> None:
    other = tmp_path / "other.jsonl"
    result = await _play_traced(other, seed=SEED + 1)
    lines = other.read_text("utf-8").splitlines()
    original = trace.path.read_text("utf-8").splitlines()
    assert read_trace(other).header.seed == SEED + 1
    # Not only the header: the messages themselves differ.
    assert lines[1:] != original[1:]
    assert result.final_hash != trace.result.final_hash


# --------------------------------------------------------------------------- a forfeit in the trace


class Crasher:
    """A RandomBot until its sixth decision, which raises."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.asked = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.asked += 1
        if self.asked > 5:
            raise RuntimeError("the bot fell over")
        return self.inner.decide(view, decision)


async def test_a_forfeit_is_traced_and_the_cycle_stays_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "forfeit.jsonl"
    result = await _play_traced(path, policies=[RandomBot(1), Crasher(2)])
    t = _load(path, result)
    reason = "policy raised RuntimeError: the bot fell over"
    assert result.forfeits == [("bob", reason)]
    assert result.winner == "alice"
    assert t.footer.winner == "alice"
    forfeit = [m for m in t.messages if m.kind == "Forfeit"]
    assert [(m.sender, m.payload["reason"]) for m in forfeit] == [("player:bob", reason)]
    events = [m for m in t.messages if _is_event(m, "forfeit")]
    assert [(e.payload["player"], e.payload["text"]) for e in events] == [(1, reason)]
    assert t.messages.index(events[0]) == t.messages.index(forfeit[0]) + 1
    # bob is told nothing more; alice hears that the game is over.
    after = t.messages[t.messages.index(forfeit[0]) + 1:]
    assert not [m for m in after if m.receiver == "player:bob"]
    assert [m.kind for m in after if m.receiver == "player:alice"][-1] == "GameOver"
    check_sba_before_priority(t.messages)
    check_passes_before_resolve(t.messages)
    check_alternation(t.messages)
    check_one_in_flight(t.messages)


# --------------------------------------------------------------------------- replay


async def test_replaying_the_recorded_answers_reaches_the_same_final_state(
        tmp_path: Path, trace: Trace) -> None:
    replay_path = tmp_path / "replay.jsonl"
    game, result = await replay_trace(trace.read, trace_path=replay_path)
    assert result.final_hash == trace.result.final_hash == game.state.state_hash()
    assert result.forfeits == []
    assert (result.winner, result.reason, result.turns) == (
        trace.result.winner, trace.result.reason, trace.result.turns)
    # The replayed game's trace is the original, byte for byte.
    assert replay_path.read_bytes() == trace.path.read_bytes()


async def test_replay_without_a_trace_file_gives_the_same_hash(trace: Trace) -> None:
    bots = [ReplayBot(trace.read.replies(name)) for name in NAMES]
    assert all(b.replies for b in bots)
    assert isinstance(bots[0].replies[0], Action | Answer)
    _, result = await play_one_game(DECKS, bots, seed=SEED, names=NAMES)
    assert result.final_hash == trace.result.final_hash
    assert [b.used for b in bots] == [len(b.replies) for b in bots]
