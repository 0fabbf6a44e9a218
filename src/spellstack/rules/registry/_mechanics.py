"""Mechanics (a card keyword or frame with rules of its own, 702 and after): each one's module in
``rules/mechanics`` registers what it needs as it is imported, and its record here says so,
with the fast-path caches it touches. Keyword abilities that are triggered abilities are data a
card's keyword line stands for (``KEYWORD_TRIGGERS``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from ._registry import Registry

Touch = Literal["kinds_seen", "sba_marks", "legal_actions", "hand_facts", "seat_board"]
"""A fast-path cache that must see what a mechanic adds, or it is silently skipped:

- ``kinds_seen`` (``legality/_restrictions.py``): the ability kinds the cards of a game print,
  which lets trigger matching skip the board (a new triggered ability's event, a new kind of
  rule or grant);
- ``sba_marks``: the ``SBAChanges`` marks a state-based action reads (``SBA_READS``);
- ``legal_actions``: the cached list of a seat's legal actions, keyed by what they depend on
  (a new way to cast or activate);
- ``hand_facts``: what a seat's hand allows, cached by the hand (a new cost or permission);
- ``SeatBoard`` (``seat_board``): what a seat's permanents can do, cached by epoch."""
TOUCHES: Final[tuple[Touch, ...]] = get_args(Touch)

TOUCHES_NEEDED: Final[dict[str, frozenset[Touch]]] = {
    "KEYWORD_TRIGGERS": frozenset({"kinds_seen"}),
    "TRIGGER_EVENTS": frozenset({"kinds_seen"}),
    "SBA_ACTIONS": frozenset({"sba_marks"}),
    "COST_OPTIONS": frozenset({"legal_actions", "hand_facts"}),
    "LAYOUTS": frozenset({"legal_actions", "hand_facts"}),
}
"""What registering into a registry needs a mechanic to declare it touches: a triggered ability
of a new kind is one ``kinds_seen`` must see, a state-based action one whose reads its marks
must cover, a new way to cast (a cost option, a layout whose faces may be cast or played) one
the cached legal actions and what a hand allows must see."""


@dataclass(frozen=True, slots=True)
class KeywordTrigger:
    """A keyword ability that is a triggered ability (702), as the card data of that ability."""

    rule: str
    """Its rule (``"702.79a"``)."""
    ability: dict[str, Any]
    """The triggered ability it stands for, as a card file would write it (``event``,
    ``condition``, ``effects``); the card loader adds it to a card with the keyword."""


KEYWORD_TRIGGERS: Final[Registry[KeywordTrigger]] = Registry("keyword trigger")
"""Keyword abilities that are triggered abilities, by keyword (lower case)."""


@dataclass(frozen=True, slots=True)
class Mechanic:
    """A mechanic's record: its rules, what it registers and the caches it touches."""

    rules: tuple[str, ...]
    """The rules it follows (``("702.79",)``)."""
    does: str
    """What it is, in words."""
    registers: tuple[tuple[str, str], ...]
    """What its module registers: (registry, name) pairs (``("KEYWORD_TRIGGERS", "persist")``)."""
    touches: frozenset[Touch]
    """The fast-path caches what it registers touches (``Touch``); ``TOUCHES_NEEDED`` says
    which each registry needs."""

    def __post_init__(self) -> None:
        if not self.rules:
            raise ValueError(f"mechanic {self.does!r}: name the rules it follows")
        if not self.touches <= frozenset(TOUCHES):
            raise ValueError(f"mechanic {self.does!r}: touches {sorted(self.touches)} must be among {TOUCHES}")

    def undeclared(self) -> frozenset[Touch]:
        """The caches what it registers touches that it does not declare."""
        needed: frozenset[Touch] = frozenset()
        for registry, _ in self.registers:
            needed |= TOUCHES_NEEDED.get(registry, frozenset())
        return needed - self.touches


MECHANICS: Final[Registry[Mechanic]] = Registry("mechanic")
"""Every mechanic, by name, each registered by its module in ``rules/mechanics``."""
