"""The runner in process: the same results however many games run at once, a stopped
tournament resumed to the same end, the results database's refusals, Swiss rounds paired from
the rounds before."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from spellstack.cards import load_cards
from spellstack.tournament import (
    PAIRING_VERSION,
    GameRow,
    Played,
    StoreError,
    TournamentSettings,
    WorkerSetupError,
    parse_entrant,
    play_tournament,
    report,
    results_json,
    settings_key,
)

CARDS = load_cards()
FOUR = tuple(parse_entrant(text, CARDS) for text in
             ("a=random@gruul", "b=random@dimir", "c=random@orzhov", "d=random@gruul"))
FIVE = (*FOUR, parse_entrant("e=random@dimir", CARDS))


def _settings(entrants: tuple = FOUR, fmt: str = "round-robin", best_of: int = 1,  # type: ignore[type-arg]
              seed: int = 7, rounds: int = 0) -> TournamentSettings:
    return TournamentSettings(entrants, fmt, best_of, seed, rounds)


def _games(played: Played) -> list[GameRow]:
    """The rows without their timing."""
    return [GameRow(*[getattr(r, f) for f in GameRow.__slots__ if f != "seconds"])  # type: ignore[arg-type]
            for r in played.rows]


@pytest.mark.slow
async def test_the_results_are_the_same_one_game_at_a_time_and_eight_at_once(tmp_path: Path) -> None:
    one = await play_tournament(_settings(best_of=3), db=tmp_path / "1.db", concurrency=1)
    eight = await play_tournament(_settings(best_of=3), db=tmp_path / "8.db", concurrency=8)
    assert results_json(report(one)) == results_json(report(eight))
    # Six matches of best of three: two or three games each.
    assert 12 <= len(one.rows) <= 18
    assert len({r.game_id for r in one.rows}) == len(one.rows)
    assert len({r.seed for r in one.rows}) == len(one.rows)
    # A different seed is a different tournament.
    other = await play_tournament(_settings(best_of=3, seed=8), db=tmp_path / "8.db")
    assert [r.seed for r in other.rows] != [r.seed for r in one.rows]


async def test_every_game_shown_done_is_in_the_database(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int, row: GameRow | None) -> None:
        if row is not None:
            with sqlite3.connect(tmp_path / "r.db") as db:
                seen.append((done, db.execute("SELECT COUNT(*) FROM games").fetchone()[0]))

    played = await play_tournament(_settings(), db=tmp_path / "r.db", concurrency=3,
                                   progress=progress)
    # Written in batches: a game is shown done once its batch is in (with it, maybe more).
    assert [done for done, _ in seen] == list(range(1, len(played.rows) + 1))
    assert all(held >= done for done, held in seen), seen
    assert seen[0] == (1, 1)  # the first game is written at once


async def test_with_no_wait_every_game_is_written_as_it_ends(tmp_path: Path) -> None:
    seen: list[int] = []

    def progress(done: int, total: int, row: GameRow | None) -> None:
        if row is not None:
            with sqlite3.connect(tmp_path / "r.db") as db:
                seen.append(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            assert seen[-1] == done  # recorded before the tournament goes on

    played = await play_tournament(_settings(), db=tmp_path / "r.db", concurrency=3,
                                   progress=progress, batch_seconds=0.0)
    assert seen == list(range(1, len(played.rows) + 1))
    with sqlite3.connect(tmp_path / "r.db") as db:
        stored = db.execute("SELECT game_id, seed, players, winner, reason, turns, decisions, "
                            "final_hash FROM games ORDER BY round, match, number").fetchall()
    names = [e.name for e in FOUR]
    assert stored == [(r.game_id, r.seed, json.dumps([names[i] for i in r.entrants]),
                       names[r.entrants[r.winner]] if r.winner >= 0 else None, r.reason, r.turns,
                       r.decisions, r.final_hash) for r in played.rows]


@pytest.mark.slow
async def test_a_stopped_tournament_resumes_to_the_same_end(tmp_path: Path) -> None:
    whole = await play_tournament(_settings(best_of=3), db=tmp_path / "whole.db")
    with trio.CancelScope() as scope:
        def stop_after_five(done: int, total: int, row: GameRow | None) -> None:
            if done == 5:
                scope.cancel()
        # Each game written as it ends: stopped after the fifth, with games still to play.
        await play_tournament(_settings(best_of=3), db=tmp_path / "part.db", concurrency=4,
                              progress=stop_after_five, batch_seconds=0.0)
    with sqlite3.connect(tmp_path / "part.db") as db:
        kept = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 5 <= kept < len(whole.rows)
    played: list[GameRow] = []
    resumed = await play_tournament(
        _settings(best_of=3), db=tmp_path / "part.db", resume=True,
        progress=lambda done, total, row: played.append(row) if row is not None else None)
    assert _games(resumed) == _games(whole)
    assert results_json(report(resumed)) == results_json(report(whole))
    # Only the missing games were played again (the progress counts those recorded too).
    with sqlite3.connect(tmp_path / "part.db") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == len(whole.rows)


async def test_a_tournament_run_again_is_played_again_and_checked_against_the_database(
        tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    first = await play_tournament(_settings(), db=db)
    again = await play_tournament(_settings(), db=db, concurrency=2)
    assert (again.checked, again.mismatched) == (6, [])
    assert _games(again) == _games(first)
    # A recorded game that the same seed no longer gives is reported, and the record kept.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET final_hash = 'tampered' WHERE game_id = 'r2-m1-g1'")
    third = await play_tournament(_settings(), db=db)
    assert [(before.game_id, before.final_hash) for before, _ in third.mismatched] == [
        ("r2-m1-g1", "tampered")]
    assert [now.final_hash for _, now in third.mismatched] == [
        r.final_hash for r in first.rows if r.game_id == "r2-m1-g1"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 6
        assert conn.execute("SELECT final_hash FROM games WHERE game_id = 'r2-m1-g1'"
                            ).fetchone()[0] == "tampered"


async def test_the_database_refuses_what_it_can_not_do(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    await play_tournament(_settings(), db=db)
    with pytest.raises(StoreError, match="no tournament with these settings to resume"):
        await play_tournament(_settings(seed=99), db=db, resume=True)
    finished = await play_tournament(_settings(), db=db, resume=True)  # nothing left to play
    assert len(finished.rows) == 6
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=r"junk\.db: not a results database"):
        await play_tournament(_settings(), db=junk)
    with pytest.raises(StoreError, match="is a folder"):
        await play_tournament(_settings(), db=tmp_path)


def test_a_swiss_tournament_is_keyed_by_its_pairing_rule_and_a_round_robin_is_not() -> None:
    assert PAIRING_VERSION == 2  # 1 was the greedy top-down search
    assert _settings(fmt="swiss").as_dict()["pairing"] == 2
    # A round robin's settings, and so its key, are as before there was a pairing rule.
    assert "pairing" not in _settings().as_dict()


async def test_a_swiss_tournament_paired_by_the_older_rule_is_not_resumed_nor_mixed(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    swiss = _settings(fmt="swiss")
    first = await play_tournament(swiss, db=db)
    # As a database written before the pairing rule had a version holds it: no "pairing".
    older = {k: v for k, v in swiss.as_dict().items() if k != "pairing"}
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tournaments SET key = ?, settings = ?",
                     (settings_key(older), json.dumps(older, sort_keys=True)))
    with pytest.raises(StoreError, match=r"^[^\n]*r\.db: this Swiss tournament was paired by pairing rule 1, "
                                         r"and this spellstack pairs by rule 2 \(a least-cost matching\), so "
                                         r"its rounds can't be resumed; start it again without --resume[^\n]*$"):
        await play_tournament(swiss, db=db, resume=True)
    # Started again without --resume: a new tournament beside the old one, whose games stay.
    again = await play_tournament(swiss, db=db)
    assert again.checked == 0 and _games(again) == _games(first)
    with sqlite3.connect(db) as conn:
        held = conn.execute("SELECT t.settings, COUNT(*) FROM games g JOIN tournaments t "
                            "ON g.tournament = t.id GROUP BY t.id ORDER BY t.id").fetchall()
    assert [("pairing" in json.loads(text), games) for text, games in held] == [
        (False, len(first.rows)), (True, len(first.rows))]
    # Other settings than the older tournament's: refused as any tournament the file lacks.
    with pytest.raises(StoreError, match="no tournament with these settings to resume"):
        await play_tournament(_settings(fmt="swiss", seed=8), db=db, resume=True)


async def test_a_round_robin_of_five_meets_every_pair_once_and_each_sits_out_once(tmp_path: Path) -> None:
    played = await play_tournament(_settings(FIVE), db=tmp_path / "r.db")
    pairs = [frozenset(spec.entrants) for spec, _ in played.matches if spec is not None]
    assert len(pairs) == len(set(pairs)) == 10
    assert sorted(e for _, e in played.sat_out) == [0, 1, 2, 3, 4]
    rep = report(played)
    # No points for sitting out: ten matches of best of one, 3 points each or 1 + 1.
    assert sum(s.points for s in rep.standings) in range(20, 31)
    assert all(s.byes == 0 for s in rep.standings)


async def test_swiss_pairs_each_round_from_the_ones_before_with_a_bye(tmp_path: Path) -> None:
    played = await play_tournament(_settings(FIVE, "swiss", best_of=3), db=tmp_path / "s.db")
    assert played.settings.round_count() == 3  # ceil(log2(5))
    byes = [result.a for spec, result in played.matches if spec is None]
    assert len(byes) == 3 and len(set(byes)) == 3  # one a round, never twice to one entrant
    met = [frozenset(spec.entrants) for spec, _ in played.matches if spec is not None]
    assert len(met) == 6 and len(set(met)) == 6  # no rematch
    rep = report(played)
    assert sum(s.byes for s in rep.standings) == 3
    doc = json.loads(results_json(rep))
    assert [m["round"] for m in doc["matches"]] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert "seconds" not in doc["games"][0]
    assert "seconds" in json.loads(results_json(rep, timings=True))["games"][0]


@pytest.mark.slow
async def test_workers_that_can_not_load_a_bot_stop_the_tournament_with_one_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The bot's module is importable here (on sys.path) but not in a fresh worker process
    # (not on PYTHONPATH), so every worker refuses its setup.
    (tmp_path / "here_only_bot.py").write_text(
        "from spellstack.bots import RandomBot\n\nclass HereOnly(RandomBot):\n    pass\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("PYTHONPATH", raising=False)
    # Trusted: loaded here and in the workers (untrusted, its bot process could not load it
    # either, and the entrant would be refused before any worker starts).
    entrants = (parse_entrant("x=here_only_bot:HereOnly@gruul", CARDS, trust=True), FOUR[1])
    settings = replace(_settings(entrants), trust=True)
    with pytest.raises(WorkerSetupError, match="here_only_bot"):
        await play_tournament(settings, db=tmp_path / "r.db", jobs=2)


async def test_the_results_file_keeps_the_sign_of_an_elo_with_no_number(tmp_path: Path) -> None:
    # Two entrants, best of one: one game, so the pair's score is 1 or 0 (seed 7: not drawn).
    played = await play_tournament(_settings(FOUR[:2], seed=7), db=tmp_path / "t.db")
    [pair] = json.loads(results_json(report(played)))["pairs"]
    assert pair["score"] in (0, 1) and pair["elo"] is None
    assert pair["elo_limit"] == ("+inf" if pair["score"] == 1 else "-inf")


async def test_a_2_0_pair_and_a_0_2_pair_differ_in_the_results_file(tmp_path: Path) -> None:
    # Seed 7, best of three: a beats b 2-0 and loses to c 0-2; neither score has an Elo number,
    # and the file keeps which way each went.
    played = await play_tournament(_settings(best_of=3), db=tmp_path / "t.db")
    pairs = {(p["a"], p["b"]): p for p in json.loads(results_json(report(played)))["pairs"]}
    won, lost = pairs["a", "b"], pairs["a", "c"]
    assert (won["wins"], won["losses"], won["draws"], won["score"]) == (2, 0, 0, 1)
    assert (lost["wins"], lost["losses"], lost["draws"], lost["score"]) == (0, 2, 0, 0)
    assert won["elo"] is None and won["elo_limit"] == "+inf"
    assert lost["elo"] is None and lost["elo_limit"] == "-inf"
    assert {k: v for k, v in won.items() if k not in ("b", "wins", "losses", "score")} != {
        k: v for k, v in lost.items() if k not in ("b", "wins", "losses", "score")}
    # A pair with a number has no limit.
    assert all(p["elo_limit"] is None for p in pairs.values() if p["elo"] is not None)
    assert any(p["elo"] is not None for p in pairs.values())
