"""Tests for mana symbols, costs, pools and payment planning (107.4, 202.3, 106, 601.2f-h)."""

from __future__ import annotations

import functools
import itertools
import pickle
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.rules.mana import (
    COLORS,
    MANA_TYPES,
    ManaCost,
    ManaCostSyntaxError,
    ManaSource,
    ManaSupply,
    ManaSymbol,
    Payment,
    add_mana,
    format_pool,
    parse_mana_cost,
    parse_pool,
    plan_payment,
    spend,
)


def src(source_id: int, produces: str) -> ManaSource:
    """A source from a string of mana letters, e.g. ``src(3, "GW")``."""
    return ManaSource(source_id, tuple(produces))


def plan(
    cost: str,
    pool: Mapping[str, int] | None = None,
    sources: Sequence[ManaSource] = (),
    *,
    x: int = 0,
    pay_as: Sequence[str] | None = None,
    life_available: int | None = None,
) -> Payment | None:
    return plan_payment(
        parse_mana_cost(cost),
        x,
        pool or {},
        sources,
        pay_as=pay_as,
        life_available=life_available,
    )


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


def test_costs_and_symbols_are_hashable_values() -> None:
    assert parse_mana_cost("{1}{W}") == parse_mana_cost("{1}{W}")
    assert len({parse_mana_cost("{1}{W}"), parse_mana_cost("{1}{W}")}) == 1
    with pytest.raises(AttributeError):
        parse_mana_cost("{W}").symbols = ()  # type: ignore[misc]


# --------------------------------------------------------------------- pools


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


# ------------------------------------------------------------- plan_payment


def test_empty_cost_needs_nothing() -> None:
    assert plan("", {"R": 1}, [src(1, "R")]) == Payment((), (), 0)
    assert plan("{0}") == Payment((), (), 0)


def test_simple_payment_from_sources() -> None:
    result = plan("{1}{R}", {}, [src(1, "R"), src(2, "R"), src(3, "R")])
    assert result == Payment(from_pool=(), activations=((1, "R"), (2, "R")), life=0)


def test_unpayable_costs_give_none() -> None:
    assert plan("{R}", {}, [src(1, "G")]) is None
    assert plan("{2}", {"R": 1}, []) is None
    assert plan("{C}", {"W": 3}, [src(1, "W")]) is None
    assert plan("{W}{W}", {}, [src(1, "W")]) is None


def test_pool_mana_is_used_before_sources() -> None:
    result = plan("{1}{G}", {"G": 1, "R": 1}, [src(1, "G"), src(2, "R")])
    assert result == Payment(from_pool=(("R", 1), ("G", 1)), activations=(), life=0)


def test_pool_pays_what_it_can_and_sources_the_rest() -> None:
    result = plan("{2}{G}{G}", {"G": 1, "W": 1}, [src(1, "G"), src(2, "G"), src(3, "G")])
    assert result == Payment(from_pool=(("W", 1), ("G", 1)), activations=((1, "G"), (2, "G")))


def test_generic_from_the_pool_prefers_colorless() -> None:
    result = plan("{1}", {"W": 1, "C": 1})
    assert result == Payment(from_pool=(("C", 1),))


def test_earlier_sources_are_preferred() -> None:
    result = plan("{1}", {}, [src(5, "G"), src(6, "R"), src(7, "W")])
    assert result == Payment(activations=((5, "G"),))


def test_fewest_sources_are_activated() -> None:
    result = plan("{G}", {}, [src(1, "R"), src(2, "R"), src(3, "G")])
    assert result == Payment(activations=((3, "G"),))


def test_an_earlier_source_is_kept_for_generic_when_it_cannot_pay_colour() -> None:
    result = plan("{1}{G}", {}, [src(1, "R"), src(2, "G"), src(3, "G")])
    assert result == Payment(activations=((1, "R"), (2, "G")))


def test_a_dual_source_is_used_where_only_it_fits() -> None:
    # A greedy that spends the dual on the first colour it meets misses this.
    sources = [src(1, "GW"), src(2, "W")]
    result = plan("{W}{G}", {}, sources)
    assert result == Payment(activations=((1, "G"), (2, "W")))


def test_generic_from_a_multicolour_source_uses_its_first_type() -> None:
    assert plan("{1}", {}, [src(1, "UB")]) == Payment(activations=((1, "U"),))


def test_sources_that_make_nothing_are_skipped() -> None:
    assert plan("{1}", {}, [src(1, ""), src(2, "R")]) == Payment(activations=((2, "R"),))


def test_x_costs_x_generic_each() -> None:
    sources = [src(i, "R") for i in range(1, 6)]
    assert plan("{X}{R}", {}, sources, x=0) == Payment(activations=((1, "R"),))
    result = plan("{X}{X}{R}", {}, sources, x=2)
    assert result is not None
    assert len(result.activations) == 5
    assert plan("{X}{X}{R}", {}, sources, x=3) is None


def test_x_is_ignored_without_an_x_symbol() -> None:
    assert plan("{R}", {"R": 1}, x=5) == Payment(from_pool=(("R", 1),))


def test_colorless_symbol_needs_colorless_mana() -> None:
    result = plan("{C}{1}", {"W": 1}, [src(1, "W"), src(2, "C")])
    assert result == Payment(from_pool=(("W", 1),), activations=((2, "C"),))


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="X must not be negative"):
        plan("{X}", x=-1)
    with pytest.raises(ValueError, match="unknown mana type 'Q'"):
        plan("{1}", {"Q": 1})
    with pytest.raises(ValueError, match="negative amount"):
        plan("{1}", {"R": -1})
    with pytest.raises(ValueError, match="source 4 produces unknown mana type 'Q'"):
        plan("{1}", {}, [src(4, "Q")])


# ------------------------------------------------------ hybrid and Phyrexian


def test_hybrid_tries_its_colours_in_written_order() -> None:
    both = [src(1, "W"), src(2, "G")]
    assert plan("{G/W}", {}, both) == Payment(activations=((2, "G"),))
    assert plan("{W/G}", {}, both) == Payment(activations=((1, "W"),))
    assert plan("{G/W}", {}, [src(1, "W")]) == Payment(activations=((1, "W"),))


def test_hybrid_colour_choice_is_made_with_the_whole_cost_in_mind() -> None:
    result = plan("{G/W}{G}", {}, [src(1, "G"), src(2, "W")])
    assert result == Payment(activations=((1, "G"), (2, "W")))


def test_hybrid_colour_from_the_pool() -> None:
    assert plan("{G/W}", {"W": 1}) == Payment(from_pool=(("W", 1),))


def test_monocolored_hybrid_prefers_the_colour_then_generic() -> None:
    assert plan("{2/W}", {}, [src(1, "R"), src(2, "W")]) == Payment(activations=((2, "W"),))
    result = plan("{2/W}", {}, [src(1, "R"), src(2, "R")])
    assert result == Payment(activations=((1, "R"), (2, "R")))
    assert plan("{2/W}", {}, [src(1, "R")]) is None


def test_phyrexian_is_paid_with_mana_when_possible() -> None:
    assert plan("{U/P}", {}, [src(1, "U")]) == Payment(activations=((1, "U"),))
    assert plan("{U/P}", {"U": 1}) == Payment(from_pool=(("U", 1),))


def test_phyrexian_falls_back_to_two_life() -> None:
    assert plan("{U/P}", {}, [src(1, "R")]) == Payment(life=2)
    result = plan("{1}{U/P}{U/P}", {}, [src(1, "U")])
    assert result is not None
    assert result.life == 4
    assert result.activations == ((1, "U"),)


def test_phyrexian_mana_is_given_up_when_the_rest_needs_it() -> None:
    # The only Island must pay {U}; the Phyrexian symbol then takes life.
    result = plan("{U/P}{U}", {}, [src(1, "U")])
    assert result == Payment(activations=((1, "U"),), life=2)


def test_life_payments_respect_life_available() -> None:
    assert plan("{B/P}{B/P}", life_available=4) == Payment(life=4)
    assert plan("{B/P}{B/P}", life_available=3) is None
    assert plan("{B/P}", life_available=1) is None
    assert plan("{B/P}", life_available=2) == Payment(life=2)
    assert plan("{B/P}", life_available=-5) is None
    result = plan("{B/P}{B/P}", {}, [src(1, "B")], life_available=2)
    assert result == Payment(activations=((1, "B"),), life=2)


def test_life_limit_chooses_which_phyrexian_symbol_gets_mana() -> None:
    # Only one symbol may take life; it must be {U/P}, since only B mana exists.
    result = plan("{U/P}{B/P}", {}, [src(1, "B")], life_available=3)
    assert result == Payment(activations=((1, "B"),), life=2)


def test_phyrexian_hybrid() -> None:
    assert plan("{G/W/P}", {}, [src(1, "W")]) == Payment(activations=((1, "W"),))
    assert plan("{G/W/P}", {}, [src(1, "R")]) == Payment(life=2)
    assert plan("{G/W/P}", {}, [src(1, "R")], life_available=1) is None


def test_pay_as_colour() -> None:
    both = [src(1, "W"), src(2, "G")]
    assert plan("{G/W}", {}, both, pay_as=["W"]) == Payment(activations=((1, "W"),))
    assert plan("{G/W}", {}, [src(1, "G")], pay_as=["W"]) is None


def test_pay_as_life_even_when_mana_is_available() -> None:
    assert plan("{U/P}", {"U": 1}, pay_as=["life"]) == Payment(life=2)
    assert plan("{U/P}", {"U": 1}, pay_as=["life"], life_available=1) is None
    assert plan("{U/P}", {"U": 1}, pay_as=["U"]) == Payment(from_pool=(("U", 1),))


def test_pay_as_generic_half_of_monocolored_hybrid() -> None:
    sources = [src(1, "W"), src(2, "R"), src(3, "R")]
    result = plan("{2/W}", {}, sources, pay_as=["2"])
    assert result == Payment(activations=((1, "W"), (2, "R")))
    assert plan("{2/W}", {}, sources, pay_as=["W"]) == Payment(activations=((1, "W"),))


def test_pay_as_follows_symbol_order_and_skips_plain_symbols() -> None:
    cost = "{1}{G/W}{R}{U/P}{2/B}"
    sources = [src(1, "W"), src(2, "R"), src(3, "C"), src(4, "C"), src(5, "C"), src(6, "U")]
    result = plan(cost, {}, sources, pay_as=["W", "life", "2"])
    assert result == Payment(activations=((1, "W"), (2, "R"), (3, "C"), (4, "C"), (5, "C")), life=2)
    assert plan(cost, {}, sources, pay_as=["G", "U", "2"]) is None
    with pytest.raises(ValueError, match=r"'2' cannot pay \{U/P\}"):
        plan(cost, {}, sources, pay_as=["W", "2", "life"])


def test_empty_pay_as_means_automatic() -> None:
    assert plan("{G/W}", {}, [src(1, "W")], pay_as=[]) == Payment(activations=((1, "W"),))


@pytest.mark.parametrize(
    ("cost", "pay_as", "match"),
    [
        ("{G/W}", ["R"], r"'R' cannot pay \{G/W\}"),
        ("{G/W}", ["life"], r"'life' cannot pay \{G/W\}"),
        ("{U/P}", ["B"], r"'B' cannot pay \{U/P\}"),
        ("{U/P}", ["2"], r"'2' cannot pay \{U/P\}"),
        ("{2/W}", ["3"], r"'3' cannot pay \{2/W\}.*'W', '2'"),
        ("{2/W}", ["life"], r"'life' cannot pay \{2/W\}"),
        ("{G/W/P}", ["U"], r"'U' cannot pay \{G/W/P\}.*'G', 'W', 'life'"),
        ("{G/W}{U/P}", ["G"], "pay_as has 1 entries but .* has 2 hybrid or Phyrexian symbols"),
        ("{G/W}", ["G", "W"], "pay_as has 2 entries"),
        ("{1}{R}", ["R"], r"pay_as has 1 entries but \{1\}\{R\} has 0"),
    ],
)
def test_bad_pay_as_raises(cost: str, pay_as: list[str], match: str) -> None:
    sources = [src(i, "WUBRG") for i in range(1, 5)]
    with pytest.raises(ValueError, match=match):
        plan(cost, {}, sources, pay_as=pay_as)


def test_large_cost_with_many_sources() -> None:
    cost = "{X}{2}{W}{W}{U}{B}{R}{G}{G/W}{U/B}{2/R}{G/P}{W/U/P}{C}"
    sources = [src(i, kind) for i, kind in enumerate(["WU", "BR", "G", "C", "WUBRG"] * 6)]
    result = plan(cost, {"W": 1}, sources, x=3, life_available=20)
    assert result is not None
    assert result.life == 0
    assert len(result.activations) + 1 == 17
    assert len({sid for sid, _ in result.activations}) == len(result.activations)


# ------------------------------------- property tests against a brute force

SYMBOL_TEXTS = [
    "{0}", "{1}", "{2}", "{W}", "{U}", "{G}", "{C}", "{X}",
    "{G/W}", "{W/U}", "{2/W}", "{1/U}", "{U/P}", "{G/W/P}",
]  # fmt: skip

Req = frozenset[str]
ANY: Req = frozenset(MANA_TYPES)


def symbol_options(symbol: ManaSymbol, x: int) -> list[tuple[str | None, list[Req], int]]:
    """(pay_as entry, mana requirements, life) for every way to pay one symbol."""
    if symbol.is_x:
        return [(None, [ANY] * x, 0)]
    choices: list[tuple[str | None, list[Req], int]] = []
    chooses = len(symbol.colors) == 2 or symbol.phyrexian or (symbol.generic and symbol.colors)
    if not symbol.colors:
        return [(None, [ANY] * symbol.generic, 0)]
    for color in symbol.colors:
        choices.append((color if chooses else None, [frozenset(color)], 0))
    if symbol.generic:
        choices.append((str(symbol.generic), [ANY] * symbol.generic, 0))
    if symbol.phyrexian:
        choices.append(("life", [], 2))
    return choices


def can_pay(reqs: Sequence[Req], units: Sequence[frozenset[str]]) -> bool:
    """Exhaustive search: can each requirement get its own unit?"""

    @functools.cache
    def go(i: int, used: int) -> bool:
        if i == len(reqs):
            return True
        return any(
            not used >> j & 1 and reqs[i] & unit and go(i + 1, used | 1 << j)
            for j, unit in enumerate(units)
        )

    return go(0, 0)


def pool_units(pool: Mapping[str, int]) -> list[frozenset[str]]:
    return [frozenset(t) for t in MANA_TYPES for _ in range(pool.get(t, 0))]


def best_sources(
    reqs: Sequence[Req], pool: Mapping[str, int], sources: Sequence[ManaSource]
) -> tuple[int, ...] | None:
    """Indices of the fewest, then earliest, sources that pay ``reqs`` with the pool."""
    for k in range(len(sources) + 1):
        for combo in itertools.combinations(range(len(sources)), k):
            units = pool_units(pool) + [frozenset(sources[i].produces) for i in combo]
            if can_pay(reqs, units):
                return combo
    return None


def check_payment_is_valid(
    payment: Payment, reqs: Sequence[Req], pool: Mapping[str, int], sources: Sequence[ManaSource]
) -> None:
    index = {s.source_id: i for i, s in enumerate(sources)}
    positions = [index[sid] for sid, _ in payment.activations]
    assert positions == sorted(set(positions)), "each source once, in order"
    for sid, mana in payment.activations:
        assert mana in sources[index[sid]].produces
    order = [t for t, _ in payment.from_pool]
    assert order == sorted(order, key=MANA_TYPES.index)
    for mana, amount in payment.from_pool:
        assert 0 < amount <= pool.get(mana, 0)
    paid = [frozenset(t) for t, n in payment.from_pool for _ in range(n)]
    paid += [frozenset(t) for _, t in payment.activations]
    assert len(paid) == len(reqs), "no mana wasted"
    assert can_pay(reqs, paid)


costs = st.lists(st.sampled_from(SYMBOL_TEXTS), max_size=4).map("".join)
pools = st.fixed_dictionaries(
    {}, optional={t: st.integers(min_value=0, max_value=2) for t in MANA_TYPES}
).filter(lambda p: sum(p.values()) <= 3)
source_lists = st.lists(
    st.lists(st.sampled_from(MANA_TYPES), max_size=2, unique=True).map(tuple), max_size=5
).map(lambda kinds: [ManaSource(100 + i, k) for i, k in enumerate(kinds)])
lives = st.none() | st.integers(min_value=0, max_value=5)


@settings(max_examples=400, deadline=None)
@given(
    cost_text=costs,
    x=st.integers(min_value=0, max_value=2),
    pool=pools,
    sources=source_lists,
    life_available=lives,
)
def test_plan_matches_brute_force(
    cost_text: str,
    x: int,
    pool: dict[str, int],
    sources: list[ManaSource],
    life_available: int | None,
) -> None:
    cost = parse_mana_cost(cost_text)
    all_units = pool_units(pool) + [frozenset(s.produces) for s in sources]
    # Every way to settle the symbols, in the default preference order.
    feasible: list[tuple[list[str], list[Req], int]] = []
    for combo in itertools.product(*(symbol_options(s, x) for s in cost.symbols)):
        entries = [entry for entry, _, _ in combo if entry is not None]
        reqs = [r for _, rs, _ in combo for r in rs]
        life = sum(life for _, _, life in combo)
        if life_available is not None and life > life_available:
            continue
        if can_pay(reqs, all_units):
            feasible.append((entries, reqs, life))

    result = plan_payment(cost, x, pool, sources, life_available=life_available)
    # Exactness: a payment is found if and only if one exists.
    assert (result is not None) == bool(feasible)
    if result is None:
        return

    # Default choices: the first feasible way in preference order; pay_as reproduces it.
    entries, reqs, life = feasible[0]
    assert result == plan_payment(
        cost, x, pool, sources, pay_as=entries, life_available=life_available
    )
    assert result.life == life
    check_payment_is_valid(result, reqs, pool, sources)
    # Fewest activations, then the earliest sources.
    best = best_sources(reqs, pool, sources)
    assert best is not None
    index = {s.source_id: i for i, s in enumerate(sources)}
    assert tuple(index[sid] for sid, _ in result.activations) == best


@settings(max_examples=200, deadline=None)
@given(
    cost_text=costs,
    x=st.integers(min_value=0, max_value=2),
    pool=pools,
    sources=source_lists,
    data=st.data(),
)
def test_pay_as_matches_brute_force(
    cost_text: str, x: int, pool: dict[str, int], sources: list[ManaSource], data: st.DataObject
) -> None:
    cost = parse_mana_cost(cost_text)
    combo = [data.draw(st.sampled_from(symbol_options(s, x))) for s in cost.symbols]
    entries = [entry for entry, _, _ in combo if entry is not None]
    reqs = [r for _, rs, _ in combo for r in rs]
    all_units = pool_units(pool) + [frozenset(s.produces) for s in sources]
    result = plan_payment(cost, x, pool, sources, pay_as=entries)
    assert (result is not None) == can_pay(reqs, all_units)
    if result is not None:
        assert result.life == sum(life for _, _, life in combo)
        check_payment_is_valid(result, reqs, pool, sources)


@given(cost_text=costs)
def test_parse_round_trip_property(cost_text: str) -> None:
    cost = parse_mana_cost(cost_text)
    assert str(cost) == cost_text
    assert parse_mana_cost(str(cost)) == cost
    assert len(cost.symbols) == cost_text.count("{")


@given(pool=pools)
def test_pool_text_round_trip_property(pool: dict[str, int]) -> None:
    text = format_pool(pool)
    assert parse_pool(text) == {t: n for t, n in pool.items() if n}
    assert format_pool(parse_pool(text)) == text


def reference_max_x(cost: ManaCost, pool: dict[str, int], sources: list[ManaSource],
                    life: int | None) -> int | None:
    """The largest payable X as legal actions searched it before ``ManaSupply``: a mana value
    pre-test, then a binary search over X with ``plan_payment``."""
    available = len(sources) + sum(pool.values())
    if not any(sym.phyrexian for sym in cost.symbols) and cost.mana_value(0) > available:
        return None
    if plan_payment(cost, 0, pool, sources, life_available=life) is None:
        return None
    if not cost.has_x:
        return 0
    x_count = sum(1 for sym in cost.symbols if sym.is_x)
    lo, hi = 0, (available - cost.mana_value(0)) // x_count
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if plan_payment(cost, mid, pool, sources, life_available=life) is None:
            hi = mid - 1
        else:
            lo = mid
    return lo


@settings(max_examples=400, deadline=None)
@given(cost_text=costs, pool=pools, sources=source_lists, life_available=lives)
def test_supply_answers_as_plan_payment_does(
    cost_text: str, pool: dict[str, int], sources: list[ManaSource], life_available: int | None
) -> None:
    cost = parse_mana_cost(cost_text)
    supply = ManaSupply(pool, sources, life_available=life_available)
    for x in range(4):
        expected = plan_payment(cost, x, pool, sources, life_available=life_available) is not None
        assert supply.can_pay(cost, x) == expected
        assert supply.can_pay(cost, x) == expected  # the memo gives the same answer
    assert supply.max_x(cost) == reference_max_x(cost, pool, sources, life_available)


def test_supply_needs_both_halves_of_halls_condition() -> None:
    # Two sources each make W or U, a third makes only G: {W}{U}{G} fits, {W}{U}{U} does not
    # (three demands on two W/U sources), though every single colour has a source.
    sources = [src(1, "WU"), src(2, "WU"), src(3, "G")]
    supply = ManaSupply({}, sources)
    assert supply.can_pay(parse_mana_cost("{W}{U}{G}"))
    assert not supply.can_pay(parse_mana_cost("{W}{U}{U}"))
    assert supply.max_x(parse_mana_cost("{X}{W}")) == 2
    # 119.4: 2 life pays one Phyrexian symbol, leaving W, U, U for the two W/U sources: no.
    phyrexian = parse_mana_cost("{U/P}{U/P}{W}{U}")
    assert ManaSupply({}, sources, life_available=3).max_x(phyrexian) is None
    assert ManaSupply({}, sources, life_available=4).max_x(phyrexian) == 0


single_type_sources = st.lists(st.sampled_from(MANA_TYPES), max_size=7).map(
    lambda kinds: [ManaSource(100 + i, (k,)) for i, k in enumerate(kinds)])


@settings(max_examples=300, deadline=None)
@given(cost_text=costs, x=st.integers(min_value=0, max_value=2), pool=pools,
       sources=single_type_sources)
def test_sources_of_one_type_each_are_chosen_as_the_brute_force_chooses(
        cost_text: str, x: int, pool: dict[str, int], sources: list[ManaSource]) -> None:
    # Basic lands: the planner keeps each source that still pays something (``_choose_single``);
    # the plan is still the fewest, then earliest, sources of a valid payment.
    cost = parse_mana_cost(cost_text)
    result = plan_payment(cost, x, pool, sources)
    all_units = pool_units(pool) + [frozenset(s.produces) for s in sources]
    ways = [combo for combo in itertools.product(*(symbol_options(s, x) for s in cost.symbols))
            if can_pay([r for _, rs, _ in combo for r in rs], all_units)]
    assert (result is not None) == bool(ways)
    if result is None:
        return
    reqs = [r for _, rs, _ in ways[0] for r in rs]
    check_payment_is_valid(result, reqs, pool, sources)
    index = {s.source_id: i for i, s in enumerate(sources)}
    assert tuple(index[sid] for sid, _ in result.activations) == best_sources(reqs, pool, sources)
