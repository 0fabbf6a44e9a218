"""Split cards (709): two halves on one card, each with its own name, cost and text (709.1); its
controller casts one half (709.3), and outside the stack the card has both halves'
characteristics combined (709.4). A card file writes it with ``layout = "split"`` and a
``face`` table for each half; the loader builds each half and the whole card."""

from __future__ import annotations

from ..registry import LAYOUTS, MECHANICS, Layout, Mechanic

LAYOUTS.register("split", Layout(
    "709.1", "two halves on one card; one half is cast (709.3), and elsewhere than the stack the "
    "card has both halves' characteristics combined (709.4)"))

MECHANICS.register("split", Mechanic(
    ("709",), "a card of two halves, either of which may be cast",
    (("LAYOUTS", "split"),), frozenset({"legal_actions", "hand_facts"})))
