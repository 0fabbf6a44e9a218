"""What the mana tests share: sources written as strings, and hypothesis strategies for costs,
pools and sources (``test_mana_costs.py``, ``test_mana_pools.py``, ``test_mana_payment.py``,
``test_mana_supply.py``).

A plain module the tests import by its package path (``tests.rules.mana_samples``); hypothesis
strategies go to ``@given`` as values, so they can't be fixtures.
"""

from __future__ import annotations

from hypothesis import strategies as st

from spellstack.rules.mana import MANA_TYPES, ManaSource


def src(source_id: int, produces: str) -> ManaSource:
    """A source from a string of mana letters, e.g. ``src(3, "GW")``."""
    return ManaSource(source_id, tuple(produces))


SYMBOL_TEXTS = [
    "{0}", "{1}", "{2}", "{W}", "{U}", "{G}", "{C}", "{X}",
    "{G/W}", "{W/U}", "{2/W}", "{1/U}", "{U/P}", "{G/W/P}",
]  # fmt: skip

costs = st.lists(st.sampled_from(SYMBOL_TEXTS), max_size=4).map("".join)
pools = st.fixed_dictionaries(
    {}, optional={t: st.integers(min_value=0, max_value=2) for t in MANA_TYPES}
).filter(lambda p: sum(p.values()) <= 3)
source_lists = st.lists(
    st.lists(st.sampled_from(MANA_TYPES), max_size=2, unique=True).map(tuple), max_size=5
).map(lambda kinds: [ManaSource(100 + i, k) for i, k in enumerate(kinds)])
lives = st.none() | st.integers(min_value=0, max_value=5)
