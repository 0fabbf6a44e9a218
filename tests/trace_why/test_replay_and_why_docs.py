"""docs/replay-and-why.md, docs/trace-format.md and docs/records.md show what their commands
print: every ```console block's commands are run in order, as a reader would run them from the
repository's root, and the page must hold exactly their output (``regenerate`` writes it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = {ROOT / "docs" / "replay-and-why.md": 5, ROOT / "docs" / "trace-format.md": 1,
         ROOT / "docs" / "records.md": 8}
"""Each page, and how many console blocks it has at least."""
_PRELUDE = 'spellstack() { "$PY" -m spellstack "$@"; }\npython() { "$PY" "$@"; }\n'
"""``spellstack`` and ``python`` as installed, for the commands run here."""
_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)


def _run(command: str, folder: Path) -> str:
    done = subprocess.run(["bash", "-c", _PRELUDE + command], cwd=folder, capture_output=True,
                          text=True, timeout=300, check=False,
                          env={**os.environ, "PY": sys.executable,
                               "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))),
                               # ``python3`` as the reader's installed one (a bot's command names it)
                               "PATH": os.pathsep.join((str(Path(sys.executable).parent),
                                                        os.environ.get("PATH", "")))})
    return done.stdout + done.stderr


def regenerate(text: str) -> str:
    """The page with each command's output as running it prints it now."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "examples").symlink_to(ROOT / "examples")

        def block(match: re.Match[str]) -> str:
            commands = [line[2:] for line in match.group(1).splitlines() if line.startswith("$ ")]
            body = "".join(f"$ {c}\n{_run(c, folder)}" for c in commands)
            return f"```console\n{body}```"

        return _BLOCK.sub(block, text)


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted(PAGES), ids=lambda p: p.name)
def test_the_page_shows_what_its_commands_print(page: Path) -> None:
    text = page.read_text("utf-8")
    assert len(_BLOCK.findall(text)) >= PAGES[page]
    assert regenerate(text) == text


if __name__ == "__main__":  # python tests/trace_why/test_replay_and_why_docs.py: rewrite the pages
    for page in PAGES:
        page.write_text(regenerate(page.read_text("utf-8")), "utf-8")
