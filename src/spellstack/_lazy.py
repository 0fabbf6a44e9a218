"""A package's public names imported from their modules on first use (PEP 562), so that
importing the package loads none of its modules until one of its names is read."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, Sequence[str]], namespace: MutableMapping[str, Any],
               names: Sequence[str]) -> tuple[dict[str, str], Callable[[str], Any], Callable[[], list[str]]]:
    """The package's ``_HOME_OF`` (each name's module), ``__getattr__`` and ``__dir__``.

    ``homes``: each module (absolute, or relative to ``package`` with leading dots) with the
    names it gives; ``namespace``: the package's ``globals()``, where a name read once is kept
    so that the next read is a plain lookup; ``names``: the package's ``__all__``."""
    home_of = {name: module for module, given in homes.items() for name in given}

    def __getattr__(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return home_of, __getattr__, __dir__
