"""Tournaments of bots: formats (round robin, Swiss), standings and tiebreakers (Magic
Tournament Rules 3.1 and appendix C), per-pair statistics and ratings."""

from ._pairings import Pairing, round_robin, swiss_pairings, swiss_rounds
from ._pairs import GameOutcome, PairLine, elo_difference, format_pair_line, los, pair_line, pair_lines
from ._ratings import Rating, ratings
from ._standings import FLOOR, MatchResult, Standing, match_points, standings

__all__ = ["FLOOR", "GameOutcome", "MatchResult", "PairLine", "Pairing", "Rating", "Standing",
           "elo_difference", "format_pair_line", "los", "match_points", "pair_line", "pair_lines",
           "ratings", "round_robin", "standings", "swiss_pairings", "swiss_rounds"]
