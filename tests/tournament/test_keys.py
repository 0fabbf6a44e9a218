"""A tournament's seeds come from a secret key: a bot can't work out its game's seed from its
own, the key is fresh for every tournament, recorded for the organizer, and a tournament plays
again from it (``--seed`` for a reproducible run, with a warning; ``--key-from`` a results
file); bad keys are one line."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spellstack.cards import load_cards, load_deck
from spellstack.rules import StartSettings, new_game
from spellstack.tournament._store import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 300.0
"""Generous seconds for one tournament process (they take a few)."""
SEARCHED = 10**6
"""Every tournament seed T below this is tried, as a spy would."""
WARNING = "spellstack tournament: warning: --seed 3: anyone who knows or guesses the seed"
SMALL = ["--entrant", "a=random@gruul", "--entrant", "b=random@dimir", "--best-of", "1",
         "--repeat", "4"]
"""A tournament of a few games."""


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spellstack", "tournament", *args], cwd=ROOT,
                          text=True, capture_output=True, timeout=LIMIT, check=False,
                          env=None if env is None else os.environ | env)


def _old_seed(seed: int, *parts: object) -> int:
    """The derivation before tournaments had keys: BLAKE2b of the tournament seed and the
    public parts, unkeyed (what a spy that guesses the seed can compute)."""
    text = "/".join([str(seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


_TS = [str(t).encode() for t in range(SEARCHED)]


def _search(bot_seed: int, names: list[str], meeting: int, number: int, seat: int) -> int | None:
    """The tournament seed T below SEARCHED whose old derivation gives ``bot_seed`` to seat
    ``seat`` of game ``number`` of the pair's ``meeting``-th match, or None."""
    pair = json.dumps(names, ensure_ascii=False)
    suffix = f"/bot/{pair}/{meeting}/{number}/{seat}".encode()
    # The digest shifted right by one: either low bit.
    targets = {(bot_seed << 1).to_bytes(8, "big"), ((bot_seed << 1) | 1).to_bytes(8, "big")}
    blake = hashlib.blake2b
    for t, text in enumerate(_TS):
        if blake(text + suffix, digest_size=8).digest() in targets:
            return t
    return None


def _library(players: list[tuple[str, tuple[str, ...]]], seed: int, chooser: int | None,
             seat: int) -> list[str]:
    """Seat ``seat``'s library order as the game of ``seed`` starts: its opening hand is its
    top seven, and every draw until a shuffle comes from it."""
    cards = load_cards()
    game = new_game(cards, players, seed, start=StartSettings(chooser=chooser))
    state = game.state
    return [state.objects[oid].name for oid in state.players[seat].library]


def _predicted(bot_seed: int, names: list[str], decks: list[tuple[str, ...]], game_id: str,
               seat: int, chooser: int | None) -> list[str] | None:
    """What a spy told ``bot_seed``, the names, its seat and the game id predicts of its
    opponent's library (and so opening hand), or None if it finds no seed."""
    round_no, _, number = (int(part[1:]) for part in game_id.split("-"))
    meeting = round_no  # two entrants: one match a round, round k their k-th meeting
    t = _search(bot_seed, names, meeting, number, seat)
    if t is None:
        return None
    game_seed = _old_seed(t, "game", json.dumps(names, ensure_ascii=False), meeting, number)
    return _library(list(zip(names, decks, strict=True)), game_seed, chooser, 1 - seat)


def test_the_spy_finds_the_seed_of_a_game_seeded_the_old_way() -> None:
    # The control: with the old derivation and a seed below 10^6, the search works.
    names = ["spy", "b"]
    decks = [load_deck("gruul", load_cards()).cards, load_deck("dimir", load_cards()).cards]
    pair = json.dumps(names)
    t = 654_321
    mine = _old_seed(t, "bot", pair, 3, 2, 0)
    real = _library(list(zip(names, decks, strict=True)), _old_seed(t, "game", pair, 3, 2), 1, 1)
    assert _predicted(mine, names, decks, "r3-m1-g2", 0, 1) == real


def _games(results: Path) -> list[dict[str, object]]:
    games: list[dict[str, object]] = json.loads(results.read_text())["games"]
    return games


def _right(games: list[dict[str, object]], told: dict[tuple[str, int], int], spy: str) -> tuple[int, int]:
    """(games whose opponent's library the spy predicted, games it was in)."""
    cards = load_cards()
    decks = {"spy": load_deck("gruul", cards).cards, "b": load_deck("dimir", cards).cards}
    right = tried = 0
    for g in games:
        players = list(g["players"])  # type: ignore[call-overload]
        seat = players.index(spy)
        bot_seed = told.get((str(g["id"]), seat))
        if bot_seed is None:
            continue
        tried += 1
        chooser = None if g["game"] == 1 else players.index(g["chooser"])
        real = _library(list(zip(players, [decks[p] for p in players], strict=True)),
                        int(g["seed"]), chooser, 1 - seat)  # type: ignore[call-overload]
        predicted = _predicted(bot_seed, players, [decks[p] for p in players], str(g["id"]),
                               seat, chooser)
        right += predicted == real
    return right, tried


@pytest.mark.slow
def test_a_class_bot_in_a_bot_process_can_t_work_out_its_game_s_seed(tmp_path: Path) -> None:
    # The default settings (no --seed), 20 best-of-one games between the spy and a random bot.
    spies = tmp_path / "spies"
    spies.mkdir()
    done = _run("--entrant", "spy=tests/tournament/spy_bots.py:ClassSpy@gruul", "--entrant",
                "b=random@dimir", "--best-of", "1", "--repeat", "20", "--db",
                str(tmp_path / "t.db"), "--results", str(tmp_path / "r.json"), "--quiet",
                env={"SPY_DIR": str(spies)})
    assert done.returncode == 0, done.stderr
    games = _games(tmp_path / "r.json")
    # What each spy was told: its seed (and, from its game, the names, its seat, the game id).
    seeds = {json.loads(p.read_text())["seed"] for p in spies.iterdir()}
    told = {(str(g["id"]), seat): s for g in games
            for seat, s in enumerate(g["bot_seeds"]) if s in seeds}  # type: ignore[arg-type]
    right, tried = _right(games, told, "spy")
    assert tried >= 20
    assert right == 0


@pytest.mark.slow
def test_a_stdio_bot_reading_its_hello_can_t_work_out_its_game_s_seed(tmp_path: Path) -> None:
    spies = tmp_path / "spies"
    spies.mkdir()
    done = _run("--entrant", f"spy=stdio:{sys.executable} tests/tournament/spy_bots.py@gruul",
                "--entrant", "b=random@dimir", "--best-of", "1", "--repeat", "20", "--db",
                str(tmp_path / "t.db"), "--results", str(tmp_path / "r.json"), "--quiet",
                env={"SPY_DIR": str(spies)})
    assert done.returncode == 0, done.stderr
    hellos = [json.loads(p.read_text()) for p in spies.iterdir()]
    told = {(h["game"], h["seat"]): h["seed"] for h in hellos}
    right, tried = _right(_games(tmp_path / "r.json"), told, "spy")
    assert tried >= 20
    assert right == 0


def _secret(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        [(secret,)] = conn.execute("SELECT secret FROM tournaments").fetchall()
    assert isinstance(secret, str)
    return secret


@pytest.mark.slow
def test_two_runs_without_a_seed_draw_fresh_keys(tmp_path: Path) -> None:
    runs = [_run(*SMALL, "--db", str(tmp_path / f"{k}.db"), "--results", str(tmp_path / f"{k}.json"),
                 "--quiet") for k in (1, 2)]
    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    assert [r.stderr for r in runs] == ["", ""]  # no warning without --seed
    docs = [json.loads((tmp_path / f"{k}.json").read_text()) for k in (1, 2)]
    keys = [d["key"] for d in docs]
    assert keys[0] != keys[1]
    assert all(len(bytes.fromhex(k)) * 8 >= 128 for k in keys)
    assert [_secret(tmp_path / f"{k}.db") for k in (1, 2)] == keys
    seeds = [{s for g in d["games"] for s in (g["seed"], *g["bot_seeds"])} for d in docs]
    assert len(seeds[0]) == 3 * len(docs[0]["games"])  # every seed distinct within a run
    assert not seeds[0] & seeds[1]
    assert docs[0]["seed"] is None and "a secret key" in runs[0].stdout


@pytest.mark.slow
def test_runs_with_seed_3_are_byte_identical_and_warn_even_when_quiet(tmp_path: Path) -> None:
    runs = [_run(*SMALL, "--seed", "3", "--db", str(tmp_path / f"{k}.db"), "--results",
                 str(tmp_path / f"{k}.json"), *quiet) for k, quiet in ((1, ["--quiet"]), (2, []))]
    assert [r.returncode for r in runs] == [0, 0]
    assert (tmp_path / "1.json").read_bytes() == (tmp_path / "2.json").read_bytes()
    for r in runs:
        assert r.stderr.startswith(WARNING)
        assert "leave out --seed for a secret key" in r.stderr.splitlines()[0]
    assert runs[0].stderr.count("\n") == 1  # --quiet: the warning only
    assert "seed 3:" in runs[0].stdout


@pytest.mark.slow
def test_a_plain_run_on_the_same_database_rechecks_every_game_with_the_recorded_key(tmp_path: Path) -> None:
    first = _run(*SMALL, "--db", str(tmp_path / "t.db"), "--results", str(tmp_path / "1.json"), "--quiet")
    assert first.returncode == 0, first.stderr
    again = _run(*SMALL, "--db", str(tmp_path / "t.db"), "--results", str(tmp_path / "2.json"), "--quiet")
    assert again.returncode == 0, again.stderr
    n = len(_games(tmp_path / "1.json"))
    assert f"its {n} recorded games were played again, {n} the same" in again.stderr
    assert (tmp_path / "1.json").read_bytes() == (tmp_path / "2.json").read_bytes()


@pytest.mark.slow
def test_a_tournament_killed_three_times_and_resumed_is_the_one_played_from_its_key(tmp_path: Path) -> None:
    six = [f"--entrant={n}=random@{d}" for n, d in
           (("a", "gruul"), ("b", "dimir"), ("c", "orzhov"), ("d", "gruul"))]
    db = tmp_path / "part.db"
    for kill in range(3):
        proc = subprocess.Popen([sys.executable, "-m", "spellstack", "tournament", *six,
                                 "--db", str(db), "--concurrency", "2",
                                 *(["--resume"] if kill else [])],
                                cwd=ROOT, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        try:
            # Real time: another process plays; killed after its first game of this run (the
            # first is written at once, the next ones a second later, in a batch).
            deadline = time.monotonic() + LIMIT
            seen = 0
            while seen < 1 and time.monotonic() < deadline:
                line = proc.stderr.readline()
                assert line, "the tournament ended before it could be killed"
                seen += line.startswith("[")
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=LIMIT)
        finally:
            proc.kill()
    resumed = _run(*six, "--db", str(db), "--resume", "--results", str(tmp_path / "part.json"), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    whole = _run(*six, "--db", str(tmp_path / "whole.db"), "--key-from", str(tmp_path / "part.json"),
                 "--results", str(tmp_path / "whole.json"), "--quiet")
    assert whole.returncode == 0, whole.stderr
    assert (tmp_path / "whole.json").read_bytes() == (tmp_path / "part.json").read_bytes()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results file of SMALL, played without a seed, with its database beside it."""
    folder = tmp_path_factory.mktemp("played")
    done = _run(*SMALL, "--db", str(folder / "t.db"), "--results", str(folder / "r.json"), "--quiet")
    assert done.returncode == 0, done.stderr
    return folder


def _with(folder: Path, name: str, **changes: object) -> Path:
    doc = json.loads((folder / "r.json").read_text())
    doc.update(changes)
    for key, value in changes.items():
        if value is ...:
            del doc[key]
    path = folder / name
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(("change", "args", "message"), [
    ({"key": ...}, [], "holds no key"),
    ({"key": None}, [], "holds no key"),
    ({"key": "zz" * 32}, [], "the key is not hex"),
    ({"key": "ab" * 15}, [], "the key has 120 bits, under the 128 a key needs"),
    ({}, ["--seed", "3"], "--key-from and --seed: give one"),
    ({}, ["--best-of", "3"], "differ from the file's in best-of"),
    ({}, ["--resume", "--db", "OTHER"], "holds this tournament with another key"),
])
@pytest.mark.slow
def test_each_bad_key_from_is_one_line_and_exit_2(played: Path, tmp_path: Path, change: dict[str, object],
                                                  args: list[str], message: str) -> None:
    key_file = _with(played, "k.json", **change)
    if "OTHER" in args:
        # Another tournament of the same settings in this database, with another key.
        other = _run(*SMALL, "--db", str(tmp_path / "o.db"), "--quiet")
        assert other.returncode == 0
        args = [a.replace("OTHER", str(tmp_path / "o.db")) for a in args]
    else:
        args = [*args, "--db", str(tmp_path / "n.db")]
    before = (tmp_path / "o.db").read_bytes() if (tmp_path / "o.db").exists() else None
    done = _run(*[a for a in SMALL if a not in ("--best-of", "1") or "--best-of" not in args],
                *args, "--key-from", str(key_file), "--quiet")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert message in done.stderr
    assert not (tmp_path / "n.db").exists()
    if before is not None:
        assert (tmp_path / "o.db").read_bytes() == before


@pytest.mark.slow
def test_an_older_database_s_tournament_is_refused_for_resume_and_recheck(tmp_path: Path) -> None:
    # Dumped from a database written before tournaments had keys: a best-of-one round robin of
    # a=random@dimir and b=random@gruul, seed 1.
    db = tmp_path / "v1.db"
    with sqlite3.connect(db) as conn:
        conn.executescript((Path(__file__).parent / "v1_results.sql").read_text())
    before = db.read_bytes()
    args = ["--entrant", "a=random@dimir", "--entrant", "b=random@gruul", "--best-of", "1",
            "--seed", "1", "--db", str(db), "--quiet"]
    for extra in (["--resume"], []):
        done = _run(*args, *extra)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.splitlines()
        assert lines[0].startswith("spellstack tournament: warning: --seed 1")
        assert len(lines) == 2 and "recorded before tournaments had keys" in lines[1]
        assert db.read_bytes() == before


@pytest.mark.slow
def test_a_results_file_of_a_seeded_run_plays_again_from_its_key(tmp_path: Path) -> None:
    seeded = _run(*SMALL, "--seed", "3", "--db", str(tmp_path / "1.db"), "--results",
                  str(tmp_path / "1.json"), "--quiet")
    assert seeded.returncode == 0
    again = _run(*SMALL, "--key-from", str(tmp_path / "1.json"), "--db", str(tmp_path / "2.db"),
                 "--results", str(tmp_path / "2.json"), "--quiet")
    assert again.returncode == 0, again.stderr
    assert again.stderr == ""  # the key is the file's: no --seed given, no warning
    assert (tmp_path / "2.json").read_bytes() == (tmp_path / "1.json").read_bytes()


@pytest.mark.slow
def test_a_new_tournament_in_an_older_database_brings_it_to_the_current_version(tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    with sqlite3.connect(db) as conn:
        conn.executescript((Path(__file__).parent / "v1_results.sql").read_text())
        old = conn.execute("SELECT * FROM games WHERE tournament = 1 ORDER BY game_id").fetchall()
    done = _run(*SMALL, "--db", str(db), "--quiet")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (3,)
        # The old games keep every value, with no time left on clocks they never had.
        again = conn.execute("SELECT * FROM games WHERE tournament = 1 ORDER BY game_id").fetchall()
        assert [row[:-1] for row in again] == old and {row[-1] for row in again} == {"[]"}
        assert conn.execute("SELECT secret FROM tournaments WHERE id = 1").fetchone() == (None,)
