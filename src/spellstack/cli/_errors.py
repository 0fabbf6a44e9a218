"""Command-line errors."""

from __future__ import annotations

__all__ = ["CommandError"]


class CommandError(Exception):
    """Bad command-line input (a path, a value): reported in one line on stderr, exit 2."""
