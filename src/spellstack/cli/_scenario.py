"""``spellstack scenario run PATH...``: run scenario files, one line each, then a summary."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..scenarios import (
    ScenarioResult,
    collect,
    load_expected_failures,
    read_expected_failures,
    run_scenario_file,
    summary,
)

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("scenario", help="scenario files",
                       description="Scenario files: games set up, played and checked as a TOML "
                                   "file says (see docs/scenarios.md).")
    inner = p.add_subparsers(dest="scenario_command", required=True)
    r = inner.add_parser("run", help="run scenario files or folders",
                         description="Play each scenario file (each .toml file below a folder) "
                                     "through the real actors and protocol and print PASS or "
                                     "FAIL with the first expectation that did not hold, then a "
                                     "summary. Exit 0 if every scenario passed or failed as "
                                     "expected, 1 if not, 2 for bad paths.")
    r.add_argument("paths", nargs="+", type=Path, help="scenario files or folders")
    r.add_argument("--json", action="store_true",
                   help="one JSON object per scenario on stdout (the summary goes to stderr)")
    r.add_argument("--expected-failures", type=Path, metavar="FILE",
                   help="the expected failures of every file run (TOML: \"file name\" = \"what "
                        "it waits for\"), instead of each folder's expected_failures.toml")
    r.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit 0 if every scenario passed or failed as expected, 1 if not, 2 for bad paths (a
    missing path, a file that is not .toml, a folder with no scenario files, an expected
    failures file that is missing or broken)."""
    files = collect(args.paths)  # ScenarioError: reported by main, exit 2
    given = None if args.expected_failures is None else read_expected_failures(
        args.expected_failures)
    results: list[ScenarioResult] = []
    expected_by_dir: dict[Path, dict[str, str]] = {}
    for path in files:
        folder = path.parent
        if given is not None:
            expected = given
        else:
            if folder not in expected_by_dir:
                expected_by_dir[folder] = load_expected_failures(folder)
            expected = expected_by_dir[folder]
        result = run_scenario_file(path, expected)
        results.append(result)
        print(json.dumps(result.record()) if args.json else result.line(), flush=True)
    # With --json, stdout stays one JSON object per scenario; the summary goes to stderr.
    print(summary(results), file=sys.stderr if args.json else sys.stdout)
    return 0 if all(r.ok for r in results) else 1
