"""Mana supply: ``ManaSupply`` answers "can this cost be paid?" and "what is the largest X?" for one
pool and set of sources, as ``plan_payment`` and the search legal actions made before it would.
"""

from __future__ import annotations

from hypothesis import given, settings

from spellstack.rules.mana import ManaCost, ManaSource, ManaSupply, parse_mana_cost, plan_payment
from tests.rules.mana_samples import costs, lives, pools, source_lists, src


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
