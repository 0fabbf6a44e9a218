"""Mana symbols and costs (107.4, 202.3): the mana types, parsing a cost's text and writing it
back, malformed text and inconsistent symbols refused, and a cost's mana value, colours and X.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given

from spellstack.rules.mana import COLORS, MANA_TYPES, ManaCost, ManaCostSyntaxError, ManaSymbol, parse_mana_cost
from tests.rules.mana_samples import costs

# ------------------------------------------------------------------ constants


def test_constants_are_in_wubrg_order() -> None:
    assert COLORS == ("W", "U", "B", "R", "G")
    assert MANA_TYPES == ("W", "U", "B", "R", "G", "C")


# -------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "symbol"),
    [
        ("{0}", ManaSymbol(0, (), False, False)),
        ("{2}", ManaSymbol(2, (), False, False)),
        ("{15}", ManaSymbol(15, (), False, False)),
        ("{W}", ManaSymbol(0, ("W",), False, False)),
        ("{C}", ManaSymbol(0, ("C",), False, False)),
        ("{X}", ManaSymbol(0, (), False, True)),
        ("{G/W}", ManaSymbol(0, ("G", "W"), False, False)),
        ("{W/G}", ManaSymbol(0, ("W", "G"), False, False)),
        ("{2/W}", ManaSymbol(2, ("W",), False, False)),
        ("{U/P}", ManaSymbol(0, ("U",), True, False)),
        ("{G/W/P}", ManaSymbol(0, ("G", "W"), True, False)),
    ],
)
def test_parse_single_symbol(text: str, symbol: ManaSymbol) -> None:
    cost = parse_mana_cost(text)
    assert cost.symbols == (symbol,)
    assert str(symbol) == text
    assert str(cost) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{2}{W}{U/P}{X}{G/W}",
        "{X}{X}{R}",
        "{2/W}{2/U}{2/B}{2/R}{2/G}",
        "{W}{2}",
        "{C}{C}{10}",
        "{G/W/P}{B/P}",
    ],
)
def test_text_round_trips(text: str) -> None:
    assert str(parse_mana_cost(text)) == text


def test_empty_text_is_the_empty_cost() -> None:
    cost = parse_mana_cost("")
    assert cost == ManaCost(())
    assert cost.symbols == ()
    assert str(cost) == ""
    assert cost.mana_value() == 0


@pytest.mark.parametrize(
    ("text", "position", "why"),
    [
        ("{", 0, "unterminated"),
        ("{2", 0, "unterminated"),
        ("{W}{2", 3, "unterminated"),
        ("{{W}}", 0, "unterminated"),
        ("2{W}", 0, "unexpected '2'"),
        ("{W}}", 3, "unexpected '}'"),
        ("{W} {U}", 3, "unexpected ' '"),
        (" {W}", 0, "unexpected ' '"),
        ("W", 0, "unexpected 'W'"),
        ("{}", 0, "not a mana symbol"),
        ("{Q}", 0, "not a mana symbol"),
        ("{2}{Q}", 3, "not a mana symbol"),
        ("{S}", 0, "not a mana symbol"),
        ("{Y}", 0, "not a mana symbol"),
        ("{-1}", 0, "not a mana symbol"),
        ("{w}", 0, "upper case"),
        ("{g/w}", 0, "upper case"),
        ("{01}", 0, "leading zeros"),
        ("{W/W}", 0, "two different colours"),
        ("{W/2}", 0, "hybrid halves"),
        ("{C/W}", 0, "hybrid halves"),
        ("{0/W}", 0, "hybrid halves"),
        ("{2/C}", 0, "monocolored hybrid"),
        ("{2/X}", 0, "monocolored hybrid"),
        ("{C/P}", 0, "Phyrexian"),
        ("{2/P}", 0, "Phyrexian"),
        ("{P}", 0, "not a mana symbol"),
        ("{2/W/P}", 0, "Phyrexian hybrid"),
        ("{W/W/P}", 0, "Phyrexian hybrid"),
        ("{W/U/B}", 0, "Phyrexian hybrid"),
        ("{W/U/B/P}", 0, "too many halves"),
        ("{W/}", 0, "hybrid halves"),
    ],
)
def test_malformed_costs_are_rejected(text: str, position: int, why: str) -> None:
    with pytest.raises(ManaCostSyntaxError, match=why) as info:
        parse_mana_cost(text)
    message = str(info.value)
    assert repr(text) in message
    assert f"position {position}" in message
    assert info.value.text == text
    assert info.value.position == position


def test_syntax_error_is_a_value_error_and_pickles() -> None:
    with pytest.raises(ValueError, match="position 3"):
        parse_mana_cost("{2}{Q}")
    error = ManaCostSyntaxError("bad", text="{Q}", position=0)
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == "bad"
    assert copy.position == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"generic": -1},
        {"is_x": True, "generic": 1},
        {"is_x": True, "colors": ("R",)},
        {"phyrexian": True},
        {"colors": ("C",), "phyrexian": True},
        {"colors": ("C",), "generic": 2},
        {"colors": ("Q",)},
        {"colors": ("W", "W")},
        {"colors": ("W", "U", "B")},
        {"colors": ("W", "U"), "generic": 2},
        {"colors": ("W",), "generic": 2, "phyrexian": True},
    ],
)
def test_inconsistent_symbols_cannot_be_built(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="invalid mana symbol"):
        ManaSymbol(**kwargs)  # type: ignore[arg-type]


@given(cost_text=costs)
def test_parse_round_trip_property(cost_text: str) -> None:
    cost = parse_mana_cost(cost_text)
    assert str(cost) == cost_text
    assert parse_mana_cost(str(cost)) == cost
    assert len(cost.symbols) == cost_text.count("{")


# ---------------------------------------------------------- mana value, colour


@pytest.mark.parametrize(
    ("text", "x", "value"),
    [
        ("", 0, 0),
        ("{0}", 0, 0),
        ("{3}{U}{U}", 0, 5),
        ("{X}{R}", 0, 1),
        ("{X}{R}", 3, 4),
        ("{X}{X}{R}", 2, 5),
        ("{G/W}", 0, 1),
        ("{2/W}{2/W}{2/W}", 0, 6),
        ("{U/P}", 0, 1),
        ("{G/W/P}{1}", 0, 2),
        ("{C}{C}", 0, 2),
        ("{2}{W}{U/P}{X}{G/W}", 4, 9),
    ],
)
def test_mana_value(text: str, x: int, value: int) -> None:
    assert parse_mana_cost(text).mana_value(x) == value


def test_mana_value_defaults_x_to_zero_and_rejects_negative_x() -> None:
    cost = parse_mana_cost("{X}{X}{1}")
    assert cost.mana_value() == 1
    with pytest.raises(ValueError, match="negative"):
        cost.mana_value(-1)


@pytest.mark.parametrize(
    ("text", "colors"),
    [
        ("", set()),
        ("{3}", set()),
        ("{C}", set()),
        ("{X}{R}", {"R"}),
        ("{2}{W}{U/P}", {"W", "U"}),
        ("{G/W}", {"G", "W"}),
        ("{2/B}", {"B"}),
        ("{G/W/P}{B}", {"G", "W", "B"}),
    ],
)
def test_colors(text: str, colors: set[str]) -> None:
    assert parse_mana_cost(text).colors() == frozenset(colors)


def test_has_x() -> None:
    assert parse_mana_cost("{X}{R}").has_x
    assert not parse_mana_cost("{2}{R}").has_x
    assert not parse_mana_cost("").has_x


def test_adding_costs_concatenates_symbols() -> None:
    total = parse_mana_cost("{R}") + parse_mana_cost("{4}")
    assert str(total) == "{R}{4}"
    assert total.mana_value() == 5
    assert parse_mana_cost("") + parse_mana_cost("") == parse_mana_cost("")
    assert parse_mana_cost("{G/W}") + parse_mana_cost("{U/P}") == parse_mana_cost("{G/W}{U/P}")


def test_costs_and_symbols_are_hashable_values_equal_by_their_symbols() -> None:
    built = ManaCost((ManaSymbol(1), ManaSymbol(0, ("W",))))
    parsed = parse_mana_cost("{1}{W}")
    # A cost built from its symbols and the same cost parsed are one value, also as a key.
    assert built == parsed
    assert hash(built) == hash(parsed)
    assert {built: "kept"}[parsed] == "kept"
    # Any difference in the symbols, their order included, is another cost.
    for other in ("{W}{1}", "{2}{W}", "{1}{U}", "{1}{W/P}", "{1}{2/W}", "{1}{W}{W}", "{W}", ""):
        assert parse_mana_cost(other) != parsed, other
    assert len({parse_mana_cost(t) for t in ("{1}{W}", "{W}{1}", "{1}{W}", "{2}{W}")}) == 3
    assert ManaSymbol(0, ("G", "W")) != ManaSymbol(0, ("W", "G"))  # hybrid, as written
    with pytest.raises(AttributeError):
        parse_mana_cost("{W}").symbols = ()  # type: ignore[misc]
