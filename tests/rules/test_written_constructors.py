"""The records made at every task and epoch (the loop's requests, the automatic-pass test's
caches) have their constructors written out, so that the compiled build makes them in compiled
code: each constructor takes exactly the dataclass's fields, in order, with their defaults, and
assigns each to itself, and nothing else."""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import MISSING
from typing import Any

import pytest

from spellstack.build._compile import source_path
from spellstack.cards import load_cards
from spellstack.rules.casting import CastForm
from spellstack.rules.game import HandFacts, PermanentFacts, SeatBoard
from spellstack.rules.mana import parse_mana_cost
from spellstack.rules.state import Characteristics, Decision
from spellstack.rules.triggers import Happened
from spellstack.rules.turn import _driver as loop

WRITTEN_OUT: list[type[Any]] = [
    SeatBoard, PermanentFacts, HandFacts, CastForm, Happened, loop.AutoRun, loop.RunResolve, loop.Ask,
    loop.AskPriority, loop.ActionOutcome, loop.AutoPasses, loop.NoStopPass, loop.BeginTask]


def _init_of(cls: type[Any]) -> ast.FunctionDef:
    """The class's ``__init__`` as written in its source (read from the file, so that the
    compiled build, which runs this test too, is checked against its source)."""
    tree = ast.parse(source_path(cls.__module__).read_text())
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    return next(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=[c.__name__ for c in WRITTEN_OUT])
def test_the_constructor_takes_and_assigns_exactly_the_fields(cls: type[Any]) -> None:
    init = _init_of(cls)
    every = dataclasses.fields(cls)
    params = [a.arg for a in init.args.args[1:]]
    assert params == [f.name for f in every] and not init.args.kwonlyargs
    defaults = [ast.literal_eval(d) for d in init.args.defaults]
    assert list(zip(params[len(params) - len(defaults):], defaults, strict=True)) == [
        (f.name, f.default) for f in every if f.default is not MISSING]
    assert all(f.default_factory is MISSING for f in every)
    body = [(stmt.targets[0].value.id, stmt.targets[0].attr, stmt.value.id)  # type: ignore[attr-defined]
            for stmt in init.body if isinstance(stmt, ast.Assign)]
    assert len(body) == len(init.body)  # assignments only
    assert body == [("self", name, name) for name in params]


CARDS = load_cards()
_DECISION = Decision(4, 1, "priority", "117.1: Ben, you have priority")
_COST = parse_mana_cost("{1}{G}")


def _bear(name: str) -> Characteristics:
    return Characteristics(name, name, _COST, 2, ("G",), ("Creature",), ("Bear",), (), (), (), 2, 2, None, 0)

SAMPLES: dict[type[Any], tuple[tuple[Any, ...], tuple[Any, ...]]] = {
    # Two sets of values of the fields' types (compiled code checks them), differing in the first.
    SeatBoard: ((3, (5, 8), (), 0, True, False, True), (4, (5, 8), (), 0, True, False, True)),
    PermanentFacts: ((_bear("Bear"), None, False, True, False), (_bear("Elf"), None, False, True, False)),
    HandFacts: (((9, 10), -1, True, (_COST,), ()), ((9,), -1, True, (_COST,), ())),
    loop.AutoRun: (((0, 1), "priority", True, None, None), ((0,), "priority", True, None, None)),
    loop.RunResolve: ((12,), (13,)),
    loop.Ask: ((_DECISION,), (Decision(5, 0, "choose", "603.3b: order"),)),
    loop.AskPriority: ((_DECISION,), (Decision(5, 0, "priority", "117.1"),)),
    loop.ActionOutcome: ((_DECISION, None), (Decision(5, 0, "priority", "117.1"), None)),
    loop.AutoPasses: (((0, 1), True, False), ((1,), True, False)),
    loop.NoStopPass: ((1,), (0,)),
    loop.BeginTask: (("priority",), ("resolve",)),
    CastForm: ((CARDS["Grizzly Bears"], "", (), None), (CARDS["Hill Giant"], "", (), None)),
    Happened: ((None, (), 0, "", False, "upkeep"), (None, (), 0, "", False, "draw")),
}


def test_every_written_out_record_has_samples() -> None:
    assert set(SAMPLES) == set(WRITTEN_OUT)


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=[c.__name__ for c in WRITTEN_OUT])
def test_a_record_is_built_with_the_values_given_and_compares_by_them(cls: type[Any]) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    values, others = SAMPLES[cls]
    made = cls(*values)
    assert tuple(getattr(made, name) for name in names) == values
    assert made == cls(*values) and made == dataclasses.replace(made) and made != cls(*others)
    assert repr(made).startswith(f"{cls.__name__}(")


def test_an_autorun_still_takes_its_defaults() -> None:
    assert loop.AutoRun((0,), "priority") == loop.AutoRun((0,), "priority", False, None, None)
    assert loop.AutoPasses((1,), True).traced is False
