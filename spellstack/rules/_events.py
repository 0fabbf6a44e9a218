"""Events: what happened, as plain records for logs, traces and text renderings."""

from __future__ import annotations

from dataclasses import dataclass

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
    private_to: int = -1
    """If not -1: only this seat may see ``text`` (a drawn card's name)."""
