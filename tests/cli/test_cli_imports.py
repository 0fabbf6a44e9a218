"""Starting the command line loads no library that only some commands use: scipy, numpy and
networkx (the SPRT, the rating list, Swiss pairings) and pytest (through ``trio.testing``)
take about half a second to import, which ``spellstack --help`` or a game would pay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scipy", "numpy", "networkx", "pytest")


def _loaded(imports: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has loaded after running ``imports``."""
    code = f"import sys; {imports}; print(' '.join(m for m in {modules!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    return done.stdout.split()


def test_the_command_line_starts_without_the_heavy_libraries() -> None:
    assert _loaded("import spellstack.cli, spellstack.server", HEAVY) == []


WRITERS = ("structlog", "rich", "pygments", "jinja2")
"""What only writing a trace (structlog, which brings rich and pygments) or a trace's page
(jinja2) needs: about 10 MB resident, which every game-playing process would carry."""


def test_the_command_line_and_the_actors_load_no_trace_writer_until_one_is_written() -> None:
    assert _loaded("import spellstack.cli, spellstack.actors, spellstack.trace", WRITERS) == []


SERVING = ("trio_websocket", "spellstack.server._server", "spellstack.chat._game_host")
"""What only serving games or hosting chat games needs: the WebSocket library and the asyncio
host (about 4 MB resident with their imports)."""


def test_the_command_line_loads_no_server_until_a_command_serves() -> None:
    assert _loaded("import spellstack.cli, spellstack.server, spellstack.chat; "
                   "from spellstack.server import DEFAULT_PORT", SERVING) == []
