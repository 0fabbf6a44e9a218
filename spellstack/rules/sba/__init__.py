"""TODO package docstring: sba."""

from ._sba import sba_would_apply, state_based_actions

__all__ = [
    "sba_would_apply",
    "state_based_actions",
]
