"""The mechanics (``rules/mechanics``, ``MECHANICS``): one module each, found by the package
itself; each record names its rules, what its module registers (and it is there) and the
fast-path caches that touches, declared as ``TOUCHES_NEEDED`` requires. The last tests add a
mechanic that does not declare a cache it touches and see the check report it, and a module
the package finds with nothing to list."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

import spellstack.rules as rules
from spellstack.build._compile import source_path
from spellstack.cards import _loader, load_card_file
from spellstack.rules import KEYWORD_TRIGGERS, MECHANIC_MODULES, MECHANICS
from spellstack.rules.mechanics import import_mechanics
from spellstack.rules.registry import KeywordTrigger, Mechanic

MECHANICS_DIR = Path(importlib.import_module("spellstack.rules.mechanics").__file__ or "").parent


def test_every_module_of_the_package_is_found_and_imported() -> None:
    files = {p.stem for p in MECHANICS_DIR.glob("*.py") if p.stem != "__init__"}
    assert set(MECHANIC_MODULES) == files
    assert {"persist", "undying"} <= files
    assert all(f"spellstack.rules.mechanics.{name}" in sys.modules for name in files)


def test_each_mechanic_has_a_record_naming_its_rules_in_its_module_docstring() -> None:
    for name in MECHANIC_MODULES:
        assert name in MECHANICS, f"{name}: no MECHANICS record"
        # From the source file: a compiled module (the optional build) keeps no docstring.
        source = source_path(f"spellstack.rules.mechanics.{name}").read_text("utf-8")
        doc = ast.get_docstring(ast.parse(source)) or ""
        missing = [rule for rule in MECHANICS[name].rules if rule not in doc]
        assert not missing, f"{name}: its docstring does not name {missing}"


def test_what_each_mechanic_registers_is_in_its_registry() -> None:
    missing = [(name, registry, entry) for name, mechanic in MECHANICS.items()
               for registry, entry in mechanic.registers if entry not in getattr(rules, registry)]
    assert not missing


def test_every_mechanic_declares_the_caches_what_it_registers_touches() -> None:
    undeclared = {name: sorted(m.undeclared()) for name, m in MECHANICS.items() if m.undeclared()}
    assert not undeclared, f"mechanics touching caches they do not declare: {undeclared}"


PERSIST_CARD = """[[card]]
name = "Probe Persister"
cost = "{1}"
type = "Creature — Spirit"
pt = "1/1"
text = "Persist"
keywords = ["persist"]
"""


def test_the_card_loader_reads_the_keyword_triggers_the_mechanics_register(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The loader has no table of its own: the name it reads is the registry itself ...
    assert _loader.KEYWORD_TRIGGERS is KEYWORD_TRIGGERS
    path = tmp_path / "persist.toml"
    path.write_text(PERSIST_CARD, "utf-8")
    (persist,) = load_card_file(path)["Probe Persister"].triggered
    assert (persist.event, persist.effects[0].verb) == ("dies", "put_onto_battlefield")
    # ... and reads it as it stands when a card is loaded: a keyword trigger changed for the
    # test is the one the card gets.
    monkeypatch.setitem(KEYWORD_TRIGGERS, "persist", KeywordTrigger("702.79a", {
        "event": "dies", "effects": [{"verb": "gain_life", "amount": 1, "who": "you"}]}))
    (changed,) = load_card_file(path)["Probe Persister"].triggered
    assert (changed.event, changed.condition, changed.effects[0].verb) == ("dies", None, "gain_life")


# ---------------------------------------------------------------------- the checks can fail


def test_a_mechanic_registering_without_declaring_what_it_touches_is_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MECHANICS, "hourglass", Mechanic(
        ("714.3a",), "a permanent with sand counters", (("SBA_ACTIONS", "704.5s"), ("TRIGGER_EVENTS", "sand")),
        frozenset({"kinds_seen"})))
    assert MECHANICS["hourglass"].undeclared() == {"sba_marks"}
    # A new way to cast (a cost option, a layout) must be seen by the cached legal actions and hand.
    monkeypatch.setitem(MECHANICS, "sandblast", Mechanic(
        ("702.999",), "cast from a graveyard, sanded", (("COST_OPTIONS", "sandblast"), ("LAYOUTS", "flip")),
        frozenset({"legal_actions"})))
    assert MECHANICS["sandblast"].undeclared() == {"hand_facts"}
    with pytest.raises(ValueError, match="rules"):
        Mechanic((), "no rules", (), frozenset())


def test_a_new_module_is_found_with_nothing_to_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "probe_mechanics"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "sand.py").write_text("FOUND = True\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_mechanics("probe_mechanics", [str(package)]) == ("sand",)
    assert sys.modules["probe_mechanics.sand"].FOUND
    monkeypatch.delitem(sys.modules, "probe_mechanics.sand")
    monkeypatch.delitem(sys.modules, "probe_mechanics")
