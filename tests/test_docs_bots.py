"""docs/bots.md's example runs as written: its bot plays whole games against RandomBot without a
refused reply or a forfeit, and the run shown prints what the page says it prints; the
README's Python example runs too."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from spellstack import DECKS, RandomBot, play_one_game
from spellstack.cli import main
from spellstack.protocol import Message, Rejected

PAGE = Path(__file__).resolve().parents[1] / "docs" / "bots.md"


def python_blocks(text: str) -> list[str]:
    """The page's ```python blocks, in order, exactly as written."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def _run(source: str) -> tuple[dict[str, Any], str]:
    """Run ``source`` as a module; its namespace and what it printed."""
    namespace: dict[str, Any] = {"__name__": "bots_md"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, str(PAGE), "exec"), namespace)
    return namespace, out.getvalue()


def test_the_page_has_the_bot_and_the_run() -> None:
    blocks = python_blocks(PAGE.read_text("utf-8"))
    assert len(blocks) == 2
    assert "class BigSpellBot" in blocks[0] and "trio.run(main)" in blocks[1]


def test_the_run_prints_what_the_page_says() -> None:
    text = PAGE.read_text("utf-8")
    _, printed = _run("".join(python_blocks(text)))
    said = re.search(r"It prints one line, `([^`]+)`", text)
    assert said is not None
    assert printed == said.group(1) + "\n"


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
async def test_the_bot_plays_whole_games_without_an_illegal_reply(seed: int) -> None:
    namespace, _ = _run(python_blocks(PAGE.read_text("utf-8"))[0])
    refused: list[str] = []

    class Watched(namespace["BigSpellBot"]):
        def notify(self, msg: Message) -> None:
            if isinstance(msg, Rejected):
                refused.append(msg.reason)

    decks = [DECKS[seed % len(DECKS)], DECKS[(seed + 1) % len(DECKS)]]
    game, result = await play_one_game(decks, [Watched(), RandomBot(seed)], seed, names=["big", "random"],
                                       history=True)
    assert result.winner in ("big", "random") and result.forfeits == []
    assert refused == []
    casts = [e for e in game.history or [] if e.kind == "cast" and e.player == 0]
    assert casts, "the bot cast no spell"


def test_the_readmes_python_example_runs() -> None:
    readme = PAGE.parents[1] / "README.md"
    blocks = python_blocks(readme.read_text("utf-8"))
    assert len(blocks) == 1
    _, printed = _run(blocks[0])
    winner, _, _ = printed.partition(" ")
    assert winner in ("p1", "p2") and printed.rstrip().split()[-1].isdigit()


def test_the_page_s_play_command_plays_the_bot_saved_as_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``spellstack play --entrant big=bots/big.py:BigSpellBot@gruul ...`` with the page's bot
    saved as ``bots/big.py``: a Python file's class, in a bot process of its own (real time: about
    a second to start it)."""
    text = PAGE.read_text("utf-8")
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "big.py").write_text(python_blocks(text)[0], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    [commands] = re.findall(r"^```sh\n(spellstack play .*?)^```$", text, flags=re.S | re.M)
    play = shlex.split(commands.splitlines()[0])
    assert play[:2] == ["spellstack", "play"] and "big=bots/big.py:BigSpellBot@gruul" in play
    assert main(play[1:]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "spellstack play: big (gruul) vs random-orzhov (orzhov), seed 1"
    assert lines[-2].startswith("Winner: ") and "forfeit" not in lines[-2], lines[-2]
    assert any(line.startswith("  big casts ") for line in lines)
