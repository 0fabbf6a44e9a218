"""TODO package docstring: mana."""

from ._payment import ManaSource, Payment, plan_payment
from ._pool import add_mana, format_pool, parse_pool, spend
from ._supply import ManaSupply
from ._symbols import COLORS, MANA_TYPES, ManaCost, ManaCostSyntaxError, ManaSymbol, parse_mana_cost

__all__ = [
    "COLORS",
    "MANA_TYPES",
    "ManaCost",
    "ManaCostSyntaxError",
    "ManaSource",
    "ManaSupply",
    "ManaSymbol",
    "Payment",
    "add_mana",
    "format_pool",
    "parse_mana_cost",
    "parse_pool",
    "plan_payment",
    "spend",
]
