"""The bases of effect verbs and conditions (``Effect``, ``Condition``): each verb or condition is
a frozen dataclass of an effects or triggers module deriving from one of them.

A module of its own: their class attributes (``verb``, ``rule``, ``test``) are ``ClassVar``s,
and the classes deriving from them are interpreted, so these stay interpreted in the compiled
build while the definitions beside them are compiled.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["Condition", "Effect"]


class Effect:
    """One instruction of an ability (608.2c: followed in printed order): an instance of a verb
    class from the closed registry ``EFFECT_VERBS`` (the effects package), a frozen dataclass
    whose fields are the verb's arguments and whose ``run`` carries it out."""

    __slots__ = ()
    verb: ClassVar[str] = ""
    """The verb's name, as card files write it (a keyword action of 701 or a general primitive)."""
    rule: ClassVar[str] = ""
    """The rule it implements."""
    inner_targets: ClassVar[bool] = False
    """Whether the effects it holds are its own ability's instructions, which may name the
    ability's targets ("you may ...", 608.2d), rather than those of an ability of their own
    (a delayed trigger's, 603.7c)."""

    def nested(self) -> tuple[tuple[str, tuple[Effect, ...]], ...]:
        """The effects it holds, by argument name (``may``'s, a delayed trigger's); none for most."""
        return ()

    def adds_mana(self) -> tuple[str, ...]:
        """605.1a: the mana types it could add, one of them each time it runs (none: it adds no
        mana)."""
        return ()


class Condition:
    """What an ability's text tests (603.4 intervening "if", 601.3d "has flash as long as"): an
    instance of a condition class from the closed registry ``CONDITIONS`` (the triggers package),
    a frozen dataclass whose fields are the condition's arguments."""

    __slots__ = ()
    test: ClassVar[str] = ""
    """The condition's name, as card files write it."""
