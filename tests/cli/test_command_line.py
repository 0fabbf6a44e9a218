"""The command line's own handling of arguments: an unknown or abbreviated option refused by
the subcommand it was given to, with the option it likely meant; did-you-mean for bots and
decks; help texts; and a refused ``--resume`` that leaves no file behind. In process: argparse
and the checks before any game are the subject, not a game."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from spellstack.cli import build_parser, main


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """Run the command, which must stop with exit 2; its stderr's lines."""
    with pytest.raises(SystemExit) as stopped:
        main(list(args))
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.splitlines()


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
             ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every parser of the command line with the words that reach it: the top level, each
    subcommand, each subcommand's subcommands."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


# --- an unknown option: refused by its subcommand, with a suggestion ------------------------


def test_a_misspelt_option_is_refused_with_the_subcommands_usage_and_a_suggestion(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "tournament", "--best-off", "3")
    assert err[0].startswith("usage: spellstack tournament [-h]")
    assert err[-1] == ("spellstack tournament: error: unrecognized arguments: --best-off 3 "
                       "(did you mean --best-of?)")
    assert not any(line.startswith("usage: spellstack [-h]") for line in err)


def test_a_misspelt_subcommand_names_the_nearest_one(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "tornament")
    assert err[-1].startswith("spellstack: error: argument command: invalid choice: 'tornament' "
                              "(did you mean 'tournament'?); choose from 'play', 'tournament',")
    err = _refused(capsys, "trace", "shwo", "t.jsonl")
    assert err[-1].startswith("spellstack trace: error: argument TOOL: invalid choice: 'shwo' "
                              "(did you mean 'show'?); choose from 'show',")


def test_a_misspelt_choice_of_an_option_names_the_nearest_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "tournament", "--format", "swis")
    assert err[-1] == ("spellstack tournament: error: argument --format: invalid choice: 'swis' "
                       "(did you mean 'swiss'?); choose from 'round-robin', 'swiss', 'gauntlet'")


def test_a_choice_near_nothing_gets_only_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "zzz")
    assert "did you mean" not in err[-1]
    assert err[-1].startswith("spellstack: error: argument command: invalid choice: 'zzz'; "
                              "choose from 'play',")


def test_a_sub_subcommand_refuses_its_own_unknown_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = _refused(capsys, "trace", "show", str(tmp_path / "t.jsonl"), "--playr", "alice")
    assert err[0].startswith("usage: spellstack trace show [-h]")
    assert err[-1] == ("spellstack trace show: error: unrecognized arguments: --playr alice "
                       "(did you mean --player?)")


def test_several_misspelt_options_each_get_their_suggestion(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "play", "--see=3", "--trac", "t.jsonl")
    assert err[-1] == ("spellstack play: error: unrecognized arguments: --see=3 --trac t.jsonl "
                       "(did you mean --seed for --see, --trace for --trac?)")


def test_an_unknown_argument_near_no_option_gets_no_suggestion(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "play", "--zzzzzz", "extra")
    assert err[-1] == "spellstack play: error: unrecognized arguments: --zzzzzz extra"


# --- no abbreviations ------------------------------------------------------------------------


def test_an_abbreviated_option_is_not_taken_for_the_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "play", "--see", "3")
    assert err[0].startswith("usage: spellstack play [-h]")
    assert err[-1] == ("spellstack play: error: unrecognized arguments: --see 3 "
                       "(did you mean --seed?)")


def test_an_abbreviated_option_of_a_sub_subcommand_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = _refused(capsys, "trace", "html", str(tmp_path / "t.jsonl"), "--out", "p.html")
    assert err[-1] == ("spellstack trace html: error: the following arguments are required: "
                       "-o/--output")


def test_no_parser_of_the_command_line_takes_abbreviations() -> None:
    parsers = dict(_parsers(build_parser()))
    assert ("trace", "why") in parsers and ("scenario", "run") in parsers
    assert [" ".join(path) for path, p in parsers.items() if p.allow_abbrev] == []


# --- did you mean, for bots and decks --------------------------------------------------------


def test_a_misspelt_bot_gets_the_nearest_built_in_bot(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused_run(capsys, "tournament", "--entrant", "heuristc@gruul", "--entrant",
                       "random@gruul")
    assert err.startswith("spellstack tournament: entrant 'heuristc@gruul': bot 'heuristc': "
                          "not a built-in bot")
    assert err.endswith("; did you mean 'heuristic'?"), err


def test_a_misspelt_deck_gets_the_nearest_built_in_deck(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused_run(capsys, "play", "--deck", "grul", "--deck", "orzhov")
    assert err == ("spellstack play: no built-in deck or deck file 'grul' (built-in: dimir, gruul, "
                   "orzhov); did you mean 'gruul'?")
    err = _refused_run(capsys, "play", "--entrant", "random@dimri", "--entrant", "random@gruul")
    assert err.endswith("deck: no built-in deck or deck file 'dimri' (built-in: dimir, gruul, "
                        "orzhov); did you mean 'dimir'?")


def test_a_bot_or_deck_near_none_gets_no_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused_run(capsys, "play", "--entrant", "xyzzy@gruul", "--entrant", "random@gruul")
    assert "did you mean" not in err
    err = _refused_run(capsys, "play", "--deck", "xyzzy", "--deck", "gruul")
    assert "did you mean" not in err


def _refused_run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command, which must refuse its input in one line on stderr (exit 2)."""
    assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --- --resume of a tournament the database doesn't hold --------------------------------------


def test_resume_without_a_database_refuses_and_makes_no_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = _refused_run(capsys, "tournament", "--resume", "--quiet", "--db",
                       str(tmp_path / "fresh.db"), "--trace-dir", str(tmp_path / "traces"))
    assert err == (f"spellstack tournament: {tmp_path / 'fresh.db'}: no such file, so no "
                   "tournament to resume; start it without --resume, or give --db the file it "
                   "was recorded in")
    assert list(tmp_path.iterdir()) == []


# --- help texts ------------------------------------------------------------------------------


def test_every_subcommand_has_a_description() -> None:
    missing = [" ".join(path) for path, p in _parsers(build_parser()) if not p.description]
    assert missing == []


def test_a_file_argument_is_called_FILE_everywhere() -> None:
    named = {" ".join(path): a.metavar for path, p in _parsers(build_parser())
             for a in p._actions if not a.option_strings and a.dest == "file"}
    assert {"trace show", "trace stats", "trace html", "trace why", "replay"} <= named.keys()
    assert {path: metavar for path, metavar in named.items() if metavar != "FILE"} == {}


def test_tournament_help_gives_every_form_of_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", "--help"])
    assert stopped.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("BOT: random, heuristic, a Python class as module:Class or path/to/file.py:Class "
            "(see docs/bots.md), or a program speaking the stdio protocol as stdio:COMMAND") in text


_LOADED = """
import sys
from spellstack.cli import main
code = main(sys.argv[1:])
wanted = ("spellstack.tournament", "spellstack.server", "spellstack.chat", "spellstack.trace",
          "asyncio", "sqlite3")
print(code, *sorted(name for name in wanted if name in sys.modules))
"""


@pytest.mark.parametrize(("argv", "present"), [
    (["cards", "--search", "Forest"], set()),
    (["bench", "--games", "1", "--kernel"], set()),
    (["tournament", "--resume"], {"sqlite3", "spellstack.tournament"}),
])
def test_a_subcommand_loads_what_it_uses_and_not_the_others(argv: list[str], present: set[str]
                                                            ) -> None:
    # A bench loads no tournament database, chat event loop or server: less to start and to
    # keep resident (the bench's memory figure is the whole process's).
    run = subprocess.run([sys.executable, "-c", _LOADED, *argv], capture_output=True, text=True,
                         timeout=120, check=False)
    code, *loaded = run.stdout.strip().splitlines()[-1].split(" ")
    assert code in ("0", "2"), run.stderr
    assert present <= set(loaded)
    if not present:
        assert loaded == [], run.stderr


def test_help_before_a_subcommand_lists_every_subcommand_with_its_help(
        capsys: pytest.CaptureFixture[str]) -> None:
    # An option first: the whole parser is built, however few modules a subcommand alone loads.
    with pytest.raises(SystemExit):
        main(["--help", "play"])
    out = capsys.readouterr().out
    assert "play one game between two bots" in out
    assert "a rating list of every game in results databases" in out
