"""``--record-dir``: every game of a tournament leaves its compact record, which ``replay`` plays
again to the row's final hash; worker processes write the same records."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from spellstack.cli import main


def _play(tmp_path: Path, name: str, *more: str) -> dict[str, str]:
    assert main(["tournament", "--seed", "2", "--best-of", "1", "--quiet", "--db", str(tmp_path / f"{name}.db"),
                 "--record-dir", str(tmp_path / name), "--games-csv", str(tmp_path / f"{name}.csv"),
                 *more]) == 0
    with (tmp_path / f"{name}.csv").open(encoding="utf-8", newline="") as f:
        return {row["id"]: row["final_hash"] for row in csv.DictReader(f)}


@pytest.mark.slow
def test_each_games_record_replays_to_its_rows_hash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hashes = _play(tmp_path, "one")
    records = sorted((tmp_path / "one").glob("*.json"))
    assert [r.stem for r in records] == sorted(hashes)
    for record in records:
        capsys.readouterr()
        assert main(["replay", str(record)]) == 0
        assert capsys.readouterr().out.strip().endswith(f"final state hash {hashes[record.stem]}")
    assert _play(tmp_path, "two", "--jobs", "2") == hashes
    for record in records:
        assert (tmp_path / "two" / record.name).read_bytes() == record.read_bytes()


def test_a_record_dir_that_is_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f").write_text("")
    assert main(["tournament", "--db", str(tmp_path / "x.db"), "--record-dir", str(tmp_path / "f")]) == 2
    assert "--record-dir" in capsys.readouterr().err and not (tmp_path / "x.db").exists()
