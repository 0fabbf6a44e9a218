"""Mana pools (106.4): adding mana, spending a payment's part of it, and writing and reading pools
as symbols.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ._symbols import MANA_TYPES, TYPE_INDEX, iter_braced, syntax_error

if TYPE_CHECKING:
    from ._payment import Payment  # only a type here: the payment module checks pools with this one

# --------------------------------------------------------------------------- pools


def check_pool(pool: Mapping[str, int]) -> None:
    """Raise ``ValueError`` for an unknown mana type or a negative amount in ``pool``."""
    for mana, amount in pool.items():
        if mana not in TYPE_INDEX:
            raise ValueError(f"unknown mana type {mana!r} in pool; expected one of {MANA_TYPES}")
        if amount < 0:
            raise ValueError(f"negative amount {amount} of {mana!r} in pool")


def _normalized(counts: Mapping[str, int]) -> dict[str, int]:
    """A pool dict in MANA_TYPES order with zero entries left out."""
    return {t: counts[t] for t in MANA_TYPES if counts.get(t, 0)}


def add_mana(pool: Mapping[str, int], mana: str, amount: int = 1) -> dict[str, int]:
    """Add mana to a mana pool (106.4).

    Args:
        pool: The pool; not modified.
        mana: A mana type from ``MANA_TYPES``.
        amount: How much to add; 0 or more.

    Returns:
        A new pool in ``MANA_TYPES`` order, with zero entries left out.

    Raises:
        ValueError: For an unknown mana type or a negative amount.
    """
    check_pool(pool)
    if mana not in TYPE_INDEX:
        raise ValueError(f"unknown mana type {mana!r}; expected one of {MANA_TYPES}")
    if amount < 0:
        raise ValueError(f"cannot add a negative amount ({amount}) of mana")
    result = dict(pool)
    result[mana] = result.get(mana, 0) + amount
    return _normalized(result)


def spend(pool: Mapping[str, int], payment: Payment) -> dict[str, int]:
    """Remove the pool part of a payment from a pool (601.2h).

    Mana from the payment's activations is added and spent in the same step
    (601.2g then 601.2h), so it never shows in the returned pool.

    Args:
        pool: The pool; not modified.
        payment: A plan from :func:`plan_payment`.

    Returns:
        A new pool in ``MANA_TYPES`` order, with zero entries left out.

    Raises:
        ValueError: If the pool lacks any of the mana ``payment.from_pool`` spends.
    """
    check_pool(pool)
    result = dict(pool)
    for mana, amount in payment.from_pool:
        have = result.get(mana, 0)
        if have < amount:
            raise ValueError(
                f"cannot spend {amount} {{{mana}}} from a pool holding {have} "
                f"({format_pool(pool) or 'empty'})"
            )
        result[mana] = have - amount
    return _normalized(result)


def format_pool(pool: Mapping[str, int]) -> str:
    """Write a pool as mana symbols in ``MANA_TYPES`` order, e.g. ``"{W}{W}{C}"``; ``""`` if empty.

    Raises:
        ValueError: For an unknown mana type or a negative amount.
    """
    check_pool(pool)
    return "".join("{" + t + "}" for t in MANA_TYPES for _ in range(pool.get(t, 0)))


def parse_pool(text: str) -> dict[str, int]:
    """Parse mana written as symbols, e.g. ``"{R}{R}{C}"``, into a pool.

    Only the six mana type symbols ``{W}{U}{B}{R}{G}{C}`` are allowed, in any order.

    Returns:
        The pool in ``MANA_TYPES`` order, with zero entries left out.

    Raises:
        ManaCostSyntaxError: If the text is malformed or holds any other symbol.
    """
    counts: dict[str, int] = {}
    for position, body in iter_braced(text):
        if body not in TYPE_INDEX:
            raise syntax_error(
                text,
                position,
                f"invalid mana '{{{body}}}'",
                "only {W}{U}{B}{R}{G}{C} are types of mana",
            )
        counts[body] = counts.get(body, 0) + 1
    return _normalized(counts)
