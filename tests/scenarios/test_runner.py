"""The scenario runner itself: what a step may say, how outcomes are classified (a crash is
never an expected failure), and declarations by several defending players."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import SeatConfig, play_game
from spellstack.cards import load_cards
from spellstack.rules import Action, CardDefinition, Decision
from spellstack.rules.base import is_compiled_class
from spellstack.scenarios import (
    Director,
    ScenarioError,
    ScriptedPolicy,
    build_game,
    run_scenario,
    run_scenario_file,
)

CARDS: Mapping[str, CardDefinition] = load_cards()

BOLT = '''title = "t"
[setup]
players = ["alice", "bob"]
[setup.alice]
hand = ["Lightning Bolt"]
battlefield = ["Mountain"]
'''


def _write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def _run(text: str) -> None:
    trio.run(run_scenario, tomllib.loads(text), "s.toml", CARDS)


# ---------------------------------------------------------------------- what a step may say


def test_an_unknown_key_in_a_step_names_the_key_and_the_step() -> None:
    # "targts" was ignored before: the Bolt was cast with no target and refused instead.
    text = BOLT + '[[step]]\nexpect.life = { bob = 20 }\n[[step]]\ncast = "Lightning Bolt"\n' \
                  'targts = ["bob"]\n'
    with pytest.raises(ScenarioError, match=r"s\.toml: step 2: unknown field 'targts' for StepTable$"):
        _run(text)


def test_a_key_of_another_kind_of_step_is_unknown_there() -> None:
    text = BOLT + '[[step]]\nresolve = 1\ntargets = ["bob"]\n'
    with pytest.raises(ScenarioError, match=r"step 1: unknown key 'targets' in a 'resolve' step"):
        _run(text)


@pytest.mark.parametrize("step, needle", [
    ('cast = "Lightning Bolt"\nresolve = 1', "not both 'cast' and 'resolve'"),
    ('attack = "bob"', "attack: expected map, got str 'bob'"),
    ("resolve = 0", "resolve: expected 1 or more, got 0"),
    ('resolve = "most"', "resolve: expected one of 'all', got str 'most'"),
    ('advance = "lunch"', "advance: 'lunch' is not a step name"),
    ("choose = [\"yes\"]", "a choose step needs 'by'"),
    ("expect.life = 3", "expect.life: expected map, got int 3"),
    ("expect.objects.x = { colour = 1 }",
     r"expect\.objects\['x'\]: unknown field 'colour' for ObjectExpect"),
])
def test_malformed_steps_are_errors_not_crashes(step: str, needle: str) -> None:
    with pytest.raises(ScenarioError, match=f"step 1: .*{needle}"):
        _run(BOLT + "[[step]]\n" + step + "\n")


SETUP = '[setup]\nplayers = ["alice", "bob"]\n'


@pytest.mark.parametrize("text, needle", [
    (SETUP + "step = []\n", r"setup\.step: expected str, got list \[\]"),
    (SETUP + 'step = "cleanup"\n', r"setup\.step: 'cleanup' is not a step in which players"),
    (SETUP + 'priority = ["bob"]\n', r"setup\.priority: expected str, got list"),
    (SETUP + 'priority = "carol"\n', "setup.priority 'carol' is not a player"),
    (SETUP + '[setup.alice]\nbattlefield = [{ card = "Mountain", owner = ["bob"] }]\n',
     r"battlefield\[0\]\.owner"),
    (SETUP + "[setup.alice]\nlife = 1180591620717411303424\n",
     r"setup\.alice\.life: expected an integer within 64 bits"),
    (SETUP + '[setup.alice]\nbattlefield = [{ card = "Mountain", damage = "x" }]\n',
     r"setup\.alice\.battlefield\[0\]\.damage: expected int, got str 'x'"),
    (SETUP + '[setup.alice]\nbattlefield = [{ card = "Mountain", counters = { a = -1 } }]\n',
     r"setup\.alice\.battlefield\[0\]\.counters\['a'\]: expected 0 or more, got -1"),
    (SETUP + "[[step]]\nexpect.hand = { alice = [1] }\n",
     r"expect\.hand\['alice'\]\[0\]: expected str, got int 1"),
    (SETUP + '[[step]]\nexpect.mana = { alice = "x" }\n', r"mana\['alice'\]: unexpected 'x'"),
    ("step = [1]\n" + SETUP, r"step\[0\]: expected map, got int 1"),
])
def test_malformed_setups_are_errors_not_crashes(text: str, needle: str) -> None:
    with pytest.raises(ScenarioError, match=needle):
        _run('title = "t"\n' + text)


# ---------------------------------------------------------------------- classifying outcomes


class _BrokenDefinition:
    """A card definition whose ``attribute`` raises: a stand-in for a bug in the engine."""

    def __init__(self, real: CardDefinition, attribute: str) -> None:
        self._real = real
        self._attribute = attribute

    def __getattr__(self, name: str) -> Any:
        if name == self._attribute:
            raise AttributeError(f"{name} broken for the test")
        return getattr(self._real, name)


class _Pool(Mapping[str, Any]):
    """The engine's card pool with one attribute of one card broken."""

    def __init__(self, card: str, attribute: str) -> None:
        self._broken = {card: _BrokenDefinition(CARDS[card], attribute)}

    def __getitem__(self, name: str) -> Any:
        return self._broken.get(name) or CARDS[name]

    def __iter__(self) -> Iterator[str]:
        return iter(CARDS)

    def __len__(self) -> int:
        return len(CARDS)


BEARS = '''title = "Bears"
[setup]
players = ["alice", "bob"]
[setup.alice]
battlefield = [{ card = "Grizzly Bears", label = "bears" }]
'''


def test_an_honest_expected_failure_reports_what_it_waits_for_and_how_it_fails(
        tmp_path: Path) -> None:
    path = _write(tmp_path, BEARS + "[[step]]\nexpect.life = { alice = 19 }\n")
    result = run_scenario_file(path, {"s.toml": "a later issue"})
    assert result.status == "XFAIL"
    assert result.line() == ("XFAIL Bears (waits for: a later issue; fails: step 1: life.alice: "
                             "expected 19, got 20)")


def test_a_crash_in_the_engine_is_an_error_even_when_listed(tmp_path: Path) -> None:
    path = _write(tmp_path, BEARS + '[[step]]\nattack = { bears = "bob" }\n')
    result = run_scenario_file(path, {"s.toml": "a later issue"}, _Pool("Grizzly Bears", "power"))
    assert result.status == "ERROR", result.line()
    assert not result.ok
    # Compiled, the engine's code checks a definition's type as it reads it: the broken one is
    # refused there, a crash all the same.
    crash = ("TypeError: spellstack.rules.definitions._definitions.CardDefinition object expected; "
             "got tests.scenarios.test_runner._BrokenDefinition" if is_compiled_class(CardDefinition)
             else "AttributeError: power broken for the test")
    assert result.line().startswith(f"FAIL Bears: crash in the scenario runner: {crash} (at ")
    assert "Traceback" in result.detail


class _CrashingDirector(Director):
    """A Director with a bug: it raises KeyError when asked what to do with priority."""

    def on_priority(self, seat: int, decision: Decision) -> Action | None:
        raise KeyError("a bug in the director")


async def test_a_crash_in_the_scripted_policy_stops_the_scenario_and_is_kept() -> None:
    # The player actor turns a policy's exception into a forfeit; the scripted policy must
    # keep the exception instead, or the game would end and the crash would look like a failure.
    data = tomllib.loads(BEARS + "[[step]]\npass = true\n")
    game, labels = build_game(data["setup"], 0, CARDS, "s.toml")
    director = _CrashingDirector(game, data["step"], labels, "s.toml")
    policies = [ScriptedPolicy(director, seat) for seat in range(2)]
    configs = [SeatConfig(auto_pass=False, timeout=3600.0)] * 2
    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(play_game, game, policies, configs=configs))
        with trio.fail_after(10):
            await director.finished.wait()
        nursery.cancel_scope.cancel()
    assert isinstance(director.crash, KeyError)
    assert director.failure is None
    assert not game.state.game_over


def test_a_pool_card_the_engine_lacks_is_an_honest_failure_named_not_implemented(
        tmp_path: Path) -> None:
    path = _write(tmp_path, BEARS.replace("Grizzly Bears", "The Eldest Reborn"))
    # The engine as it was before the card: every pool card is implemented now.
    lacking = {name: d for name, d in CARDS.items() if name != "The Eldest Reborn"}
    result = run_scenario_file(path, {"s.toml": "evoke"}, lacking)
    assert result.status == "XFAIL"
    assert result.message.endswith(
        "setup.alice.battlefield[0]: 'The Eldest Reborn' is a pool card not implemented yet")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Grizly Bears", "unknown card 'Grizly Bears' (did you mean 'Grizzly Bears'?)"),
        ("Black Lotus", "unknown card 'Black Lotus'"),
    ],
)
def test_a_card_in_neither_the_engine_nor_the_pool_is_named_unknown(
        name: str, problem: str, tmp_path: Path) -> None:
    path = _write(tmp_path, BEARS.replace("Grizzly Bears", name))
    result = run_scenario_file(path)
    assert result.status == "FAIL"
    assert result.message.endswith(f"setup.alice.battlefield[0]: {problem}")


def test_a_pool_token_the_engine_lacks_is_not_implemented_and_a_card_is_no_token(
        tmp_path: Path) -> None:
    from spellstack.cards import POOL_NAMES

    missing = sorted(POOL_NAMES.tokens - set(CARDS))
    if missing:
        path = _write(tmp_path, BEARS.replace('card = "Grizzly Bears"', f'token = "{missing[0]}"'))
        result = run_scenario_file(path, {"s.toml": "a later issue"})
        assert result.status == "XFAIL"
        assert result.message.endswith(f"{missing[0]!r} is a pool token not implemented yet")
    path = _write(tmp_path, BEARS.replace('card = "Grizzly Bears"', 'token = "Grizzly Bears"'))
    result = run_scenario_file(path)
    assert result.status == "FAIL"
    assert result.message.endswith("'Grizzly Bears' is a card, not a token")


def test_an_expected_failure_that_passes_fails_the_run(tmp_path: Path) -> None:
    path = _write(tmp_path, BEARS + "[[step]]\nexpect.life = { alice = 20 }\n")
    result = run_scenario_file(path, {"s.toml": "a later issue"})
    assert (result.status, result.ok) == ("XPASS", False)
    assert result.line() == ("FAIL Bears: passed, but it is listed as an expected failure "
                             "(waits for: a later issue)")


# ---------------------------------------------------------------------- several defenders

THREE = '''title = "three"
[setup]
players = ["alice", "bob", "carol"]
[setup.alice]
battlefield = [{ card = "Hill Giant", label = "a1" }, { card = "Grizzly Bears", label = "a2" }]
[setup.bob]
battlefield = [{ card = "Giant Spider", label = "spider" }]
[setup.carol]
battlefield = [{ card = "Grizzly Bears", label = "bear", tapped = true }]
[[step]]
attack = { a1 = "bob", a2 = "carol" }
'''


def test_a_block_by_a_defender_who_is_never_asked_fails_the_scenario(tmp_path: Path) -> None:
    # Carol's bear is tapped, so Carol has no block to declare and is not asked (509.1a).
    path = _write(tmp_path, THREE + '[[step]]\nblock = { spider = "a1", bear = "a2" }\n')
    result = run_scenario_file(path)
    assert result.status == "FAIL"
    assert "bear -> a2 can't be declared" in result.message


# ---------------------------------------------------------------------- format errors


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('title = "Bolt"\n[setup]\nplayers = ["a", "b"]\n[[step]]\ncst = "Shock"\n',
         "FAIL Bolt: {path}: step 1: unknown field 'cst' for StepTable"),
        ('title = "Bolt"\nsed = 1\n', "FAIL Bolt: {path}: unknown field 'sed' for ScenarioFile"),
        ('[setup]\nplayers = ["a", "b"]\n', "FAIL {path}: title: missing required field"),
        ("title = [", "FAIL {path}: Invalid value (at end of document)"),
    ],
)
def test_a_format_error_keeps_the_title_and_names_the_file_once(
        tmp_path: Path, text: str, line: str) -> None:
    path = _write(tmp_path, text)
    result = run_scenario_file(path)
    assert result.line() == line.format(path=path)
    assert result.line().count(str(path)) == 1


# ------------------------------------------------ declarations nobody is asked for (508.1, 509.1)

NO_CREATURES = '''title = "No creatures"
[setup]
players = ["alice", "bob"]
[setup.alice]
battlefield = [{ card = "Forest", label = "forest" }]
[setup.bob]
battlefield = [{ card = "Plains", label = "plains" }]
'''


def test_an_attack_nobody_is_asked_for_fails_unless_it_is_rejected(tmp_path: Path) -> None:
    step = '[[step]]\nattack = { forest = "bob" }\n'
    result = run_scenario_file(_write(tmp_path, NO_CREATURES + step))
    assert result.status == "FAIL"
    assert result.message.endswith("step 1: no attackers could be declared")
    result = run_scenario_file(_write(tmp_path, NO_CREATURES + step + "rejected = true\n"
                                      'reason = "508.1a"\n'))
    assert result.status == "PASS", result.line()
    result = run_scenario_file(_write(tmp_path, NO_CREATURES + step + "rejected = true\n"
                                      'reason = "509.1"\n'))
    assert result.status == "FAIL"
    assert result.message.endswith("""refusal "508.1a: Forest can't attack bob" does not """
                                   "mention '509.1'")


def test_a_block_nobody_is_asked_for_fails_unless_it_is_rejected(tmp_path: Path) -> None:
    setup = BEARS + '[setup.bob]\nbattlefield = [{ card = "Plains", label = "plains" }]\n'
    steps = '[[step]]\nattack = { bears = "bob" }\n[[step]]\nblock = { plains = "bears" }\n'
    result = run_scenario_file(_write(tmp_path, setup + steps))
    assert result.status == "FAIL"
    assert result.message.endswith("step 2: no blockers could be declared")
    result = run_scenario_file(_write(tmp_path, setup + steps + 'rejected = true\n'
                                      'reason = "509.1a: Plains can\'t block Grizzly Bears"\n'
                                      '[[step]]\nexpect.step = "declare_blockers"\n'))
    assert result.status == "PASS", result.line()
