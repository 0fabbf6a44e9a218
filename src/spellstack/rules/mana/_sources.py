"""``ManaSource``: one mana ability a payment may activate (605, 601.2g).

In a module of its own, interpreted in the compiled build: its ``__init__`` is replaced at import
by a faster one, which a compiled class would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["ManaSource"]


@dataclass(frozen=True, slots=True)
class ManaSource:
    """One mana ability a payment may activate."""

    source_id: int
    """The permanent's object id."""
    produces: tuple[str, ...]
    """The mana types it can add, one mana per activation (e.g. ``("G",)``; one mana of any
    color: ``("W", "U", "B", "R", "G")``, the colour chosen as it is activated, 605.3a)."""
    ability: int = 0
    """Which of the permanent's activated abilities it is, from 1 as ``Action.ability`` counts
    (601.2g: one named in ``Action.pay``, whatever its cost); 0 for its first mana ability
    whose only cost is {T} (automatic payment)."""


def _source_init(self: ManaSource, source_id: int, produces: tuple[str, ...],
                 ability: int = 0) -> None:
    """``ManaSource.__init__`` writing the slots through their descriptors: the seat's mana is
    listed again whenever what is tapped changes (``_casting.mana_sources``), and the frozen
    dataclass's ``__init__`` (``object.__setattr__`` for each field) takes twice as long."""
    _set_source_id(self, source_id)
    _set_produces(self, produces)
    _set_ability(self, ability)


if tuple(f.name for f in fields(ManaSource)) != ("source_id", "produces", "ability"):
    raise AssertionError("_source_init sets source_id, produces and ability, ManaSource has "
                         "other fields")
_set_source_id = ManaSource.__dict__["source_id"].__set__
_set_produces = ManaSource.__dict__["produces"].__set__
_set_ability = ManaSource.__dict__["ability"].__set__
setattr(ManaSource, "__init__", _source_init)  # noqa: B010 (mypy refuses assigning to a method)
