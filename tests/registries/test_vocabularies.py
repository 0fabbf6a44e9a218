"""The game's shared words are written once, in ``rules/base/_words.py``: the colour table (and
its inverse, derived from it), the card types and supertypes, and the zones with their named
subsets. No other module of spellstack defines, at its top level, a collection made of two or
more colour words, card types, supertypes or zone names: it imports them instead."""

from __future__ import annotations

import ast
from pathlib import Path

from spellstack.rules.base import (
    CARD_TYPES,
    CARD_ZONES,
    COLOR_BY_WORD,
    MOVE_ZONES,
    REDIRECT_ZONES,
    SETUP_ZONES,
    SUPERTYPES,
    WORD_BY_COLOR,
    ZONES,
)
from spellstack.rules.mana import COLORS

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "src" / "spellstack" / "rules" / "base" / "_words.py"
VOCABULARIES = {"colour letters": frozenset(WORD_BY_COLOR), "colour words": frozenset(COLOR_BY_WORD),
                "card types": CARD_TYPES,
                "supertypes": SUPERTYPES, "zones": frozenset(ZONES)}


def vocabularies_defined(source: str) -> list[tuple[int, str, str]]:
    """Each top-level assignment in ``source`` whose value is a set, tuple, list or dict literal
    (or a call on one, ``frozenset({...})``) made of two or more words of one vocabulary and
    nothing else, as (line, assigned name, vocabulary). A dict counts by its keys. (A collection
    with other words besides, such as the commands ``hand`` and ``help``, is another vocabulary.)"""
    found: list[tuple[int, str, str]] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            value = node.value
            if isinstance(value, ast.Call) and value.args:
                value = value.args[0]
            if isinstance(value, ast.Dict):
                items = [k for k in value.keys if k is not None]
            elif isinstance(value, ast.Set | ast.Tuple | ast.List):
                items = list(value.elts)
            else:
                continue
            words = {e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            for vocabulary, known in VOCABULARIES.items():
                if len(words) >= 2 and words <= known:
                    found.append((node.lineno, ast.unparse(target), vocabulary))
    return found


def test_each_vocabulary_is_defined_in_one_module() -> None:
    paths = sorted((ROOT / "src" / "spellstack").rglob("*.py"))
    assert len(paths) > 100  # the walk found the package
    elsewhere = [f"{path.relative_to(ROOT)}:{line}: {name} ({vocabulary})"
                 for path in paths if path != HOME
                 for line, name, vocabulary in vocabularies_defined(path.read_text("utf-8"))]
    assert elsewhere == []
    home = {name for _, name, _ in vocabularies_defined(HOME.read_text("utf-8"))}
    assert {"WORD_BY_COLOR", "CARD_TYPES", "SUPERTYPES", "ZONES", "CARD_ZONES", "MOVE_ZONES",
            "REDIRECT_ZONES", "SETUP_ZONES"} <= home


def test_the_sweep_sees_each_kind_of_definition() -> None:
    source = ('A = frozenset({"hand", "exile"})\n'
              'B: tuple[str, ...] = ("library", "hand")\n'
              'C = {"white": "W", "blue": "U"}\n'
              'D = ["Legendary", "Snow"]\n'
              'E = {"W": "white", "U": "blue"}\n'
              'F = ("hand",)\n'
              'G = ("hand", "stack", "help")\n'
              'def f():\n    H = ("hand", "exile")\n')
    assert vocabularies_defined(source) == [(1, "A", "zones"), (2, "B", "zones"),
                                            (3, "C", "colour words"), (4, "D", "supertypes"),
                                            (5, "E", "colour letters")]


def test_the_colour_table_and_its_inverse_agree() -> None:
    assert tuple(WORD_BY_COLOR) == COLORS == ("W", "U", "B", "R", "G")
    assert {word: letter for letter, word in WORD_BY_COLOR.items()} == COLOR_BY_WORD
    assert list(COLOR_BY_WORD) == ["white", "blue", "black", "red", "green"]


def test_every_named_zone_subset_is_drawn_from_the_zones() -> None:
    for subset in (CARD_ZONES, MOVE_ZONES, REDIRECT_ZONES, SETUP_ZONES):
        assert set(subset) <= set(ZONES), subset
    assert len(set(SETUP_ZONES)) == len(SETUP_ZONES)
    assert SETUP_ZONES == ("library", "hand", "graveyard", "exile", "battlefield")  # fixes ids
