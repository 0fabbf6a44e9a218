"""Game pairs (``--pairs``): one deal played once from each side. Both games of a pair have the
pair's seed, each deck's library in the same order before the opening draw, each entrant's bot
with the same seed, and the seats (so play and draw) swapped; a pair counts as a match of two
games; the results are the same however the games are run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import trio

from spellstack.actors import GameSetup
from spellstack.cards import load_cards
from spellstack.rules import StartSettings
from spellstack.tournament import (
    GameRow,
    MatchSpec,
    TournamentSettings,
    match_points,
    next_pair_game,
    pair_score,
    parse_entrant,
    play_tournament,
    report,
    results_json,
)

CARDS = load_cards()
TWO = tuple(parse_entrant(text, CARDS) for text in ("heuristic@gruul", "random@dimir"))
THREE = (*TWO, parse_entrant("random@orzhov", CARDS))
KEY = b"k" * 32


def _pairs(entrants: tuple = TWO, repeat: int = 3, seed: int = 5) -> TournamentSettings:  # type: ignore[type-arg]
    return TournamentSettings(entrants, "round-robin", 2, seed, repeat=repeat, pairs=True)


def _library(setup: GameSetup, seat: int) -> list[str]:
    """The names in a seat's library, top first, before the opening draw."""
    game = setup.build()
    player = game.state.players[seat]
    return [game.state.objects[oid].name for oid in player.library]


def test_both_games_of_a_pair_deal_the_same_cards_from_each_side() -> None:
    match = MatchSpec(1, 1, (0, 1), ("heuristic-gruul", "random-dimir"), 1)
    first = next_pair_game(KEY, match, [])
    assert first is not None
    row = GameRow(first.game_id, 1, 1, 1, first.seed, first.entrants, first.bot_seeds, -1, 0,
                  (0, 0), 0, "", 1, 1, "")
    second = next_pair_game(KEY, match, [row])
    assert second is not None and next_pair_game(KEY, match, [row, row]) is None
    assert first.seed == second.seed
    assert second.entrants == first.entrants[::-1]
    assert second.bot_seeds == first.bot_seeds[::-1]
    assert second.library_seeds == first.library_seeds[::-1]
    assert first.starting == second.starting == 0  # seat 0 plays first: each entrant once
    decks = {e: d.deck for e, d in enumerate(TWO)}
    setups = [GameSetup([decks[e] for e in spec.entrants], spec.seed, ("x", "y"),
                        StartSettings(starting=spec.starting, library_seeds=spec.library_seeds))
              for spec in (first, second)]
    for entrant in (0, 1):
        in_first = _library(setups[0], first.entrants.index(entrant))
        in_second = _library(setups[1], second.entrants.index(entrant))
        assert in_first == in_second and len(in_first) >= 40
    # Without the library seeds the same seed deals each deck differently once seats swap.
    plain = GameSetup([decks[e] for e in second.entrants], second.seed, ("x", "y"), StartSettings())
    assert _library(plain, 1) != _library(setups[0], 0)


def test_a_pair_scores_as_a_match_of_two_games() -> None:
    match = MatchSpec(1, 1, (0, 1), ("a", "b"), 1)

    def row(number: int, entrants: tuple[int, int], winner: int) -> GameRow:
        return GameRow(f"g{number}", 1, 1, number, 9, entrants, (1, 2), -1, 0, (0, 0), winner,
                       "", 5, 5, "")

    # Entrant 0 wins both: in game 2 it sits in seat 1.
    swept = pair_score([row(1, (0, 1), 0), row(2, (1, 0), 1)], match)
    assert swept.wins == (2, 0) and swept.over
    split = pair_score([row(1, (0, 1), 0), row(2, (1, 0), 0)], match)
    assert split.wins == (1, 1) and split.over
    assert not pair_score([row(1, (0, 1), 0)], match).over
    from spellstack.tournament import MatchResult
    assert match_points(MatchResult(1, 0, 1, 2, 0, 0), 0) == 3
    assert match_points(MatchResult(1, 0, 1, 1, 1, 0), 0) == match_points(MatchResult(1, 0, 1, 1, 1, 0), 1) == 1


async def test_a_pairs_tournament_plays_each_deal_from_both_sides(tmp_path: Path) -> None:
    played = await play_tournament(_pairs(THREE, repeat=2), db=tmp_path / "p.db")
    rows = played.rows
    assert len(rows) == 3 * 2 * 2  # three pairs of entrants, two pairs each, two games a pair
    names = [e.name for e in THREE]
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        assert (first.round, first.match) == (second.round, second.match)
        assert (first.number, second.number) == (1, 2)
        assert first.seed == second.seed
        assert second.entrants == first.entrants[::-1]
        assert first.starting == second.starting == 0
        assert first.chooser == second.chooser == -1  # nobody chose: play and draw were fixed
        assert dict(zip(first.entrants, first.bot_seeds, strict=True)) == \
            dict(zip(second.entrants, second.bot_seeds, strict=True))
    assert played.settings.as_dict()["game_pairs"] is True  # part of the tournament's key
    assert '"game_pairs": true' in results_json(report(played))
    players = [[names[i] for i in r.entrants] for r in rows]
    assert players[0] == players[1][::-1]


@pytest.mark.slow
async def test_a_pairs_tournament_is_the_same_however_it_is_run(tmp_path: Path) -> None:
    settings = _pairs(repeat=4)
    one = await play_tournament(settings, db=tmp_path / "1.db", concurrency=1)
    two = await play_tournament(settings, db=tmp_path / "2.db", jobs=2, concurrency=8)
    assert results_json(report(one)) == results_json(report(two))
    with trio.CancelScope() as scope:
        def stop_after_three(done: int, total: int, row: GameRow | None) -> None:
            if done == 3:
                scope.cancel()
        # Each game written as it ends (no batches), so the stop comes after the third of eight.
        await play_tournament(settings, db=tmp_path / "part.db", concurrency=2, progress=stop_after_three,
                              batch_seconds=0)
    with sqlite3.connect(tmp_path / "part.db") as db:
        assert 3 <= db.execute("SELECT COUNT(*) FROM games").fetchone()[0] < len(one.rows)
    resumed = await play_tournament(settings, db=tmp_path / "part.db", resume=True)
    assert results_json(report(resumed)) == results_json(report(one))


async def test_pairs_with_swiss_or_another_best_of_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="game pairs are played in a round robin"):
        await play_tournament(TournamentSettings(TWO, "swiss", 2, 1, pairs=True), db=tmp_path / "s.db")
    with pytest.raises(ValueError, match="best of 3"):
        await play_tournament(TournamentSettings(TWO, "round-robin", 3, 1, pairs=True), db=tmp_path / "b.db")
