"""``spellstack cards [--search TEXT]`` and the built-in decks in ``play --help``."""

from __future__ import annotations

import pytest

from spellstack.cards import DECKS, POOL_NAMES, _loader, load_cards
from spellstack.cli import main

CARDS = load_cards()


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_cards_prints_every_implemented_card_with_its_oracle_text(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, "cards")
    assert "Lightning Bolt  {R}\n  Instant\n  Lightning Bolt deals 3 damage to any target.\n" in out
    assert "Isamaru, Hound of Konda  {W}\n  Legendary Creature — Dog  2/2\n" in out
    assert "Soldier\n  Token Creature — Soldier  1/1\n" in out
    for name, defn in CARDS.items():
        # a whole card starts a line; its faces are shown within it, indented
        assert f"\n{name}" in "\n" + out or f"\n  {name}" in out, name
        for line in defn.text.splitlines():
            if line != "//":  # a split card's halves are shown, each with its own text
                assert f"  {line}\n" in out, (name, line)
    whole = [d for d in CARDS.values() if d.card_name in ("", d.name)]  # faces are not cards
    cards = sum(not d.is_token for d in whole)
    assert f"{cards} cards, {len(whole) - cards} tokens implemented\n" in out


@pytest.fixture
def without_the_eldest_reborn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as it was before The Eldest Reborn (every pool card is implemented now), for a
    pool card the engine lacks."""
    monkeypatch.setattr(_loader, "_CACHE", {n: d for n, d in CARDS.items() if n != "The Eldest Reborn"})


@pytest.mark.usefixtures("without_the_eldest_reborn")
def test_cards_names_the_pool_cards_not_implemented_yet(capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, "cards")
    missing = sorted(POOL_NAMES.cards - set(load_cards()))
    assert "The Eldest Reborn" in missing
    head = f"pool cards not implemented yet ({len(missing)}):\n"
    assert head + "".join(f"  {n}\n" for n in missing) in out
    assert "  Grizzly Bears\n" not in out.partition(head)[2]


@pytest.mark.parametrize(
    ("search", "shown", "hidden"),
    [
        ("BOLT", ["Lightning Bolt"], ["Shock", "Grizzly Bears"]),  # the name, any case
        ("legendary creature", ["Isamaru, Hound of Konda", "Rasputin Dreamweaver"],
         ["Grizzly Bears"]),  # the type line
        ("any target", ["Lightning Bolt", "Shock"], ["Grizzly Bears"]),  # the text
    ],
)
def test_search_matches_name_type_line_or_text(capsys: pytest.CaptureFixture[str], search: str,
                                                shown: list[str], hidden: list[str]) -> None:
    out = _out(capsys, "cards", "--search", search)
    heads = {line.split("  ")[0] for line in out.splitlines() if line and not line[0].isspace()}
    assert set(shown) <= heads
    assert not set(hidden) & heads
    assert f"implemented match {search!r}" in out


@pytest.mark.usefixtures("without_the_eldest_reborn")
def test_search_with_no_implemented_match_still_names_the_pool_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, "cards", "--search", "eldest")
    assert out == ("0 cards, 0 tokens implemented match 'eldest'\n"
                   "pool cards not implemented yet whose name matches 'eldest' (1):\n"
                   "  The Eldest Reborn\n")


def test_play_help_lists_the_built_in_decks(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["play", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert DECKS == ("dimir", "gruul", "orzhov")
    assert f"built-in decks: {', '.join(DECKS)}." in " ".join(out.split())
