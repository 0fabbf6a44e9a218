"""Payment planning (601.2f-h, 107.4e-f, 119.4): ``plan_payment`` finds how to pay a cost from a
pool and mana sources, or that it can't. Examples first: pool before sources, the fewest and
earliest sources, X, {C}, hybrid and Phyrexian symbols, life, ``pay_as``; then properties checked
against a brute force over every way to pay.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.rules.mana import MANA_TYPES, ManaSource, ManaSymbol, Payment, parse_mana_cost, plan_payment
from tests.rules.mana_samples import costs, lives, pools, source_lists, src


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
