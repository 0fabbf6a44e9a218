"""The rules' registries of state-based actions (``SBA_ACTIONS``), turn-based actions
(``TURN_ACTIONS``), trigger events (``TRIGGER_EVENTS``) and counter kinds (``COUNTER_KINDS``), all
in ``rules/registry``, each entry registered by the rules area that gives it its meaning.

The sweeps: every state-based and turn-based action is named (by its rule) by a scenario file or
by a test outside this folder; every trigger event and counter kind is named by a card of the
pool, and the card loader takes a card using each (the kernel also resolves a spell putting a
counter of each kind). Then the walks: a check walks the state-based actions look by look in
registry order, a step its turn-based actions, a happening its trigger events, each seen through
entries added for the test. Last, the marks: every state-based action reads only what the marks
it declares cover (``SBA_READS``), checked by showing it recording stand-ins of a table's players,
objects and permanents; an action that reads damage without its mark is caught by that check,
and, in a game, by the look at everything (``sba_would_apply``) the other tests use as an oracle.
Each sweep's last test adds an entry to its registry and sees the sweep report it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest

from spellstack.build import compiled_modules
from spellstack.cards import load_card_file
from spellstack.rules import (
    COUNTER_KINDS,
    SBA_ACTIONS,
    TRIGGER_EVENTS,
    TURN_ACTIONS,
    Game,
    deal_damage,
    default_answer,
    run_proc,
    sba_would_apply,
    state_based_actions,
)
from spellstack.rules.layers import add_counters
from spellstack.rules.registry import (
    COUNTERS_CHANGED,
    SBA_LOOKS,
    SBA_READS,
    CounterKind,
    SBAHit,
    StateBasedAction,
    TriggerEvent,
    TurnAction,
)
from spellstack.rules.state import Answer
from spellstack.rules.triggers import trigger_attacks
from spellstack.rules.turn import advance
from spellstack.rules.views import ask_word
from tests.registries.registry_samples import CARDS, Missing, problem, table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "spellstack" / "cards" / "data"


# ====================================================================== named by a scenario or a test


def rules_named() -> set[str]:
    """The rules the scenario files name (their ``rules`` lists and file names) and the test
    modules outside this folder name in their text."""
    named: set[str] = set()
    for path in (ROOT / "tests" / "scenarios").rglob("*.toml"):
        named.update(tomllib.loads(path.read_text("utf-8")).get("rules", []))
        named.add(path.name.split("-")[0])
    here = Path(__file__).parent
    text = "\n".join(p.read_text("utf-8") for p in (ROOT / "tests").rglob("*.py") if here not in p.parents)
    named.update(re.findall(r"\b\d{3}\.\d+[a-z]?\b", text))
    return named


def unnamed(rules: Iterable[tuple[str, str]]) -> Missing:
    """Of (entry, rule), the entries whose rule nothing names."""
    named = rules_named()
    return {entry: f"no scenario or test names {rule}" for entry, rule in rules if rule not in named}


def sba_rules() -> Iterator[tuple[str, str]]:
    """Each state-based action with its rule: it is registered by its rule, or, for a mechanic of
    the tests mirroring a rule, by the rule and the mechanic's name (``704.5s-hourglass``)."""
    return ((name, name.split("-")[0]) for name in SBA_ACTIONS)


def turn_rules() -> Iterator[tuple[str, str]]:
    """Each turn-based action with its rule."""
    return ((name, action.rule) for name, action in TURN_ACTIONS.items())


def test_every_state_based_action_is_named_by_a_scenario_or_a_test() -> None:
    assert len(SBA_ACTIONS) >= 17
    missing = unnamed(sba_rules())
    assert not missing, f"state-based actions nothing exercises: {missing}"


def test_every_turn_based_action_is_named_by_a_scenario_or_a_test() -> None:
    missing = unnamed(turn_rules())
    assert not missing, f"turn-based actions nothing exercises: {missing}"


# ====================================================================== named by a card, taken by the loader


def events_printed() -> set[str]:
    """The trigger events the pool's cards print."""
    return {ability.event for card in CARDS.values() for ability in card.triggered}


def counter_kinds_named() -> set[str]:
    """The counter kinds the pool's card files name: ``counter`` arguments, ``counters`` tables
    (enters with, also as a mechanic's card key stands for them), "Remove a KIND counter" costs,
    counter limits, a planeswalker's loyalty and a battle's defense."""
    named: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "loyalty" in value and "type" in value:
                named.add("loyalty")  # 306.5b: it enters with that many loyalty counters
            if "defense" in value and "type" in value:
                named.add("defense")  # 310.4b: a battle enters with that many defense counters
            for key, item in value.items():
                if key == "counter" and isinstance(item, str):
                    named.add(item)
                elif key == "counters" and isinstance(item, dict):
                    named.update(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            named.update(re.findall(r"[Rr]emove (?:a|an|one|two|three) (\S+) counters? from", value))

    for path in DATA.glob("*.toml"):
        walk(tomllib.loads(path.read_text("utf-8")))
    # A mechanic's card key may stand for "enters with" counters (a Saga's lore counter).
    named.update(kind for card in CARDS.values() for r in card.replacements for kind, _ in r.counters)
    return named


def trigger_card(event: str) -> str:
    """A card file: a creature whose one triggered ability is of ``event``."""
    extra = 'step = "upkeep"\n  ' if event == "beginning_of_step" else ""
    return (f'[[card]]\nname = "Probe {event}"\ncost = "{{1}}"\ntype = "Creature — Bear"\n'
            f'pt = "1/1"\ntext = "Probe."\n'
            f'  [[card.triggered]]\n  text = "Probe."\n  event = "{event}"\n  {extra}'
            f'effects = [{{ verb = "gain_life", amount = 1, who = "you" }}]\n')


def counter_card(kind: str) -> str:
    """A card file: a {0} sorcery putting a ``kind`` counter on each creature."""
    return (f'[[card]]\nname = "Probe {kind}"\ncost = "{{0}}"\ntype = "Sorcery"\ntext = "Probe."\n'
            f'spell.effects = [{{ verb = "put_counters", what = "each_creature", counter = "{kind}", '
            f'amount = 1 }}]\n')


def loader_missing(names: Iterable[str], card: Callable[[str], str], folder: Path) -> Missing:
    """The names the card loader refuses in a card file written by ``card``."""
    missing: Missing = {}
    for i, name in enumerate(names):
        path = folder / f"probe{i}.toml"
        path.write_text(card(name), "utf-8")
        try:
            load_card_file(path)
        except Exception as err:
            missing[name] = problem(err)
    return missing


def kernel_missing_counters(folder: Path) -> Missing:
    """The counter kinds the kernel fails to put on a creature: a {0} sorcery of each, cast by
    alice and resolved, must leave her Grizzly Bears with one."""
    from spellstack.rules import Action, play_sync  # the kernel's own driver

    missing: Missing = {}
    for i, kind in enumerate(COUNTER_KINDS):
        path = folder / f"counter{i}.toml"
        path.write_text(counter_card(kind), "utf-8")
        try:
            cards = {**CARDS, **load_card_file(path)}
            game, labels = table({"players": ["alice", "bob"],
                                  "alice": {"hand": [f"Probe {kind}"],
                                            "battlefield": [{"card": "Grizzly Bears", "label": "bears"}]}},
                                 cards)
            st = game.state

            def answer(decision: Any, kind: str = kind) -> Any:
                for option in decision.actions if decision.kind == "priority" else ():
                    if option.kind == "cast" and option.name == f"Probe {kind}":
                        return Action("cast", option.object_id)
                return default_answer(decision)

            play_sync(game, answer, max_tasks=100, until=lambda g, task: g.state.resolutions >= 1)
            bears = next(o for o in st.objects.values() if o.card == labels["bears"])
            assert bears.counters.get(kind) == 1, f"counters {bears.counters}"
        except Exception as err:
            missing[kind] = problem(err)
    return missing


def test_every_trigger_event_is_printed_by_a_card_and_taken_by_the_loader(tmp_path: Path) -> None:
    assert not set(TRIGGER_EVENTS) - events_printed(), "trigger events no card prints"
    missing = loader_missing(TRIGGER_EVENTS, trigger_card, tmp_path)
    assert not missing, f"the card loader does not take trigger events {missing}"


def test_every_counter_kind_is_named_by_a_card_and_taken_by_the_loader_and_kernel(tmp_path: Path) -> None:
    assert not set(COUNTER_KINDS) - counter_kinds_named(), "counter kinds no card names"
    assert not loader_missing(COUNTER_KINDS, counter_card, tmp_path)
    missing = kernel_missing_counters(tmp_path)
    assert not missing, f"the kernel does not put counters of kinds {missing}"


def test_every_entry_names_its_rule() -> None:
    rule = re.compile(r"\d{3}\.\d+[a-z]?$")
    assert all(rule.match(name.removesuffix("-hourglass")) for name in SBA_ACTIONS)
    assert all(rule.match(a.rule) for a in TURN_ACTIONS.values())
    assert all(rule.match(e.rule) for e in TRIGGER_EVENTS.values())
    assert all(rule.match(k.rule) for k in COUNTER_KINDS.values())


def test_an_unknown_trigger_event_or_counter_kind_fails_at_load_naming_card_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(trigger_card("whenever_sand_runs_out"), "utf-8")
    with pytest.raises(Exception, match=r"Probe whenever_sand_runs_out.*triggered\[0\]\.event"):
        load_card_file(path)
    path.write_text(counter_card("water"), "utf-8")
    with pytest.raises(Exception, match=r"Probe water.*counter"):
        load_card_file(path)


# ---------------------------------------------------------------------- the checks can fail


def _observe(calls: list[str], name: str) -> Callable[[Game, Collection[Any]], list[SBAHit]]:
    def find(game: Game, subjects: Collection[Any]) -> list[SBAHit]:
        calls.append(name)
        return []
    return find


def test_a_new_state_based_or_turn_based_action_nothing_names_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SBA_ACTIONS, "704.5z", StateBasedAction(
        "sand runs out", "permanents", frozenset({"board"}), frozenset({"graveyard"}), _observe([], "z")))
    monkeypatch.setitem(TURN_ACTIONS, "turn_sand", TurnAction(
        "703.4z", "sand runs", "upkeep", "begin", act=lambda game: None))
    assert set(unnamed(sba_rules())) == {"704.5z"}
    assert set(unnamed(turn_rules())) == {"turn_sand"}


def test_a_new_trigger_event_or_counter_kind_no_card_names_is_reported(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    # The loader reads the registries itself, so it takes the new names: only the sweep fails.
    monkeypatch.setitem(TRIGGER_EVENTS, "water_drained", TriggerEvent(
        "714.2b", "whenever a water counter is removed", "attacks", True, False, lambda game, seen: None))
    monkeypatch.setitem(COUNTER_KINDS, "water", CounterKind("122.1", ""))
    assert set(TRIGGER_EVENTS) - events_printed() == {"water_drained"}
    assert set(COUNTER_KINDS) - counter_kinds_named() == {"water"}
    assert not loader_missing(["water_drained"], trigger_card, tmp_path)
    assert not loader_missing(["water"], counter_card, tmp_path)


# ====================================================================== walked in order


BOARD: dict[str, Any] = {
    "players": ["alice", "bob"],
    "alice": {"battlefield": [{"card": "Grizzly Bears", "label": "bears"}, "Isamaru, Hound of Konda",
                              "Concordant Crossroads", "Forest"],
              "graveyard": ["Lightning Bolt"]},
    "bob": {"battlefield": [{"card": "Pacifism", "label": "pacifism", "attached_to": "bears"}]},
}
"""A table with something for every look: players, objects, permanents, a legend, a world
permanent, an Aura attached."""


def _marks_for(look: str) -> frozenset[Any]:
    return frozenset({"players" if look == "players" else "tokens" if look == "objects" else "board"})


def test_a_check_walks_the_state_based_actions_look_by_look_each_in_registry_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    # Registered in reverse order of the looks, and two in one look in reverse order of name:
    # the walk follows the looks' order, then the registry's, not the names'.
    for look in reversed(SBA_LOOKS):
        monkeypatch.setitem(SBA_ACTIONS, f"704.5z-{look}", StateBasedAction(
            "an observer", look, _marks_for(look), frozenset({"graveyard"}), _observe(calls, look)))
    monkeypatch.setitem(SBA_ACTIONS, "704.5z-b", StateBasedAction(
        "an observer", "permanents", frozenset({"board"}), frozenset({"graveyard"}), _observe(calls, "b")))
    monkeypatch.setitem(SBA_ACTIONS, "704.5z-a", StateBasedAction(
        "an observer", "permanents", frozenset({"board"}), frozenset({"graveyard"}), _observe(calls, "a")))
    game, _ = table(BOARD)
    assert game.state.sba.everything
    run_proc(state_based_actions(game), default_answer)
    assert calls[:len(SBA_LOOKS) + 2] == ["players", "objects", "permanents", "b", "a", "legends", "worlds",
                                         "attachments", "roles"]


def test_a_registered_state_based_action_is_performed_with_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    def sand(game: Game, creatures: Collection[Any]) -> list[SBAHit]:
        return [SBAHit(o.id, "graveyard", "its sand ran out (704.5z)") for o, c in creatures
                if c.name == "Grizzly Bears"]
    monkeypatch.setitem(SBA_ACTIONS, "704.5z", StateBasedAction(
        "a Grizzly Bears goes to the graveyard", "permanents", frozenset({"board"}),
        frozenset({"graveyard"}), sand, only="Creature"))
    game, labels = table(BOARD)
    events = run_proc(state_based_actions(game), default_answer)
    bears = next(o for o in game.state.objects.values() if o.card == labels["bears"])
    assert bears.zone == "graveyard"
    assert any("its sand ran out (704.5z)" in e.text for e in events)


def test_an_action_that_performs_what_it_found_asks_and_acts_in_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    # An outcome none of the others is: the action's own procedure, run in the batch before
    # anything moves; it may ask, and its events are the batch's. The check repeats until the
    # action finds nothing (here: once each creature was named).
    named: dict[int, str] = {}
    asked: list[str] = []

    def unnamed_creatures(game: Game, creatures: Collection[Any]) -> list[SBAHit]:
        return [SBAHit(o.id, "perform", "704.5z") for o, _ in creatures if o.id not in named]

    def name_them(game: Game, ids: list[int]) -> Any:
        for oid in ids:
            pick = yield from ask_word(game, 0, "704.5z: a name", ("red", "blue"))
            named[oid] = ("red", "blue")[pick]
            game.log("sba", f"{game.state.objects[oid].name} is named (704.5z)", subject=oid)

    def answer(decision: Any) -> Any:
        asked.append(decision.prompt)
        return Answer(decision.id, (1,))

    monkeypatch.setitem(SBA_ACTIONS, "704.5z", StateBasedAction(
        "a creature without a name gets one", "permanents", frozenset({"board"}),
        frozenset({"perform"}), unnamed_creatures, only="Creature", perform=name_them))
    game, _ = table(BOARD)
    events = run_proc(state_based_actions(game), answer)
    assert sorted(named.values()) == ["blue", "blue"] and asked == ["704.5z: a name"] * 2
    assert [e.text for e in events] == ["Grizzly Bears is named (704.5z)",
                                        "Isamaru, Hound of Konda is named (704.5z)"]
    assert sba_would_apply(game) == ()
    assert run_proc(state_based_actions(game), answer) == ()
    with pytest.raises(ValueError, match="perform"):
        StateBasedAction("x", "permanents", frozenset({"board"}), frozenset({"perform"}), unnamed_creatures)
    with pytest.raises(ValueError, match="perform"):
        StateBasedAction("x", "permanents", frozenset({"board"}), frozenset({"graveyard"}),
                         unnamed_creatures, perform=name_them)


def test_a_step_walks_its_turn_based_actions_in_registry_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for name in ("second", "first"):
        monkeypatch.setitem(TURN_ACTIONS, f"sand_{name}", TurnAction(
            "703.4z", name, "beginning_of_combat", "begin", act=lambda game, name=name: calls.append(name)))
    monkeypatch.setitem(TURN_ACTIONS, "sand_end", TurnAction(
        "703.4z", "end", "beginning_of_combat", "end", act=lambda game: calls.append("end")))
    game, _ = table({"players": ["alice", "bob"]})
    run_proc(advance(game), default_answer)  # the main phase ends; the beginning of combat begins
    assert game.state.step == "beginning_of_combat" and calls == ["second", "first"]
    run_proc(advance(game), default_answer)  # it ends; the declare attackers step begins
    assert game.state.step == "declare_attackers" and calls == ["second", "first", "end"]


def test_a_turn_based_action_of_an_unknown_step_is_refused_and_not_kept() -> None:
    with pytest.raises(ValueError, match="unknown step 'teatime'"):
        TURN_ACTIONS["sand"] = TurnAction("703.4z", "sand", "teatime", "begin", act=lambda game: None)
    assert "sand" not in TURN_ACTIONS


def test_a_happening_walks_its_trigger_events_in_registry_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    for name in ("second", "first"):
        monkeypatch.setitem(TRIGGER_EVENTS, f"sand_{name}", TriggerEvent(
            "714.2b", name, "attacks", True, False,
            lambda game, seen, name=name: calls.append((name, seen.obj.name))))
    game, labels = table(BOARD)
    bears = next(o for o in game.state.objects.values() if o.card == labels["bears"])
    trigger_attacks(game, bears)
    assert calls == [("second", "Grizzly Bears"), ("first", "Grizzly Bears")]


def test_a_trigger_event_watching_counters_is_told_of_each_change_on_a_printing_permanent(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def watching() -> bool:
        return any(e.on == "counters" for e in TRIGGER_EVENTS.values())

    assert bool(COUNTERS_CHANGED) == watching()  # nothing is told while no event watches
    calls: list[tuple[str, str, int]] = []
    monkeypatch.setitem(TRIGGER_EVENTS, "probe_counters", TriggerEvent(
        "122.6", "whenever counters are put on or removed from this", "counters", True, False,
        lambda game, seen: calls.append((seen.obj.name, seen.zone, seen.other))))
    assert COUNTERS_CHANGED
    path = tmp_path / "probe.toml"
    path.write_text(trigger_card("probe_counters"), "utf-8")
    game, labels = table({"players": ["alice", "bob"], "alice": {"battlefield": [
        {"card": "Probe probe_counters", "label": "probe"}, {"card": "Grizzly Bears", "label": "bears"}]}},
        {**CARDS, **load_card_file(path)})
    probe, bears = (next(o for o in game.state.objects.values() if o.card == labels[label])
                    for label in ("probe", "bears"))
    add_counters(game, probe, "+1/+1", 2)
    add_counters(game, probe, "+1/+1", -1)
    add_counters(game, probe, "+1/+1", -5)  # only the one left is removed
    add_counters(game, bears, "+1/+1", 1)  # its card prints no such ability: not looked at
    assert calls == [("Probe probe_counters", "+1/+1", 2), ("Probe probe_counters", "+1/+1", -1),
                     ("Probe probe_counters", "+1/+1", -1)]
    monkeypatch.delitem(TRIGGER_EVENTS, "probe_counters")
    assert bool(COUNTERS_CHANGED) == watching()


# ====================================================================== what an action reads, and its marks


class Recorder:
    """A stand-in for a player, object or characteristics that records each field read."""

    __slots__ = ("_reads", "_target")

    def __init__(self, target: object, reads: set[str]) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_reads", reads)

    def __getattr__(self, name: str) -> Any:
        kind = type(self._target).__name__
        self._reads.add(f"{kind}.*" if kind == "Characteristics" else f"{kind}.{name}")
        return getattr(self._target, name)


def shown_recording(game: Game, look: str, reads: set[str]) -> list[Any]:
    """Everything a look of a check at everything shows, as recording stand-ins."""
    st = game.state
    if look == "players":
        return [Recorder(p, reads) for p in st.players]
    if look == "objects":
        return [Recorder(o, reads) for o in st.objects.values()]
    layers = game.caches.layers
    return [(Recorder(st.objects[oid], reads), Recorder(layers[oid], reads)) for oid in st.battlefield]


def undeclared_reads(action: StateBasedAction[Any, Any], game: Game) -> Missing:
    """What ``action`` reads of what it is shown that its marks do not cover (``SBA_READS``),
    and what it reads that ``SBA_READS`` does not know. What it reads through the game (its
    helpers) is not seen here: the look at everything (``sba_would_apply``) in the bench and
    random games stands for it."""
    reads: set[str] = set()
    action.find(game, shown_recording(game, action.looks_at, reads))
    missing: Missing = {}
    for read in sorted(reads):
        if read not in SBA_READS:
            missing[read] = "not in SBA_READS: which change marks it?"
        elif SBA_READS[read] and not SBA_READS[read] & action.marks:
            missing[read] = f"needs one of the marks {sorted(SBA_READS[read])}, has {sorted(action.marks)}"
    return missing


READS_TABLE: dict[str, Any] = {
    "players": ["alice", "bob"],
    "alice": {"battlefield": [{"card": "Grizzly Bears", "label": "bears"}, "Isamaru, Hound of Konda",
                              "Isamaru, Hound of Konda", "Concordant Crossroads", "Living Plane",
                              {"card": "Jace Beleren", "counters": {"loyalty": 1}},
                              {"card": "Rasputin Dreamweaver", "counters": {"dream": 8}},
                              "Test Sand Timer"],
              "graveyard": [{"token": "Soldier"}]},
    "bob": {"battlefield": [{"card": "Pacifism", "attached_to": "bears"},
                            {"card": "Grizzly Bears", "label": "hurt", "counters": {"+1/+1": 1, "-1/-1": 1}},
                            {"card": "The Eldest Reborn", "counters": {"lore": 3}}]},
}
"""A table where each action reads what it can: a token in a graveyard, legends, worlds, a
planeswalker, counters of every sort, an Aura attached, an Hourglass out of sand, a Saga after its final chapter."""


def test_every_state_based_action_reads_only_what_its_marks_cover() -> None:
    game, labels = table(READS_TABLE)
    hurt = next(o for o in game.state.objects.values() if o.card == labels["hurt"])
    hurt.damage, hurt.deathtouch_damage = 1, True
    # What an action reads is a property of its source: the suite's pure-Python run checks every
    # one. Compiled (the compiled build), an action takes only a game object itself, no stand-in.
    interpreted = {rule: action for rule, action in SBA_ACTIONS.items()
                   if isinstance(action.find, FunctionType)}
    if not compiled_modules():
        assert interpreted == SBA_ACTIONS

    def reads(action: StateBasedAction[Any, Any]) -> Missing:
        try:
            return undeclared_reads(action, game)
        except TypeError:
            if not compiled_modules():
                raise
            return {}  # compiled, an interpreted action handed the stand-in to compiled code

    missing = {rule: m for rule, action in interpreted.items() if (m := reads(action))}
    assert not missing, f"state-based actions reading what their marks do not cover: {missing}"


def _destroy_damaged(game: Game, permanents: Collection[Any]) -> list[SBAHit]:
    """Any creature with damage marked is destroyed (an action for these tests)."""
    return [SBAHit(o.id, "destroy", "it is hurt (704.5z)") for o, c in permanents
            if "Creature" in c.card_types and o.damage]


def test_an_action_reading_damage_without_its_mark_is_caught() -> None:
    game, _ = table(READS_TABLE)
    undeclared = StateBasedAction("a hurt creature is destroyed", "permanents", frozenset({"board"}),
                                  frozenset({"destroy"}), _destroy_damaged)
    assert undeclared_reads(undeclared, game) == {
        "GameObject.damage": "needs one of the marks ['objects'], has ['board']"}
    declared = StateBasedAction("a hurt creature is destroyed", "permanents", frozenset({"board", "objects"}),
                                frozenset({"destroy"}), _destroy_damaged)
    assert not undeclared_reads(declared, game)


@pytest.mark.parametrize(("marks", "destroyed"), [({"board"}, False), ({"board", "objects"}, True)])
def test_a_check_looks_only_where_an_action_s_marks_say_and_the_oracle_sees_the_rest(
        monkeypatch: pytest.MonkeyPatch, marks: set[Any], destroyed: bool) -> None:
    monkeypatch.setitem(SBA_ACTIONS, "704.5z", StateBasedAction(
        "a hurt creature is destroyed", "permanents", frozenset(marks), frozenset({"destroy"}),
        _destroy_damaged))
    game, labels = table({"players": ["alice", "bob"],
                          "alice": {"battlefield": [{"card": "Grizzly Bears", "label": "bears"},
                                                    {"card": "Hill Giant", "label": "giant"}]}})
    run_proc(state_based_actions(game), default_answer)  # a clean check: nothing marked after it
    assert not game.state.sba
    bears = next(o for o in game.state.objects.values() if o.card == labels["bears"])
    giant = next(o for o in game.state.objects.values() if o.card == labels["giant"])
    deal_damage(game, giant, bears.id, 1)  # marks the bears (objects), not the board
    assert game.state.sba.objects and not game.state.sba.board
    run_proc(state_based_actions(game), default_answer)
    assert (bears.id not in game.state.objects) == destroyed
    # The look at everything (the oracle before each grant of priority) finds what was missed.
    assert sba_would_apply(game) == (() if destroyed else ("Grizzly Bears destroyed: it is hurt (704.5z)",))


def test_a_state_based_action_must_declare_its_marks_and_what_it_does() -> None:
    with pytest.raises(ValueError, match="marks"):
        StateBasedAction("sand", "permanents", frozenset(), frozenset({"graveyard"}), _destroy_damaged)
    with pytest.raises(ValueError, match="outcomes"):
        StateBasedAction("sand", "permanents", frozenset({"board"}), frozenset(), _destroy_damaged)
    with pytest.raises(ValueError, match="only picks among the permanents"):
        StateBasedAction("sand", "worlds", frozenset({"board"}), frozenset({"graveyard"}), _destroy_damaged,
                         only="Creature")


def test_a_state_based_action_that_performs_brings_its_own_procedure() -> None:
    # 704.5u, 704.5w, 704.5x: the outcome 'perform' is done by the action's own ``perform``.
    def find(game: Any, battles: Collection[Any]) -> list[SBAHit]:
        return []

    def perform(game: Any, oids: list[int]) -> Iterator[Any]:
        yield from ()

    with pytest.raises(ValueError, match="exactly when perform is among its outcomes"):
        StateBasedAction("a protector", "permanents", frozenset({"board"}), frozenset({"perform"}), find)
    with pytest.raises(ValueError, match="exactly when perform is among its outcomes"):
        StateBasedAction("a protector", "permanents", frozenset({"board"}), frozenset({"graveyard"}), find,
                         perform=perform)
    made = StateBasedAction("a protector", "permanents", frozenset({"board"}), frozenset({"perform"}), find,
                            perform=perform)
    assert made.perform is perform
