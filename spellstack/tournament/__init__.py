"""Tournaments of bots: entrants (a bot and a deck), games of matches (CR 103: the chooser of
who plays first, London mulligans), best-of-N matches, round robin and Swiss (Magic Tournament
Rules: match points, byes, tiebreakers), per-pair statistics and ratings, a results database
that survives a crash, games in worker processes.
"""

from ._executors import Executor, InProcess
from ._games import BotFactory, GameRow, GameSpec, Seat, derive_seed, play_spec
from ._host import DEFAULT_DB, play_tournament
from ._match import MatchSpec, Score, games_to_win, match_score, next_game
from ._report import Report, report, results_json, standings_table
from ._run import FORMATS, Played, TournamentSettings, run_tournament
from ._store import ResultsStore, StoredTournament, StoreError, settings_key

__all__ = ["DEFAULT_DB", "FORMATS", "BotFactory", "Executor", "GameRow", "GameSpec", "InProcess",
           "MatchSpec", "Played", "Report", "ResultsStore", "Score", "Seat", "StoreError",
           "StoredTournament", "TournamentSettings", "derive_seed", "games_to_win", "match_score",
           "next_game", "play_spec", "play_tournament", "report", "results_json", "run_tournament",
           "settings_key", "standings_table"]
