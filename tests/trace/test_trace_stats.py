"""``spellstack trace stats``: every figure checked against counts made here from the raw JSON
lines."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from spellstack.trace import read_trace, trace_stats
from tests.trace.trace_helpers import GAMES, Run, raw_records


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_the_figures_are_the_traces_counts(traces: list[Path], game: int) -> None:
    path = traces[game]
    records = raw_records(path)
    messages = [r for r in records if r["event"] == "message"]
    events = [r["payload"] for r in messages if r["kind"] == "GameEvent"]
    stats = trace_stats(read_trace(path))
    assert dict(stats.messages) == Counter(r["kind"] for r in messages)
    assert dict(stats.events) == Counter(e["kind"] for e in events)
    assert [n for _, n in stats.messages] == sorted((n for _, n in stats.messages), reverse=True)
    passes = {p.step: (p.by_players, p.automatic) for p in stats.passes}
    for step in {e["step"] for e in events}:
        chosen = sum(e["kind"] == "pass" and e["step"] == step for e in events)
        auto = sum(e["kind"] == "auto_pass" and e["step"] == step for e in events)
        assert passes.get(step, (0, 0)) == (chosen, auto)
    for d in stats.decisions:
        asked = [r for r in messages if r["receiver"] == f"player:{d.player}"]
        assert d.priority == len({r["payload"]["decision"]["id"] for r in asked
                                  if r["kind"] == "PriorityRequest"})
        assert d.other == len({r["payload"]["decision"]["id"] for r in asked
                               if r["kind"] == "DecisionRequest"})
        assert d.replies == sum(r["sender"] == f"player:{d.player}"
                                and r["kind"] in ("SubmitAction", "SubmitAnswer") for r in messages)
    assert [d.player for d in stats.decisions] == records[0]["players"]
    assert (stats.turns, stats.result.reason) == (records[-1]["turns"], records[-1]["reason"])
    # the deepest stack is at least what any view showed, and what a trigger order put on it
    shown = max((len(r["payload"]["view"]["stack"] or ()) for r in messages
                 if r["payload"].get("view") is not None), default=0)
    ordered = max((len(e["refs"]) for e in events if e["kind"] == "ordered"), default=0)
    assert stats.deepest_stack >= max(shown, ordered, 1)
    assert stats.deepest_stack <= sum(e["kind"] in ("cast", "trigger", "activate") for e in events)


def test_some_game_stacks_more_than_one_object(traces: list[Path]) -> None:
    assert max(trace_stats(read_trace(p)).deepest_stack for p in traces) >= 2


def test_the_command_prints_the_figures(cli: Run, game: Path) -> None:
    code, out, err = cli("trace", "stats", str(game))
    assert code == 0 and err == ""
    records = raw_records(game)
    kinds = Counter(r["kind"] for r in records if r["event"] == "message")
    lines = out.splitlines()
    assert lines[0] == "game g1, seed 1: alice (gruul) vs bob (orzhov)"
    assert f"turns: {records[-1]['turns']}" in lines
    for kind, n in kinds.items():
        assert f"  {kind:<18}{n:>6}" in lines
    assert f"records by message kind ({sum(kinds.values())}):" in lines


def test_the_passes_table_lines_up_whatever_the_step_names(cli: Run, game: Path) -> None:
    # ``beginning of combat`` is the longest step name with passes in this game: its row is
    # as wide as the others, each count under its heading.
    _, out, _ = cli("trace", "stats", str(game))
    lines = out.splitlines()
    start = lines.index(next(ln for ln in lines if ln.startswith("passes per step:")))
    table = lines[start:lines.index("", start)]
    assert any("beginning of combat" in row for row in table)
    assert len({len(row) for row in table}) == 1, table
    header = table[0]
    for row in table[1:]:
        found = re.fullmatch(r"  (\S.*\S) +(\d+) +(\d+)", row)
        assert found is not None, row
        assert found.end(2) == header.index("player") + len("player"), (header, row)
