"""``spellstack scenario run PATH...``: run scenario files, one line each."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..scenarios import ScenarioError, collect, load_expected_failures, run_scenario_file

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("scenario", help="scenario files")
    inner = p.add_subparsers(dest="scenario_command", required=True)
    r = inner.add_parser("run", help="run scenario files or folders")
    r.add_argument("paths", nargs="+", type=Path, help="scenario files or folders")
    r.add_argument("--json", action="store_true", help="one JSON object per scenario")
    r.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        files = collect(args.paths)
    except ScenarioError as err:
        print(f"spellstack scenario run: {err}")
        return 2
    ok = True
    expected_by_dir: dict[Path, dict[str, str]] = {}
    for path in files:
        folder = path.parent
        if folder not in expected_by_dir:
            expected_by_dir[folder] = load_expected_failures(folder)
        result = run_scenario_file(path, expected_by_dir[folder])
        ok = ok and result.ok
        if args.json:
            print(json.dumps({"path": result.path, "title": result.title,
                              "status": result.status, "message": result.message}))
        else:
            print(result.line(), flush=True)
    return 0 if ok else 1
