"""Match points, records and the MTR tiebreakers against hand-worked examples."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from spellstack.tournament import MatchResult, Standing, match_points, standings


def row(rows: list[Standing], entrant: int) -> Standing:
    return next(r for r in rows if r.entrant == entrant)


def test_match_points_win_draw_loss_and_bye() -> None:
    won = MatchResult(round=1, a=0, b=1, a_wins=2, b_wins=1, draws=0)
    assert (match_points(won, 0), match_points(won, 1)) == (3, 0)
    # 1-1 with a drawn game: equal game wins, a drawn match
    drawn = MatchResult(round=1, a=0, b=1, a_wins=1, b_wins=1, draws=1)
    assert (match_points(drawn, 0), match_points(drawn, 1)) == (1, 1)
    # 1-0 with two drawn games: a has more game wins, so b lost the match
    assert match_points(MatchResult(round=1, a=3, b=2, a_wins=1, b_wins=0, draws=2), 2) == 0
    assert match_points(MatchResult(round=1, a=4, b=None, a_wins=0, b_wins=0, draws=0), 4) == 3
    with pytest.raises(ValueError, match="entrant 5 did not play"):
        match_points(won, 5)


# Five entrants, best of three (games_to_win 2), two rounds:
#   round 1: 1 beats 3 2-0; 4 and 2 draw 1-1 with a drawn game; 0 has the bye
#   round 2: 0 beats 4 2-1; 2 beats 3 2-0; 1 has the bye
FIVE = [
    MatchResult(round=1, a=1, b=3, a_wins=2, b_wins=0, draws=0),
    MatchResult(round=1, a=4, b=2, a_wins=1, b_wins=1, draws=1),
    MatchResult(round=1, a=0, b=None, a_wins=0, b_wins=0, draws=0),
    MatchResult(round=2, a=0, b=4, a_wins=2, b_wins=1, draws=0),
    MatchResult(round=2, a=2, b=3, a_wins=2, b_wins=0, draws=0),
    MatchResult(round=2, a=1, b=None, a_wins=0, b_wins=0, draws=0),
]


def test_five_entrants_every_number_by_hand() -> None:
    # Match points (a bye is a win): 0: bye + W = 6; 1: W + bye = 6; 2: D + W = 4; 3: L + L = 0;
    # 4: D + L = 1. Every entrant has 2 rounds, so MW% = points / 6, at least 0.33 (T):
    #   0: 1, 1: 1, 2: 4/6 = 2/3, 3: 0 -> T, 4: 1/6 -> T.
    # Game points (3 a game won, 1 a drawn game; a bye is 2-0: 6 points in 2 games):
    #   0: bye 6/2 games + 2-1 win 6/3 games = 12/15 = 4/5
    #   1: 2-0 win 6/2 + bye 6/2 = 12/12 = 1
    #   2: 1-1-1 draw 3+1 = 4/3 games + 2-0 win 6/2 = 10/15 = 2/3
    #   3: 0/2 + 0/2 = 0 -> T
    #   4: 1-1-1 draw 4/3 + 1-2 loss 3/3 = 7/18 (above 0.33, so not floored)
    # OMW% / OGW%: means over opponents, byes ignored:
    #   0: opponent 4 only: OMW T, OGW 7/18
    #   1: opponent 3 only: OMW T, OGW T
    #   2: opponents 4, 3: OMW (T + T)/2 = T, OGW (7/18 + 33/100)/2 = (350 + 297)/1800 = 647/1800
    #   3: opponents 1, 2: OMW (1 + 2/3)/2 = 5/6, OGW (1 + 2/3)/2 = 5/6
    #   4: opponents 2, 0: OMW (2/3 + 1)/2 = 5/6, OGW (2/3 + 4/5)/2 = 11/15
    t = F(33, 100)
    rows = standings(5, FIVE, 2)
    assert [r.entrant for r in rows] == [1, 0, 2, 4, 3]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert row(rows, 0) == Standing(rank=2, entrant=0, points=6, wins=2, losses=0, draws=0, byes=1,
                                    mw=F(1), omw=t, gw=F(4, 5), ogw=F(7, 18))
    assert row(rows, 1) == Standing(rank=1, entrant=1, points=6, wins=2, losses=0, draws=0, byes=1,
                                    mw=F(1), omw=t, gw=F(1), ogw=t)
    assert row(rows, 2) == Standing(rank=3, entrant=2, points=4, wins=1, losses=0, draws=1, byes=0,
                                    mw=F(2, 3), omw=t, gw=F(2, 3), ogw=F(647, 1800))
    assert row(rows, 3) == Standing(rank=5, entrant=3, points=0, wins=0, losses=2, draws=0, byes=0,
                                    mw=t, omw=F(5, 6), gw=t, ogw=F(5, 6))
    assert row(rows, 4) == Standing(rank=4, entrant=4, points=1, wins=0, losses=1, draws=1, byes=0,
                                    mw=t, omw=F(5, 6), gw=F(7, 18), ogw=F(11, 15))


def test_the_omw_floor_decides_the_order() -> None:
    # Entrants 0 and 1 both have 6 points. Without the 0.33 floor, 0's only opponent (4, MW
    # 1/6) would beat 1's only opponent (3, MW 0) and 0 would rank first on OMW. With the
    # floor both OMW% are 0.33, a tie, and GW% decides: 1 has 1 against 0's 4/5.
    rows = standings(5, FIVE, 2)
    assert (row(rows, 0).omw, row(rows, 1).omw) == (F(33, 100), F(33, 100))
    assert [r.entrant for r in rows[:2]] == [1, 0]


def test_a_bye_counts_games_to_win_for_gw() -> None:
    # Best of five (3 to win): entrant 0's bye is 3-0, 9 game points in 3 games; its 3-2 loss
    # to 1 is 6 of 15 possible. GW% = (9 + 6) / (3 x 8) = 15/24 = 5/8. MW%: 3 points / 6 = 1/2.
    results = [MatchResult(round=1, a=0, b=None, a_wins=0, b_wins=0, draws=0),
               MatchResult(round=2, a=1, b=0, a_wins=3, b_wins=2, draws=0)]
    zero = row(standings(3, results, 3), 0)
    assert (zero.gw, zero.mw, zero.byes, zero.wins, zero.losses) == (F(5, 8), F(1, 2), 1, 1, 1)
    # 0's opponents' percentages come from entrant 1 alone (the bye is ignored): 1 is 1-0
    # in matches (MW 1) and 3-2 in games (GW 9/15 = 3/5).
    assert (zero.omw, zero.ogw) == (F(1), F(3, 5))


def test_ogw_decides_when_points_omw_and_gw_tie() -> None:
    # Four entrants, everyone 1-1 (3 points, MW 1/2, so every OMW% is 1/2):
    #   round 1: 2 beats 0 2-0; 1 beats 3 2-0
    #   round 2: 0 beats 1 2-1; 3 beats 2 2-0
    # GW%: 0: (0 + 6) / 15 = 2/5; 1: (6 + 3) / 15 = 3/5; 2: (6 + 0) / 12 = 1/2; 3: (0 + 6) / 12 = 1/2
    # OGW%: 0: (gw2 + gw1)/2 = (1/2 + 3/5)/2 = 11/20; 1: (gw3 + gw0)/2 = (1/2 + 2/5)/2 = 9/20
    #       2: (gw0 + gw3)/2 = 9/20;                  3: (gw1 + gw2)/2 = 11/20
    # 2 and 3 tie on GW% 1/2; 3 has the better OGW%, so 3 ranks above 2 despite its index.
    results = [MatchResult(round=1, a=2, b=0, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=1, a=3, b=1, a_wins=0, b_wins=2, draws=0),
               MatchResult(round=2, a=0, b=1, a_wins=2, b_wins=1, draws=0),
               MatchResult(round=2, a=2, b=3, a_wins=0, b_wins=2, draws=0)]
    rows = standings(4, results, 2)
    assert [r.entrant for r in rows] == [1, 3, 2, 0]
    assert [r.omw for r in rows] == [F(1, 2)] * 4
    assert [r.gw for r in rows] == [F(3, 5), F(1, 2), F(1, 2), F(2, 5)]
    assert [r.ogw for r in rows] == [F(9, 20), F(11, 20), F(9, 20), F(11, 20)]


def test_omw_decides_on_equal_points() -> None:
    # Round 1: 0 beats 1, 2 beats 3 (2-0 each). Round 2: 0 beats 2, 3 beats 1 (2-0 each).
    # 2 and 3 have 3 points each. OMW 2: (mw3 + mw0)/2 = (1/2 + 1)/2 = 3/4;
    # OMW 3: (mw2 + mw1)/2 = (1/2 + 0.33)/2 = 83/200 (1 has 0 points, floored to 0.33).
    # (0: (mw1 + mw2)/2 = (0.33 + 1/2)/2 = 83/200; 1: (mw0 + mw3)/2 = (1 + 1/2)/2 = 3/4.)
    results = [MatchResult(round=1, a=0, b=1, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=1, a=2, b=3, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=2, a=0, b=2, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=2, a=3, b=1, a_wins=2, b_wins=0, draws=0)]
    rows = standings(4, results, 2)
    assert [(r.entrant, r.points, r.omw) for r in rows] == [
        (0, 6, F(83, 200)), (2, 3, F(3, 4)), (3, 3, F(83, 200)), (1, 0, F(3, 4))]


def test_entrants_without_matches() -> None:
    # Nothing played: MW% and GW% are the floor 0.33, OMW% and OGW% are 0 (no opponents),
    # and the fixed order by index decides.
    rows = standings(3, [], 2)
    assert [(r.rank, r.entrant, r.points, r.mw, r.gw, r.omw, r.ogw) for r in rows] == [
        (1, 0, 0, F(33, 100), F(33, 100), F(0), F(0)), (2, 1, 0, F(33, 100), F(33, 100), F(0), F(0)),
        (3, 2, 0, F(33, 100), F(33, 100), F(0), F(0))]
    # A lone bye: a win 2-0, but still no opponents.
    alone = row(standings(3, [MatchResult(round=1, a=2, b=None, a_wins=0, b_wins=0, draws=0)], 2), 2)
    assert (alone.rank, alone.points, alone.mw, alone.gw, alone.omw, alone.ogw) == (1, 3, F(1), F(1), F(0), F(0))


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 2 entrants"):
        standings(1, [], 2)
    with pytest.raises(ValueError, match=r"names entrant 4, but the entrants are 0\.\.3"):
        standings(4, [MatchResult(round=1, a=0, b=4, a_wins=2, b_wins=0, draws=0)], 2)
    with pytest.raises(ValueError, match="names entrant -1"):
        standings(4, [MatchResult(round=1, a=-1, b=None, a_wins=0, b_wins=0, draws=0)], 2)
    with pytest.raises(ValueError, match="with itself"):
        standings(4, [MatchResult(round=1, a=2, b=2, a_wins=2, b_wins=0, draws=0)], 2)
    with pytest.raises(ValueError, match="negative number of games"):
        standings(4, [MatchResult(round=1, a=0, b=1, a_wins=2, b_wins=-1, draws=0)], 2)
    with pytest.raises(ValueError, match="rounds count from 1"):
        standings(4, [MatchResult(round=0, a=0, b=1, a_wins=2, b_wins=0, draws=0)], 2)
    with pytest.raises(ValueError, match="games_to_win must be at least 1"):
        standings(4, [], 0)


def test_a_bye_counts_in_the_players_own_match_win_percentage_as_mtr_appendix_c_gives_it() -> None:
    # The appendix's example: 3-2-0 including a first-round bye is 9 / (5 x 3) = 0.60. Entrant 0:
    # r1 bye, r2 beats 1, r3 beats 2, r4 loses to 3, r5 loses to 4 (every match 2-0).
    results = [MatchResult(round=1, a=0, b=None, a_wins=0, b_wins=0, draws=0),
               MatchResult(round=2, a=0, b=1, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=3, a=0, b=2, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=4, a=3, b=0, a_wins=2, b_wins=0, draws=0),
               MatchResult(round=5, a=4, b=0, a_wins=2, b_wins=0, draws=0)]
    rows = standings(5, results, 2)
    zero = row(rows, 0)
    assert (zero.wins, zero.losses, zero.draws, zero.byes, zero.mw) == (3, 2, 0, 1, F(3, 5))
    # 0's opponents' percentages leave out the bye round (no opponent): four opponents.
    assert zero.omw == (F(33, 100) + F(33, 100) + F(1) + F(1)) / 4
    # 1's only opponent is 0, whose 0.60 counts its bye.
    assert row(rows, 1).omw == F(3, 5)


def _record(wins: int, losses: int, draws: int, *, bye: bool = False) -> list[MatchResult]:
    """Entrant 0's matches, one a round against a new opponent (round r: entrant r), best of
    three: its wins 2-0, its losses 0-2, its draws 1-1; a bye first if ``bye``."""
    scores = [(2, 0)] * wins + [(0, 2)] * losses + [(1, 1)] * draws
    results = [MatchResult(round=1, a=0, b=None, a_wins=0, b_wins=0, draws=0)] if bye else []
    first = len(results) + 1
    results += [MatchResult(round=r, a=0, b=r, a_wins=a, b_wins=b, draws=0)
                for r, (a, b) in enumerate(scores, start=first)]
    return results


@pytest.mark.parametrize(("results", "mw", "shown"), [
    # MTR appendix C's examples of the match-win percentage.
    (_record(5, 2, 1), F(16, 24), "0.667"),  # 5-2-1 over 8 rounds: 16 / 24, above the floor
    (_record(1, 3, 0), F(33, 100), "0.330"),  # 1-3-0 over 4 rounds: 3 / 12 = 0.25, so 0.33
    (_record(2, 2, 0, bye=True), F(9, 15), "0.600"),  # 3-2-0 with a first-round bye over 5: 9 / 15
], ids=["5-2-1", "1-3-0", "3-2-0 with a bye"])
def test_the_match_win_percentage_of_mtr_appendix_c_s_examples(results: list[MatchResult], mw: F, shown: str,
                                                               request: pytest.FixtureRequest) -> None:
    request_id = request.node.callspec.id
    rounds = max(r.round for r in results)
    zero = row(standings(rounds + 1, results, 2), 0)
    assert zero.wins + zero.losses + zero.draws == rounds
    assert f"{zero.wins}-{zero.losses}-{zero.draws}" == request_id.split()[0]
    assert zero.mw == mw and f"{float(zero.mw):.3f}" == shown
