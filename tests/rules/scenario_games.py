"""What several rules tests share: a game set up from a scenario's ``setup`` table, played to
its first grant of priority.

A plain module the tests import by its package path (``tests.rules.scenario_games``).
"""

from __future__ import annotations

from collections.abc import Mapping

from spellstack.rules import CardDefinition, Game, default_answer, play_sync, priority_decision
from spellstack.scenarios import build_game


def at_first_priority(setup: Mapping[str, object], cards: Mapping[str, CardDefinition]) -> Game:
    """The game ``setup`` describes (the scenario format's setup table, seed 0), at its first
    grant of priority, with that priority decision made."""
    game, _ = build_game(dict(setup), 0, cards, "test")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    return game
