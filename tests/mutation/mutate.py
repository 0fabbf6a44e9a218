"""The mutation check: plant each of a list of known rules bugs in turn, in a scratch copy of the
checkout, run the rules and scenario tests against it, and report which tests catch it.

    python tests/mutation/mutate.py                 # every mutant, two at a time
    python tests/mutation/mutate.py --list          # the mutants, planting nothing
    python tests/mutation/mutate.py world-tie apnap # only these
    python tests/mutation/mutate.py --hashes        # also run the recorded-hash tests

A mutant is an exact text replacement in one source file. Its anchor (the text replaced) must
occur exactly once in that file, or the check stops with an error: a mutant can never silently
plant nothing. ``test_mutants.py`` beside this file checks every anchor against the current
source, so that a change to the kernel that moves an anchor is noticed at once.

The tests run are ``tests/rules`` and ``tests/scenarios``: tests of rules. The tests that
compare games with recorded state hashes (``tests/cli/test_bench_games.py``) run only with
``--hashes``, in a column of their own, so that a mutant caught only by a hash is told apart
from one a rules test catches. Before the mutants, the same tests run once on an unchanged copy
and must all pass. The exit status is 1 if a mutant is caught by no rules or scenario test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE_TESTS = ("tests/rules", "tests/scenarios")
"""The tests of rules every mutant is run against."""
HASH_TESTS = ("tests/cli/test_bench_games.py",)
"""Tests that compare games with recorded state hashes (``--hashes`` only)."""
IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "*.pyc",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "*.egg-info",
    "build",
    "dist",
)
"""What the scratch copy leaves out."""


@dataclass(frozen=True)
class Mutant:
    """One planted bug: ``old`` replaced by ``new`` in the file at ``path``."""

    name: str
    rule: str
    what: str
    path: str
    old: str
    new: str


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "lethal-damage",
        "704.5g",
        "lethal damage `>=` becomes `>`",
        "src/spellstack/rules/sba/_sba.py",
        "> 0 and o.damage >= t\n",
        "> 0 and o.damage > t\n",
    ),
    Mutant(
        "toughness-zero",
        "704.5f",
        "toughness `<= 0` becomes `< 0`",
        "src/spellstack/rules/sba/_sba.py",
        "if (c.toughness or 0) <= 0:",
        "if (c.toughness or 0) < 0:",
    ),
    Mutant(
        "legend-controller",
        "704.5j",
        "the legend rule ignores the controller",
        "src/spellstack/rules/sba/_sba.py",
        "if game.controller(obj) == seat:",
        "if True:",
    ),
    Mutant(
        "recheck-skipped",
        "608.2b",
        "targets are not checked again on resolution",
        "src/spellstack/rules/resolution/_resolution.py",
        "still = tuple(t for t in group if is_legal_target(",
        "still = tuple(t for t in group if True or is_legal_target(",
    ),
    Mutant(
        "timestamps-reversed",
        "613.7",
        "layer effects applied newest first",
        "src/spellstack/rules/layers/_engine.py",
        "pending.sort(key=lambda e: e.order)",
        "pending.sort(key=lambda e: e.order, reverse=True)",
    ),
    Mutant(
        "protection-damage",
        "702.16e",
        "protection no longer prevents damage",
        "src/spellstack/rules/zones/_zones.py",
        "if protected_from(game, victim, source):\n            # 702.16e",
        "if False and protected_from(game, victim, source):\n            # 702.16e",
    ),
    Mutant(
        "apnap",
        "603.3b",
        "simultaneous triggers put on the stack in reverse APNAP order",
        "src/spellstack/rules/triggers/_triggers.py",
        "for seat in st.apnap():\n        mine = [t for t in waiting if t.controller == seat]",
        "for seat in reversed(st.apnap()):\n        mine = [t for t in waiting if t.controller == seat]",
    ),
    Mutant(
        "pool-generic",
        "601.2h",
        "pool mana spent on a coloured symbol pays generic again",
        "src/spellstack/rules/mana/_payment.py",
        "take = min(self._pool[t] - use[t], generic)",
        "take = min(self._pool[t], generic)",
    ),
    Mutant(
        "world-tie",
        "704.5k",
        "the world rule's tie `> 1` becomes `> 2`",
        "src/spellstack/rules/sba/_sba.py",
        "o.timestamp != newest or tied > 1]",
        "o.timestamp != newest or tied > 2]",
    ),
    Mutant(
        "loyalty-zero",
        "704.5i",
        "0 loyalty `<= 0` becomes `< 0`",
        "src/spellstack/rules/sba/_sba.py",
        'counters.get("loyalty", 0) <= 0]',
        'counters.get("loyalty", 0) < 0]',
    ),
)


class AnchorError(Exception):
    """A mutant's anchor does not occur exactly once in its file."""


def plant(source: str, mutant: Mutant) -> str:
    """``source`` with ``mutant`` planted; the anchor must occur exactly once."""
    count = source.count(mutant.old)
    if count != 1:
        raise AnchorError(f"{mutant.name}: the anchor {mutant.old!r} occurs {count} times in {mutant.path}, not once")
    return source.replace(mutant.old, mutant.new)


def plant_in(root: Path, mutant: Mutant) -> None:
    """Plant ``mutant`` in the checkout at ``root``."""
    path = root / mutant.path
    path.write_text(plant(path.read_text("utf-8"), mutant), "utf-8")


@dataclass
class Outcome:
    """What one run of the tests found."""

    mutant: Mutant | None
    failed: list[str] = field(default_factory=list)
    hash_failed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""


def _copy(into: Path) -> Path:
    copy = into / "checkout"
    shutil.copytree(ROOT, copy, ignore=IGNORED)
    return copy


def _pytest(copy: Path, tests: Sequence[str], report: Path, timeout: float) -> list[str]:
    """Run ``tests`` in ``copy``; the ids of the tests that failed or errored."""
    env = {**os.environ, "PYTHONPATH": str(copy / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    where = subprocess.run(
        [sys.executable, "-c", "import spellstack; print(spellstack.__file__)"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    if not Path(where.stdout.strip()).is_relative_to(copy):
        raise RuntimeError(
            f"the tests would import spellstack from {where.stdout.strip()}, not from the scratch copy {copy}"
        )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-o",
            "addopts=",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            f"--junitxml={report}",
            *tests,
        ],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if not report.is_file():
        raise RuntimeError(f"pytest wrote no report for {' '.join(tests)}")
    failed = []
    for case in ET.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            name = case.get("name", "?")
            failed.append(f"{case.get('classname', '?')}::{name}")
    return sorted(set(failed))


def run_one(mutant: Mutant | None, hashes: bool, timeout: float) -> Outcome:
    """Plant ``mutant`` (None: nothing) in a fresh copy and run the tests."""
    start = time.monotonic()
    outcome = Outcome(mutant)
    with tempfile.TemporaryDirectory(prefix="spellstack-mutant-") as scratch:
        try:
            copy = _copy(Path(scratch))
            if mutant is not None:
                plant_in(copy, mutant)
            outcome.failed = _pytest(copy, RULE_TESTS, Path(scratch) / "rules.xml", timeout)
            if hashes:
                outcome.hash_failed = _pytest(copy, HASH_TESTS, Path(scratch) / "hashes.xml", timeout)
        except (AnchorError, RuntimeError, subprocess.SubprocessError, OSError) as err:
            outcome.error = f"{type(err).__name__}: {err}"
    outcome.seconds = time.monotonic() - start
    return outcome


def _short(test_id: str) -> str:
    """``tests.rules.test_x::test_y`` -> ``test_x::test_y``; a scenario -> its file stem."""
    module, _, name = test_id.partition("::")
    if module.endswith(".toml"):
        return name
    return f"{module.rsplit('.', 1)[-1]}::{name}"


def table(outcomes: Sequence[Outcome], hashes: bool) -> str:
    """The outcomes as a Markdown table."""
    head = "| mutant | rule | caught by rules and scenario tests |"
    rule = "|---|---|---|"
    if hashes:
        head += " recorded hashes |"
        rule += "---|"
    lines = [head, rule]
    for o in outcomes:
        assert o.mutant is not None
        if o.error:
            caught = f"ERROR: {o.error}"
        elif o.failed:
            caught = f"{len(o.failed)}: " + ", ".join(f"`{_short(t)}`" for t in o.failed)
        else:
            caught = "**not caught**"
        row = f"| {o.mutant.what} | {o.mutant.rule} | {caught} |"
        if hashes:
            n = len(o.hash_failed)
            row += (
                " none differ |"
                if not n
                else " 1 recorded game differs |"
                if n == 1
                else f" {n} recorded games differ |"
            )
        lines.append(row)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to plant (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--hashes", action="store_true", help="also run the tests that compare recorded state hashes")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds one pytest run may take (default 1800)")
    args = parser.parse_args(argv)
    by_name = {m.name: m for m in MUTANTS}
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:20} {m.rule:8} {m.what}  ({m.path})")
        return 0
    unknown = [n for n in args.names if n not in by_name]
    if unknown:
        parser.error(f"unknown mutant {unknown[0]!r}; --list lists them")
    chosen = [by_name[n] for n in args.names] or list(MUTANTS)
    for m in chosen:  # every anchor, before anything runs
        plant((ROOT / m.path).read_text("utf-8"), m)
    start = time.monotonic()
    print(f"unchanged copy: running {' '.join(RULE_TESTS)} ...", file=sys.stderr, flush=True)
    base = run_one(None, args.hashes, args.timeout)
    if base.error or base.failed or base.hash_failed:
        print(f"the unchanged copy does not pass: {base.error or base.failed + base.hash_failed}", file=sys.stderr)
        return 2
    print(f"  passes ({base.seconds:.0f} s)", file=sys.stderr, flush=True)

    def one(m: Mutant) -> Outcome:
        o = run_one(m, args.hashes, args.timeout)
        verdict = o.error or (f"caught by {len(o.failed)}" if o.failed else "NOT CAUGHT")
        print(f"  {m.name}: {verdict} ({o.seconds:.0f} s)", file=sys.stderr, flush=True)
        return o

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(one, chosen))
    print(table(outcomes, args.hashes))
    print(f"\n{len(chosen)} mutants in {time.monotonic() - start:.0f} s")
    return 0 if all(o.failed and not o.error for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
