"""Modal double-faced cards (712): a card with two faces, either of which may be cast or, a
land face, played (712.12); elsewhere than the stack and the battlefield it has its front
face's characteristics (712.8a). A card file writes it with ``layout = "mdfc"`` and a ``face``
table for each face."""

from __future__ import annotations

from ..registry import LAYOUTS, MECHANICS, Layout, Mechanic

LAYOUTS.register("mdfc", Layout(
    "712.1", "a modal double-faced card: either face may be cast or, a land face, played "
    "(712.12); elsewhere it has its front face's characteristics (712.8a)"))

MECHANICS.register("mdfc", Mechanic(
    ("712",), "a card of two faces, either of which may be cast or played",
    (("LAYOUTS", "mdfc"),), frozenset({"legal_actions", "hand_facts"})))
