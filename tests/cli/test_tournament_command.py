"""``spellstack tournament`` as a user runs it (real processes): results byte-identical however
the games are spread, a tournament killed with SIGKILL and resumed, a worker process killed,
and bad input refused in one line."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
import trio

from spellstack import read_trace, replay_trace
from tests.tournament.tournament_processes import (
    LIMIT,
    ROOT,
    child_pids,
    game_rows,
    run_cli,
    start_cli,
    unwarned,
    wait_for_games,
)

SIX = [f"--entrant={n}=random@{d}" for n, d in
       (("a", "gruul"), ("b", "dimir"), ("c", "orzhov"), ("d", "gruul"), ("e", "dimir"),
        ("f", "orzhov"))]


@pytest.mark.slow
def test_the_default_tournament_plays_the_built_in_entrants_and_prints_the_standings(tmp_path: Path) -> None:
    done = run_cli("--seed", "7", "--results", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "spellstack-tournament.db").is_file()  # the default database
    head, *_ = done.stdout.splitlines()
    assert head.startswith("spellstack tournament: round-robin, 3 entrants, 3 rounds, best of 3, "
                           "seed 7:")
    for name in ("random-dimir", "random-gruul", "random-orzhov"):
        assert name in done.stdout
    assert "rank  entrant" in done.stdout and "Elo diff" in done.stdout and "LOS" in done.stdout
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [e["name"] for e in doc["entrants"]] == ["random-dimir", "random-gruul", "random-orzhov"]
    assert 6 <= len(doc["games"]) <= 9
    assert len(game_rows(tmp_path / "spellstack-tournament.db")) == len(doc["games"])
    # Not a terminal: a line per game on stderr, with the games done out of the total.
    # The total is a maximum: it falls as matches end early.
    assert unwarned(done.stderr).startswith("[1/≤9] r")
    # Run again in the same folder: every game is played again and checked against the
    # database, and the results file is the same.
    again = run_cli("--seed", "7", "--results", "again.json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (f"held this tournament: its {len(doc['games'])} recorded games were played again, "
            f"{len(doc['games'])} the same") in again.stderr
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "r.json").read_bytes()
    assert len(game_rows(tmp_path / "spellstack-tournament.db")) == len(doc["games"])


@pytest.mark.slow
def test_the_results_are_byte_identical_whatever_the_concurrency_and_jobs(tmp_path: Path) -> None:
    one = run_cli("--seed", "7", "--results", str(tmp_path / "one.json"), "--db", str(tmp_path / "1.db"),
                  "--concurrency", "1", "--jobs", "1", "--quiet")
    many = run_cli("--seed", "7", "--results", str(tmp_path / "many.json"), "--db",
                   str(tmp_path / "2.db"), "--concurrency", "8", "--jobs", "2", "--quiet")
    assert one.returncode == 0, one.stderr
    assert many.returncode == 0, many.stderr
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "many.json").read_bytes()
    assert game_rows(tmp_path / "1.db") == game_rows(tmp_path / "2.db")
    assert unwarned(one.stderr) == unwarned(many.stderr) == ""  # --quiet: only the warning


@pytest.mark.slow
def test_a_tournament_killed_halfway_resumes_to_the_same_standings_and_games(tmp_path: Path) -> None:
    whole = run_cli(*SIX, "--seed", "3", "--db", str(tmp_path / "whole.db"), "--results",
                    str(tmp_path / "whole.json"))
    assert whole.returncode == 0, whole.stderr
    total = len(game_rows(tmp_path / "whole.db"))
    # Each game written as it ends: the kill comes after about half of them, however fast they are.
    proc = start_cli(*SIX, "--seed", "3", "--db", str(tmp_path / "part.db"), "--concurrency", "4",
                     "--write-every", "0")
    try:
        wait_for_games(proc, total // 2)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=LIMIT)
    finally:
        proc.kill()
    kept = game_rows(tmp_path / "part.db")
    assert total // 2 <= len(kept) < total
    resumed = run_cli(*SIX, "--seed", "3", "--db", str(tmp_path / "part.db"), "--resume", "--results",
                      str(tmp_path / "part.json"))
    assert resumed.returncode == 0, resumed.stderr
    assert game_rows(tmp_path / "part.db") == game_rows(tmp_path / "whole.db")
    assert (tmp_path / "part.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
    standings = whole.stdout.split("\n", 1)[1]
    assert resumed.stdout.split("\n", 1)[1].replace("part.json", "whole.json") == standings
    # What --resume found, then only the missing games were played after the kill: a line each.
    found, _, rest = unwarned(resumed.stderr).partition("\n")
    assert found == f"spellstack tournament: resuming: {len(kept)} games recorded; playing the rest"
    assert rest.count("\n") == total - len(kept)


@pytest.mark.slow
def test_a_worker_process_killed_mid_tournament_loses_nothing(tmp_path: Path) -> None:
    whole = run_cli(*SIX, "--seed", "4", "--db", str(tmp_path / "whole.db"), "--results",
                    str(tmp_path / "whole.json"), "--quiet")
    assert whole.returncode == 0, whole.stderr
    total = len(game_rows(tmp_path / "whole.db"))
    proc = start_cli(*SIX, "--seed", "4", "--db", str(tmp_path / "part.db"), "--results",
                     str(tmp_path / "part.json"), "--jobs", "2", "--concurrency", "4",
                     "--write-every", "0")  # a line as each game ends: the workers still play
    try:
        wait_for_games(proc, total // 3)
        workers = child_pids(proc.pid)
        assert len(workers) == 2, workers
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=LIMIT)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    # It had games in flight (4 at a time): they were played again in a new worker.
    assert "spellstack tournament: 1 worker process died; " in err, err
    assert " in flight on it played again from their seeds" in err
    assert game_rows(tmp_path / "part.db") == game_rows(tmp_path / "whole.db")
    assert (tmp_path / "part.json").read_bytes() == (tmp_path / "whole.json").read_bytes()


@pytest.mark.slow
def test_bad_input_is_one_line_naming_it(tmp_path: Path) -> None:
    deck = tmp_path / "list.txt"
    deck.write_text("4 Grizzly Bear\n36 Forest\n", encoding="utf-8")
    cases = [
        (["--entrant", "random@gruul"], "at least 2 entrants, got 1"),
        (["--entrant", "x=random@gruul", "--entrant", "x=random@dimir"], "both named 'x'"),
        (["--rounds", "3"], "--rounds is for --format swiss"),
        (["--format", "swiss", "--repeat", "2"], "--repeat is for a round robin or a gauntlet"),
        (["--repeat", "0"], "must be from 1 to 1000, got 0"),
        (["--repeat", "1001"], "must be from 1 to 1000, got 1001"),
        (["--write-every", "-1"], "--write-every: must be from 0 to 3600 seconds, got -1"),
        (["--write-every", "soon"], "--write-every: expected a number of seconds, got 'soon'"),
        (["--entrant", "random@gruul", "--entrant", f"random@{deck}"], "did you mean 'Grizzly Bears'"),
        (["--entrant", "nobot@gruul", "--entrant", "random@dimir"], "nobot"),
        (["--results", str(tmp_path / "missing" / "r.json")], "no folder"),
        (["--concurrency", "0"], "must be from 1 to"),
        (["--best-of", "many"], "expected a whole number"),
    ]
    for args, message in cases:
        done = run_cli(*args, "--db", str(tmp_path / "r.db"))
        assert done.returncode == 2, (args, done.stdout)
        # One line names what was wrong (argparse's own errors come after its usage lines).
        last = done.stderr.splitlines()[-1]
        assert last.startswith("spellstack tournament: ") and message in last, (args, done.stderr)
        assert done.stdout == ""
    assert not (tmp_path / "r.db").exists() or game_rows(tmp_path / "r.db") == []


@pytest.mark.slow
def test_every_game_keeps_its_trace_and_a_trace_replays_to_its_recorded_state(tmp_path: Path) -> None:
    done = run_cli("--seed", "2", "--best-of", "1", "--db", str(tmp_path / "r.db"), "--trace-dir",
                   str(tmp_path / "traces"), "--jobs", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    rows = game_rows(tmp_path / "r.db")
    files = sorted(p.name for p in (tmp_path / "traces").iterdir())
    assert files == sorted(f"{row[0]}.jsonl" for row in rows)
    for row in rows:
        trace = read_trace(tmp_path / "traces" / f"{row[0]}.jsonl")
        assert trace.header.seed == row[4]
        assert trace.header.start is not None and trace.result.final_hash == row[14]
        assert {m.game for m in trace.messages} == {row[0]}
    first = read_trace(tmp_path / "traces" / f"{rows[0][0]}.jsonl")
    _, result = trio.run(replay_trace, first)
    assert result.final_hash == rows[0][14]


@pytest.mark.slow
def test_entrants_that_forfeit_are_named_with_the_first_reason(tmp_path: Path) -> None:
    exits = f"stdio:{sys.executable} {ROOT / 'tests' / 'tournament' / 'hostile_stdio_bot.py'} exits"
    done = run_cli("--entrant", f"quitter={exits}@gruul", "--entrant", "random@gruul",
                   "--best-of", "3", "--db", str(tmp_path / "r.db"), "--quiet")
    assert done.returncode == 0, done.stderr
    # It forfeited every game it played: said so, the bot broken rather than beaten.
    assert done.stderr.splitlines()[-1] == ("spellstack tournament: quitter forfeited all 2 of its games: "
                                            "bot process exited with code 3; its stderr ended: giving up")
    assert "quitter" in done.stdout and "0-1-0" in done.stdout


def test_an_entrant_that_forfeited_every_game_it_played_is_told_apart() -> None:
    from spellstack.cli._tournament import forfeits
    from spellstack.tournament import GameRow

    def game(n: int, entrants: tuple[int, int], winner: int, reason: str) -> GameRow:
        return GameRow(f"r1-m1-g{n}", 1, 1, n, n, entrants, (0, 0), 0, 0, (0, 0), winner, reason, 3, 10, "h")

    names = ["stdio_bot-gruul", "random-gruul", "some-dimir"]
    lost = "random-gruul wins: stdio_bot-gruul forfeited: bot process exited with code 1; its stderr ended: "
    rows = [game(n, (0, 1), 1, f"{lost}No module named 'msgpack' ({n})") for n in (1, 2, 3)]
    assert forfeits(rows, names) == ["stdio_bot-gruul forfeited all 3 of its games: bot process exited with "
                                     "code 1; its stderr ended: No module named 'msgpack' (1)"]
    # One game won besides: today's line, the count and the first reason.
    rows.append(game(4, (2, 0), 1, "stdio_bot-gruul wins: some-dimir has 0 or less life (704.5a)"))
    assert forfeits(rows, names) == ["stdio_bot-gruul forfeited 3 games; the first: bot process exited with "
                                     "code 1; its stderr ended: No module named 'msgpack' (1)"]
    # Its only game: in those words.
    assert forfeits(rows[:1], names) == ["stdio_bot-gruul forfeited its only game: bot process exited with "
                                         "code 1; its stderr ended: No module named 'msgpack' (1)"]


@pytest.mark.slow
def test_one_round_of_one_game_is_said_in_the_singular(tmp_path: Path) -> None:
    done = run_cli("--entrant", "random@gruul", "--entrant", "random@dimir", "--best-of", "1", "--seed", "1",
                   "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    head = done.stdout.splitlines()[0]
    # Seed 1's one game is not drawn, so the match is that one game.
    assert head == ("spellstack tournament: round-robin, 2 entrants, 1 round, best of 1, seed 1: 1 game "
                    "(results in spellstack-tournament.db)")


@pytest.mark.slow
def test_a_swiss_tournament_of_an_older_pairing_rule_is_refused_for_resume_in_one_line(tmp_path: Path) -> None:
    from spellstack.tournament import settings_key

    db = tmp_path / "r.db"
    args = ("--entrant", "random@gruul", "--entrant", "random@dimir", "--format", "swiss", "--best-of", "1",
            "--seed", "1", "--db", str(db), "--quiet")
    assert run_cli(*args).returncode == 0
    # As an older spellstack recorded it: Swiss settings without a pairing rule (rule 1).
    with sqlite3.connect(db) as conn:
        [(text,)] = conn.execute("SELECT settings FROM tournaments").fetchall()
        older = {k: v for k, v in json.loads(text).items() if k != "pairing"}
        conn.execute("UPDATE tournaments SET key = ?, settings = ?",
                     (settings_key(older), json.dumps(older, sort_keys=True)))
    done = run_cli(*args, "--resume")
    assert done.returncode == 2 and done.stdout == ""
    assert unwarned(done.stderr) == (
        f"spellstack tournament: {db}: this Swiss tournament was paired by pairing rule 1, and this "
        "spellstack pairs by rule 2 (a least-cost matching), so its rounds can't be resumed; start it "
        "again without --resume, or resume it with the spellstack that started it\n")


def test_the_bar_marks_its_total_as_a_maximum() -> None:
    from tqdm import tqdm

    from spellstack.cli._tournament import BAR_FORMAT

    shown = tqdm.format_meter(5, 8, 2.0, ncols=80, prefix="games", unit="game", bar_format=BAR_FORMAT)
    assert " 5/≤8 [" in shown and shown.startswith("games:  62%|")
