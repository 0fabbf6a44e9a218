"""Bot specs (a minimal stand-in: the full module, with entrants and decklists, replaces it).

``load_bot`` turns a bot spec into what makes the bot for one game: ``"random"`` (the
built-in random bot) or ``"package.module:Class"`` (a class constructed with its seed).
"""

from __future__ import annotations

import importlib

from ..bots import RandomBot
from ._games import BotFactory

__all__ = ["load_bot"]


def load_bot(spec: str) -> BotFactory:
    """What makes ``spec``'s bot from a seed; ``ValueError`` for a spec it cannot load."""
    if spec == "random":
        return RandomBot
    module_name, colon, class_name = spec.partition(":")
    if not colon or not module_name or not class_name:
        raise ValueError(f"unknown bot {spec!r}: expected 'random' or 'package.module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"bot {spec!r}: cannot import {module_name!r} ({exc})") from exc
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise ValueError(f"bot {spec!r}: {module_name!r} has no class {class_name!r}")
    factory: BotFactory = found
    return factory
