"""A running tournament's ``statistics()`` (``RunningTournament``, the handle ``play_tournament``
keeps up to date): rounds paired, matches begun and decided, games played, held by the
database, in flight and in all, as the tournament goes and at its end, resumed or not."""

from __future__ import annotations

from pathlib import Path

from spellstack.cards import load_cards
from spellstack.tournament import (
    GameRow,
    RunningTournament,
    TournamentSettings,
    TournamentStatistics,
    parse_entrant,
    play_tournament,
)

CARDS = load_cards()
FOUR = tuple(parse_entrant(text, CARDS) for text in
             ("a=random@gruul", "b=random@dimir", "c=random@orzhov", "d=random@gruul"))
SETTINGS = TournamentSettings(FOUR, "round-robin", 1, 7)
"""Three rounds of two best-of-one matches: six games."""
DONE = TournamentStatistics(rounds_paired=3, matches_started=6, matches_done=6, games_played=6,
                            games_held=0, games_in_flight=0, games_at_most=6)


async def test_the_handle_follows_the_tournament_as_it_is_played(tmp_path: Path) -> None:
    running = RunningTournament()
    assert running.statistics() == TournamentStatistics(rounds_paired=0, matches_started=0, matches_done=0,
                                                         games_played=0, games_held=0, games_in_flight=0,
                                                         games_at_most=0)
    seen: list[TournamentStatistics] = []

    def progress(done: int, total: int, row: GameRow | None) -> None:
        stats = running.statistics()
        seen.append(stats)
        assert (stats.games_played, stats.games_at_most) == (done, total)
        assert stats.games_in_flight <= 3  # the games at once
        assert stats.matches_done <= stats.matches_started <= 6

    # Each game written as it ends, so that progress is told of it before anything else
    # happens (in batches, it is told once its batch is written, when the handle is further on).
    played = await play_tournament(SETTINGS, db=tmp_path / "t.db", concurrency=3, progress=progress,
                                   running=running, batch_seconds=0.0)
    assert len(played.rows) == 6
    assert running.statistics() == DONE
    assert [s.games_played for s in seen if s.games_played] == [1, 2, 3, 4, 5, 6]
    # The games were played three at once: while the first ended, others were still playing.
    assert seen[1].games_in_flight > 0 and seen[1].rounds_paired == 3

    # Resumed, the database holds every game: none is played again.
    again = RunningTournament()
    await play_tournament(SETTINGS, db=tmp_path / "t.db", resume=True, running=again)
    assert again.statistics() == TournamentStatistics(rounds_paired=3, matches_started=6, matches_done=6,
                                                      games_played=0, games_held=6, games_in_flight=0,
                                                      games_at_most=6)
