"""A top cut after Swiss rounds (``--top``): the first N after the Swiss play single-elimination
matches, seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6 for a top 8; the higher seed sits in seat 0 and
chooses who plays first; a level match goes on a game at a time, up to twice its best-of, and
then the higher seed goes through. The games are played by a fake executor whose winners a
rule gives, so every path is reached on purpose."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.tournament import (
    GameRow,
    GameSpec,
    TournamentSettings,
    knockout_score,
    parse_entrant,
    report,
    results_json,
    run_tournament,
    standings,
    top_cut_lines,
)

CARDS = load_cards()
EIGHT = tuple(parse_entrant(f"e{i}=random@gruul", CARDS) for i in range(8))


class RuleExecutor:
    """Plays no game: each game's winning seat is ``rule(spec)`` (-1 a draw)."""

    def __init__(self, rule: Callable[[GameSpec], int]) -> None:
        self.rule = rule
        self.capacity = 4
        self.played: list[GameSpec] = []

    async def play(self, spec: GameSpec) -> GameRow:
        self.played.append(spec)
        winner = self.rule(spec)
        return GameRow(spec.game_id, spec.round, spec.match, spec.number, spec.seed, spec.entrants,
                       spec.bot_seeds, -1 if spec.chooser is None else spec.chooser, 0, (0, 0),
                       winner, "drawn: turn limit 300 reached" if winner < 0 else "won", 5, 5, "h")

    async def aclose(self) -> None:
        pass


def _lower_index_wins(spec: GameSpec) -> int:
    """Entrant e0 beats everyone, e1 everyone but e0, and so on: a strict order."""
    return 0 if spec.entrants[0] < spec.entrants[1] else 1


async def test_a_top_8_is_seeded_as_a_magic_event_and_the_favourite_wins() -> None:
    settings = TournamentSettings(EIGHT, "swiss", 3, 1, top=8)
    executor = RuleExecutor(_lower_index_wins)
    played = await run_tournament(settings, executor, {}, lambda row: None)
    swiss = [m for _, m in played.matches]
    table = standings(8, swiss, 2)
    seed_of = {s.entrant: s.rank for s in table}
    first = [k for spec, k in played.top_cut if spec.round == settings.round_count() + 1]
    assert [k.seeds for k in first] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [k.stage for _, k in played.top_cut] == ["quarterfinal"] * 4 + ["semifinal"] * 2 + ["final"]
    for spec, k in played.top_cut:
        assert (seed_of[spec.entrants[0]], seed_of[spec.entrants[1]]) == k.seeds  # higher seed in seat 0
        assert k.reason == ""
    assert played.top_cut[-1][1].winner == 0
    knockouts = [s for s in executor.played if s.round > settings.round_count()]
    assert all(s.chooser == 0 for s in knockouts if s.number == 1)  # the higher seed chooses
    lines = top_cut_lines(report(played))
    assert lines[0].startswith("quarterfinal: e") and lines[-1] == "winner: e0"
    assert '"top_cut"' in results_json(report(played))


async def test_a_level_knockout_match_goes_on_and_then_the_higher_seed_goes_through() -> None:
    settings = TournamentSettings(EIGHT[:2], "swiss", 3, 1, rounds=1, top=2)
    swiss_rounds = settings.round_count()

    def rule(spec: GameSpec) -> int:
        if spec.round <= swiss_rounds:
            return _lower_index_wins(spec)
        return -1  # every knockout game drawn: level for ever

    executor = RuleExecutor(rule)
    played = await run_tournament(settings, executor, {}, lambda row: None)
    [(spec, final)] = played.top_cut
    games = [s for s in executor.played if s.round == spec.round]
    assert len(games) == 2 * 3  # on, a game at a time, up to twice the best-of
    assert final.winner == spec.entrants[0] and final.seeds == (1, 2)
    assert final.reason == "level after 6 games: the higher seed goes through"


def test_a_knockout_score_is_over_only_when_not_level() -> None:
    def rows(*winners: int) -> list[GameRow]:
        return [GameRow(f"g{i}", 1, 1, i, 1, (0, 1), (1, 2), 0, 0, (0, 0), w, "", 1, 1, "")
                for i, w in enumerate(winners, 1)]

    assert knockout_score(rows(0, 1), 2).over is False  # 1-1: a best-of-2 match would be drawn
    assert knockout_score(rows(0, 1, 0), 2).over is True
    assert knockout_score(rows(0, 1, -1, 1), 2).over is True  # twice the best-of: over, level or not
    assert knockout_score(rows(0, 0), 3).over is True


async def test_a_top_cut_needs_swiss_and_enough_entrants(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="a top cut of 2, 4 or 8"):
        await run_tournament(TournamentSettings(EIGHT, "round-robin", 3, 1, top=4),
                             RuleExecutor(_lower_index_wins), {}, lambda row: None)
    for args, said in ((["--top", "4"], "--top is for --format swiss"),
                       (["--format", "swiss", "--top", "8", "--entrant", "random@gruul",
                         "--entrant", "random@dimir"], "--top 8: there are only 2 entrants"),
                       (["--format", "swiss", "--top", "3"], "invalid choice: 3")):
        try:
            code = main(["tournament", "--db", str(tmp_path / "x.db"), *args])
        except SystemExit as stopped:  # argparse's own refusals exit; the command's return 2
            code = stopped.code
        assert code == 2
        assert said in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()


async def test_a_resumed_tournament_goes_on_inside_the_top_cut() -> None:
    settings = TournamentSettings(EIGHT, "swiss", 3, 1, top=8)
    whole: list[GameRow] = []
    first = await run_tournament(settings, RuleExecutor(_lower_index_wins), {}, whole.append)
    swiss_games = sum(1 for row in whole if row.round <= settings.round_count())
    kept = {row.game_id: row for row in whole[:swiss_games + 5]}  # stopped inside the quarterfinals
    again = RuleExecutor(_lower_index_wins)
    resumed = await run_tournament(settings, again, kept, lambda row: None)
    assert len(again.played) == len(whole) - len(kept)
    assert not {s.game_id for s in again.played} & kept.keys()
    assert resumed.top_cut == first.top_cut and resumed.rows == first.rows
