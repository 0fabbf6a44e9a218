"""State-based actions (704): every one that applies, performed at once as one event (704.3),
with the losses they cause replaced once (704.7).
"""

from ._sba import sba_would_apply, state_based_actions

__all__ = [
    "sba_would_apply",
    "state_based_actions",
]
