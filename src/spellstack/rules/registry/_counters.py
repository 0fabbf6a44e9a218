"""Counter kinds (122): each kind a card file may name, with its rule and what it does. The kinds
of 122.1 are registered here; a mechanic's own kind by its module (``rules/mechanics``: loyalty)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ._registry import Registry


@dataclass(frozen=True, slots=True)
class CounterKind:
    """A kind of counter (122.1): what a counter of it means to the rules, if anything."""

    rule: str
    """The rule that gives it its meaning (``"122.1a"``)."""
    does: str
    """What the rules make it do, with the rules that do it; empty when it means nothing by
    itself (a card's own text reads it, 122.1)."""
    goal: tuple[str, Callable[[Any, Any], int]] | None = None
    """What a permanent's counters of this kind count toward, shown in views beside them: its
    name in words and how to find it, as (game, permanent) -> number (a Saga's lore counters:
    ``("final chapter", ...)``, 714.2c); None for a kind that counts toward nothing."""


COUNTER_KINDS: Final[Registry[CounterKind]] = Registry("counter kind")
"""The closed registry of counter kinds a card file may name (``counter`` arguments, "Remove a
KIND counter" costs, ``counter_limits``)."""

COUNTER_KINDS.register("+1/+1", CounterKind(
    "122.1a", "adds 1 to power and to toughness (613.4c); it and a -1/-1 counter on one "
              "permanent are removed in pairs (704.5q)"))
COUNTER_KINDS.register("-1/-1", CounterKind(
    "122.1a", "subtracts 1 from power and from toughness (613.4c); removed in pairs with "
              "+1/+1 counters (704.5q); damage from a source with wither or infect is dealt as "
              "them (702.90c)"))
COUNTER_KINDS.register("dream", CounterKind(
    "122.1", ""))
