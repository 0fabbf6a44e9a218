"""Playing a traced game for the trace tests (``test_actors_trace_file.py``,
``test_actors_trace_cycle.py``): gruul vs orzhov between two RandomBots, its JSON Lines trace read
back as a header, the messages and a footer, and the predicate for coordinator events.

The game they share is the ``trace`` fixture in ``conftest.py``, played once per module. This is
a plain module the tests import by name: pytest's default "prepend" import mode puts this folder,
which has no ``__init__.py``, on ``sys.path``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spellstack.actors import GameResult, play_match
from spellstack.bots import RandomBot

DECKS = ["gruul", "orzhov"]
NAMES = ["alice", "bob"]
SEED = 1
PLAYERS = [f"player:{n}" for n in NAMES]


@dataclass(frozen=True)
class Trace:
    path: Path
    header: dict[str, Any]
    messages: list[dict[str, Any]]
    footer: dict[str, Any]
    result: GameResult


def _bots(seed_a: int = 1, seed_b: int = 2) -> list[RandomBot]:
    return [RandomBot(seed_a), RandomBot(seed_b)]


async def _play_traced(path: Path, seed: int = SEED, policies: list[Any] | None = None
                       ) -> GameResult:
    _, result = await play_match(DECKS, policies if policies is not None else _bots(), seed=seed,
                                 names=NAMES, trace_path=path)
    return result


def _load(path: Path, result: GameResult) -> Trace:
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert len(lines) >= 3, "a trace has a header, messages and a footer"
    return Trace(path, lines[0], lines[1:-1], lines[-1], result)


def _is_event(msg: dict[str, Any], kind: str) -> bool:
    return bool(msg["kind"] == "CoordinatorEvent" and msg["payload"]["kind"] == kind)
