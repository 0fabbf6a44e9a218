"""Input is echoed with a bound: whatever a deck file, an entrant or a name holds, the error
is one line of at most 1,000 characters; a deck file over 1 MiB is refused by its size; a
FIFO is refused as not a regular file, at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spellstack.cli import main

ROOT = Path(__file__).resolve().parents[2]
MB = 1_000_000


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command line in this process (an argument of 1 MB is over what a process's
    command line may hold); its one error line."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out[:200], err[:200])
    assert err.count("\n") == 1 and err.startswith("spellstack"), err[:300]
    line = err.rstrip("\n")
    assert len(line) <= 1000, len(line)
    return line


def test_a_1mb_unknown_card_name_in_a_toml_deck(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "big.toml"
    deck.write_text(f'name = "big"\n[cards]\n"{"Z" * MB}" = 40\n', encoding="utf-8")
    line = _error(capsys, "play", "--deck", str(deck), "--deck", "gruul")
    assert "unknown card 'ZZZ" in line


def test_a_1mb_unknown_card_name_in_a_text_list(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "big.txt"
    deck.write_text(f"40 {'Z' * MB}\n", encoding="utf-8")
    line = _error(capsys, "play", "--deck", str(deck), "--deck", "gruul")
    assert "line 1" in line and "unknown card 'ZZZ" in line


@pytest.mark.parametrize("size", [5_000, 20_000])
def test_200_unknown_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], size: int) -> None:
    deck = tmp_path / "many.txt"
    deck.write_text("".join(f"1 {chr(65 + i % 26) * size}{i}\n" for i in range(200)),
                    encoding="utf-8")
    line = _error(capsys, "play", "--deck", str(deck), "--deck", "gruul")
    # Names of 5 KB fit in 1 MiB and are listed, cut; names of 20 KB make a file over it.
    assert ("and 190 more" if size == 5_000 else "over the limit of 1.0 MiB") in line


def test_a_1mb_unknown_card_name_in_a_toml_deck_as_an_entrant(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "big.toml"
    deck.write_text(f'name = "{"N" * MB}"\n[cards]\n"{"Z" * MB}" = 40\n', encoding="utf-8")
    _error(capsys, "tournament", "--entrant", f"a=random@{deck}", "--entrant", "random@gruul",
           "--db", str(tmp_path / "r.db"))


@pytest.mark.parametrize("text", ["x" * MB, f"{'n' * MB}=random@gruul", f"random@{'d' * MB}",
                                  f"{'b' * MB}:Bot@gruul"],
                         ids=["no-form", "long-name", "long-deck", "long-bot"])
def test_a_1mb_entrant_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    _error(capsys, "tournament", "--entrant", text, "--entrant", "random@gruul",
           "--db", str(tmp_path / "r.db"))


def test_a_1mb_name(capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(capsys, "chat", "--name", "n" * MB)
    assert "--name 'nnn" in line


def test_a_2mib_deck_file_is_refused_by_its_size(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "huge.toml"
    # A valid deck, padded with a comment: only its size is wrong.
    deck.write_text('name = "huge"\n[cards]\nMountain = 40\n#' + "x" * (2 << 20) + "\n",
                    encoding="utf-8")
    line = _error(capsys, "play", "--deck", str(deck), "--deck", "gruul")
    assert "2.0 MiB, over the limit of 1.0 MiB" in line


def test_a_deck_file_of_1mib_is_read(tmp_path: Path) -> None:
    from spellstack.cards import load_cards, load_deck

    deck = tmp_path / "full.toml"
    head = 'name = "full"\n[cards]\nMountain = 40\n#'
    deck.write_text(head + "x" * ((1 << 20) - len(head) - 1) + "\n", encoding="utf-8")
    assert deck.stat().st_size == 1 << 20
    assert load_deck(str(deck), load_cards()).name == "full"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
@pytest.mark.parametrize("args", [
    ("play", "--deck", "{}", "--deck", "gruul"),
    ("tournament", "--entrant", "random@{}", "--entrant", "random@gruul", "--db", "r.db"),
    ("scenario", "run", "{}"),
], ids=["play-deck", "entrant-deck", "scenario"])
@pytest.mark.slow
def test_a_fifo_is_refused_at_once_as_not_a_regular_file(tmp_path: Path, args: tuple[str, ...]) -> None:
    fifo = tmp_path / "deck.toml"
    os.mkfifo(fifo)
    began = time.monotonic()
    # A real process, with a real time limit: opening a FIFO to read it blocks until a writer
    # comes, and none does; the limit turns a hang into a failure.
    done = subprocess.run([sys.executable, "-m", "spellstack",
                           *(a.replace("{}", str(fifo)) for a in args)],
                          cwd=tmp_path, text=True, capture_output=True, timeout=30, check=False,
                          env={"PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "not a regular file" in done.stderr, done.stderr
    assert time.monotonic() - began < 20


def test_reading_a_fifo_directly_never_blocks(tmp_path: Path) -> None:
    from spellstack._files import FileRefused, read_regular_file

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match=r"^not a regular file$"):
        read_regular_file(fifo)
    with pytest.raises(FileRefused, match=r"^not a regular file$"):
        read_regular_file("/dev/null")
    with pytest.raises(FileRefused, match="folder") as err:
        read_regular_file(tmp_path)
    assert not err.value.missing
    with pytest.raises(FileRefused) as err:
        read_regular_file(tmp_path / "none")
    assert err.value.missing
