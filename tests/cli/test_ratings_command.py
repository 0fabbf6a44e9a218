"""``spellstack ratings``: the list on stdout, its CSV and JSON files, and each bad input refused
in one line with exit 2."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from spellstack.cli import main
from spellstack.tournament import GameRow, ResultsStore

KEY = bytes(range(32))


def _entrant(name: str, bot: str = "random") -> dict[str, Any]:
    return {"name": name, "bot": bot, "deck": "gruul", "cards": ["Forest"] * 30 + ["Grizzly Bears"] * 30}


def _db(path: Path, names: tuple[str, ...], results: list[tuple[int, int, int]], seed: int = 1) -> Path:
    """A database of one best-of-1 round robin of ``names``: a game (a, b, winning seat or -1)
    per match."""
    settings = {"entrants": [_entrant(n) for n in names], "format": "round-robin", "rounds": 1,
                "best_of": 1, "seed": seed, "repeat": 1, "deadline": 30.0}
    store = ResultsStore(path)
    try:
        store.open_tournament(settings, names, resume=False, key=KEY)
        for m, (a, b, winner) in enumerate(results, start=1):
            store.record(GameRow(f"r1-m{m}-g1", 1, m, 1, m, (a, b), (0, 0), 0, 0, (0, 0), winner,
                                 "test", 1, 1, "0" * 32))
    finally:
        store.close()
    return path


GAMES = [(0, 1, 0), (1, 0, 1), (0, 1, 1), (1, 2, 0), (2, 1, 1), (2, 0, 0), (0, 2, 0), (1, 2, -1)]
"""heuristic-gruul 2-1 against random-gruul, random-gruul 2-0-1 against mine, mine 1-1 against
heuristic-gruul."""


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["ratings", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return _db(tmp_path / "t.db", ("heuristic-gruul", "random-gruul", "mine"), GAMES)


@pytest.mark.slow
def test_the_list_and_its_files(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    code, out, err = _run(capsys, str(db), "--csv", str(tmp_path / "r.csv"), "--json", str(tmp_path / "r.json"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "spellstack ratings: 8 games of 1 tournament in 1 database, 3 entrants"
    assert lines[1].split() == ["rank", "entrant", "games", "W-L-D", "score", "Elo", "+/-", "mu",
                                "sigma", "ordinal"]
    # The columns line up, sized to the longest name.
    assert len({len(line) for line in lines[1:5]}) == 1 and lines[1].index("games") == 6 + len("heuristic-gruul") + 2
    assert [line.split()[1] for line in lines[2:5]] == ["heuristic-gruul", "random-gruul", "mine"]
    assert lines[6].startswith("Elo: maximum-likelihood Bradley-Terry fit (a draw half a win), average 0; "
                               "+/- is half the 95% interval from 1,000 bootstrap resamples")
    rows = list(csv.DictReader((tmp_path / "r.csv").open(encoding="utf-8")))
    doc = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [r["entrant"] for r in rows] == [e["entrant"] for e in doc["entrants"]]
    for row, record in zip(rows, doc["entrants"], strict=True):
        assert row == {k: "" if v is None else str(v) for k, v in record.items()}
    assert (doc["games"], doc["elo"]["resamples"], doc["databases"]) == (8, 1000, [str(db)])
    # Text and JSON agree.
    for line, record in zip(lines[2:5], doc["entrants"], strict=True):
        assert line.split()[5] == f"{record['elo']:.1f}" and line.split()[7] == f"{record['mu']:.2f}"
    # The same databases, the same list, interval and all.
    assert _run(capsys, str(db))[1] == out


@pytest.mark.slow
def test_an_anchor_and_an_average_move_the_zero(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = _run(capsys, str(db), "--anchor", "mine=1500")
    assert code == 0
    mine = next(line for line in out.splitlines() if "  mine  " in line).split()
    assert (mine[5], mine[6]) == ("1500.0", "0.0")
    assert "mine fixed at 1500" in out
    code, out, _ = _run(capsys, str(db), "--anchor", "mine")
    assert code == 0 and next(line for line in out.splitlines() if "  mine  " in line).split()[5] == "0.0"
    code, out, _ = _run(capsys, str(db), "--average", "1000")
    elos = [float(line.split()[5]) for line in out.splitlines()[2:5]]
    assert code == 0 and sum(elos) / 3 == pytest.approx(1000, abs=0.1) and "average 1000" in out


def test_min_games_lists_only_entrants_with_enough_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = _db(tmp_path / "m.db", ("a", "b", "c"), [(0, 1, 0), (0, 1, 1), (1, 0, 0), (2, 0, 0), (1, 2, 1)])
    code, out, _ = _run(capsys, str(db), "--min-games", "3")
    assert code == 0
    assert [line.split()[1] for line in out.splitlines()[2:4]] == ["b", "a"] and "  c  " not in out
    assert "1 entrant with fewer than 3 games left out of the list" in out


def test_each_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], db: Path,
                                               tmp_path: Path) -> None:
    (tmp_path / "text.db").write_text("hello")
    newer = _db(tmp_path / "newer.db", ("a", "b"), [(0, 1, 0)])
    with contextlib.closing(sqlite3.connect(newer)) as conn:
        conn.execute("PRAGMA user_version = 3000")
    empty = _db(tmp_path / "empty.db", ("a", "b"), [])
    cases = [
        ([str(tmp_path / "gone.db")], "gone.db: no such file"),
        ([str(tmp_path / "text.db")], "text.db: not a results database (file is not a database)"),
        ([str(newer)], "newer.db: results database schema version 3000, newer than this spellstack's"),
        ([str(empty)], "no games: "),
        ([str(db), "--anchor", "mien"], "--anchor 'mien': no entrant of that name (did you mean 'mine'?)"),
        ([str(db), "--anchor", "mine=high"], "--anchor 'mine=high': the rating 'high' is not a number"),
        ([str(db), "--average", "nan"], "--average 'nan': not a number"),
        ([str(db), "--min-games", "-1"], "--min-games must be a whole number of at least 0, not '-1'"),
        ([str(db), "--csv", str(tmp_path / "no" / "r.csv")], f"--csv '{tmp_path / 'no' / 'r.csv'}': no folder"),
        ([str(db), "--json", str(tmp_path / "no" / "r.json")], f"--json '{tmp_path / 'no' / 'r.json'}': no folder"),
        ([str(db), "--json", str(tmp_path)], "is a folder"),
    ]
    for args, said in cases:
        code, out, err = _run(capsys, *args)
        assert (code, out) == (2, ""), args
        assert err.count("\n") == 1 and err.startswith("spellstack ratings: ") and said in err, (args, err)
    assert not (tmp_path / "gone.db").exists()


def test_the_command_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()) as out, pytest.raises(SystemExit):
        main(["--help"])
    assert "ratings" in out.getvalue()
