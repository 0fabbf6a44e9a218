"""The event feed: one line per public event ("alice casts Lightning Bolt targeting bob").

Lines are the kernel's own accounts of its events (``Game.history``), which name only what
every player may see; an event that names a card hidden from some players is private to the
seats that may see it (``Event.private_to``, decided by ``visible_to``), and goes to them alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..rules import Event

__all__ = ["FEED_KINDS", "feed_lines"]

FEED_KINDS = frozenset({
    "turn", "play", "cast", "activate", "trigger", "resolve", "counter", "copy", "damage", "prevent",
    "attack", "block", "destroy", "sacrifice", "discard", "draw", "token", "attach",
    "regenerate", "mulligan", "lose", "leave",
})
"""The kinds of event the feed tells, besides moves to a graveyard or exile (steps, other zone
moves and priority are left to the views; the game's end is the host's own last message)."""

_MOVE = re.compile(r"(?P<card>.+) moves from (?P<src>.+) to (?P<dst>.+)")
"""The kernel's account of a zone move (``_log_move``)."""
_TOLD_BEFORE = frozenset({"destroy", "sacrifice", "counter", "leave"})
"""Kinds of event logged just before the move they cause: the move needs no line of its own."""


def feed_lines(events: Sequence[Event], seat: int, names: Sequence[str] = (), *,
               steps: Sequence[str] = ()) -> list[str]:
    """The feed lines of ``events`` for ``seat``: public events, and those private to it; a
    draw private to the drawer replaces the public account of the same draw. ``names``: the
    players' names by seat (a resolving spell is told as its controller's); ``steps``: the
    step each event happened in (``Game.history_steps``), by which a card put from a hand into
    its owner's graveyard in a cleanup step is told as discarded to hand size (514.1)."""
    out: list[str] = []
    discarded = {e.subject for e in events if e.kind == "discard" and e.subject}
    for i, e in enumerate(events):
        if e.private_to and seat not in e.private_to:
            continue
        if e.kind == "zone" and e.text:
            told_before = i > 0 and events[i - 1].kind in _TOLD_BEFORE
            cleanup = i < len(steps) and steps[i] == "cleanup"
            line = None if told_before or e.subject in discarded else _move_line(e.text, cleanup)
            if line is not None:
                out.append("  " + line)
            continue
        if e.kind not in FEED_KINDS or not e.text:
            continue
        if e.kind == "draw" and not e.private_to and e.player == seat:
            continue  # the drawer is told which card, in the private event
        text = e.text
        if e.kind == "resolve" and 0 <= e.player < len(names) and not text.startswith(names[e.player]):
            text = f"{names[e.player]}'s {text}"
        out.append(("* " if e.kind == "turn" else "  ") + text)
    return out


def _move_line(text: str, cleanup: bool) -> str | None:
    """A move's line if it ends in a graveyard or exile (None otherwise): a card put from a
    hand into its owner's graveyard in a cleanup step is discarded to hand size (514.1)."""
    m = _MOVE.fullmatch(text)
    if m is None:
        return None
    card, src, dst = m["card"], m["src"], m["dst"]
    if not (dst == "exile" or dst.endswith("'s graveyard")):
        return None
    if cleanup and src.endswith("'s hand") and dst == src[: -len("hand")] + "graveyard":
        owner = src.removesuffix("'s hand")
        return f"{owner} discards {card} (hand size)"
    return text
