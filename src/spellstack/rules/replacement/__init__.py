"""Replacement and prevention effects (614, 615) and the order several apply in (616.1): zone
changes, destruction, damage and losing the game.
"""

from ._replacement import (
    REPLACEMENT_EVENTS,
    DestroyEvent,
    LossEvent,
    MoveEvent,
    Replacement,
    add_shield,
    apply_replacements,
    destroy_replacements,
    prevent_damage,
    redirect,
    replace_loss,
    replace_move,
    run_sync,
)

__all__ = [
    "REPLACEMENT_EVENTS",
    "DestroyEvent",
    "LossEvent",
    "MoveEvent",
    "Replacement",
    "add_shield",
    "apply_replacements",
    "destroy_replacements",
    "prevent_damage",
    "redirect",
    "replace_loss",
    "replace_move",
    "run_sync",
]
