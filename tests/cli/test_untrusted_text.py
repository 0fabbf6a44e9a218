"""Untrusted text never reaches the terminal raw: every source of text nobody here wrote (a
stdio bot's ``Forfeit`` reason, its last stderr line, a deck file's name, a trace's result
reason, a bot exception's text) against every printer (tournament progress, standings and
forfeit lines, ``trace show``, ``trace stats``, ``trace why``, ``replay``, ``spellstack chat``
and error lines). Run as a user runs them, in real processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\x7f\nspellstack tournament: FORGED"
"""What every source says: a window title, a screen clear, a C1 CSI, DEL, and a forged line."""
FORGED = "spellstack tournament: FORGED"
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""Any C0 or C1 control character or DEL but the newline (which ends each line)."""
LIMIT = 120.0
"""Generous seconds for one command (each takes about one)."""


def _run(*args: str, cwd: Path, stdin: str = "") -> str:
    done = subprocess.run([sys.executable, "-m", "spellstack", *args], cwd=cwd, text=True,
                          input=stdin, capture_output=True, timeout=LIMIT, check=False,
                          env={"PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))), "PATH": "/usr/bin:/bin"},
                          encoding="utf-8", errors="surrogateescape")
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout + done.stderr


def _assert_clean(what: str, output: str) -> None:
    found = CONTROL.search(output)
    assert found is None, f"{what}: control character {found.group()!r} in {output!r}"
    forged = [line for line in output.split("\n") if line.startswith(FORGED)]
    assert not forged, f"{what}: forged line {forged}"


def _evil_deck(folder: Path) -> Path:
    deck = folder / "evil.toml"
    deck.write_text(f'name = {json.dumps(EVIL)}\n[cards]\nMountain = 20\n"Grizzly Bears" = 20\n',
                    encoding="utf-8")
    return deck


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A tournament whose entrants bring every source: (its folder, all it printed)."""
    folder = tmp_path_factory.mktemp("untrusted")
    _evil_deck(folder)
    stdio = f"stdio:{sys.executable} {HERE / 'untrusted_bot.py'}"
    out = _run("tournament", "--entrant", f"f={stdio} forfeit@gruul",
               "--entrant", f"s={stdio} stderr@gruul",
               "--entrant", f"x={HERE / 'untrusted_class_bot.py'}:Raiser@gruul",
               "--entrant", "d=random@evil.toml", "--trust", "--best-of", "1", "--db", "r.db",
               "--trace-dir", "traces", cwd=folder)
    # The trace of a game lost by forfeit, its result reason rewritten raw (a hostile trace).
    lines = (folder / "traces" / "r1-m1-g1.jsonl").read_text("utf-8").splitlines()
    result = json.loads(lines[-1])
    result["reason"] = EVIL
    (folder / "evil-result.jsonl").write_text("\n".join([*lines[:-1], json.dumps(result)]) + "\n",
                                              encoding="utf-8")
    return folder, out


@pytest.mark.slow
def test_the_tournament_prints_every_source_escaped(played: tuple[Path, str]) -> None:
    _, out = played
    _assert_clean("tournament", out)
    # Each source did reach the output, escaped: the test sees what it means to.
    assert out.count("\\x1b]0;pwned\\x07") >= 3, out
    for name in ("f forfeited", "s forfeited", "x forfeited"):
        assert name in out


def test_what_is_recorded_is_clean(played: tuple[Path, str]) -> None:
    folder, _ = played
    import sqlite3

    with sqlite3.connect(folder / "r.db") as conn:
        reasons = [r for (r,) in conn.execute("SELECT reason FROM games")]
    assert any("forfeited" in r for r in reasons)
    for reason in reasons:
        assert CONTROL.search(reason) is None and "\n" not in reason, reason


TRACES = ["r1-m1-g1", "r1-m2-g1", "r2-m1-g1", "r2-m2-g1", "r3-m1-g1", "r3-m2-g1", "evil-result"]


@pytest.mark.slow  # 42 processes
@pytest.mark.parametrize("command", [
    ("trace", "show", "{}"),
    ("trace", "show", "--view", "1", "{}"),
    ("trace", "stats", "{}"),
    ("trace", "why", "--seq", "5", "{}"),
    ("trace", "why", "--object", EVIL, "{}"),
    ("replay", "{}"),
], ids=["show", "show-view", "stats", "why", "why-object", "replay"])
def test_the_trace_printers_escape_every_source(played: tuple[Path, str],
                                                command: tuple[str, ...]) -> None:
    folder, _ = played
    for name in TRACES:
        path = folder / (f"traces/{name}.jsonl" if name != "evil-result" else f"{name}.jsonl")
        out = _run(*(str(path) if part == "{}" else part for part in command), cwd=folder)
        _assert_clean(f"{command} {name}", out)


@pytest.mark.slow
def test_the_trace_result_reason_reaches_show_and_stats_escaped(played: tuple[Path, str]) -> None:
    folder, _ = played
    for tool in ("show", "stats"):
        out = _run("trace", tool, str(folder / "evil-result.jsonl"), cwd=folder)
        _assert_clean(tool, out)
        assert "\\x1b]0;pwned" in out, (tool, out)


@pytest.mark.slow
def test_chat_prints_a_deck_name_escaped(tmp_path: Path) -> None:
    _evil_deck(tmp_path)
    out = _run("chat", "--deck", "evil.toml", "--deck", "gruul", cwd=tmp_path, stdin="hand\nconcede\n")
    _assert_clean("chat", out)


@pytest.mark.parametrize("args", [
    ("play", "--deck", EVIL, "--deck", "gruul"),
    ("chat", "--name", EVIL),
    ("tournament", "--entrant", f"{EVIL}=random@gruul"),
    ("tournament", "--entrant", f"random@{EVIL}"),
    ("scenario", "run", EVIL),
    ("trace", "show", EVIL),
], ids=["play-deck", "chat-name", "entrant-name", "entrant-deck", "scenario", "trace"])
@pytest.mark.slow
def test_error_lines_escape_what_they_quote(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = _run(*args, cwd=tmp_path)
    _assert_clean(" ".join(args[:2]), out)
    assert out.count("\n") >= 1 and out.splitlines()[-1].startswith("spellstack"), out


@pytest.mark.slow
def test_a_deck_name_that_fails_the_name_check_is_refused_without_name(tmp_path: Path) -> None:
    _evil_deck(tmp_path)
    done = subprocess.run([sys.executable, "-m", "spellstack", "tournament", "--entrant",
                           "random@evil.toml", "--entrant", "random@gruul", "--db", "r.db"],
                          cwd=tmp_path, text=True, capture_output=True, timeout=LIMIT,
                          env={"PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))),
                               "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "from the deck's name" in done.stderr and "NAME=" in done.stderr
    _assert_clean("refusal", done.stderr)
    # With a NAME the same deck is welcome: only the name made from it was refused.
    named = _run("tournament", "--entrant", "evil=random@evil.toml", "--entrant", "random@gruul",
                 "--best-of", "1", "--db", "s.db", cwd=tmp_path)
    _assert_clean("named", named)
    assert "evil" in named
