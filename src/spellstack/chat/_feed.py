"""The event feed: one line per public event ("alice casts Lightning Bolt targeting bob").

Lines are the kernel's own accounts of its events (``Game.history``), which name only what
every player may see; an event that names a card hidden from some players is private to the
seats that may see it (``Event.private_to``, decided by ``visible_to``), and goes to them alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Event

__all__ = ["FEED_KINDS", "feed_lines"]

FEED_KINDS = frozenset({
    "turn", "play", "cast", "activate", "trigger", "counter", "copy", "damage", "prevent",
    "attack", "block", "destroy", "sacrifice", "discard", "draw", "token", "attach",
    "regenerate", "mulligan", "lose", "leave", "game_over",
})
"""The kinds of event the feed tells (steps, zone moves and priority are left to the views)."""


def feed_lines(events: Sequence[Event], seat: int) -> list[str]:
    """The feed lines of ``events`` for ``seat``: public events, and those private to it; a
    draw private to the drawer replaces the public account of the same draw."""
    out: list[str] = []
    for e in events:
        if e.kind not in FEED_KINDS or not e.text:
            continue
        if e.private_to and seat not in e.private_to:
            continue
        if e.kind == "draw" and not e.private_to and e.player == seat:
            continue  # the drawer is told which card, in the private event
        out.append(("* " if e.kind == "turn" else "  ") + e.text)
    return out
