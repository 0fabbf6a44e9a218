"""Conditions an ability's text tests: an intervening "if" (603.4), checked as the ability
triggers and again as it resolves, or "this spell has flash as long as ..." (601.3d). Each is a
frozen dataclass whose fields are its arguments and whose ``holds`` tests it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, cast

from ..definitions import ArgKind, Condition, CostName, CounterKind, Number
from ..game import Game
from ..state import GameObject

Subtype = Annotated[str, ArgKind("name", "Forest", bool)]
"""A subtype (205.3), as printed."""


class ConditionTest(Condition):
    """A registered condition: its fields are its arguments, ``holds`` tests it."""

    __slots__ = ()

    def holds(self, game: Game, controller: int, source: GameObject | None) -> bool:
        """Whether it is true now for the ability's controller (``source``: the ability's source,
        as it is now or as it last existed)."""
        raise NotImplementedError(self.test)


@dataclass(frozen=True, slots=True)
class YouControlSubtype(ConditionTest):
    """205.3: "as long as you control a Forest": a permanent with that subtype."""

    test: ClassVar[str] = "you_control_subtype"
    subtype: Subtype
    """The subtype."""

    def holds(self, game: Game, controller: int, source: GameObject | None) -> bool:
        return any(self.subtype in game.subtypes(o) for o in game.controlled(controller))


@dataclass(frozen=True, slots=True)
class CostPaid(ConditionTest):
    """702.74a: "if its evoke cost was paid": the source was cast with that cost (601.2b)."""

    test: ClassVar[str] = "cost_paid"
    cost: CostName
    """The cost option."""

    def holds(self, game: Game, controller: int, source: GameObject | None) -> bool:
        return source is not None and self.cost in source.cast_costs


@dataclass(frozen=True, slots=True)
class LifeAtLeast(ConditionTest):
    """"if you have N or more life" (119)."""

    test: ClassVar[str] = "life_at_least"
    amount: Number
    """The least life total."""

    def holds(self, game: Game, controller: int, source: GameObject | None) -> bool:
        return game.state.players[controller].life >= self.amount


@dataclass(frozen=True, slots=True)
class SourceHadNoCounters(ConditionTest):
    """702.93a, 702.79a: undying, persist: "if it had no [kind] counters on it", as the source
    last existed on the battlefield (603.10a, 704.8)."""

    test: ClassVar[str] = "source_had_no_counters"
    counter: CounterKind
    """The kind of counter."""

    def holds(self, game: Game, controller: int, source: GameObject | None) -> bool:
        return source is not None and not source.counters.get(self.counter, 0)


@dataclass(frozen=True, slots=True)
class SourceStartedUntapped(ConditionTest):
    """"if [this] started the turn untapped": on the battlefield and untapped as the turn began."""

    test: ClassVar[str] = "source_started_untapped"

    def holds(self, game: Game, controller: int, source: GameObject | None) -> bool:
        return source is not None and source.started_untapped


CONDITIONS: dict[str, type[ConditionTest]] = {
    cls.test: cls for cls in (YouControlSubtype, CostPaid, LifeAtLeast, SourceHadNoCounters,
                              SourceStartedUntapped)
}
"""The closed registry of conditions a card's data may test (603.4, 601.3d), by name."""


def condition_holds(game: Game, controller: int, condition: Condition | None,
                    source: GameObject | None = None) -> bool:
    """Whether an intervening-"if" condition is true now (``source``: the ability's source)."""
    if condition is None:
        return True
    # Every condition a definition holds was built from CONDITIONS by the card loader.
    return cast(ConditionTest, condition).holds(game, controller, source)
