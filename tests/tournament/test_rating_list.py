"""The rating list: every game of results databases, each once, rated together (Bradley-Terry
Elo with a bootstrap interval, openskill), checked against numbers worked out independently."""

from __future__ import annotations

import contextlib
import io
import json
import math
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from spellstack.cli import main
from spellstack.tournament import (
    GameRow,
    ListEntrant,
    ListGame,
    ListGames,
    RatingList,
    RatingListError,
    ResultsStore,
    StoreError,
    format_rating_list,
    pair_line,
    rating_list,
    rating_list_json,
    read_list_games,
)

HERE = Path(__file__).parent
KEY = bytes(range(32))
"""The secret key of the hand-built tournaments."""


def _games(n: int, *results: tuple[int, int, float]) -> ListGames:
    """Games between entrants e0..e(n-1), each its own bootstrap unit."""
    entrants = tuple(ListEntrant(f"e{i}", "random", "gruul", ()) for i in range(n))
    return ListGames(entrants, tuple(ListGame(a, b, s, k) for k, (a, b, s) in enumerate(results)))


def _elo(rl: RatingList) -> dict[str, float | None]:
    return {line.entrant.name: line.elo for line in rl.lines}


def _margin(rl: RatingList) -> dict[str, float | None]:
    return {line.entrant.name: line.elo_margin for line in rl.lines}


def _record(wins: int, losses: int, draws: int = 0) -> list[tuple[int, int, float]]:
    """e0's games against e1, seats alternating."""
    scores = [1.0] * wins + [0.0] * losses + [0.5] * draws
    return [(0, 1, s) if k % 2 == 0 else (1, 0, 1.0 - s) for k, s in enumerate(scores)]


# --- The fit -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("wins", "losses", "draws"), [(3, 1, 0), (2, 0, 2), (150, 50, 0)])
def test_two_entrants_at_75_percent_are_190_85_apart(wins: int, losses: int, draws: int) -> None:
    rl = rating_list(_games(2, *_record(wins, losses, draws)), resamples=20)
    elo = _elo(rl)
    assert elo["e0"] is not None and elo["e1"] is not None
    # The score's Elo, -400 log10(1/s - 1), s = 0.75 (a draw half a win).
    assert elo["e0"] - elo["e1"] == pytest.approx(-400 * math.log10(1 / 0.75 - 1), abs=1e-6)
    assert round(elo["e0"] - elo["e1"], 2) == 190.85
    assert elo["e0"] + elo["e1"] == pytest.approx(0.0, abs=1e-9)  # average 0


def test_the_fit_at_85_percent_is_the_pair_lines_elo_and_the_interval_theirs() -> None:
    # 340 - 60 - 0: Elo 301.33 +/- 48.44 (the pair line, a normal approximation). Each of two
    # entrants averaging 0 is half the difference from 0, so its margin is half the pair's.
    rl = rating_list(_games(2, *_record(340, 60)))
    elo, margin = _elo(rl), _margin(rl)
    assert elo["e0"] is not None and margin["e0"] is not None
    assert round(2 * elo["e0"], 2) == 301.33
    line = pair_line(0, 1, "e0", "e1", 340, 60, 0)
    assert line.elo_margin is not None and round(line.elo_margin, 2) == 48.44
    assert 2 * margin["e0"] == pytest.approx(48.44, rel=0.05)
    assert margin["e1"] == margin["e0"]


def test_three_entrants_in_a_balanced_cycle_rate_equal() -> None:
    cycle = [(0, 1, 1.0), (0, 1, 1.0), (1, 0, 1.0),   # e0 beats e1 2-1
             (1, 2, 1.0), (2, 1, 0.0), (2, 1, 1.0),   # e1 beats e2 2-1
             (2, 0, 1.0), (0, 2, 0.0), (0, 2, 1.0)]   # e2 beats e0 2-1
    rl = rating_list(_games(3, *cycle), resamples=20)
    assert [line.elo for line in rl.lines] == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    # Not a cycle: e0 beats e2 2-1 instead, and e0 leads.
    rl = rating_list(_games(3, *cycle[:6], (0, 2, 1.0), (2, 0, 0.0), (2, 0, 1.0)), resamples=20)
    assert rl.lines[0].entrant.name == "e0" and rl.lines[0].elo is not None and rl.lines[0].elo > 50


def test_the_average_or_an_anchor_sets_the_zero() -> None:
    games = _games(3, *_record(6, 2), (1, 2, 1.0), (2, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0), (0, 2, 1.0))
    base = _elo(rating_list(games, resamples=20))
    moved = _elo(rating_list(games, average=1500, resamples=20))
    anchored = rating_list(games, anchor=("e1", 100.0), resamples=50)
    assert sum(v for v in moved.values() if v is not None) / 3 == pytest.approx(1500)
    for name, elo in base.items():
        assert elo is not None
        assert moved[name] == pytest.approx(elo + 1500)
        assert _elo(anchored)[name] == pytest.approx(elo - base["e1"] + 100)  # type: ignore[operator]
    assert _elo(anchored)["e1"] == 100.0 and _margin(anchored)["e1"] == 0.0
    assert "e1 fixed at 100" in format_rating_list(anchored)


@pytest.mark.slow
def test_the_bootstrap_interval_is_the_same_on_two_runs() -> None:
    results = [(a, b, [1.0, 0.0, 0.5, 1.0, 0.0][(a * 7 + b * 3 + k) % 5])
               for k in range(12) for a, b in ((0, 1), (1, 2), (2, 3), (3, 0), (0, 2))]
    first = rating_list(_games(4, *results), resamples=300)
    assert all(line.elo_margin is not None and line.elo_margin > 0 for line in first.lines)
    again = rating_list(_games(4, *results), resamples=300)
    assert again == first and format_rating_list(again) == format_rating_list(first)
    # Seeded, not fixed: another seed draws other resamples.
    assert _margin(rating_list(_games(4, *results), resamples=300, seed=2)) != _margin(first)


def test_an_interval_is_unbounded_when_many_resamples_have_no_finite_fit() -> None:
    # At 3-1, a quarter of the resamples or more are 4-0 (or 0-4): no finite fit in them.
    few = rating_list(_games(2, *_record(3, 1)))
    assert [line.elo_margin for line in few.lines] == [None, None]
    assert format_rating_list(few).splitlines()[1].split()[-4] == "unbounded"
    # At 150-50 none is.
    many = rating_list(_games(2, *_record(150, 50)), resamples=200)
    assert all(line.elo_margin is not None for line in many.lines)


def test_an_entrant_that_lost_nearly_every_game_leaves_the_others_intervals_bounded() -> None:
    # e2 won 1 of its 20 games: a third of the resamples leave that game out, and in them e2
    # lost every game (-inf) while e0 and e1, fitted without it, stay finite.
    results = [*_record(20, 20), *[(0, 2, 1.0)] * 10, *[(1, 2, 1.0)] * 9, (2, 1, 1.0)]
    rl = rating_list(_games(3, *results), resamples=300)
    margin = _margin(rl)
    assert margin["e2"] is None
    assert margin["e0"] is not None and margin["e1"] is not None and margin["e0"] < 200


def test_an_entrant_that_won_or_lost_every_game_is_unbounded() -> None:
    # e0 won all 3 games against e1; e1 and e2 split theirs; e3 lost both against e2.
    rl = rating_list(_games(4, *_record(3, 0), (1, 2, 1.0), (2, 1, 1.0), (2, 3, 1.0), (3, 2, 0.0)),
                     resamples=50)
    line = {x.entrant.name: x for x in rl.lines}
    assert (line["e0"].elo, line["e0"].elo_limit, line["e0"].elo_margin) == (None, "+inf", None)
    assert (line["e3"].elo, line["e3"].elo_limit) == (None, "-inf")
    # e1 and e2 are fitted on their own games: 1-1 is even.
    assert line["e1"].elo == pytest.approx(0.0, abs=1e-6) and line["e2"].elo == pytest.approx(0.0, abs=1e-6)
    assert [x.entrant.name for x in rl.lines][::3] == ["e0", "e3"]
    text = format_rating_list(rl)
    assert "e0 won all 3 of its games: its Elo is unbounded" in text
    assert "e3 lost all 2 of its games: its Elo is unbounded" in text
    assert "   1  e0" in text and "unbounded" in text.splitlines()[1]
    with pytest.raises(RatingListError, match=r"--anchor 'e0': won all 3 of its games, so it has "
                                              r"no finite rating to fix"):
        rating_list(_games(4, *_record(3, 0), (1, 2, 1.0), (2, 1, 1.0)), anchor=("e0", 0.0))


def test_sets_whose_games_all_went_one_way_are_rated_apart() -> None:
    # e0 and e1 split, e2 and e3 split, and e0 and e1 won every game against e2 and e3.
    rl = rating_list(_games(4, (0, 1, 1.0), (1, 0, 1.0), (2, 3, 1.0), (3, 2, 1.0), (0, 2, 1.0),
                            (3, 1, 0.0)), resamples=20)
    assert [x.entrant.name for x in rl.lines] == ["e0", "e1", "e2", "e3"]
    assert [x.elo for x in rl.lines] == pytest.approx([0.0] * 4, abs=1e-6)
    assert [x.rank for x in rl.lines] == [1, 2, 3, 4] and rl.groups == 1
    text = format_rating_list(rl)
    assert "e0 and e1: rated on their own" in text and "e2 and e3: rated on their own" in text


def test_groups_with_no_games_between_them_are_rated_on_their_own() -> None:
    rl = rating_list(_games(4, *_record(3, 1), (2, 3, 1.0), (3, 2, 1.0)), resamples=20)
    assert rl.groups == 2
    assert [(x.group, x.rank, x.entrant.name) for x in rl.lines] == [
        (1, 1, "e0"), (1, 2, "e1"), (2, 1, "e2"), (2, 2, "e3")]
    assert _elo(rl)["e2"] == pytest.approx(0.0, abs=1e-6)  # each group averages 0
    assert _elo(rl)["e0"] == pytest.approx(95.42, abs=0.01)
    text = format_rating_list(rl)
    assert text.startswith("rank  group  entrant")
    assert ("2 groups of entrants have no chain of games between them, so each is rated on its own "
            "and ranked apart (group 1: e0 and e1; group 2: e2 and e3)") in text


def test_min_games_leaves_entrants_out_of_the_list_not_out_of_the_fit() -> None:
    games = _games(3, *_record(5, 3), (1, 2, 1.0), (0, 2, 0.0))
    full = rating_list(games, resamples=20)
    short = rating_list(games, resamples=20, min_games=3)
    assert [x.entrant.name for x in short.lines] == ["e0", "e1"] and short.left_out == 1
    assert _elo(short) == {k: v for k, v in _elo(full).items() if k != "e2"}
    assert "1 entrant with fewer than 3 games left out of the list; their games count in every " \
           "rating" in format_rating_list(short)


def test_an_anchor_that_names_no_entrant_says_the_nearest() -> None:
    with pytest.raises(RatingListError, match=r"--anchor 'e11': no entrant of that name \(did you mean 'e1'\?\)"):
        rating_list(_games(2, *_record(2, 1)), anchor=("e11", 0.0))


# --- Reading the databases ---------------------------------------------------------------------


def _entrant(name: str, bot: str = "random", deck: str = "gruul") -> dict[str, Any]:
    cards = {"gruul": ["Forest"] * 30 + ["Grizzly Bears"] * 30,
             "dimir": ["Island"] * 30 + ["Typhoid Rats"] * 30,
             "gruul-shuffled": ["Grizzly Bears"] * 30 + ["Forest"] * 30}[deck]
    return {"name": name, "bot": bot, "deck": deck.removesuffix("-shuffled"), "cards": cards}


def _settings(*entrants: dict[str, Any], seed: int = 1, **more: Any) -> dict[str, Any]:
    return {"entrants": list(entrants), "format": "round-robin", "rounds": 1, "best_of": 1,
            "seed": seed, "repeat": 1, "deadline": 30.0, **more}


def _row(match: int, a: int, b: int, winner: int, number: int = 1, seed: int | None = None) -> GameRow:
    """Game ``number`` of match ``match`` (round 1) between entrants a and b; winner a seat or -1."""
    return GameRow(f"r1-m{match}-g{number}", 1, match, number, match if seed is None else seed,
                   (a, b), (0, 0), 0, 0, (0, 0), winner, "test", 1, 1, "0" * 32)


def _db(path: Path, *tournaments: tuple[dict[str, Any], Sequence[GameRow]]) -> Path:
    """A results database holding ``tournaments``, written through ResultsStore."""
    for settings, rows in tournaments:
        store = ResultsStore(path)
        try:
            store.open_tournament(settings, tuple(e["name"] for e in settings["entrants"]),
                                  resume=False, key=KEY)
            for row in rows:
                store.record(row)
        finally:
            store.close()
    return path


ONE = _settings(_entrant("a"), _entrant("b", "heuristic"))
TWO = _settings(_entrant("b", "heuristic"), _entrant("c", deck="dimir"), seed=2)
ONE_ROWS = [_row(m, 0, 1, [0, 1, 1, 0, 1, 1][m - 1]) for m in range(1, 7)]
TWO_ROWS = [_row(m, m % 2, 1 - m % 2, 0) for m in range(1, 5)] + [_row(5, 0, 1, -1)]


def test_a_game_found_in_two_databases_counts_once(tmp_path: Path) -> None:
    a = _db(tmp_path / "a.db", (ONE, ONE_ROWS[:3]))
    b = _db(tmp_path / "b.db", (ONE, ONE_ROWS[2:]))
    games = read_list_games([a, b])
    assert (len(games.games), games.duplicates, games.tournaments) == (6, 1, 1)
    assert [g.score for g in games.games] == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    # The same game id with another seed (the same settings played with another key) is another game.
    c = _db(tmp_path / "c.db", (ONE, [_row(1, 0, 1, 1, seed=99)]))
    assert (len(read_list_games([a, c]).games), read_list_games([a, c]).duplicates) == (4, 0)


@pytest.mark.slow
def test_two_databases_rate_as_one_database_holding_both(tmp_path: Path) -> None:
    # b.db started TWO before it got ONE's last games: ONE's games are rated where ONE was first
    # found, in a.db, as one database holding both has them.
    a = _db(tmp_path / "a.db", (ONE, ONE_ROWS[:4]))
    b = _db(tmp_path / "b.db", (TWO, TWO_ROWS), (ONE, ONE_ROWS[2:]))
    both = _db(tmp_path / "both.db", (ONE, ONE_ROWS), (TWO, TWO_ROWS))
    split, whole = read_list_games([a, b]), read_list_games([both])
    assert split.games == whole.games and split.entrants == whole.entrants
    from_split, from_whole = rating_list(split), rating_list(whole)
    assert from_split == from_whole
    assert format_rating_list(from_split) == format_rating_list(from_whole)
    doc = json.loads(rating_list_json(from_split, split))
    assert doc["entrants"] == json.loads(rating_list_json(from_whole, whole))["entrants"]
    assert (doc["games"], doc["duplicates"], doc["tournaments"]) == (11, 2, 2)


def test_an_entrant_is_its_name_bot_and_deck_list(tmp_path: Path) -> None:
    other_bot = _settings(_entrant("a", "heuristic"), _entrant("c"), seed=3)
    other_deck = _settings(_entrant("a", deck="dimir"), _entrant("c"), seed=4)
    same = _settings(_entrant("a", deck="gruul-shuffled"), _entrant("c"), seed=5)  # cards in another order
    db = _db(tmp_path / "x.db", (ONE, ONE_ROWS[:2]), (other_bot, [_row(1, 0, 1, 0)]),
             (other_deck, [_row(1, 1, 0, 0)]), (same, [_row(1, 0, 1, 1)]))
    games = read_list_games([db])
    assert [e.name for e in games.entrants] == ["a", "b", "a (2)", "c", "a (3)"]
    assert games.notes == ("a (2) is not a: the same name, another bot (heuristic, not random)",
                           "a (3) is not a: the same name, another deck list (dimir)")
    text = format_rating_list(rating_list(games, resamples=20))
    assert "a (2) is not a: the same name, another bot (heuristic, not random)" in text
    assert games.games[-1] == ListGame(0, 3, 0.0, 4)  # "same" is entrant a again


def test_a_tournament_played_in_pairs_is_resampled_pair_by_pair(tmp_path: Path) -> None:
    # Every pair split: game 1 won by the first seat, game 2 (seats reversed) by the first
    # seat again. Drawn as pairs, every resample is 50%: no spread at all. Drawn game by game,
    # it spreads.
    rows = [row for m in range(1, 11) for row in (_row(m, 0, 1, 0, 1), _row(m, 1, 0, 0, 2))]
    paired = _db(tmp_path / "paired.db", (_settings(_entrant("a"), _entrant("b"), game_pairs=True), rows))
    single = _db(tmp_path / "single.db", (_settings(_entrant("a"), _entrant("b")), rows))
    in_pairs = rating_list(read_list_games([paired]), resamples=200)
    alone = rating_list(read_list_games([single]), resamples=200)
    assert [line.elo_margin for line in in_pairs.lines] == [0.0, 0.0]
    assert all(line.elo_margin is not None and line.elo_margin > 50 for line in alone.lines)
    assert "(a pair of games drawn whole)" in format_rating_list(in_pairs)
    assert "(a pair of games drawn whole)" not in format_rating_list(alone)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A real tournament's database and --results file: three games of best of 3."""
    folder = tmp_path_factory.mktemp("played")
    db, results = folder / "t.db", folder / "t.json"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["tournament", "--entrant", "random@gruul", "--entrant", "heuristic@gruul",
                     "--best-of", "3", "--seed", "1", "--db", str(db), "--results", str(results),
                     "--quiet"]) == 0
    return db, json.loads(results.read_text())


def test_a_current_database_rates_as_its_tournament_did(played: tuple[Path, dict[str, Any]]) -> None:
    db, results = played
    games = read_list_games([db])
    assert len(games.games) == len(results["games"])
    assert [e.name for e in games.entrants] == ["random-gruul", "heuristic-gruul"]
    rl = rating_list(games, resamples=50)
    # openskill, every game in order: the tournament's own ratings.
    assert [{"entrant": x.entrant.name, "mu": round(x.mu, 4), "sigma": round(x.sigma, 4),
             "ordinal": round(x.ordinal, 4)} for x in sorted(rl.lines, key=lambda x: -x.ordinal)] == \
        results["ratings"]
    # Its pair line's Elo is the fitted difference.
    [pair] = results["pairs"]
    elo = _elo(rl)
    assert round(elo[pair["a"]] - elo[pair["b"]], 1) == pair["elo"]  # type: ignore[operator]


def test_a_database_written_before_this_version_is_read(tmp_path: Path) -> None:
    old = tmp_path / "v1.db"
    with contextlib.closing(sqlite3.connect(old)) as conn:
        conn.executescript((HERE / "v1_results.sql").read_text())
    before = old.read_bytes()
    games = read_list_games([old])
    assert [e.name for e in games.entrants] == ["a", "b"] and games.games == (ListGame(0, 1, 1.0, 0),)
    assert old.read_bytes() == before  # read, not brought to the new version
    assert [x.entrant.name for x in rating_list(games, resamples=10).lines] == ["a", "b"]


def test_what_is_not_a_database_of_games_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"missing\.db: no such file$"):
        read_list_games([tmp_path / "missing.db"])
    assert not (tmp_path / "missing.db").exists()
    (tmp_path / "notes.txt").write_text("not a database at all, " * 100)
    with pytest.raises(StoreError, match=r"notes\.txt: not a results database \(file is not a database\)"):
        read_list_games([tmp_path / "notes.txt"])
    (tmp_path / "empty.db").touch()
    with pytest.raises(StoreError, match=r"empty\.db: not a results database \(it has no tournaments"):
        read_list_games([tmp_path / "empty.db"])
    assert (tmp_path / "empty.db").read_bytes() == b""
    newer = _db(tmp_path / "newer.db", (ONE, ONE_ROWS))
    with contextlib.closing(sqlite3.connect(newer)) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match=r"newer\.db: results database schema version 99, newer than"):
        read_list_games([newer])
    none = _db(tmp_path / "none.db", (ONE, []))
    with pytest.raises(RatingListError, match=r"no games: .*none\.db holds no finished game"):
        read_list_games([none])
