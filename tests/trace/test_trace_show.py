"""``spellstack trace show``: a real game told line by line, each record at its seq; automatic
passes folded; each filter keeps exactly what it says; ``--view`` rebuilds a request's view;
bad input is one clear line and exit 2. Expectations are worked out from the raw JSON lines."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from spellstack.protocol import ViewDelta, ViewMirror, from_plain
from spellstack.trace import format_view
from tests.trace.trace_helpers import Run, raw_records

LINE = re.compile(r"^\s*(\d+)(?:-(\d+))?  (.*)$")


def _lines(out: str) -> list[tuple[int, int, str]]:
    """(first seq, last seq, text) of each numbered line (headings and the result left out)."""
    found = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            first = int(m.group(1))
            found.append((first, int(m.group(2) or first), m.group(3)))
    return found


def _messages(path: Path) -> list[dict[str, Any]]:
    return [r for r in raw_records(path) if r["event"] == "message"]


def _event_kind(m: dict[str, Any]) -> str:
    return str(m["payload"]["kind"]) if m["kind"] == "GameEvent" else str(m["kind"])


def _turns(path: Path) -> dict[int, int]:
    """Each seq's turn: a GameEvent's own, a request's view's, else the last one seen."""
    turn, out = 0, {}
    for m in _messages(path):
        p = m["payload"]
        turn = p.get("turn", (p.get("view") or {}).get("turn", turn))
        out[m["seq"]] = turn
    return out


def test_every_request_and_reply_is_a_line_at_its_seq(cli: Run, game: Path) -> None:
    code, out, err = cli("trace", "show", str(game))
    assert code == 0 and err == ""
    shown = {first: text for first, _, text in _lines(out)}
    requests = replies = 0
    for m in _messages(game):
        who = m["receiver"].removeprefix("player:")
        if m["kind"] in ("PriorityRequest", "DecisionRequest"):
            requests += 1
            assert shown[m["seq"]].startswith(f"{who} ← {m['kind']} #{m['payload']['decision']['id']}")
        elif m["kind"] == "SubmitAction":
            replies += 1
            action = m["payload"]["action"]
            assert shown[m["seq"]].startswith(f"{m['sender'].removeprefix('player:')}: {action['kind']}")
        elif m["kind"] == "SubmitAnswer":
            replies += 1
            assert shown[m["seq"]].startswith(f"{m['sender'].removeprefix('player:')} answers #")
        elif m["kind"] == "GameEvent" and m["payload"]["kind"] in ("damage", "life", "resolve", "attack"):
            assert shown[m["seq"]] == m["payload"]["text"]
    assert requests > 20 and replies == requests
    assert out.splitlines()[0] == "== turn 1: alice ==" and out.splitlines()[1] == "-- upkeep --"
    assert out.splitlines()[-1].startswith("result: alice wins")


def test_a_cast_reads_as_who_cast_what_at_what(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--turn", "1")
    msgs = _messages(game)
    cast = next(m["seq"] for m in msgs if m["kind"] == "SubmitAction"
                and m["payload"]["action"]["kind"] == "cast")
    resolves = next(m["seq"] for m in msgs if _event_kind(m) == "resolve")
    assert f"{cast:>5}  alice: cast Shock → alice" in out.splitlines()
    assert f"{resolves:>5}  Shock resolves" in out.splitlines()


def test_automatic_passes_and_skipped_checks_fold_into_one_line_each_run(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game))
    lines = _lines(out)
    folds = [(a, b, t) for a, b, t in lines if "passed automatically" in t or "SBA check" in t]
    auto = [m for m in _messages(game) if _event_kind(m) == "auto_pass"]
    skipped = [m for m in auto if m["payload"]["amount"] == 1]  # made without an SBA check
    assert len(folds) < len(auto) / 3
    # every automatic pass lies in a folded line, and the counts add up
    for m in auto:
        assert any(a <= m["seq"] <= b for a, b, _ in folds), m["seq"]
    assert not {m["seq"] for m in auto} & {a for a, b, _ in lines if a == b and (a, b, _) not in folds}
    counted: Counter[str] = Counter()
    for _, _, text in folds:
        for who, times in re.findall(r"(alice|bob)(?: ×(\d+))?", text.split(";")[0]):
            counted[who] += int(times or 1)
    assert counted == Counter(m["receiver"] and ("alice", "bob")[m["payload"]["player"]] for m in auto)
    assert sum(int(n) for n in re.findall(r"(\d+) SBA checks? skipped", out)) == len(skipped)
    # the folded line says what passed, in which step: the first of turn 1 is in its upkeep,
    # where neither player can do anything
    assert folds[0][2].startswith("passed automatically: alice, bob") and folds[0][2].endswith("(upkeep)")


def test_turn_keeps_only_that_turn(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--turn", "5")
    turns = _turns(game)
    lines = _lines(out)
    assert lines and all(turns[a] == 5 and turns[b] == 5 for a, b, _ in lines)
    assert [h for h in out.splitlines() if h.startswith("==")] == ["== turn 5: alice =="]


@pytest.mark.parametrize("kinds", [["damage"], ["PriorityRequest", "pass"], ["draw", "Accepted"]])
def test_kind_keeps_exactly_the_records_of_those_kinds(cli: Run, game: Path, kinds: list[str]) -> None:
    _, out, _ = cli("trace", "show", str(game), *(a for k in kinds for a in ("--kind", k)))
    expected = {m["seq"] for m in _messages(game) if _event_kind(m) in kinds}
    assert {a for a, _, _ in _lines(out)} == expected
    assert all(a == b for a, b, _ in _lines(out))


def test_player_keeps_the_records_concerning_that_player(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--player", "bob")
    shown = {a for a, _, _ in _lines(out)}
    msgs = _messages(game)
    assert {m["seq"] for m in msgs if m["receiver"] == "player:bob"
            and m["kind"] in ("PriorityRequest", "DecisionRequest")} <= shown
    alice_only = {m["seq"] for m in msgs if "player:alice" in (m["sender"], m["receiver"])}
    assert not shown & alice_only
    by_seq = {m["seq"]: m for m in msgs}
    for a, _, text in _lines(out):
        m = by_seq[a]
        assert ("player:bob" in (m["sender"], m["receiver"]) or "bob" in text
                or (m["kind"] == "GameEvent" and m["payload"]["player"] == 1)), text


def test_priority_keeps_grants_passes_and_resolutions(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--priority")
    msgs = {m["seq"]: m for m in _messages(game)}
    lines = _lines(out)
    grants = {s for s, m in msgs.items() if _event_kind(m) == "priority"}
    single = {a for a, b, _ in lines if a == b}
    assert grants <= single
    assert {s for s, m in msgs.items() if _event_kind(m) in ("pass", "resolve")} <= single
    allowed = {"priority", "pass", "auto_pass", "sba_skipped", "resolve", "cast", "activate",
               "play", "trigger"}
    for a, _, _ in lines:
        assert _event_kind(msgs[a]) in allowed
    assert "PriorityRequest" not in out and "SubmitAction" not in out


def test_as_a_player_numbers_lines_from_1_and_shows_only_its_own_messages(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--as", "bob")
    lines = _lines(out)
    assert [a for a, _, _ in lines] == list(range(1, len(lines) + 1))
    assert all(a == b for a, b, _ in lines)
    to_bob = [m for m in _messages(game) if m["receiver"] == "player:bob"
              and m["kind"] in ("PriorityRequest", "DecisionRequest")]
    assert sum(t.startswith(("bob ← PriorityRequest", "bob ← DecisionRequest"))
               for _, _, t in lines) == len(to_bob)
    assert not any(t.startswith(("alice ←", "alice:", "alice answers")) for _, _, t in lines)
    hidden = {m["payload"]["text"] for m in _messages(game)
              if m["kind"] == "GameEvent" and m["payload"]["private_to"] == [0]}
    assert hidden and not hidden & {t for _, _, t in lines}


def _mirror_view(path: Path, seq: int) -> list[str]:
    """The view at ``seq``, rebuilt here from the seat's deltas."""
    target = next(m for m in _messages(path) if m["seq"] == seq)
    mirror = ViewMirror()
    for m in _messages(path):
        if (m["receiver"] == target["receiver"] and m["kind"] in ("PriorityRequest", "DecisionRequest")
                and m["payload"]["view"] is not None):
            view = mirror.apply(from_plain(ViewDelta, m["payload"]["view"], "view"))
            if m["seq"] == seq:
                return format_view(view)
    raise AssertionError(seq)


def test_view_prints_the_full_view_a_request_carried(cli: Run, game: Path) -> None:
    requests = [m for m in _messages(game) if m["receiver"] == "player:bob"
                and m["kind"] in ("PriorityRequest", "DecisionRequest") and m["payload"]["view"] is not None]
    late = requests[len(requests) // 2]
    assert late["payload"]["view"]["base"] != 0  # a delta: the view is rebuilt from the ones before
    code, out, _ = cli("trace", "show", str(game), "--view", str(late["seq"]))
    assert code == 0 and out.splitlines() == _mirror_view(game, late["seq"])
    assert out.startswith("view of bob: turn ")


def test_view_as_a_player_counts_that_players_lines(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--as", "bob")
    numbers = [a for a, _, t in _lines(out)
               if t.startswith(("bob ← PriorityRequest", "bob ← DecisionRequest"))]
    seqs = [m["seq"] for m in _messages(game) if m["receiver"] == "player:bob"
            and m["kind"] in ("PriorityRequest", "DecisionRequest")]
    viewed = [k for k, seq in enumerate(seqs) if next(m for m in _messages(game) if m["seq"] == seq)
              ["payload"]["view"] is not None]
    for k in (viewed[0], viewed[len(viewed) // 2], viewed[-1]):
        _, as_bob, _ = cli("trace", "show", str(game), "--as", "bob", "--view", str(numbers[k]))
        _, by_seq, _ = cli("trace", "show", str(game), "--view", str(seqs[k]))
        assert as_bob == by_seq and as_bob.splitlines() == _mirror_view(game, seqs[k])


def test_view_of_a_request_without_a_view_says_so(cli: Run, game: Path) -> None:
    # The random bot reads no view when it acts: its priority requests after its first carry none.
    bare = next(m for m in _messages(game) if m["kind"] == "PriorityRequest" and m["payload"]["view"] is None)
    code, _, err = cli("trace", "show", str(game), "--view", str(bare["seq"]))
    assert code == 2 and f"no view at seq {bare['seq']}: the request carried none" in err


def _fails(cli: Run, *argv: str) -> str:
    code, out, err = cli(*argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    return err


def test_a_missing_file_is_one_line(cli: Run, tmp_path: Path) -> None:
    err = _fails(cli, "trace", "show", str(tmp_path / "nope.jsonl"))
    assert re.fullmatch(r"spellstack trace: .*nope\.jsonl: no such file\n", err)
    assert "no such file" in _fails(cli, "trace", "stats", str(tmp_path / "nope.jsonl"))


@pytest.mark.parametrize("text, problem", [
    ('{"event": "message"}\n', "line 1: the first line must be a header"),
    ("hello\n", "line 1: not JSON"),
    ("", "the file is empty"),
])
def test_a_file_that_is_not_a_trace_is_one_line(cli: Run, tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(text)
    for tool in ("show", "stats"):
        err = _fails(cli, "trace", tool, str(path))
        assert err.startswith("spellstack trace: not a trace: ") and problem in err


@pytest.mark.parametrize("argv, match", [
    (["--as", "carol"], r"--as carol: no such player in this trace \(players: alice, bob\)"),
    (["--player", "carol"], r"--player carol: no such player"),
    (["--view", "CAST"], r"--view CAST: seq CAST is a SubmitAction, not a request"),
    (["--view", "999999"], r"--view 999999: no record has seq 999999"),
    (["--as", "bob", "--view", "1"], r"--view 1: bob's line 1 is a fold, not a request"),
    (["--as", "bob", "--view", "999999"], r"--view 999999: bob's account has lines 1 to \d+"),
    (["--kind", "Nonsense"], r"--kind Nonsense: no record of that kind in this trace"),
])
def test_bad_options_are_one_line(cli: Run, game: Path, argv: list[str], match: str) -> None:
    cast = str(next(m["seq"] for m in _messages(game) if m["kind"] == "SubmitAction"
                    and m["payload"]["action"]["kind"] == "cast"))
    argv = [a.replace("CAST", cast) for a in argv]
    match = match.replace("CAST", cast)
    err = _fails(cli, "trace", "show", str(game), *argv)
    assert re.match(r"spellstack trace: " + match, err), err


def test_view_as_a_player_counts_the_lines_of_the_listing_asked_for(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--as", "bob", "--turn", "11")
    number, _, _ = next(line for line in _lines(out) if line[2].startswith("bob ← "))
    seq = next(m["seq"] for m in _messages(game) if m["receiver"] == "player:bob"
               and m["kind"] == "DecisionRequest" and _turns(game)[m["seq"]] == 11)
    _, view, _ = cli("trace", "show", str(game), "--as", "bob", "--turn", "11", "--view", str(number))
    assert view.splitlines() == _mirror_view(game, seq)


def _sections(out: str) -> list[tuple[str, str, int]]:
    """(turn heading, step heading, seq) of each numbered line of ``out``."""
    turn = step = ""
    found = []
    for line in out.splitlines():
        if line.startswith("== "):
            turn, step = line, ""
        elif line.startswith("-- "):
            step = line
        elif m := LINE.match(line):
            found.append((turn, step, int(m.group(1))))
    return found


def test_the_choices_before_the_game_come_before_turn_1_of_who_took_it(cli: Run, match_game: Path) -> None:
    messages = _messages(match_game)
    chosen = next(m for m in messages if _event_kind(m) == "starting_player")
    assert chosen["payload"]["text"] == "bob chooses bob to take the first turn"
    # the game's first turn begins with its first state-based action check
    begun = next(m["seq"] for m in messages if m["kind"] == "CheckSBA")
    pregame = {m["seq"]: _event_kind(m) for m in messages if m["seq"] < begun}
    assert {"starting_player", "draw", "mulligan", "mulligan_bottom"} <= set(pregame.values())
    code, out, _ = cli("trace", "show", str(match_game))
    assert code == 0
    headings = [h for h in out.splitlines() if h.startswith(("==", "--"))]
    assert headings[:4] == ["== before the game ==", "-- starting player --",
                            "-- opening hands and mulligans --", "== turn 1: bob =="]
    for turn, step, seq in _sections(out):
        if seq in pregame:
            assert turn == "== before the game ==", seq
            before_choice = seq <= chosen["seq"]
            assert step == ("-- starting player --" if before_choice
                            else "-- opening hands and mulligans --"), seq
        else:
            assert turn != "== before the game ==", seq
    assert "== turn 1: alice ==" not in out
    # --turn 0 keeps what came before the game, --turn 1 the first turn alone
    _, before, _ = cli("trace", "show", str(match_game), "--turn", "0")
    assert {seq for _, _, seq in _sections(before)} == {seq for _, _, seq in _sections(out) if seq in pregame}
    _, first, _ = cli("trace", "show", str(match_game), "--turn", "1")
    assert first.startswith("== turn 1: bob ==\n")


def test_a_steps_heading_names_the_record_of_its_step_change(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game))
    steps = {m["seq"]: m["payload"]["step"] for m in _messages(game) if _event_kind(m) == "step"}
    headings = re.findall(r"^-- (.+?)(?: \((\d+)\))? --$", out, flags=re.M)
    assert headings[0] == ("upkeep", "")  # the game began in it: no record began it
    assert headings[1] == ("precombat main", "5")
    numbered = [(name, int(seq)) for name, seq in headings if seq]
    # the cleanup step is entered without a step change record
    assert {name for name, seq in headings[1:] if not seq} == {"cleanup"}
    for name, seq in numbered:
        assert steps[seq].replace("_", " ") == name
    # each line under a heading comes after the record that began its step
    for _, step, seq in _sections(out):
        if m := re.search(r"\((\d+)\) --$", step):
            assert seq > int(m.group(1))
    # the number is what `trace why --seq` explains: why that step began
    for _, seq in numbered[:3]:
        code, why, err = cli("trace", "why", str(game), "--seq", str(seq))
        assert code == 0, err
        assert why.splitlines()[0].endswith(f": step ended (record {seq})")


def test_as_a_player_step_headings_name_no_record(cli: Run, game: Path) -> None:
    _, out, _ = cli("trace", "show", str(game), "--as", "bob", "--turn", "3")
    headings = [h for h in out.splitlines() if h.startswith("-- ")]
    assert headings and all(re.fullmatch(r"-- [a-z ]+ --", h) for h in headings)


@pytest.mark.slow
def test_unfold_puts_each_automatic_pass_on_its_own_line(cli: Run, game: Path) -> None:
    _, folded, _ = cli("trace", "show", str(game))
    code, out, _ = cli("trace", "show", str(game), "--unfold")
    assert code == 0
    lines = _lines(out)
    assert all(a == b for a, b, _ in lines)
    auto = {m["seq"]: m for m in _messages(game) if _event_kind(m) == "auto_pass"}
    shown = {a: text for a, _, text in lines}
    for seq, m in auto.items():
        assert shown[seq] == m["payload"]["text"]
    # the same account otherwise: every other line is the folded account's
    others = [(a, t) for a, _, t in _lines(folded) if "passed automatically" not in t]
    assert [(a, t) for a, _, t in lines if a not in auto] == others
