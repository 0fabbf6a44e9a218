"""TODO package docstring: resolution."""

from ._resolution import resolve_top

__all__ = [
    "resolve_top",
]
