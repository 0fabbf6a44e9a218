"""Cost options (601.2b): the optional additional and alternative costs a card may name, each
with its rule and what paying it means. The mechanics (``rules/mechanics``) register their own
(kicker, flashback, morph ...); a card's own words that are no mechanic (601.3c's "as though it
had flash if you pay [cost] more") are registered by the card definitions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, get_args

from ._registry import Registry

GameT = TypeVar("GameT")
"""The game (``rules.game.Game``, which sits above this package)."""
ObjT = TypeVar("ObjT")
"""A game object (``rules.state.GameObject``)."""

CostKind = Literal["additional", "alternative"]
"""``additional``: paid on top of the mana cost (118.8); ``alternative``: paid instead of it
(118.9)."""
COST_KINDS: tuple[CostKind, ...] = get_args(CostKind)


@dataclass(frozen=True, slots=True)
class CostOptionRule(Generic[GameT, ObjT]):
    """A cost option a card may name (601.2b): what the rules make of paying it."""

    kind: CostKind
    """Additional (118.8) or alternative (118.9)."""
    zone: str
    """The zone it lets the card be cast from, one of ``base.CARD_ZONES`` (flashback: the
    graveyard, 702.34a)."""
    rule: str
    """Its rule (``"702.33a"``)."""
    means: str
    """What paying it means, in words."""
    cast_for: str = ""
    """A mana cost the card is cast for instead of the cost it names, in mana symbols (morph:
    ``{3}``, 702.37c; the cost it names then turns it face up, 702.37e); empty: it costs what
    the card names."""
    exiled_leaving_stack: bool = False
    """Whether a spell cast with it is exiled whenever it would leave the stack (flashback
    702.34a, jump-start 702.133a)."""
    on_enter: Callable[[GameT, ObjT], None] | None = None
    """What happens to the permanent a spell cast with it becomes, as it enters the battlefield
    (608.3; dash: haste, and its return to hand, 702.109a); None: nothing."""
    targets: tuple[Any, ...] = ()
    """The target requirements (``TargetSpec``) a spell cast with it has instead of its own
    (601.2c; mutate: target non-Human creature you own, 702.140a); empty: its own. With an
    illegal target as it resolves, it is a creature spell and resolves as one (608.3b)."""
    resolves: Callable[[GameT, ObjT, tuple[int, ...]], Any] | None = None
    """What a permanent spell cast with it does as it resolves with a legal target, instead of
    entering the battlefield (608.3d, mutate: it merges with the target): a generator given
    the game, the spell and its legal targets (the resolution's ``Proc``); None: it enters."""

    def __post_init__(self) -> None:
        if self.kind not in COST_KINDS:
            raise ValueError(f"cost option ({self.rule}): kind {self.kind!r} is not one of {COST_KINDS}")


COST_OPTIONS: Registry[CostOptionRule[Any, Any]] = Registry("cost option")
"""The closed registry of optional and alternative costs a card may name (601.2b), by name."""

EXILED_LEAVING_STACK: set[str] = set()
"""The cost options whose spells are exiled whenever they would leave the stack
(``CostOptionRule.exiled_leaving_stack``), kept from ``COST_OPTIONS`` for the zone change's
hot path."""


def _exiled_leaving_stack() -> None:
    EXILED_LEAVING_STACK.clear()
    EXILED_LEAVING_STACK.update(name for name, rule in COST_OPTIONS.items() if rule.exiled_leaving_stack)


COST_OPTIONS.watch(_exiled_leaving_stack)
