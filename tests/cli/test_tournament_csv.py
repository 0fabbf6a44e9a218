"""``--games-csv`` and ``--standings-csv``: both files parse with the ``csv`` module and say what
the ``--results`` file says, row for row; a file that can't be written is refused before any
game is played."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from spellstack.cli import main

RUN = ["tournament", "--seed", "3", "--best-of", "3", "--quiet"]


def _run(tmp_path: Path, *more: str) -> tuple[dict, list[dict[str, str]], list[dict[str, str]]]:  # type: ignore[type-arg]
    code = main([*RUN, "--db", str(tmp_path / "t.db"), "--results", str(tmp_path / "r.json"),
                 "--games-csv", str(tmp_path / "g.csv"), "--standings-csv", str(tmp_path / "s.csv"),
                 *more])
    assert code == 0
    doc = json.loads((tmp_path / "r.json").read_text("utf-8"))
    with (tmp_path / "g.csv").open(encoding="utf-8", newline="") as f:
        games = list(csv.DictReader(f))
    with (tmp_path / "s.csv").open(encoding="utf-8", newline="") as f:
        table = list(csv.DictReader(f))
    return doc, games, table


def test_the_csv_files_say_what_the_results_file_says(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    doc, games, table = _run(tmp_path)
    assert len(games) == len(doc["games"]) > 0
    for row, game in zip(games, doc["games"], strict=True):
        assert row["id"] == game["id"]
        assert [int(row[k]) for k in ("round", "match", "game", "seed", "turns", "decisions")] == \
            [game[k] for k in ("round", "match", "game", "seed", "turns", "decisions")]
        assert [row["player_1"], row["player_2"]] == game["players"]
        assert row["pair"] == ""  # no game pairs here
        assert (row["winner"] or None) == game["winner"]
        assert (row["starting_player"] or None) == game["starting_player"]
        assert (row["chooser"] or None) == game["chooser"]
        assert (row["reason"], row["final_hash"]) == (game["reason"], game["final_hash"])
        assert "seconds" not in row
    ratings = {r["entrant"]: r for r in doc["ratings"]}
    assert [r["entrant"] for r in table] == [s["entrant"] for s in doc["standings"]]
    for row, standing in zip(table, doc["standings"], strict=True):
        for key in ("rank", "points", "wins", "losses", "draws", "byes"):
            assert int(row[key]) == standing[key]
        for key in ("omw", "gw", "ogw"):
            assert float(row[key]) == standing[key] and len(row[key].split(".")[1]) == 4
        for key in ("mu", "sigma", "ordinal"):
            assert float(row[key]) == ratings[row["entrant"]][key]
    out = capsys.readouterr().out
    assert f"games csv written to {tmp_path / 'g.csv'}" in out


def test_timings_add_a_seconds_column(tmp_path: Path) -> None:
    _, games, _ = _run(tmp_path, "--timings")
    assert all(float(row["seconds"]) > 0 for row in games)


def test_pairs_give_each_game_its_pairs_number(tmp_path: Path) -> None:
    code = main(["tournament", "--seed", "3", "--quiet", "--entrant", "random@gruul", "--entrant",
                 "random@dimir", "--pairs", "--repeat", "2", "--db", str(tmp_path / "p.db"),
                 "--games-csv", str(tmp_path / "g.csv")])
    assert code == 0
    with (tmp_path / "g.csv").open(encoding="utf-8", newline="") as f:
        games = list(csv.DictReader(f))
    assert [(g["round"], g["game"], g["pair"]) for g in games] == [
        ("1", "1", "1"), ("1", "2", "1"), ("2", "1", "2"), ("2", "2", "2")]
    assert games[0]["seed"] == games[1]["seed"] != games[2]["seed"]


@pytest.mark.parametrize("flag", ["--games-csv", "--standings-csv"])
def test_a_csv_file_in_a_missing_folder_is_refused_first(flag: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code = main([*RUN, "--db", str(tmp_path / "t.db"), flag, str(tmp_path / "no" / "x.csv")])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err == f"spellstack tournament: {flag} '{tmp_path / 'no' / 'x.csv'}': no folder '{tmp_path / 'no'}'"
    assert not (tmp_path / "t.db").exists()
