"""The games between two entrants don't depend on who else entered (nor on the format), and
``repeat`` plays a round robin's schedule over again, every pair meeting once a pass with the
seats swapped."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.tournament import (
    GameRow,
    InProcess,
    Played,
    TournamentSettings,
    parse_entrant,
    play_tournament,
    report,
    results_json,
    run_tournament,
    settings_key,
    untimed,
)

CARDS = load_cards()
A, B = (parse_entrant(text, CARDS) for text in ("a=random@gruul", "b=random@dimir"))
# Others that might upset the two: the stronger bot, and the same decks under other names.
OTHERS = tuple(parse_entrant(text, CARDS) for text in
               ("x=heuristic@orzhov", "y=random@gruul", "z=heuristic@dimir"))


def _between(played: Played, one: str, other: str) -> list[tuple[tuple[str, ...], GameRow]]:
    """The games of ``one`` and ``other``: the players' names in seat order, and the row
    without what depends on the rest of the field (its id, round, match, entrant indexes,
    timing)."""
    names = [e.name for e in played.settings.entrants]
    out = []
    for row in played.rows:
        players = tuple(names[i] for i in row.entrants)
        if set(players) == {one, other}:
            out.append((players, replace(untimed(row), game_id="", round=0, match=0,
                                         entrants=())))
    return out


def _ids(played: Played, one: str, other: str) -> list[str]:
    """The ids of the games of ``one`` and ``other``."""
    names = [e.name for e in played.settings.entrants]
    return [row.game_id for row in played.rows if {names[i] for i in row.entrants} == {one, other}]


@pytest.mark.slow
async def test_two_entrants_play_the_same_games_whoever_else_entered(tmp_path: Path) -> None:
    alone = await play_tournament(TournamentSettings((A, B), "round-robin", 3, 5, repeat=2),
                                  db=tmp_path / "alone.db")
    # The two among others, at other indexes, an odd field (someone sits out each round).
    crowd = await play_tournament(
        TournamentSettings((OTHERS[0], A, OTHERS[1], B, OTHERS[2]), "round-robin", 3, 5,
                           repeat=2),
        db=tmp_path / "crowd.db")
    games = _between(alone, "a", "b")
    assert len(games) >= 4  # two best-of-three matches
    assert _between(crowd, "a", "b") == games
    # Though they met in other rounds and matches: the games have other ids.
    assert _ids(crowd, "a", "b") != _ids(alone, "a", "b")
    # The seats swapped between the two meetings.
    assert games[0][0][::-1] == next(p for p, row in games if row.number == 1 and p != games[0][0])


async def test_a_swiss_meeting_plays_the_games_of_the_round_robin_meeting(tmp_path: Path) -> None:
    alone = await play_tournament(TournamentSettings((A, B), "round-robin", 3, 4),
                                  db=tmp_path / "alone.db")
    # Seed 4 pairs a with b in this Swiss tournament's round 2.
    swiss = await play_tournament(TournamentSettings((A, B, *OTHERS[:2]), "swiss", 3, 4),
                                  db=tmp_path / "swiss.db")
    met = [spec for spec, _ in swiss.matches
           if spec is not None and set(spec.names) == {"a", "b"}]
    assert [(spec.round, spec.meeting) for spec in met] == [(2, 1)]
    assert _between(swiss, "a", "b") == _between(alone, "a", "b")


async def test_repeat_plays_the_schedule_again_with_the_seats_swapped(tmp_path: Path) -> None:
    three = (A, B, OTHERS[1])
    settings = TournamentSettings(three, "round-robin", 1, 9, repeat=3)
    assert settings.round_count() == 9
    totals: list[int] = []
    played = await play_tournament(settings, db=tmp_path / "r.db",
                                   progress=lambda done, total, row: totals.append(total))
    assert totals[0] == 9  # nine rounds of one best-of-one match
    specs = [spec for spec, _ in played.matches if spec is not None]
    assert [spec.round for spec in specs] == list(range(1, 10))
    # Each pass is the schedule again: the same pairs in the same rounds, one meeting more.
    by_pass = [[(frozenset(s.entrants), s.meeting) for s in specs[k:k + 3]] for k in (0, 3, 6)]
    assert [[pair for pair, _ in one] for one in by_pass] == [[pair for pair, _ in by_pass[0]]] * 3
    assert [[meeting for _, meeting in one] for one in by_pass] == [[1] * 3, [2] * 3, [3] * 3]
    # Seats alternate meeting by meeting.
    for first, second, third in zip(specs[:3], specs[3:6], specs[6:], strict=True):
        assert second.entrants == first.entrants[::-1] and third.entrants == first.entrants
        assert second.names == first.names[::-1]
    # Each entrant sits out once a pass.
    assert sorted(e for _, e in played.sat_out) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [r for r, _ in played.sat_out] == list(range(1, 10))
    assert len({row.game_id for row in played.rows}) == len(played.rows)
    assert len({row.seed for row in played.rows}) == len(played.rows)
    # Results depend on it, so the results database keys a tournament by it too.
    assert settings.as_dict()["repeat"] == 3
    assert json.loads(results_json(report(played)))["repeat"] == 3
    assert settings_key(settings.as_dict()) != settings_key(replace(settings, repeat=1).as_dict())


async def test_repeat_is_a_round_robin_s_and_at_least_one() -> None:
    def nothing(row: GameRow) -> None:
        raise AssertionError("no game is played")

    swiss = TournamentSettings((A, B), "swiss", 1, 1, repeat=2)
    with pytest.raises(ValueError, match="repeat is for a round robin or a gauntlet, not 'swiss'"):
        await run_tournament(swiss, InProcess((), 1), {}, nothing)
    never = TournamentSettings((A, B), "round-robin", 1, 1, repeat=0)
    with pytest.raises(ValueError, match="played at least once, not 0 times"):
        await run_tournament(never, InProcess((), 1), {}, nothing)
