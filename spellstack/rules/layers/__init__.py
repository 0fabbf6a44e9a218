"""TODO package docstring: layers."""

from ._cache import LayerCache
from ._changes import (
    add_counters,
    add_effect,
    become_copy,
    end_durations,
    end_effects,
    end_with_source,
    new_effect,
    snapshot_leaving,
)
from ._engine import as_it_would_enter, characteristics, reads_zone_sizes
from ._host import LayerHost
from ._vocabulary import AFFECTED, DURATIONS, LAYER_ARG_KINDS, LAYER_VERBS, LIST_KINDS, REQUIRED_ARGS, is_value
from ._working import COLOR_WORDS, Working

__all__ = [
    "AFFECTED",
    "COLOR_WORDS",
    "DURATIONS",
    "LAYER_ARG_KINDS",
    "LAYER_VERBS",
    "LIST_KINDS",
    "REQUIRED_ARGS",
    "LayerCache",
    "LayerHost",
    "Working",
    "add_counters",
    "add_effect",
    "as_it_would_enter",
    "become_copy",
    "characteristics",
    "end_durations",
    "end_effects",
    "end_with_source",
    "is_value",
    "new_effect",
    "reads_zone_sizes",
    "snapshot_leaving",
]
