"""``ManaCostSyntaxError``: malformed mana text.

In a module of its own, interpreted in the compiled build: it keeps its text and position through
pickling (worker processes), which a compiled exception class would lose.
"""

from __future__ import annotations

__all__ = ["ManaCostSyntaxError"]


class ManaCostSyntaxError(ValueError):
    """Malformed mana text; the message quotes the text and the position of the fault."""

    def __init__(
        self, message: str, *, text: str | None = None, position: int | None = None
    ) -> None:
        super().__init__(message)
        self.text = text
        """The whole text being parsed, when known."""
        self.position = position
        """0-based index of the offending character in ``text``, when known."""
