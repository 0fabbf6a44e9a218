"""Mana pools (106.4): adding mana, spending a payment from a pool, and a pool's text
(``format_pool``, ``parse_pool``) both ways.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from spellstack.rules.mana import ManaCostSyntaxError, Payment, add_mana, format_pool, parse_pool, spend
from tests.rules.mana_samples import pools


def test_add_mana() -> None:
    assert add_mana({}, "G") == {"G": 1}
    assert add_mana({"C": 1, "W": 1}, "W", 2) == {"W": 3, "C": 1}
    assert list(add_mana({"C": 1}, "W")) == ["W", "C"]
    assert add_mana({"R": 0}, "G", 0) == {}
    with pytest.raises(ValueError, match="unknown mana type 'Q'"):
        add_mana({}, "Q")
    with pytest.raises(ValueError, match="negative"):
        add_mana({}, "R", -1)


def test_add_mana_does_not_modify_its_argument() -> None:
    pool = {"R": 1}
    add_mana(pool, "R")
    assert pool == {"R": 1}


def test_spend() -> None:
    payment = Payment(from_pool=(("W", 1), ("C", 1)), activations=((7, "G"),), life=0)
    assert spend({"W": 2, "C": 1, "G": 1}, payment) == {"W": 1, "G": 1}
    assert spend({"W": 1, "C": 1}, payment) == {}
    with pytest.raises(ValueError, match=r"cannot spend 1 \{C\}"):
        spend({"W": 1}, payment)


def test_format_pool() -> None:
    assert format_pool({}) == ""
    assert format_pool({"C": 1, "W": 2}) == "{W}{W}{C}"
    assert format_pool({"G": 1, "U": 1, "R": 0}) == "{U}{G}"
    with pytest.raises(ValueError, match="unknown mana type"):
        format_pool({"X": 1})


def test_parse_pool() -> None:
    assert parse_pool("") == {}
    assert parse_pool("{R}{R}{C}") == {"R": 2, "C": 1}
    assert parse_pool("{C}{W}{C}") == {"W": 1, "C": 2}
    assert format_pool(parse_pool("{G}{W}{C}{W}")) == "{W}{W}{G}{C}"


@pytest.mark.parametrize(
    ("text", "position"),
    [("{2}", 0), ("{R}{X}", 3), ("{R}{G/W}", 3), ("{R", 0), ("R", 0), ("{r}", 0)],
)
def test_parse_pool_rejects_anything_but_mana_types(text: str, position: int) -> None:
    with pytest.raises(ManaCostSyntaxError, match=f"position {position}"):
        parse_pool(text)


@given(pool=pools)
def test_pool_text_round_trip_property(pool: dict[str, int]) -> None:
    text = format_pool(pool)
    assert parse_pool(text) == {t: n for t, n in pool.items() if n}
    assert format_pool(parse_pool(text)) == text
