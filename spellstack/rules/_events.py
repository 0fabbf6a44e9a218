"""Events: what happened, as plain records for logs, traces and text renderings."""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["Event"]


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


def _event_init(self: Event, kind: str, player: int = -1, subject: int = 0, amount: int = 0,
                text: str = "", private_to: tuple[int, ...] = ()) -> None:
    """``Event.__init__`` writing each slot through its descriptor: the kernel makes ~8 events a
    priority decision, and the generated frozen ``__init__`` (``object.__setattr__`` for each
    field) takes twice as long. The fields, their order and defaults are the dataclass's."""
    _set_kind(self, kind)
    _set_player(self, player)
    _set_subject(self, subject)
    _set_amount(self, amount)
    _set_text(self, text)
    _set_private_to(self, private_to)


_FIELDS = ("kind", "player", "subject", "amount", "text", "private_to")
if tuple(f.name for f in fields(Event)) != _FIELDS:  # a field added to Event must be added here
    raise AssertionError(f"_event_init sets {_FIELDS}, Event has other fields")
_set_kind, _set_player, _set_subject, _set_amount, _set_text, _set_private_to = (
    Event.__dict__[name].__set__ for name in _FIELDS)
setattr(Event, "__init__", _event_init)  # noqa: B010 (mypy refuses assigning to a method)
