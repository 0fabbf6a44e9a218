"""Events: what happened, as plain records for logs, traces and text renderings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..base import builder


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the game."""

    kind: str
    """What happened: ``cast``, ``resolve``, ``damage``, ``dies``, ``draw``, ``lose`` ..."""
    player: int = -1
    """The seat it concerns, -1 for none."""
    subject: int = 0
    """The object id it concerns, 0 for none."""
    amount: int = 0
    """A number it carries (damage, life, cards)."""
    text: str = ""
    """A readable account."""
    private_to: tuple[int, ...] = ()
    """If not empty: only these seats may see this event (it names a card hidden from the
    others, e.g. a drawn card); an event with an empty tuple is public. Decided by
    ``visible_to`` where objects move (``move_object``)."""


new_event: Callable[[str, int, int, int, str, tuple[int, ...]], Event] = builder(Event)
"""``Event(kind, player, subject, amount, text, private_to)``, every field given, built without the
frozen ``__init__``'s ``object.__setattr__`` per field (``builder``): the kernel logs ~8 events a
priority decision."""
