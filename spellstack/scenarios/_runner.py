"""Running scenario files through the real actors and protocol (scenario format 1)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from ..actors import SeatConfig, play_game
from ..cards import load_cards
from ..rules import CardDefinition, SpellstackError
from ._director import Director, ScriptedPolicy
from ._errors import ScenarioError, ScenarioFailure
from ._expect import check_expect
from ._setup import build_game

__all__ = [
    "EXPECTED_FAILURES",
    "ScenarioResult",
    "collect",
    "load_expected_failures",
    "run_scenario",
    "run_scenario_file",
]

EXPECTED_FAILURES = "expected_failures.toml"
_TOP_KEYS = {"title", "rules", "seed", "setup", "step"}


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """The outcome of one scenario."""

    path: str
    """The file."""
    title: str
    """Its title."""
    status: str
    """``PASS``, ``FAIL``, ``XFAIL`` (failed as expected) or ``XPASS`` (passed unexpectedly)."""
    message: str = ""
    """The first failed expectation, or what the expected failure waits for."""

    @property
    def ok(self) -> bool:
        """Whether this outcome lets the run succeed."""
        return self.status in ("PASS", "XFAIL")

    def line(self) -> str:
        """The one-line report of the scenario format."""
        if self.status == "PASS":
            return f"PASS {self.title}"
        if self.status == "XFAIL":
            return f"XFAIL {self.title} (waits for: {self.message})"
        if self.status == "XPASS":
            return f"FAIL {self.title}: passed, but it is listed as an expected failure " \
                   f"({self.message})"
        return f"FAIL {self.title}: {self.message}"


def _parse(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ScenarioError(f"{path}: {err}") from None
    bad = set(data) - _TOP_KEYS
    if bad:
        raise ScenarioError(f"{path}: unknown top-level key {sorted(bad)[0]!r}")
    if not isinstance(data.get("title"), str):
        raise ScenarioError(f"{path}: 'title' is required")
    if not isinstance(data.get("setup"), dict):
        raise ScenarioError(f"{path}: '[setup]' is required")
    steps = data.get("step", [])
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise ScenarioError(f"{path}: 'step' must be an array of tables")
    return data


async def run_scenario(data: Mapping[str, Any], where: str,
                       cards: Mapping[str, CardDefinition]) -> None:
    """Run one parsed scenario; raises ScenarioFailure or ScenarioError."""
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise ScenarioError(f"{where}: seed must be an integer")
    game, labels = build_game(data["setup"], seed, cards, where)
    steps = [dict(s) for s in data.get("step", [])]
    director = Director(game, steps, labels, where)
    n = len(game.state.players)
    policies = [ScriptedPolicy(director, seat) for seat in range(n)]
    configs = [SeatConfig(auto_pass=False, timeout=3600.0)] * n
    async with trio.open_nursery() as nursery:
        async def play() -> None:
            await play_game(game, policies, configs=configs)
            director.finished.set()
        nursery.start_soon(play)
        await director.finished.wait()
        nursery.cancel_scope.cancel()
    if director.failure:
        raise ScenarioFailure(director.failure)
    # The game ended (or the script ran out): the remaining steps.
    while (step := director.step) is not None:
        kind = director.step_kind(step)
        if kind in ("cast", "activate", "play", "pass", "concede"):
            if director.submitted is not None:
                director._check_action_outcome(director.submitted[0], step)
            elif game.state.game_over:
                raise ScenarioFailure(f"step {director.index + 1}: the game is over, so this "
                                      "action can't be taken")
        elif kind == "choose":
            director.queues.setdefault(director._seat(step["by"]), []).extend(step["choose"])
        if "expect" in step:
            check_expect(game, step["expect"], labels, f"{where} step {director.index + 1}")
        director.index += 1
        director.submitted = None
    left = {game.state.players[s].name: q for s, q in director.queues.items() if q}
    if left:
        raise ScenarioFailure(f"answers still queued at the end: {left}")


def run_scenario_file(path: Path, expected: Mapping[str, str] | None = None) -> ScenarioResult:
    """Run one scenario file and classify its outcome against the expected failures."""
    expected = expected or {}
    title = path.name
    try:
        data = _parse(path)
        title = data["title"]
        trio.run(run_scenario, data, str(path), load_cards())
        status, message = "PASS", ""
    except ScenarioFailure as err:
        status, message = "FAIL", str(err)
    except SpellstackError as err:  # a broken file, or an engine refusal outside the script
        status, message = "FAIL", str(err)
    waits = expected.get(path.name)
    if waits is not None:
        if status == "FAIL":
            return ScenarioResult(str(path), title, "XFAIL", waits)
        return ScenarioResult(str(path), title, "XPASS", waits)
    return ScenarioResult(str(path), title, status, message)


def load_expected_failures(folder: Path) -> dict[str, str]:
    """``expected_failures.toml`` in ``folder`` (file name -> what it waits for), if any."""
    path = folder / EXPECTED_FAILURES
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(f"{path}: {err}") from None
    if not all(isinstance(v, str) for v in data.values()):
        raise ScenarioError(f"{path}: each entry must be 'file name' = \"what it waits for\"")
    return dict(data)


def collect(paths: Iterable[Path]) -> list[Path]:
    """Scenario files named, or found below named folders, sorted within each folder."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*.toml") if f.name != EXPECTED_FAILURES))
        elif p.is_file():
            out.append(p)
        else:
            raise ScenarioError(f"{p}: no such file or folder")
    return out
