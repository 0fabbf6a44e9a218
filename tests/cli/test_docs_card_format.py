"""docs/card-format.md is what ``spellstack cards --reference`` prints now, and its examples run as
written: the example card loads (as the pool's card), the error it quotes is the loader's, and
the Python snippet loads a file."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from spellstack.cards import card_format_reference, load_card_file, load_cards
from spellstack.cards._reference import EXAMPLE_CARD
from spellstack.cli import main
from spellstack.rules import (
    CARD_KEYS,
    CONDITIONS,
    COST_OPTIONS,
    COUNTER_KINDS,
    EFFECT_VERBS,
    TARGET_KINDS,
    TRIGGER_EVENTS,
    CardDefinitionError,
)
from spellstack.rules.layers import LAYER_VERBS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "card-format.md"
REGENERATE = "spellstack cards --reference > docs/card-format.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_page_is_current() -> None:
    assert DOC.read_text("utf-8") == card_format_reference(), (
        f"docs/card-format.md is out of date: run `{REGENERATE}` from the repository's root")


@pytest.mark.slow
def test_the_command_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--reference"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == (card_format_reference(), "")
    assert REGENERATE in out  # the page says how it is made


def test_reference_takes_no_search(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--reference", "--search", "bolt"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "spellstack cards: --reference prints the whole card format; it takes no --search\n"


@pytest.mark.slow
def test_the_page_is_the_same_anywhere() -> None:
    page = card_format_reference()
    assert page == card_format_reference()
    for local in {str(ROOT), str(Path.home()), os.getcwd()}:
        assert local not in page


def test_the_example_card_loads_as_the_pools(tmp_path: Path) -> None:
    [example] = _blocks("toml")
    assert example == EXAMPLE_CARD
    path = tmp_path / "example.toml"
    path.write_text(example, "utf-8")
    [(name, card)] = load_card_file(path).items()
    assert card == load_cards()[name]


def test_the_quoted_error_and_the_python_snippet_are_the_loaders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    [quoted] = _blocks("text")
    [snippet] = _blocks("python")
    monkeypatch.chdir(tmp_path)  # both name the file by a relative path
    Path("my_cards.toml").write_text(
        '[[card]]\nname = "Grizzly Bears"\ncost = "{1}{G}"\ntype = "Creature — Bear"\n', "utf-8")
    with pytest.raises(CardDefinitionError) as err:
        exec(snippet, {})
    assert str(err.value) == quoted.strip()
    Path("my_cards.toml").write_text(EXAMPLE_CARD, "utf-8")
    scope: dict[str, object] = {}
    exec(snippet, scope)
    assert list(scope["cards"]) == ["Elvish Visionary"]  # type: ignore[call-overload]


def test_the_page_lists_every_registered_name() -> None:
    text = DOC.read_text("utf-8")
    headings = set(re.findall(r"^### `([^`]+)`$", text, re.M))
    rows = set(re.findall(r"^\| `([^`]+)` \|", text, re.M))
    assert set(EFFECT_VERBS) | set(CONDITIONS) <= headings
    assert (set(CARD_KEYS) | set(TARGET_KINDS) | set(LAYER_VERBS) | set(COST_OPTIONS)
            | set(TRIGGER_EVENTS) | set(COUNTER_KINDS)) <= rows


def test_every_cell_and_section_says_something() -> None:
    # Each field, argument and argument kind has its docstring on the page, each verb its own.
    text = DOC.read_text("utf-8")
    assert "|  |" not in text and "| |" not in text
    assert not re.search(r"^### .*\n\n(###|##|\|)", text, re.M)
