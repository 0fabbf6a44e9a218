"""The required card pool's names (package data), and what to say about a card name the
engine does not define: a pool card not implemented yet, or an unknown name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from .._printable import SHORT_LIMIT, short_value
from .._suggest import closest
from ..rules import CardDefinition, CardDefinitionError
from ._toml import parse_toml

__all__ = ["POOL_NAMES", "PoolNames", "card_name_problem"]


@dataclass(frozen=True, slots=True)
class PoolNames:
    """The names in the required pool."""

    cards: frozenset[str]
    """Card names (a multi-face card's full name, ``Fire // Ice``)."""
    faces: frozenset[str]
    """The face names of multi-face cards (``Fire``)."""
    tokens: frozenset[str]
    """Token names."""


def _load() -> PoolNames:
    text = resources.files("spellstack.cards").joinpath("pool_names.toml").read_text("utf-8")
    data = parse_toml(text, "pool_names.toml", CardDefinitionError)
    return PoolNames(frozenset(data["cards"]), frozenset(data["faces"]), frozenset(data["tokens"]))


POOL_NAMES: PoolNames = _load()
"""The required pool's names (``pool_names.toml``, written from the pool)."""


def card_name_problem(name: str, cards: Mapping[str, CardDefinition], *,
                      token: bool = False) -> tuple[bool, str]:
    """For a card (``token``: a token) name that ``cards`` does not define as one: whether it is
    a pool name, and the message to give: ``'X' is a pool card not implemented yet``, or
    ``unknown card 'X' (did you mean 'Y'?)``."""
    kind = "token" if token else "card"
    shown = short_value(name)
    defn = cards.get(name)
    pool_same = POOL_NAMES.tokens if token else POOL_NAMES.cards | POOL_NAMES.faces
    pool_other = POOL_NAMES.cards | POOL_NAMES.faces if token else POOL_NAMES.tokens
    if (defn is not None and defn.is_token != token) or (defn is None and name in pool_other):
        other = "card" if token else "token"
        return False, f"{shown} is a {other}, not a {kind}"
    if name in pool_same:
        return True, f"{shown} is a pool {kind} not implemented yet"
    hint = ""
    if len(name) <= 2 * SHORT_LIMIT:
        # No card name is longer: a longer one is no misspelling worth the comparisons.
        near = closest(name, pool_same | {n for n, d in cards.items() if d.is_token == token})
        if near and near in cards:
            # A two-faced card (not a split card, named by both halves) goes by its front face.
            defn = cards[near]
            if defn.layout != "split" and defn.card_name:
                near = defn.card_name
        hint = f" (did you mean {near!r}?)" if near else ""
    return False, f"unknown {kind} {shown}{hint}"
