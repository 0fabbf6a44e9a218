"""Which build runs: the modules of spellstack loaded from compiled files, and whether any is
older than its source."""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from ._modules import GROUP


def compiled_modules() -> tuple[str, ...]:
    """The spellstack modules loaded so far from compiled files (not the shared library that
    holds their code), sorted."""
    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("spellstack.") or name.startswith(GROUP):
            continue
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and file.endswith(tuple(EXTENSION_SUFFIXES)):
            found.append(name)
    return tuple(sorted(found))


def stale_modules() -> tuple[str, ...]:
    """The compiled modules loaded whose source file changed after they were built: they run
    code the source no longer says."""
    stale = []
    for name in compiled_modules():
        compiled = Path(str(sys.modules[name].__file__))
        source = compiled.with_name(name.rsplit(".", 1)[-1] + ".py")
        if source.is_file() and source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(name)
    return tuple(stale)


def build_label() -> str:
    """``pure Python``, or ``compiled: N modules`` (and how many are older than their source),
    for the figures a run prints."""
    compiled = compiled_modules()
    if not compiled:
        return "pure Python"
    label = f"compiled: {len(compiled)} modules"
    stale = stale_modules()
    if stale:
        label += (f", {len(stale)} older than their source ({stale[0]}...): rebuild with "
                  "python -m spellstack.build, or remove with --clean")
    return label
