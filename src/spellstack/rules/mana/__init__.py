"""Mana (106, 107.3-107.4, 202): symbols and costs, pools, planning a payment (601.2f-h), and what a
seat's mana could pay for.

Everything here is pure data and pure functions: costs and symbols are immutable, and pools are
plain ``dict[str, int]`` values that functions return fresh rather than mutate.
"""

from ._payment import Payment, plan_payment
from ._pool import add_mana, format_pool, parse_pool, spend
from ._sources import ManaSource
from ._supply import ManaSupply
from ._symbols import COLORS, MANA_TYPES, ManaCost, ManaSymbol, parse_mana_cost
from ._syntax import ManaCostSyntaxError

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
