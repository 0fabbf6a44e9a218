"""The examples in docs/tournaments.md run as written, and what it says of the command holds."""

from __future__ import annotations

import contextlib
import io
import math
import re
import shlex
import shutil
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.tournament import DEFAULT_DB, TournamentSettings, parse_entrant, swiss_rounds

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tournaments.md"


RATINGS = "## A rating list: spellstack ratings"
"""The section whose commands are checked by a test of their own (not all are tournaments)."""
TESTING = "## Testing a bot"
"""The section on testing a bot, whose commands a test of their own runs."""
REMOTE = "## Remote entrants: bots on other machines"
"""The section on remote entrants, whose commands need a client: ``tests/server`` runs them."""


def _section(heading: str) -> str:
    """The page's section under ``heading``, to the next heading of its level."""
    text = DOC.read_text("utf-8")
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end + 1]


def _blocks(lang: str, text: str | None = None) -> list[str]:
    """The page's ``lang`` code blocks (but the rating list's), or those of ``text``."""
    if text is None:
        text = DOC.read_text("utf-8")
        for heading in (RATINGS, TESTING, REMOTE):
            text = text.replace(_section(heading), "")
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def _command(line: str) -> tuple[int, str]:
    args = shlex.split(line)
    assert args[:2] == ["spellstack", "tournament"], line
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*args[1:], "--quiet"])
    return code, out.getvalue()


@pytest.mark.slow
def test_every_command_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(ROOT / "tests" / "cards" / "decklists" / "red-green.txt", tmp_path)
    monkeypatch.chdir(tmp_path)
    lines = [line for block in _blocks("sh") for line in block.splitlines() if line.strip()]
    assert len(lines) == 6
    printed = []
    for line in lines:
        code, out = _command(line)
        assert code == 0, (line, out)
        printed.append(out)
    # The default run prints exactly what the page shows.
    [shown, *_] = _blocks("text")
    assert printed[0] == shown
    assert (tmp_path / DEFAULT_DB).is_file()
    assert "random-Red-Green-Stompy" in printed[1] and "steady" in printed[1]
    assert "swiss, 5 entrants, 3 rounds" in printed[2] and (tmp_path / "swiss.json").is_file()
    [swiss] = [b for b in _blocks("text") if b.startswith("spellstack tournament: swiss")]
    assert printed[2] == swiss  # its rounds, then the standings
    # Resumed with every game recorded: the same standings again.
    assert printed[4] == printed[3]
    # On a local Dask cluster: what the page shows, the standings of the default run.
    assert "--backend dask" in lines[5]
    [shown_on_a_cluster] = [b for b in _blocks("text") if "(results in cluster.db)" in b]
    assert printed[5] == shown_on_a_cluster == shown.replace(str(DEFAULT_DB), "cluster.db")


def test_the_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    [code] = _blocks("python")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    assert out.getvalue().startswith("rank  entrant")
    assert (tmp_path / "python.db").is_file()
    assert "seed=" not in code  # the example draws a secret key


def test_what_the_page_says_of_keys_and_failures_holds() -> None:
    from spellstack.cli._tournament import SEED_WARNING

    text = " ".join(DOC.read_text("utf-8").split())
    assert "## Keys and seeds" in DOC.read_text("utf-8")
    # The warning a --seed run prints says what the page says of it.
    assert "anyone who knows or guesses the seed can work out every hand and draw" in SEED_WARNING
    assert "anyone who knows or guesses S can work out every hand and draw" in text
    assert "leave out --seed for a secret key" in SEED_WARNING
    assert "not the bots'" in text
    # The failure table quotes the lines the command prints (tests/tournament/test_store_failures.py).
    for words in ("N games of this tournament are recorded, and --resume goes on from there",
                  "this tournament is being played by another run (process PID)",
                  "column COLUMN can't be read (VALUE); nothing in the file was changed",
                  "recorded before tournaments had keys",
                  "read-only (the file or its filesystem can't be written)"):
        assert words in text, words


def test_what_the_page_says_of_rounds_and_defaults_holds() -> None:
    text = " ".join(DOC.read_text("utf-8").split())
    assert "3 rounds for 5 to 8 entrants" in text
    assert [swiss_rounds(n) for n in (5, 6, 7, 8)] == [3, 3, 3, 3]
    assert swiss_rounds(4) == 2 and swiss_rounds(9) == 4
    assert "a round robin of 4 entrants with `--repeat 10` has 30 rounds" in text
    four = tuple(parse_entrant(f"e{i}=random@gruul", load_cards()) for i in range(4))
    assert TournamentSettings(four, "round-robin", 3, 1, repeat=10).round_count() == 30
    assert f"`{DEFAULT_DB}`" in text
    readme = (ROOT / "README.md").read_text("utf-8")
    first = next(line for line in readme.splitlines() if line.startswith("python3 -m venv"))
    assert first.endswith("&& spellstack tournament")  # the main job


@pytest.mark.slow
def test_the_rating_list_example_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    section = _section(RATINGS)
    [commands] = _blocks("sh", section)
    *tournaments, rate = commands.splitlines()
    assert len(tournaments) == 2
    for line in tournaments:
        assert _command(line)[0] == 0, line
    args = shlex.split(rate)
    assert args[:2] == ["spellstack", "ratings"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(args[1:]) == 0
    [shown] = _blocks("text", section)
    assert out.getvalue() == shown


def test_what_the_page_says_of_the_rating_list_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from spellstack.tournament import BOOTSTRAP_SEED, RESAMPLES

    text = " ".join(_section(RATINGS).split())
    assert RESAMPLES == 1000 and "1,000 times" in text and f"seed {BOOTSTRAP_SEED}" in text
    assert "(190.85 at 75%)" in text and round(-400 * math.log10(1 / 0.75 - 1), 2) == 190.85
    # The did-you-mean line the page quotes.
    from spellstack.tournament import ListEntrant, ListGame, ListGames, RatingListError, rating_list

    games = ListGames(tuple(ListEntrant(n, "random", "gruul", ()) for n in ("random-gruul", "heuristic-gruul")),
                      (ListGame(0, 1, 0.0, 0), ListGame(1, 0, 0.0, 1)))
    with pytest.raises(RatingListError) as refused:
        rating_list(games, anchor=("random-grul", 0.0), resamples=1)
    assert f"`{refused.value}`" in text


@pytest.mark.slow
def test_the_testing_a_bot_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    section = _section(TESTING)
    lines = [line for block in _blocks("sh", section) for line in block.splitlines() if line.strip()]
    assert len(lines) == 3
    printed = []
    for line in lines:
        code, out = _command(line)
        assert code == 0, (line, out)
        printed.append(out)
    [shown] = _blocks("text", section)
    assert printed[0] == shown  # the SPRT run, stopped where the page says
    assert "stopped by the SPRT after" in shown and "H1 accepted" in shown
    assert "new vs random-gruul: 10 games (5 pairs)" in printed[1]
    # Pairs and more than two entrants: the rating list of the tournament's own games, too.
    assert "rating list of this tournament's games" in printed[1] and "  new " in printed[1]
    assert "rating list of this tournament's games" not in printed[0] + printed[2]
    assert "top 4, best of 3:" in printed[2] and "  final: " in printed[2]
