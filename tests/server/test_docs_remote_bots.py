"""docs/remote-bots.md runs as written: its example bot's command, and its walk-through's
Python blocks put together, against a server on the loopback address (the page's port
replaced by the one the system picked), print what the page shows; `spellstack serve` prints
the line the page shows, and Ctrl-C stops it cleanly."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from tests.server._clients import loopback, running_server

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "remote-bots.md"
PAGE_URL = "ws://127.0.0.1:8765"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text("utf-8"), re.S)


async def _python(args: list[str], cwd: Path = ROOT) -> str:
    done = await trio.run_process([sys.executable, *args], capture_stdout=True, capture_stderr=True, cwd=cwd)
    return str(done.stdout.decode("utf-8"))


async def test_the_example_bot_prints_what_the_page_shows() -> None:
    [command] = [b for b in _blocks("sh") if "remote_bot.py" in b]
    args = shlex.split(command)
    assert args[:2] == ["python3", "examples/remote_bot.py"] and args[2] == PAGE_URL
    async with running_server(loopback()) as server:
        out = await _python([args[1], f"ws://127.0.0.1:{server.port}", *args[3:]])
    assert out == _blocks("text")[0]


async def test_the_walk_through_plays_a_game_and_prints_what_the_page_shows(tmp_path: Path) -> None:
    script = "\n".join(_blocks("python"))
    assert script.count(PAGE_URL) == 1
    async with running_server(loopback()) as server:
        (tmp_path / "walk.py").write_text(script.replace(PAGE_URL, f"ws://127.0.0.1:{server.port}"), "utf-8")
        out = await _python([str(tmp_path / "walk.py")])
    assert out == "".join(_blocks("text")[1:])


@pytest.mark.slow
def test_serve_prints_where_it_listens_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    [listening] = re.findall(r"prints `(spellstack serve: listening on [^`]*)`", DOC.read_text("utf-8"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), os.environ.get("PYTHONPATH", "")))}
    traces = tmp_path / "traces"  # made by serve
    with subprocess.Popen([sys.executable, "-m", "spellstack", "serve", "--port", "0", "--trace-dir", str(traces)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path) as serve:
        try:  # a failed check kills serve: leaving the block waits for it
            assert serve.stdout is not None and serve.stderr is not None
            line = serve.stdout.readline().rstrip("\n")
            port = int(re.findall(r"127\.0\.0\.1:(\d+)", line)[0])
            assert line == listening.replace("8765", str(port))
            played = subprocess.run([sys.executable, str(ROOT / "examples" / "remote_bot.py"),
                                     f"ws://127.0.0.1:{port}", "--seed", "1"],
                                    capture_output=True, text=True, timeout=30, check=True)
            assert played.stdout == _blocks("text")[0]
            serve.send_signal(signal.SIGINT)
            log = serve.communicate(timeout=30)[1]  # reads stderr as it comes: a full pipe can't block serve
            assert serve.returncode == 0, log
        finally:
            if serve.poll() is None:
                serve.kill()
    assert log.endswith("spellstack serve: stopped\n")
    assert "over on turn" in log
    [trace] = traces.glob("g*.jsonl")
    assert '"event":"result"' in trace.read_text("utf-8")


async def test_the_example_bot_says_in_one_line_when_it_cannot_connect() -> None:
    with trio.socket.socket() as sock:  # a port nothing listens on: bound, never listening
        await sock.bind(("127.0.0.1", 0))
        url = f"ws://127.0.0.1:{sock.getsockname()[1]}"
        done = await trio.run_process([sys.executable, "examples/remote_bot.py", url], cwd=ROOT,
                                      capture_stdout=True, capture_stderr=True, check=False)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1 and done.stdout == b""
    assert err.startswith(f"remote bot: can't connect to {url}: ") and err.count("\n") == 1, err
