"""Starting the command line loads no library that only some commands use: scipy, numpy and
networkx (the SPRT, the rating list, Swiss pairings) and pytest (through ``trio.testing``)
take about half a second to import, which ``spellstack --help`` or a game would pay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scipy", "numpy", "networkx", "pytest")


def test_the_command_line_starts_without_the_heavy_libraries() -> None:
    code = ("import sys; import spellstack.cli, spellstack.server; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    assert done.stdout == "\n", done.stdout
