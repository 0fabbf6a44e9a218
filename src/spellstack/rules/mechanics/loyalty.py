"""Loyalty (306, 606): a planeswalker's loyalty is the number of loyalty counters on it. It
enters with its printed loyalty in them (306.5b); its loyalty abilities' costs add or remove
them (606.4), one of them a turn and only at sorcery speed (606.3); damage dealt to it removes
them (120.3c, 306.8); with none it is put into its owner's graveyard (704.5i). This module
registers the counter kind; the rest follows its rule sections in the core (the zone change,
activation, damage and the state-based actions)."""

from __future__ import annotations

from ..registry import COUNTER_KINDS, MECHANICS, CounterKind, Mechanic

COUNTER_KINDS.register("loyalty", CounterKind(
    "306.5b", "a planeswalker's loyalty: it enters with its printed loyalty in them (306.5b), "
              "its loyalty abilities' costs add or remove them (606.4), damage to it removes "
              "them (120.3c), and with none it goes to the graveyard (704.5i)"))

MECHANICS.register("loyalty", Mechanic(
    ("306", "606"), "a planeswalker's loyalty counters and loyalty abilities",
    (("COUNTER_KINDS", "loyalty"),), frozenset()))
