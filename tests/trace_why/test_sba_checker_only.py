"""704.3: the SBA checker actor is the only caller of the kernel's state-based actions: in the
source, the one actor that calls ``state_based_actions`` is the checker (beside the drivers that
run a game without actors); in a trace, every event of a check is sent by the checker between one
``CheckSBA`` and the one ``SBABatch`` that counts it, and nothing else sends one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from spellstack.protocol import CheckSBA, GameEvent, SBABatch
from spellstack.trace import read_trace

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "spellstack"


def _callers(name: str) -> set[str]:
    """Every ``module:function`` in the package whose body calls ``name``."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
                        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == name):
                    found.add(f"{path.relative_to(PACKAGE).as_posix()}:{fn.name}")
    return found


@pytest.mark.slow
def test_the_checker_is_the_only_actor_that_performs_state_based_actions() -> None:
    assert _callers("state_based_actions") == {
        "actors/_kernel_actors.py:sba_actor",  # the SBA checker, the games' one caller
        "harness/_bench_kernel.py:run_sba",  # the kernel bench's driver, without actors
        "rules/turn/_driver.py:run_sba",  # play_sync's driver (tests), without actors
    }


def test_each_check_s_events_are_one_batch_sent_by_the_checker(war_trace: Path) -> None:
    trace = read_trace(war_trace)
    batches: list[list[str]] = []  # the texts of the events of each check that made any
    open_check: list[str] | None = None
    for m in trace.messages:
        msg = m.decode(trace.source)
        if isinstance(msg, CheckSBA):
            assert open_check is None and m.sender == "coordinator", m
            open_check = []
        elif isinstance(msg, SBABatch):
            assert open_check is not None and m.sender == "sba", m
            assert msg.count == len(open_check), m  # one batch message carries them all
            if open_check:
                batches.append(open_check)
            open_check = None
        elif m.sender == "sba":
            assert open_check is not None, m  # the checker speaks only while asked
            if isinstance(msg, GameEvent):
                open_check.append(msg.text)
        elif isinstance(msg, GameEvent) and (msg.kind == "sba" or "(704.5" in msg.text):
            raise AssertionError(f"a state-based action's event sent by {m.sender}: {m}")
    assert open_check is None
    # The war's checks that did anything: a creature destroyed by lethal damage, a player who
    # lost with 0 life; each event says the rule that made it.
    assert len(batches) >= 2 and all(any("(704.5" in text for text in b) for b in batches), batches
