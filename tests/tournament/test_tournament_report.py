"""The text report's parts that read the matches: a line per Swiss round, and the standings'
records beside their byes."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.tournament import (
    MatchResult,
    MatchSpec,
    Played,
    TournamentSettings,
    parse_entrant,
    report,
    round_lines,
    standings_table,
)

CARDS = load_cards()
NAMES = ("ann", "bob", "cy", "dee", "eve")
SETTINGS = TournamentSettings(tuple(parse_entrant(f"{n}=random@gruul", CARDS) for n in NAMES), "swiss", 3, 4)


def _match(rnd: int, number: int, a: int, b: int, a_wins: int, b_wins: int, draws: int = 0) -> tuple[
        MatchSpec, MatchResult]:
    return (MatchSpec(rnd, number, (a, b), (NAMES[a], NAMES[b]), 1),
            MatchResult(round=rnd, a=a, b=b, a_wins=a_wins, b_wins=b_wins, draws=draws))


def _bye(rnd: int, entrant: int) -> tuple[None, MatchResult]:
    return None, MatchResult(round=rnd, a=entrant, b=None, a_wins=0, b_wins=0, draws=0)


PLAYED = Played(SETTINGS, matches=[
    _match(1, 1, 2, 1, 2, 0), _match(1, 2, 3, 4, 1, 2), _bye(1, 0),
    _match(2, 1, 0, 2, 1, 1, 1), _match(2, 2, 4, 1, 2, 0), _bye(2, 3),
])
"""Two rounds: in round 2, ann and cy draw 1-1 with a drawn game."""


def test_a_line_per_round_the_winner_first_then_the_bye() -> None:
    assert round_lines(report(PLAYED)) == [
        "round 1: cy 2-0 bob; eve 2-1 dee; ann has the bye",
        "round 2: ann 1-1-1 cy; eve 2-0 bob; dee has the bye",
    ]


def test_the_record_counts_a_bye_as_a_win_and_the_byes_column_says_so() -> None:
    table = standings_table(report(PLAYED)).splitlines()
    assert table[0].split() == ["rank", "entrant", "points", "W-L-D", "byes", "OMW%", "GW%", "OGW%"]
    rows = {line.split()[1]: line.split()[2:5] for line in table[1:6]}
    # ann: a bye and a drawn match; dee: a loss and a bye; eve: two wins, no bye.
    assert rows == {"ann": ["4", "1-0-1", "1"], "bob": ["0", "0-2-0", "0"], "cy": ["4", "1-0-1", "0"],
                    "dee": ["3", "1-1-0", "1"], "eve": ["6", "2-0-0", "0"]}
