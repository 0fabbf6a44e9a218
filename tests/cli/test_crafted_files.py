"""Crafted files (nesting thousands deep, integers of thousands of digits, bytes that are not
UTF-8) give each loader's own error in one line naming the file, never a traceback: deck files
and card files a ``CardDefinitionError`` (exit 2 from the command line), a scenario file a
``FAIL`` line, an expected-failures file the exit-2 error of a broken one, a trace a
``TraceError``."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.actors import TRACE_FORMAT
from spellstack.cards import checking, load_card_file, load_cards, load_deck, parse_toml, short_value
from spellstack.cli import main
from spellstack.rules import CardDefinitionError
from spellstack.scenarios import ScenarioError, read_expected_failures, run_scenario_file
from spellstack.trace import TraceError, parse_trace

ARRAYS = "[" * 3000 + "]" * 3000
"""Arrays nested 3,000 deep: past what ``tomllib`` can parse at any usual recursion limit."""
TABLES = "{a = " * 3000 + "1" + "}" * 3000
"""Inline tables nested 3,000 deep."""
DIGITS = "7" * 5000
"""An integer of 5,000 digits: past Python's 4,300 for converting a string to an int."""

CRAFTED = [
    pytest.param(ARRAYS, "arrays or inline tables nested too deeply", id="arrays"),
    pytest.param(TABLES, "arrays or inline tables nested too deeply", id="inline-tables"),
    pytest.param(DIGITS, "an integer of more than 4300 digits (line 3)", id="digits"),
    pytest.param("-" + DIGITS, "an integer of more than 4300 digits (line 3)", id="negative-digits"),
]


def _one_line(text: str) -> None:
    assert "\n" not in text.rstrip("\n"), text
    assert "Traceback" not in text
    assert len(text) < 300, text


# --------------------------------------------------------------------------- deck files


@pytest.mark.parametrize(("value", "why"), CRAFTED)
def test_a_crafted_deck_file_is_a_card_definition_error(tmp_path: Path, value: str,
                                                        why: str) -> None:
    deck = tmp_path / "crafted.toml"
    deck.write_text(f'name = "Crafted"\n[cards]\nForest = {value}\n', "utf-8")
    with pytest.raises(CardDefinitionError) as info:
        load_deck(str(deck), load_cards())
    assert str(info.value) == f"{deck}: {why}"


@pytest.mark.parametrize(("value", "why"), CRAFTED)
def test_a_crafted_deck_file_is_a_one_line_error_exit_2(tmp_path: Path, value: str, why: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "crafted.toml"
    deck.write_text(f'name = "Crafted"\n[cards]\nForest = {value}\n', "utf-8")
    assert main(["play", "--deck", str(deck), "--deck", "gruul"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"spellstack play: {deck}: {why}\n"


def test_a_deck_count_nested_but_parseable_is_a_short_error(tmp_path: Path) -> None:
    deck = tmp_path / "nested.toml"
    deck.write_text('name = "Nested"\n[cards]\nForest = ' + "[" * 200 + "]" * 200 + "\n", "utf-8")
    with pytest.raises(CardDefinitionError, match=r"cards\['Forest'\]: expected int, got list "
                       r"\[\[\[\[\[\.\.\.\]\]\]\]\]$") as info:
        load_deck(str(deck), load_cards())
    _one_line(str(info.value))


# --------------------------------------------------------------------------- card files

_CARD = '[[card]]\nname = "Crafted"\ncost = "{R}"\ntype = "Instant"\npower = '


@pytest.mark.parametrize(("value", "why"), CRAFTED)
def test_a_crafted_card_file_is_a_card_definition_error(tmp_path: Path, value: str,
                                                        why: str) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(_CARD + value + "\n", "utf-8")
    expected = f"{path}: {why.replace('line 3', 'line 5')}"
    with pytest.raises(CardDefinitionError) as info:
        load_card_file(path)
    assert str(info.value) == expected
    with pytest.raises(CardDefinitionError) as info:
        load_card_file("given.toml", _CARD + value + "\n")  # text given, as for package data
    assert str(info.value) == expected.replace(str(path), "given.toml")


def test_a_card_file_that_is_not_utf8_is_a_card_definition_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('[[card]]\nname = "Caf\u00e9"\n'.encode("latin-1"))
    with pytest.raises(CardDefinitionError, match=r"latin1.toml: a card file must be UTF-8 text "
                       r"\(byte 20 is not\)$"):
        load_card_file(path)


def test_a_card_value_nested_but_parseable_is_a_short_error(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text('[[card]]\nname = "Crafted"\ncost = "{R}"\ntype = '
                    + "[" * 200 + "]" * 200 + "\n", "utf-8")
    with pytest.raises(CardDefinitionError, match=r"card 'Crafted': type: expected str, got list "
                       r"\[\[\[\[\[\.\.\.\]\]\]\]\]$") as info:
        load_card_file(path)
    _one_line(str(info.value))


# --------------------------------------------------------------------------- scenarios


@pytest.mark.parametrize(("value", "why"), CRAFTED)
def test_a_crafted_scenario_file_is_a_fail_line(tmp_path: Path, value: str, why: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "crafted.toml"
    path.write_text(f'title = "Crafted"\n\nseed = {value}\n', "utf-8")
    result = run_scenario_file(path)
    assert (result.status, result.message) == ("FAIL", why)
    assert main(["scenario", "run", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == f"FAIL {path}: {why}\n0 passed, 1 failed, 0 xfailed\n"
    assert err == ""


def test_an_expected_failures_file_nested_100k_deep_is_the_exit_2_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.toml").write_text('title = "A"\n', "utf-8")
    listed = tmp_path / "expected_failures.toml"
    listed.write_text('"a.toml" = ' + "[" * 100_000 + "]" * 100_000 + "\n", "utf-8")
    with pytest.raises(ScenarioError) as info:
        read_expected_failures(listed)
    assert str(info.value) == f"{listed}: arrays or inline tables nested too deeply"
    assert main(["scenario", "run", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"spellstack scenario: {listed}: arrays or inline tables nested too deeply\n")
    given = tmp_path / "given.txt"
    given.write_text(f'"a.toml" = {DIGITS}\n', "utf-8")
    assert main(["scenario", "run", str(tmp_path / "a.toml"), "--expected-failures",
                 str(given)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"spellstack scenario: {given}: an integer of more than 4300 digits "
                              "(line 1)\n")


# --------------------------------------------------------------------------- traces


def test_a_trace_field_nested_1000_deep_is_a_trace_error() -> None:
    deep = "[" * 1000 + "]" * 1000
    seat = '{"auto_pass":true,"clock":null,"deadline":30.0,"priority_views":true,"stops":null}'
    header = ('{"decks":{"alice":"gruul","bob":"orzhov"},"decklists":{"alice":["Forest"],'
              '"bob":["Plains"]},"engine":"0.1.0","entrants":{"alice":"bot","bob":"bot"},'
              f'"event":"header","format":{TRACE_FORMAT},"game":"g1","players":["alice","bob"],'
              f'"seats":[{seat},{seat}],"seed":1,"turn_limit":300}}\n')
    message = '{"event":"message","game":"g1","kind":DEEP,"payload":{},"receiver":"sba",' \
              '"sender":"coordinator","seq":1}\n'
    # Refused by its depth, before its fields are looked at: no printer has to show it again.
    for lines in ([header.replace('"seed":1', f'"seed":{deep}')],
                  [header.replace('"event":"header"', f'"event":{deep}')],
                  [header, message.replace("DEEP", deep)], [header, '{"event":' + deep + "}\n"]):
        with pytest.raises(TraceError, match=rf": line {len(lines)}: lists and objects nested "
                           r"more than 64 levels deep$") as info:
            parse_trace(lines)
        _one_line(str(info.value))


# --------------------------------------------------------------------------- the helper


class _MyError(Exception):
    """A caller's own error type."""


@pytest.mark.parametrize(("text", "why"), [
    ("a = " + ARRAYS, "arrays or inline tables nested too deeply"),
    ("a = " + DIGITS, "an integer of more than 4300 digits (line 1)"),
    ("a = 1\na = 2", "Cannot overwrite a value (at end of document)"),
    ("a = [1,\n", "Invalid value (at end of document)"),
    ("a = \"x\" b", "Expected newline or end of document after a statement (at line 1, column 9)"),
])
def test_parse_toml_gives_the_callers_error_in_one_line(text: str, why: str) -> None:
    with pytest.raises(_MyError) as info:
        parse_toml(text, "f.toml", _MyError)
    assert str(info.value) == f"f.toml: {why}"


def test_checking_turns_what_a_loader_trips_on_into_the_callers_error() -> None:
    def deep(n: int) -> int:
        return deep(n + 1)

    with pytest.raises(_MyError, match=r"^f.toml: values nested too deeply$"), checking("f.toml", _MyError):
        deep(0)
    with pytest.raises(_MyError, match=r"^f.toml: an integer of more than 4300 digits$"), \
            checking("f.toml", _MyError):
        str(10 ** 5000)
    with pytest.raises(_MyError, match=r"^mine$"), checking("f.toml", _MyError):
        raise _MyError("mine")
    with pytest.raises(KeyError), checking("f.toml", _MyError):
        raise KeyError("a bug stays a bug")
    assert short_value("x" * 1000).endswith("xxx'") and len(short_value("x" * 1000)) < 70
