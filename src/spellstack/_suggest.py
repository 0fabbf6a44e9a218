"""Did-you-mean hints: the known name nearest a misspelt one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest"]


def closest(word: str, known: Iterable[str]) -> str | None:
    """The name in ``known`` nearest ``word``, if one is near enough to be what was meant
    (``difflib``'s similarity of 0.6 or more), else None; ties go to the first in sorted order,
    so the hint is the same from run to run."""
    found = difflib.get_close_matches(word, sorted(known), n=1)
    return found[0] if found else None
