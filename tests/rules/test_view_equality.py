"""The views whose equality is written out by hand (``ObjectView``, ``PlayerPublic``: compared
at every view, and compiled, natively) answer as the ``__eq__`` that ``dataclass`` writes would:
equal exactly when every field is, and not equal to anything of another type."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from itertools import pairwise
from typing import Any

import pytest

from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.rules import StartSettings, new_game, play_sync, view_for
from spellstack.rules.views import ObjectView, PlayerPublic
from spellstack.rules.views._types import ObjectMarks

CARDS = load_cards()
SOME_VIEW = ObjectView(101, "Shock", 0, 0, ("Instant",))


def _field_tuple(value: Any) -> tuple[Any, ...]:
    """Every field of ``value``, in order: what ``dataclass``'s ``__eq__`` compares."""
    return tuple(getattr(value, f.name) for f in fields(value))


def _as_dataclass_compares(a: Any, b: Any) -> bool:
    return type(a) is type(b) and _field_tuple(a) == _field_tuple(b)


def _other(value: Any) -> Any:
    """A value of the same kind that is not equal to ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return ObjectMarks(protector=1)
    if isinstance(value, ObjectMarks):
        return None
    assert isinstance(value, tuple)
    return (*value, ("x", 1) if not value or isinstance(value[0], tuple) else value[0])


def _bases() -> list[Any]:
    return [SOME_VIEW,
            ObjectView(102, "Grizzly Bears", 1, 0, ("Creature",), True, 1, 2, 2, (("+1/+1", 1),),
                       0, True, True, False, ObjectMarks(sector="Alpha")),
            PlayerPublic(0, "alice", 20, 0, 7, 53, (), (), False),
            PlayerPublic(1, "bob", 3, 2, 1, 10, (SOME_VIEW,), (("R", 1),), True, (SOME_VIEW,),
                         "Tomb of Annihilation", "Oubliette", ("Lost Mine of Phandelver",))]


@pytest.mark.parametrize("base", _bases(), ids=lambda b: f"{type(b).__name__}-{b.name}")
def test_each_field_decides_equality(base: Any) -> None:
    same = replace(base)
    assert same is not base
    assert same == base and not (same != base)
    assert hash(same) == hash(base)
    for f in fields(base):
        changed = replace(base, **{f.name: _other(getattr(base, f.name))})
        assert changed != base, f.name
        assert not (changed == base), f.name
        assert (changed == base) == _as_dataclass_compares(changed, base)


def test_hash_of_a_player_is_dataclasss() -> None:
    for base in _bases()[2:]:
        assert hash(base) == hash(_field_tuple(base))


def test_another_type_is_never_equal() -> None:
    for base in _bases():
        assert base != _field_tuple(base)
        assert base.__eq__(_field_tuple(base)) is NotImplemented
        assert base != object()
    assert SOME_VIEW != _bases()[2]


def test_the_views_of_a_game_compare_as_dataclass_compares() -> None:
    """Every pair of object views and of players' public views in the views of a played game."""
    decks = [load_deck(d, CARDS).cards for d in ("gruul", "orzhov")]
    game = new_game(CARDS, [("a", decks[0]), ("b", decks[1])], 5, start=StartSettings())
    bots = [RandomBot(5), RandomBot(6)]
    objects: list[ObjectView] = []
    players: list[PlayerPublic] = []

    def decide(d: Any) -> Any:
        view = view_for(game, d.player)
        objects.extend(view.battlefield)
        players.extend(view.players)
        return bots[d.player].decide(view, d)

    play_sync(game, decide)
    rng = random.Random(0)
    for pool in (objects, players):
        assert len(pool) > 50
        pairs = [(rng.choice(pool), rng.choice(pool)) for _ in range(3000)]
        pairs += list(pairwise(pool))
        equal = 0
        for a, b in pairs:
            expected = _as_dataclass_compares(a, b)
            assert (a == b) is expected
            equal += expected
        assert 0 < equal < len(pairs)
