"""The examples in docs/decks.md run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from spellstack.cards import MAX_DECK_SIZE, MIN_DECK_SIZE, load_cards, load_deck
from spellstack.cli import main
from spellstack.rules import CardDefinitionError

DOC = Path(__file__).resolve().parents[2] / "docs" / "decks.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_deck_example_loads_and_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    [deck_text] = _blocks("toml")
    (tmp_path / "mono-green.toml").write_text(deck_text, "utf-8")
    deck = load_deck(str(tmp_path / "mono-green.toml"), load_cards())
    assert (deck.name, len(deck.cards)) == ("mono-green", 40)
    play, search = _blocks("sh")
    monkeypatch.chdir(tmp_path)  # the command names the deck file by a relative path
    args = shlex.split(play)
    assert args[:2] == ["spellstack", "play"] and "mono-green.toml" in args
    assert main(args[1:]) == 0
    assert "Winner: " in capsys.readouterr().out
    args = shlex.split(search)
    assert main(args[1:]) == 0
    assert "Lightning Bolt  {R}" in capsys.readouterr().out


def test_the_limits_the_doc_gives_are_the_loaders() -> None:
    text = DOC.read_text("utf-8")
    assert f"At least {MIN_DECK_SIZE} cards" in text
    assert f"At most {MAX_DECK_SIZE:,} cards" in text


@pytest.mark.parametrize("card", ["Mulldrifter", "Grizly Bears"])
def test_the_refusals_the_doc_quotes_are_the_loaders(card: str, tmp_path: Path) -> None:
    [deck_text] = _blocks("toml")
    path = tmp_path / "deck.toml"
    path.write_text(deck_text.replace('"Young Wolf"', f'"{card}"'), "utf-8")
    with pytest.raises(CardDefinitionError) as err:
        load_deck(str(path), load_cards())
    problem = str(err.value).rpartition("deck 'mono-green': ")[2]
    assert f"(`{problem}`)" in " ".join(DOC.read_text("utf-8").split())
