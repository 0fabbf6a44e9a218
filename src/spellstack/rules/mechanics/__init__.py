"""One module per mechanic (702 and after), above every other rules area: each registers what it
needs as it is imported (into ``rules/registry``), with its record in ``MECHANICS`` (its rules,
what it registers, the fast-path caches that touches). This package imports every module in it
by itself, so a new mechanic is a new file here and nothing else to list. The modules are
independent of each other (an import-linter contract holds them to it).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable


def import_mechanics(package: str = __name__, path: Iterable[str] = __path__) -> tuple[str, ...]:
    """Import every module of the mechanics package (``path``), in name order; their names."""
    names = tuple(sorted(info.name for info in pkgutil.iter_modules(list(path))))
    for name in names:
        importlib.import_module(f"{package}.{name}")
    return names


MECHANIC_MODULES = import_mechanics()
"""The mechanics' modules found and imported, by name."""

__all__ = ["MECHANIC_MODULES", "import_mechanics"]
