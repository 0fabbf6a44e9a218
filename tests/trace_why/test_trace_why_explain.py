"""``trace why`` explains a fizzle, a counterspell and the end of a step: the rule, the
record that caused it and the passes, each checked against the raw lines of the trace; the
counterspell war's trace decodes to one message per pass, resolution and state-based action
batch, in the rules' order."""

from __future__ import annotations

from functools import partial
from itertools import pairwise
from pathlib import Path

import pytest
import trio

from spellstack import RandomBot, play_one_game
from spellstack.cli import main
from spellstack.protocol import (
    AskPlayer,
    CheckSBA,
    GameEvent,
    PlayerReply,
    Resolve,
    Resolved,
    SBABatch,
    SubmitAction,
)
from spellstack.rules import StartSettings
from spellstack.trace import WhyError, explain_object, explain_seq, read_trace
from tests.trace_why._trace_why_games import events, raw_lines


def _last_passes_before(lines: list[dict], seq: int, n: int = 2) -> list[tuple[str, int]]:
    """The last ``n`` pass records (own or automatic) before record ``seq``, as (player, seq)."""
    players = lines[0]["players"]
    passes = [(players[e["payload"]["player"]], e["seq"]) for e in events(lines)
              if e["payload"]["kind"] in ("pass", "auto_pass") and e["seq"] < seq]
    return passes[-n:]


def test_a_fizzle_names_608_2b_and_the_event_that_made_the_target_illegal(war_trace: Path) -> None:
    lines = raw_lines(war_trace)
    evs = events(lines)
    fizzle = next(e for e in evs if e["payload"]["kind"] == "resolve"
                  and "doesn't resolve" in e["payload"]["text"])
    spell = fizzle["payload"]["subject"]
    cast = next(e for e in evs if e["payload"]["kind"] == "cast" and e["payload"]["subject"] == spell)
    target_name = cast["payload"]["text"].split(" targeting ")[1]
    left = next(e for e in evs if e["seq"] > cast["seq"] and e["payload"]["kind"] == "zone"
                and e["payload"]["zones"][:1] == ["battlefield"]
                and e["payload"]["text"].startswith(f"{target_name} moves from the battlefield"))
    resolve = next(r for r in lines if r.get("kind") == "Resolve"
                   and r["payload"]["object_id"] == spell)

    why = explain_seq(read_trace(war_trace), fizzle["seq"])

    assert why.outcome == "fizzled" and why.rule == "608.2b"
    assert why.cause_seq == left["seq"]
    assert [(t.target, t.seq) for t in why.targets] == [(target_name, left["seq"])]
    assert [(p.player, p.seq) for p in why.passed] == _last_passes_before(lines, resolve["seq"])
    assert "left the battlefield" in why.text


def test_a_counterspell_war_names_701_5_the_counterspell_and_its_caster(war_trace: Path) -> None:
    lines = raw_lines(war_trace)
    evs = events(lines)
    # A Counterspell countered by another Counterspell: the war.
    counter = next(e for e in evs if e["payload"]["kind"] == "counter"
                   and e["payload"]["text"] == "Counterspell is countered")
    resolve = [r for r in lines if r.get("kind") == "Resolve" and r["seq"] < counter["seq"]][-1]
    by = resolve["payload"]["object_id"]
    resolution = next(e for e in evs if e["payload"]["kind"] == "resolve"
                      and e["payload"]["subject"] == by and e["seq"] > resolve["seq"])
    caster_cast = next(e for e in evs if e["payload"]["kind"] == "cast" and e["payload"]["subject"] == by)
    caster = lines[0]["players"][caster_cast["payload"]["player"]]

    why = explain_seq(read_trace(war_trace), counter["seq"])

    assert why.outcome == "countered" and why.rule == "701.5"
    assert why.cause_seq == resolution["seq"]
    assert why.caster == caster
    assert [(p.player, p.seq) for p in why.passed] == _last_passes_before(lines, resolve["seq"])
    # Asked by name, the same Counterspell gets the same answer.
    by_name = explain_object(read_trace(war_trace), "counterspell")
    assert why in by_name


@pytest.mark.parametrize("fixture", ["war_trace", "asked_trace"])
def test_a_counterspell_war_decodes_to_one_message_per_pass_resolution_and_sba_batch_in_order(
        fixture: str, request: pytest.FixtureRequest) -> None:
    # Every line decodes to its protocol message. Each pass is one event (a ``pass`` right
    # after the player's own SubmitAction, or an ``auto_pass``); each resolution is one
    # Resolve to the stack actor answered by one Resolved, the only place a ``resolve`` event
    # is sent from; each state-based action check is one CheckSBA answered by one SBABatch,
    # which counts the events between; and they come in the rules' order: all players pass in
    # succession (117.4), the top of the stack resolves (608.1), then the check (704.3).
    trace = read_trace(request.getfixturevalue(fixture))
    players = trace.header.players
    flow: list[tuple[str, str]] = []  # ("pass", player), ("resolve", name), ("sba", count)
    asked: tuple[str, int] | None = None  # the actor a request is open with, and what for
    made = 0  # events that actor sent since the request
    own_pass: int | None = None  # the seat whose SubmitAction passed, until its pass event
    for seq, m in enumerate(trace.messages, 1):
        assert m.seq == seq
        msg = m.decode(trace.source)
        assert msg.KIND == m.kind
        if isinstance(msg, Resolve | CheckSBA):
            assert asked is None, m  # one request to the stack actor or the checker at a time
            asked, made = ("stack" if isinstance(msg, Resolve) else "sba",
                           msg.object_id if isinstance(msg, Resolve) else 0), 0
        elif isinstance(msg, Resolved | SBABatch):
            assert asked is not None and m.sender == asked[0], m
            assert msg.count == made, m
            if isinstance(msg, Resolved):
                assert msg.object_id == asked[1], m
                flow.append(("resolve", msg.name))
            else:
                flow.append(("sba", str(msg.count)))
            asked = None
        elif isinstance(msg, AskPlayer | PlayerReply):
            assert asked is not None, m  # a question only while something resolves or is checked
        elif isinstance(msg, SubmitAction) and msg.action.kind == "pass":
            assert own_pass is None, m
            own_pass = players.index(m.sender.removeprefix("player:"))
        elif isinstance(msg, GameEvent):
            if m.sender != "coordinator":
                assert asked is not None and m.sender == asked[0], m
                made += 1
            if msg.kind == "resolve":
                assert m.sender == "stack", m  # every resolution is the stack actor's
            if msg.kind in ("pass", "auto_pass"):
                assert m.sender == "coordinator" and asked is None, m
                assert own_pass == (msg.player if msg.kind == "pass" else None), m
                own_pass = None
                flow.append(("pass", players[msg.player]))
    assert asked is None and own_pass is None
    resolutions = [i for i, (what, _) in enumerate(flow) if what == "resolve"]
    assert len(resolutions) == sum(m.kind == "Resolve" for m in trace.messages) == sum(
        m.kind == "GameEvent" and m.payload["kind"] == "resolve" for m in trace.messages) > 5
    for i in resolutions:
        before = flow[i - len(players):i]
        assert [w for w, _ in before] == ["pass"] * len(players), flow[i - 4:i + 1]
        assert {p for _, p in before} == set(players), flow[i - 4:i + 1]
        assert flow[i + 1][0] == "sba", flow[i:i + 2]
    # The war itself: a Counterspell resolves (countering a Counterspell), then, after the
    # passes and the check, the spell the countered Counterspell aimed at.
    names = [name for what, name in flow if what == "resolve"]
    assert any(a == "Counterspell" and b != "Counterspell" for a, b in pairwise(names))
    assert sum(what == "sba" for what, _ in flow) == sum(m.kind == "CheckSBA" for m in trace.messages)
    assert any(what == "sba" and count != "0" for what, count in flow)


def test_the_end_of_a_step_names_117_4_and_every_players_pass(asked_trace: Path) -> None:
    # Every grant asked (no automatic pass): each pass is recorded in the step it ends.
    lines = raw_lines(asked_trace)
    evs = events(lines)
    steps = [e for e in evs if e["payload"]["kind"] == "step"]
    # The draw step's end: the step record after the first draw step's record.
    draw = next(i for i, e in enumerate(steps) if e["payload"]["step"] == "draw")
    after = steps[draw + 1]
    expected = _last_passes_before(lines, after["seq"])
    assert all(seq > steps[draw]["seq"] for _, seq in expected)

    why = explain_seq(read_trace(asked_trace), after["seq"])

    assert why.outcome == "step ended" and why.rule == "117.4, 500.2"
    assert [(p.player, p.seq) for p in why.passed] == expected
    assert why.cause_seq == expected[-1][1]
    assert not any(p.automatic for p in why.passed)
    assert {p.player for p in why.passed} == set(lines[0]["players"])


@pytest.mark.parametrize("start", [None, StartSettings(None, True)], ids=["play", "match start"])
@pytest.mark.slow
def test_the_first_step_change_ends_turn_1s_upkeep_with_the_passes_before_it(
        tmp_path: Path, start: StartSettings | None) -> None:
    # The game starts in turn 1's upkeep, which no record opens: its passes (after a match's
    # starting-player choice, opening hands and mulligans) come before the first step change.
    path = tmp_path / "t.jsonl"
    trio.run(partial(play_one_game, ["gruul", "orzhov"], [RandomBot(3), RandomBot(4)], 1,
                     names=["alice", "bob"], trace_path=path, start=start))
    lines = raw_lines(path)
    players = lines[0]["players"]
    evs = events(lines)
    first = next(e for e in evs if e["payload"]["kind"] in ("step", "turn"))
    assert (first["payload"]["kind"], first["payload"]["turn"]) == ("step", 1)
    passes = [(players[e["payload"]["player"]], e["seq"]) for e in evs
              if e["seq"] < first["seq"] and e["payload"]["kind"] in ("pass", "auto_pass")]
    opener = players[first["payload"]["player"]]
    if start is not None:  # seed 1's chooser picks bob: turn 1 is not the first seat's
        assert opener == "bob" and any(e["payload"]["kind"] == "starting_player" for e in evs)

    why = explain_seq(read_trace(path), first["seq"])

    assert (why.subject, why.outcome, why.rule) == (f"{opener}'s upkeep step (turn 1)", "step ended",
                                                    "117.4, 500.2")
    assert len(passes) == 2 and [(p.player, p.seq) for p in why.passed] == passes
    assert why.cause_seq == passes[-1][1]
    said = ", ".join(f"{who} (automatic pass, {seq})" for who, seq in passes)
    assert why.text == f"all players passed in succession with the stack empty: {said}; the upkeep step ended"


@pytest.mark.slow
def test_passes_the_engine_made_in_one_run_go_to_the_steps_they_ended(war_trace: Path) -> None:
    # With automatic passes the records of a run of steps come before its passes: each step
    # that ended still gets one pass per player, the active player's first, no pass twice.
    trace = read_trace(war_trace)
    lines = raw_lines(war_trace)
    active = {}
    for e in events(lines):
        if e["payload"]["kind"] == "turn":
            active[e["payload"]["turn"]] = lines[0]["players"][e["payload"]["player"]]
    active[1] = lines[0]["players"][0]
    used: set[int] = set()
    ended = 0
    for e in events(lines):
        if e["payload"]["kind"] != "step":
            continue
        why = explain_seq(trace, e["seq"])
        if why.rule != "117.4, 500.2":
            continue
        ended += 1
        seqs = [p.seq for p in why.passed]
        assert len(seqs) == 2 and seqs == sorted(seqs), why
        assert not used & set(seqs), why
        used |= set(seqs)
        turn = int(why.subject.rsplit("turn ", 1)[1].rstrip(")"))
        assert why.passed[0].player == active[turn], why
    assert ended > 50


def test_a_record_that_is_not_about_the_stack_or_a_step_is_refused(war_trace: Path) -> None:
    trace = read_trace(war_trace)
    check = next(m for m in trace.messages if m.kind == "CheckSBA")
    with pytest.raises(WhyError, match=r"record \d+ \(CheckSBA\) is neither"):
        explain_seq(trace, check.seq)
    with pytest.raises(WhyError, match="no record numbered 999999"):
        explain_seq(trace, 999999)
    with pytest.raises(WhyError, match="no spell or ability named 'Fireball'"):
        explain_object(trace, "Fireball")


def test_the_command_prints_the_rule_and_the_cause(war_trace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = raw_lines(war_trace)
    fizzle = next(e for e in events(lines) if "doesn't resolve" in e["payload"]["text"])
    assert main(["trace", "why", str(war_trace), "--seq", str(fizzle["seq"])]) == 0
    out = capsys.readouterr().out
    assert "fizzled" in out and "rule 608.2b" in out
    assert main(["trace", "why", str(war_trace), "--seq", "2"]) == 2
    assert main(["trace", "why", str(war_trace.parent / "missing.jsonl"), "--seq", "2"]) == 2
