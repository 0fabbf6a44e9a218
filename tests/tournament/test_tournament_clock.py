"""``--clock`` in a tournament: a bot that uses up its clock, over decisions each within the
deadline, loses on time with the reason and each seat's time left recorded in the database, the
results file and the CSV; without the clock the same games go on. A game lost on time depends on
the machine, so a tournament played again reports it as not checked, not as a mismatch. Time is
the event loop's (``autojump_clock``): the slow bot awaits ``trio.sleep``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from spellstack.actors import GameClock
from spellstack.bots import RandomBot
from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.rules import Decision, PlayerView, Reply
from spellstack.tournament import (
    Contestant,
    GameRow,
    InProcess,
    ResultsStore,
    TournamentSettings,
    parse_entrant,
    report,
    results_json,
    run_tournament,
)

CARDS = load_cards()
TWO = tuple(parse_entrant(text, CARDS) for text in ("slow=random@gruul", "quick=random@dimir"))


class Slow(RandomBot):
    """A random bot that takes 0.5 s over each decision."""

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:  # type: ignore[override]
        await trio.sleep(0.5)
        return super().decide(view, decision)


def _contestants() -> list[Contestant]:
    return [Contestant("slow", TWO[0].deck, Slow), Contestant("quick", TWO[1].deck, RandomBot)]


async def test_a_bot_out_of_time_loses_on_time_and_the_time_left_is_kept(autojump_clock: object,
                                                                        tmp_path: Path) -> None:
    clock = GameClock(3.0, 0.1)
    settings = TournamentSettings(TWO, "round-robin", 1, 2, deadline=2.0, clock=clock)
    store = ResultsStore(tmp_path / "c.db")
    store.open_tournament(settings.as_dict(), ("slow", "quick"), resume=False, key=settings.secret(),
                          explicit=True)
    played = await run_tournament(settings, InProcess(_contestants(), 2, deadline=2.0), {}, store.record)
    [row] = played.rows
    assert row.reason == "quick wins: slow lost on time (clock 3+0.1)"
    slow_seat = row.entrants.index(0)
    assert row.clock_left[slow_seat] == 0.0 and row.clock_left[1 - slow_seat] > 2.0
    [(_, rows)] = ResultsStore(tmp_path / "c.db", read=True).every_game()
    assert rows[0].clock_left == row.clock_left and rows[0].reason == row.reason
    doc = json.loads(results_json(report(played)))
    assert doc["clock"] == "3+0.1" and doc["games"][0]["clock_left"] == [round(t, 3) for t in row.clock_left]
    # Without a clock the same game is not lost on time.
    plain = await run_tournament(TournamentSettings(TWO, "round-robin", 1, 2, deadline=2.0),
                                 InProcess(_contestants(), 2, deadline=2.0), {}, lambda r: None)
    assert "lost on time" not in plain.rows[0].reason and plain.rows[0].clock_left == ()


def test_a_game_lost_on_time_is_not_checked_when_played_again(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--seed", "1", "--best-of", "1", "--clock", "0.001", "--db",
            str(tmp_path / "t.db"), "--quiet"]
    assert main(args) == 0
    rows: list[GameRow] = [r for _, rs in ResultsStore(tmp_path / "t.db", read=True).every_game() for r in rs]
    timed_out = [r.game_id for r in rows if "lost on time (clock 0.001+0)" in r.reason]
    assert timed_out  # a millisecond is too little for a whole game
    capsys.readouterr()
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "not checked: lost on time" in err and "did not come out as recorded" not in err


@pytest.mark.parametrize("value", ["0", "-1+1", "x", "5+-1", ""])
def test_a_bad_clock_is_a_one_line_error(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--db", str(tmp_path / "x.db"), f"--clock={value}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("spellstack tournament: --clock: ") and "\n" not in err
    assert not (tmp_path / "x.db").exists()
