"""Running scenario files through the real actors and protocol (scenario format 1)."""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from .._files import FileRefused, read_regular_file
from .._printable import short_value
from ..actors import ENGINE_ERROR, GameResult, SeatConfig, play_game
from ..cards import checking, load_cards, parse_toml
from ..rules import CardDefinition
from ..schema import SchemaError, from_plain
from ._director import ACTION_KEYS, STEP_KINDS, Director, ScriptedPolicy
from ._errors import ScenarioError, ScenarioFailure
from ._expect import check_expect
from ._format import ScenarioFile, StepTable
from ._setup import build_game

__all__ = [
    "EXPECTED_FAILURES",
    "ScenarioResult",
    "collect",
    "load_expected_failures",
    "read_expected_failures",
    "run_scenario",
    "run_scenario_file",
    "summary",
]

EXPECTED_FAILURES = "expected_failures.toml"
_CAST_KEYS = {"from", "face", "modes", "x", "targets", "divide", "costs", "pay_as", "pay"}
_STEP_KEYS: dict[str, set[str]] = {
    "cast": {"by", "rejected", "reason", *_CAST_KEYS},
    "activate": {"by", "rejected", "reason", "ability", *_CAST_KEYS},
    "play": {"by", "rejected", "reason"},
    "pass": {"by", "rejected", "reason"},
    "concede": {"by", "rejected", "reason"},
    "turn_face_up": {"by", "rejected", "reason", "pay", "pay_as"},
    "resolve": set(),
    "advance": {"turn"},
    "attack": {"rejected", "reason"},
    "block": {"rejected", "reason"},
    "choose": {"by"},
    "expect": set(),
}
"""For each kind of step, the keys it may carry besides its own and ``expect``."""


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """The outcome of one scenario."""

    path: str
    """The file."""
    title: str
    """Its title (the file itself, ``path``, if it has none)."""
    status: str
    """``PASS``, ``FAIL``, ``XFAIL`` (failed as expected), ``XPASS`` (passed, but listed as an
    expected failure) or ``ERROR`` (the runner crashed, listed or not)."""
    message: str = ""
    """The first failed expectation, or the crash (exception, text and where it was raised)."""
    waits: str = ""
    """For a file listed in ``expected_failures.toml``: what it waits for."""
    detail: str = ""
    """For a crash: the traceback."""

    @property
    def ok(self) -> bool:
        """Whether this outcome lets the run succeed."""
        return self.status in ("PASS", "XFAIL")

    def line(self) -> str:
        """The one-line report of the scenario format (a crash is a ``FAIL`` line)."""
        if self.status == "PASS":
            return f"PASS {self.title}"
        if self.status == "XFAIL":
            return f"XFAIL {self.title} (waits for: {self.waits}; fails: {self.message})"
        if self.status == "XPASS":
            return f"FAIL {self.title}: passed, but it is listed as an expected failure " \
                   f"(waits for: {self.waits})"
        if self.status == "ERROR":
            return f"FAIL {self.title}: crash in the scenario runner: {self.message}"
        return f"FAIL {self.title}: {self.message}"

    def record(self) -> dict[str, str]:
        """The ``--json`` object."""
        out = {"path": self.path, "title": self.title, "status": self.status,
               "message": self.message}
        if self.waits:
            out["waits"] = self.waits
        return out


def summary(results: Sequence[ScenarioResult]) -> str:
    """``N passed, N failed, N xfailed``; failures include crashes and unexpected passes."""
    count = {s: sum(r.status == s for r in results) for s in ("PASS", "XFAIL", "ERROR")}
    failed = len(results) - count["PASS"] - count["XFAIL"]
    line = f"{count['PASS']} passed, {failed} failed, {count['XFAIL']} xfailed"
    if count["ERROR"]:
        line += f" ({count['ERROR']} of the failures crashed the runner)"
    return line


def _read(path: Path) -> dict[str, Any]:
    """The file's TOML, not yet checked as a scenario."""
    return parse_toml(_text(path), str(path), ScenarioError)


def _text(path: Path) -> str:
    """The file's text; ScenarioError naming the file if it is not a regular file, is over
    ``MAX_INPUT_FILE``, can't be read or is not UTF-8."""
    try:
        return read_regular_file(path).decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScenarioError(f"{short_value(str(path))}: not UTF-8 text (byte {err.start} is "
                            "not)") from None
    except FileRefused as err:
        raise ScenarioError(f"{short_value(str(path))}: can't read it: {err}") from None


def _check_scenario(data: Mapping[str, Any], where: str) -> list[dict[str, Any]]:
    """The top level, and every step (before the game starts): the steps, each with its
    ``expect`` read."""
    try:
        scenario = from_plain(ScenarioFile, data)
    except SchemaError as err:
        raise ScenarioError(f"{where}: {err}") from None
    return [_check_step(step, f"{where}: step {i + 1}") for i, step in enumerate(scenario.step)]


def _check_step(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """One ``[[step]]``: one kind, only keys of that kind, values of the right types; the step
    with its ``expect`` read."""
    try:
        step = from_plain(StepTable, raw)
    except SchemaError as err:
        raise ScenarioError(f"{where}: {err}") from None
    kinds = [k for k in STEP_KINDS if k in raw]
    if len(kinds) > 1:
        raise ScenarioError(f"{where}: a step is one of {', '.join(STEP_KINDS)} (with an "
                            f"optional expect), not both {kinds[0]!r} and {kinds[1]!r}")
    kind = kinds[0] if kinds else "expect"
    allowed = {kind, "expect", *_STEP_KEYS[kind]}
    for key in raw:
        if key not in allowed:
            raise ScenarioError(f"{where}: unknown key {key!r} in a {kind!r} step")
    if kind == "choose" and step.by is None:
        raise ScenarioError(f"{where}: a choose step needs 'by' (whose answers they are)")
    return dict(raw) if step.expect is None else {**raw, "expect": step.expect}


async def run_scenario(data: Mapping[str, Any], where: str,
                       cards: Mapping[str, CardDefinition]) -> None:
    """Run one parsed scenario; raises ScenarioFailure or ScenarioError."""
    steps = _check_scenario(data, where)
    game, labels = build_game(data["setup"], data.get("seed", 0), cards, where)
    director = Director(game, steps, labels, where)
    n = len(game.state.players)
    policies = [ScriptedPolicy(director, seat) for seat in range(n)]
    configs = [SeatConfig(auto_pass=False, timeout=3600.0)] * n
    ended: list[GameResult] = []
    async with trio.open_nursery() as nursery:
        async def play() -> None:
            ended.append(await play_game(game, policies, configs=configs))
            director.finished.set()
        nursery.start_soon(play)
        await director.finished.wait()
        nursery.cancel_scope.cancel()
    if director.crash is not None:
        raise director.crash
    if ended and ended[0].reason.startswith(ENGINE_ERROR):
        # An actor crashed and the game was stopped: a crash, however the script goes on.
        raise ended[0].error or RuntimeError(f"the game ended with {ended[0].reason!r}")
    if director.failure:
        raise ScenarioFailure(director.failure)
    # The game ended (or the script ran out): the remaining steps.
    while (step := director.step) is not None:
        kind = director.step_kind(step)
        if kind in ACTION_KEYS:
            if director.submitted is not None:
                director._check_action_outcome(director.submitted[0], step)
            elif game.state.game_over:
                raise ScenarioFailure(f"step {director.index + 1}: the game is over, so this "
                                      "action can't be taken")
        elif kind == "choose":
            director.queue_answers(step)
        if "expect" in step:
            check_expect(game, step["expect"], labels, f"{where} step {director.index + 1}")
        director.index += 1
        director.submitted = None
    left = {game.state.players[s].name: q for s, q in director.queues.items() if q}
    if left:
        raise ScenarioFailure(f"answers still queued at the end: {left}")


def run_scenario_file(path: Path, expected: Mapping[str, str] | None = None,
                      cards: Mapping[str, CardDefinition] | None = None) -> ScenarioResult:
    """Run one scenario file and classify its outcome against the expected failures.

    ``cards``: the card pool (default: the engine's).

    A failed expectation, a broken file or a missing engine feature is a ``FAIL`` (``XFAIL``
    if the file is listed); any other exception is a crash of the runner or the engine:
    ``ERROR``, listed or not.
    """
    expected = expected or {}
    title = ""
    detail = ""
    try:
        data = _read(path)
        if isinstance(data.get("title"), str):
            title = data["title"]  # kept even if a later part of the file is broken
        with checking(str(path), ScenarioError):
            _check_scenario(data, str(path))
        trio.run(run_scenario, data, str(path), load_cards() if cards is None else cards)
        status, message = "PASS", ""
    except (ScenarioFailure, ScenarioError) as err:
        status, message = "FAIL", str(err)
        if not title:  # the file stands in for the title: name it once
            message = message.removeprefix(f"{path}: ")
    except Exception as err:  # every other exception is a crash
        status, message, detail = "ERROR", _describe_crash(err), "".join(
            traceback.format_exception(err))
    listed = path.name in expected
    waits = expected.get(path.name, "")
    if listed and status == "FAIL":
        status = "XFAIL"
    elif listed and status == "PASS":
        status = "XPASS"
    return ScenarioResult(str(path), title or str(path), status, message, waits, detail)


def _describe_crash(err: BaseException) -> str:
    """``KeyError: 'x' (at file.py:12 in f)``, for the innermost exception raised."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    frames = traceback.extract_tb(err.__traceback__)
    at = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})" \
        if frames else ""
    return f"{type(err).__name__}: {err}{at}"


def load_expected_failures(folder: Path) -> dict[str, str]:
    """``expected_failures.toml`` in ``folder`` (file name -> what it waits for), if any."""
    path = folder / EXPECTED_FAILURES
    if not path.is_file():
        return {}
    return read_expected_failures(path)


def read_expected_failures(path: Path) -> dict[str, str]:
    """An expected failures file (``"file name" = "what it waits for"``); ScenarioError names
    the file if it is missing or is not such a table."""
    if path.is_dir():
        raise ScenarioError(f"{path}: a folder, not an expected failures file")
    if not path.is_file():
        raise ScenarioError(f"{path}: no such expected failures file")
    data = parse_toml(_text(path), str(path), ScenarioError)
    if not all(isinstance(v, str) for v in data.values()):
        raise ScenarioError(f"{path}: each entry must be 'file name' = \"what it waits for\"")
    return dict(data)


def collect(paths: Iterable[Path]) -> list[Path]:
    """Scenario files named, or found below named folders, sorted within each folder.

    Raises ScenarioError for a path that does not exist, a file that is not a ``.toml`` file,
    and a folder with no scenario files below it.
    """
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(f for f in p.rglob("*.toml")
                           if f.name != EXPECTED_FAILURES and f.is_file())
            if not found:
                raise ScenarioError(f"{p}: no scenario files (*.toml) in this folder")
            out.extend(found)
        elif p.is_file():
            if p.suffix != ".toml":
                raise ScenarioError(f"{short_value(str(p))}: not a scenario file (scenario files "
                                    "are .toml files)")
            out.append(p)
        elif p.exists():
            # A FIFO or a device: never opened (a FIFO would block the run).
            raise ScenarioError(f"{short_value(str(p))}: not a regular file")
        else:
            raise ScenarioError(f"{short_value(str(p))}: no such file or folder")
    return out
