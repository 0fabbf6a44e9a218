"""Events: what happened, as plain records for logs, traces and text renderings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ..base import native_builder


@mypyc_attr(acyclic=True)
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


def _native_event(kind: str, player: int, subject: int, amount: int, text: str,
                  private_to: tuple[int, ...]) -> Event:
    """Compiled only: an ``Event`` made empty and its fields assigned natively (the frozen
    ``__init__`` that ``dataclasses`` writes stays interpreted in a compiled class)."""
    event = Event.__new__(Event)
    event.kind = kind  # type: ignore[misc]
    event.player = player  # type: ignore[misc]
    event.subject = subject  # type: ignore[misc]
    event.amount = amount  # type: ignore[misc]
    event.text = text  # type: ignore[misc]
    event.private_to = private_to  # type: ignore[misc]
    return event


new_event: Callable[[str, int, int, int, str, tuple[int, ...]], Event] = native_builder(
    Event, _native_event)
"""``Event(kind, player, subject, amount, text, private_to)``, every field given, built without the
frozen ``__init__``'s ``object.__setattr__`` per field: the kernel logs ~8 events a priority
decision. Pure Python: ``builder``'s constructor. Compiled: ``_native_event``, which assigns
each field as compiled code does (an assignment a frozen class refuses from outside, as the
compiled one still does), about a tenth of the interpreted ``__init__``'s cost."""
