"""Characteristics as every continuous effect leaves them (109.3, 613): the value the layer
engine computes and every reader reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from ..base import Record
from ..mana import ManaCost

if TYPE_CHECKING:
    from ..definitions import ActivatedAbility, TriggeredAbility


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class AbilityRef(Record):
    """A non-keyword ability an object has (113): a printed ability of some definition."""

    definition: str
    """The definition whose printed ability it is (a copy's: the copied card's, 707.2)."""
    kind: str
    """``triggered``, ``activated`` or ``static``."""
    position: int
    """Its place among that definition's printed abilities."""

    def __repr__(self) -> str:
        # As ``dataclass`` writes it (a test checks), written out: the state hash reads the
        # last known characteristics, and compiled, this is native code.
        return f"AbilityRef(definition={repr(self.definition)}, kind={repr(self.kind)}, position={repr(self.position)})"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Characteristics(Record):
    """An object's characteristics after every continuous effect (109.3, 613)."""

    name: str
    """Its name (a copy's is the copied card's)."""
    definition: str
    """The definition its copiable values come from (layer 1)."""
    mana_cost: ManaCost | None
    """Mana cost (202)."""
    mana_value: int
    """Mana value (202.3)."""
    colors: tuple[str, ...]
    """Colours, WUBRG order (105)."""
    card_types: tuple[str, ...]
    """Card types (205.2)."""
    subtypes: tuple[str, ...]
    """Subtypes (205.3)."""
    supertypes: tuple[str, ...]
    """Supertypes (205.4)."""
    keywords: tuple[str, ...]
    """Keyword abilities it has (702), lower case, e.g. ``flying``, ``protection from red``."""
    abilities: tuple[AbilityRef, ...]
    """Its other abilities: triggered, activated and static, printed or granted."""
    power: int | None
    """Power; None for a non-creature with no printed power."""
    toughness: int | None
    """Toughness; None likewise."""
    loyalty: int | None
    """Printed loyalty (306.5b)."""
    controller: int
    """Controller's seat (layer 2)."""
    text_changes: tuple[tuple[str, str], ...] = ()
    """Layer 3: (from word, to word) substitutions in its abilities' arguments (612)."""
    triggered: tuple[tuple[str, TriggeredAbility], ...] = field(default=(), compare=False,
                                                                  repr=False)
    """Its triggered abilities (from ``abilities``), each with the definition it is printed on."""
    activated: tuple[tuple[str, int, ActivatedAbility], ...] = field(default=(), compare=False,
                                                                       repr=False)
    """Its activated abilities: definition, index among that definition's activated abilities
    (from 1), ability."""

    def __repr__(self) -> str:
        # As ``dataclass`` writes it, the abilities left out (as ``AbilityRef.__repr__``).
        return (f"Characteristics(name={repr(self.name)}, definition={repr(self.definition)}, "
                f"mana_cost={repr(self.mana_cost)}, mana_value={repr(self.mana_value)}, "
                f"colors={repr(self.colors)}, card_types={repr(self.card_types)}, "
                f"subtypes={repr(self.subtypes)}, supertypes={repr(self.supertypes)}, "
                f"keywords={repr(self.keywords)}, abilities={repr(self.abilities)}, "
                f"power={repr(self.power)}, toughness={repr(self.toughness)}, loyalty={repr(self.loyalty)}, "
                f"controller={repr(self.controller)}, text_changes={repr(self.text_changes)})")

    def has_type(self, card_type: str) -> bool:
        """Whether it has this card type."""
        return card_type in self.card_types
