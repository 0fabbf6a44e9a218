"""Marks for the type hints of data read from files: what a hint's ``Annotated`` metadata may
say beyond the type, for the schema engine (``spellstack.schema``) to check as it reads.

They live here, at the bottom of the kernel, so that the kernel's own value types (a target
requirement, an effect verb) can carry them without importing the engine. Besides these marks,
any callable in the metadata is a check: called with the value read, it returns the value to
keep (or None, to keep it as read) and raises ``ValueError`` saying what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["AtLeast", "Parsed", "Words"]


@dataclass(frozen=True, slots=True, init=False)
class Words:
    """Words a file may write instead of a value of the type: ``Words(any=1024)`` on an ``int``
    reads ``"any"`` as 1024."""

    pairs: tuple[tuple[str, object], ...]
    """Each word with the value it stands for."""

    def __init__(self, **words: object) -> None:
        object.__setattr__(self, "pairs", tuple(words.items()))


@dataclass(frozen=True, slots=True)
class AtLeast:
    """An integer no smaller than ``least``."""

    least: int
    """The smallest value allowed."""

    def __call__(self, value: int) -> None:
        if value < self.least:
            raise ValueError(f"expected {self.least} or more, got {value}")


@dataclass(frozen=True, slots=True)
class Parsed:
    """A value written as something else: read a ``source`` (a type hint, ``str`` for a mana
    cost), then ``parse`` it into the annotated type, which raises ``ValueError`` naming what is
    wrong."""

    source: Any
    """The type hint of what the file holds."""
    parse: Callable[[Any], Any]
    """Makes the value from what the file holds."""
