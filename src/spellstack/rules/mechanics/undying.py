"""Undying (702.93): "When this permanent is put into a graveyard from the battlefield, if it had
no +1/+1 counters on it, return it to the battlefield under its owner's control with a +1/+1
counter on it" (702.93a). A keyword that stands for a triggered ability: a "dies" trigger with
an intervening "if" (603.4) read as the permanent last existed (603.10a), so the trigger fast
path's ``kinds_seen`` must see it (it does: the loader adds it to the card's triggered
abilities)."""

from __future__ import annotations

from ..registry import KEYWORD_TRIGGERS, MECHANICS, KeywordTrigger, Mechanic

KEYWORD_TRIGGERS.register("undying", KeywordTrigger("702.93a", {
    "event": "dies", "condition": {"test": "source_had_no_counters", "counter": "+1/+1"},
    "effects": [{"verb": "put_onto_battlefield", "what": "subject", "counter": "+1/+1"}]}))

MECHANICS.register("undying", Mechanic(
    ("702.93",), "a permanent that dies without a +1/+1 counter returns with one",
    (("KEYWORD_TRIGGERS", "undying"),), frozenset({"kinds_seen"})))
