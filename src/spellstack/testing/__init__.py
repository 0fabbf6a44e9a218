"""Tools for testing with spellstack, as ``trio.testing`` is for trio: a game position built
in the words of a scenario file's ``[setup]`` (``Table``, ``Card``), games from whole decks
(``deck_game``), answer functions (``no_questions``, ``scripted``), running a game to its
next grant of priority (``to_priority``), and the kernel's own steps a test drives
(``take_action``, ``resolve_top``, ``run_proc``), so that a test needs no import from the kernel.

Nothing in spellstack itself imports this package.
"""

from ..rules import resolve_top, run_proc, take_action
from ._answers import Script, ScriptedAnswer, no_questions, scripted, to_priority
from ._decks import NAMES, deck_game
from ._table import Card, Table

__all__ = [
    "NAMES", "Card", "Script", "ScriptedAnswer", "Table", "deck_game", "no_questions", "resolve_top", "run_proc",
    "scripted", "take_action", "to_priority",
]
