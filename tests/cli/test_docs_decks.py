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


@pytest.mark.parametrize("card", ["The Eldest Reborn", "Grizly Bears"])
def test_the_refusals_the_doc_quotes_are_the_loaders(card: str, tmp_path: Path) -> None:
    [deck_text] = _blocks("toml")
    path = tmp_path / "deck.toml"
    path.write_text(deck_text.replace('"Young Wolf"', f'"{card}"'), "utf-8")
    # A pool card the engine lacks: the engine as it was before The Eldest Reborn (every pool
    # card is implemented now); the doc names it in general, as 'Card Name'.
    cards = {n: d for n, d in load_cards().items() if n != "The Eldest Reborn"}
    with pytest.raises(CardDefinitionError) as err:
        load_deck(str(path), cards)
    problem = str(err.value).rpartition("deck 'mono-green': ")[2].replace(
        "'The Eldest Reborn'", "'Card Name'")
    assert f"(`{problem}`)" in " ".join(DOC.read_text("utf-8").split())


def _saved_lists() -> list[tuple[str, str]]:
    """The text decklists the doc shows, each with the file name the doc saves it as."""
    text = DOC.read_text("utf-8")
    return re.findall(r"saved as\s+`([^`]+)`(?:(?!```).)*```text\n(.*?)```", text, re.S)


def test_the_arena_and_mtgo_examples_are_the_test_lists_and_load_as_the_doc_says() -> None:
    saved = _saved_lists()
    assert [name for name, _ in saved] == ["red-green.txt", "white-weenie.txt"]
    lists = DOC.parents[1] / "tests" / "cards" / "decklists"
    for name, block in saved:
        assert (lists / name).read_text("utf-8") == block  # the lists the parser tests use
    text = " ".join(DOC.read_text("utf-8").split())
    assert "a deck named `Red-Green Stompy`" in text and "a deck named `white-weenie`" in text
    assert f"a count from 1 to {MAX_DECK_SIZE:,}" in text
    cards = load_cards()
    decks = [load_deck(str(lists / name), cards) for name, _ in saved]
    assert [(d.name, len(d.cards)) for d in decks] == [("Red-Green Stompy", 60), ("white-weenie", 60)]
    assert "Shock" not in decks[0].cards and "Pressure Point" not in decks[1].cards


def test_the_text_lists_play_with_the_docs_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for name, block in _saved_lists():
        (tmp_path / name).write_text(block, "utf-8")
    [command] = re.findall(r"`(spellstack play --deck red-green\.txt[^`]*)`", DOC.read_text("utf-8"))
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(command)[1:]) == 0
    out = capsys.readouterr().out
    # A deck file is shown by its deck's name: the Arena list's Name line, the MTGO list's file.
    assert "alice (Red-Green Stompy) vs bob (white-weenie), seed 3" in out and "Winner: " in out


def test_the_text_list_refusal_the_doc_quotes_is_the_loaders(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    [(name, block), _] = _saved_lists()
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(block.replace("11 Mountain", "11 Mountian"), "utf-8")
    with pytest.raises(CardDefinitionError) as err:
        load_deck(name, load_cards())
    assert f"`{err.value}`" in " ".join(DOC.read_text("utf-8").split())
    assert main(["play", "--deck", name, "--deck", "gruul"]) == 2  # refused before the game
    assert capsys.readouterr() == ("", f"spellstack play: {err.value}\n")


def test_the_two_faced_suggestion_the_doc_quotes_is_the_loaders(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("36 Mountain\n4 Shatterskull, the Hamer Pass\n", "utf-8")
    with pytest.raises(CardDefinitionError) as err:
        load_deck(str(path), load_cards())
    quoted = str(err.value).partition(": line 2 '4 Shatterskull, the Hamer Pass': ")[2]
    assert quoted and f"`{quoted}`" in " ".join(DOC.read_text("utf-8").split())
