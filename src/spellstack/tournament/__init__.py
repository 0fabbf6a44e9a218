"""Tournaments of bots: many games between entrants, played to standings that can be trusted.

A tournament package holds three things:

- the entrants: a bot (a built-in one, or a Python class named by ``module:Class`` or
  ``path/to/file.py:Class``) and a deck (a built-in deck, a TOML deck file, an MTG Arena or
  MTGO decklist), each bot built afresh for every game from a seed;
- the formats: round robin and Swiss pairings, byes, match points and the tiebreakers of the
  Magic Tournament Rules (MTR), per-pair statistics and ratings;
- the runner: best-of-N matches whose games start as the Comprehensive Rules say for a
  match (103: who chooses the starting player, London mulligans), every finished game kept
  in a results database, a tournament resumed after a crash, games spread over processes
  or over the machines of a Dask cluster.

It sits beside the harness, above the actors, bots, cards, protocol and rules whose public
names it uses; the command line (``spellstack.cli``) calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ..seats import (
        BUILT_IN_BOTS,
        DEFAULT_BOT_MEMORY,
        MIN_BOT_MEMORY,
        BotFactory,
        Entrant,
        EntrantError,
        built_in_entrants,
        load_bot,
        parse_entrant,
    )
    from ._batches import Batch, play_batch
    from ._dask import ClusterError, Dask
    from ._elo import EloEstimate, elo_pentanomial, elo_wdl, format_pairs_line, pentanomial_counts
    from ._executors import Executor, InProcess
    from ._games import DEFAULT_DEADLINE, Contestant, GameRow, GameSpec, play_spec, untimed
    from ._in_order import first_entrant_scores, sprt_of
    from ._ipc import WorkerEntrant
    from ._keys import KeyFileError, key_from_seed, keyed_seed, new_key, read_key_file
    from ._match import (
        MatchSpec,
        Score,
        games_to_win,
        knockout_score,
        match_score,
        next_game,
        next_pair_game,
        pair_score,
        seat_order,
    )
    from ._pairings import FORMATS, PAIRING_VERSION, Pairing, gauntlet, round_robin, swiss_pairings, swiss_rounds
    from ._pairs import GameOutcome, PairLine, elo_difference, format_pair_line, los, pair_line, pair_lines
    from ._play import BACKENDS, play_tournament
    from ._rating_list import (
        BOOTSTRAP_SEED,
        RESAMPLES,
        EntrantRating,
        ListEntrant,
        ListGame,
        ListGames,
        RatingList,
        RatingListError,
        format_rating_list,
        rating_list,
        rating_list_csv,
        rating_list_json,
        read_list_games,
    )
    from ._ratings import Rating, ratings
    from ._report import (
        GamePairs,
        Report,
        field_table,
        games_csv,
        interim_lines,
        pair_text,
        report,
        results_json,
        round_lines,
        standings_csv,
        standings_table,
        top_cut_lines,
    )
    from ._row_writer import BATCH_ROWS, BATCH_SECONDS, RowWriter
    from ._run import (
        TOP_CUTS,
        KnockoutResult,
        Played,
        RunningTournament,
        TournamentSettings,
        TournamentStatistics,
        run_tournament,
    )
    from ._sprt import (
        SPRT_MODELS,
        SprtError,
        SprtResult,
        SprtSettings,
        format_sprt_line,
        llr_pentanomial,
        llr_trinomial,
        parse_sprt,
        sprt_bounds,
        sprt_status,
    )
    from ._sprt_simulation import SimulationSummary, bernoulli_pair_chances, simulate_sprt
    from ._standings import FLOOR, MatchResult, Standing, match_points, standings
    from ._store import DEFAULT_DB, ResultsStore, StoredTournament, StoreError, settings_key
    from ._throughput import (
        Losses,
        Pace,
        TournamentRun,
        bench_entrants,
        bench_memory,
        bench_tournament,
        load_average,
        time_tournament,
        worker_start_up,
    )
    from ._workers import MAX_DEATHS, Processes, WorkerSetupError

# Loaded when first used: a worker process needs the games and the wire, the command line
# the entrants' names, and neither the bench, the database nor the ratings.
_HOMES = {
    "._batches": ("Batch", "play_batch"),
    "._throughput": ("Losses", "Pace", "TournamentRun", "bench_entrants", "bench_memory",
                    "bench_tournament", "load_average", "time_tournament", "worker_start_up"),
    "._dask": ("ClusterError", "Dask"),
    "._executors": ("Executor", "InProcess"),
    "._games": ("DEFAULT_DEADLINE", "Contestant", "GameRow", "GameSpec", "play_spec", "untimed"),
    "._keys": ("KeyFileError", "key_from_seed", "keyed_seed", "new_key", "read_key_file"),
    "._play": ("BACKENDS", "play_tournament"),
    "._match": ("MatchSpec", "Score", "games_to_win", "knockout_score", "match_score", "next_game",
               "next_pair_game", "pair_score", "seat_order"),
    "._pairings": ("FORMATS", "PAIRING_VERSION", "Pairing", "gauntlet", "round_robin", "swiss_pairings",
                  "swiss_rounds"),
    "._pairs": ("GameOutcome", "PairLine", "elo_difference", "format_pair_line", "los", "pair_line", "pair_lines"),
    "._ratings": ("Rating", "ratings"),
    "._rating_list": ("BOOTSTRAP_SEED", "RESAMPLES", "EntrantRating", "ListEntrant", "ListGame",
                     "ListGames", "RatingList", "RatingListError", "format_rating_list", "rating_list",
                     "rating_list_csv", "rating_list_json", "read_list_games"),
    "._report": ("GamePairs", "Report", "field_table", "games_csv", "interim_lines", "pair_text", "report",
                "results_json", "round_lines", "standings_csv", "standings_table", "top_cut_lines"),
    "._in_order": ("first_entrant_scores", "sprt_of"),
    "._sprt_simulation": ("SimulationSummary", "bernoulli_pair_chances", "simulate_sprt"),
    "._sprt": ("SPRT_MODELS", "SprtError", "SprtResult", "SprtSettings", "format_sprt_line", "llr_pentanomial",
              "llr_trinomial", "parse_sprt", "sprt_bounds", "sprt_status"),
    "._elo": ("EloEstimate", "elo_pentanomial", "elo_wdl", "format_pairs_line", "pentanomial_counts"),
    "._run": ("TOP_CUTS", "KnockoutResult", "Played", "RunningTournament", "TournamentSettings",
             "TournamentStatistics", "run_tournament"),
    "._standings": ("FLOOR", "MatchResult", "Standing", "match_points", "standings"),
    "._row_writer": ("BATCH_ROWS", "BATCH_SECONDS", "RowWriter"),
    "._store": ("DEFAULT_DB", "ResultsStore", "StoredTournament", "StoreError", "settings_key"),
    "._ipc": ("WorkerEntrant",),
    "._workers": ("MAX_DEATHS", "Processes", "WorkerSetupError"),
    # The bots and entrants are the seats' (``spellstack.seats``), named here too.
    "..seats": ("BUILT_IN_BOTS", "BotFactory", "DEFAULT_BOT_MEMORY", "Entrant", "EntrantError",
                "MIN_BOT_MEMORY", "built_in_entrants", "load_bot", "parse_entrant"),
}

__all__ = [
    "BACKENDS",
    "BATCH_ROWS",
    "BATCH_SECONDS",
    "BOOTSTRAP_SEED",
    "BUILT_IN_BOTS",
    "DEFAULT_BOT_MEMORY",
    "DEFAULT_DB",
    "DEFAULT_DEADLINE",
    "FLOOR",
    "FORMATS",
    "MAX_DEATHS",
    "MIN_BOT_MEMORY",
    "PAIRING_VERSION",
    "RESAMPLES",
    "SPRT_MODELS",
    "TOP_CUTS",
    "Batch",
    "BotFactory",
    "ClusterError",
    "Contestant",
    "Dask",
    "EloEstimate",
    "Entrant",
    "EntrantError",
    "EntrantRating",
    "Executor",
    "GameOutcome",
    "GamePairs",
    "GameRow",
    "GameSpec",
    "InProcess",
    "KeyFileError",
    "KnockoutResult",
    "ListEntrant",
    "ListGame",
    "ListGames",
    "Losses",
    "MatchResult",
    "MatchSpec",
    "Pace",
    "PairLine",
    "Pairing",
    "Played",
    "Processes",
    "Rating",
    "RatingList",
    "RatingListError",
    "Report",
    "ResultsStore",
    "RowWriter",
    "RunningTournament",
    "Score",
    "SimulationSummary",
    "SprtError",
    "SprtResult",
    "SprtSettings",
    "Standing",
    "StoreError",
    "StoredTournament",
    "TournamentRun",
    "TournamentSettings",
    "TournamentStatistics",
    "WorkerEntrant",
    "WorkerSetupError",
    "bench_entrants",
    "bench_memory",
    "bench_tournament",
    "bernoulli_pair_chances",
    "built_in_entrants",
    "elo_difference",
    "elo_pentanomial",
    "elo_wdl",
    "field_table",
    "first_entrant_scores",
    "format_pair_line",
    "format_pairs_line",
    "format_rating_list",
    "format_sprt_line",
    "games_csv",
    "games_to_win",
    "gauntlet",
    "interim_lines",
    "key_from_seed",
    "keyed_seed",
    "knockout_score",
    "llr_pentanomial",
    "llr_trinomial",
    "load_average",
    "load_bot",
    "los",
    "match_points",
    "match_score",
    "new_key",
    "next_game",
    "next_pair_game",
    "pair_line",
    "pair_lines",
    "pair_score",
    "pair_text",
    "parse_entrant",
    "parse_sprt",
    "pentanomial_counts",
    "play_batch",
    "play_spec",
    "play_tournament",
    "rating_list",
    "rating_list_csv",
    "rating_list_json",
    "ratings",
    "read_key_file",
    "read_list_games",
    "report",
    "results_json",
    "round_lines",
    "round_robin",
    "run_tournament",
    "seat_order",
    "settings_key",
    "simulate_sprt",
    "sprt_bounds",
    "sprt_of",
    "sprt_status",
    "standings",
    "standings_csv",
    "standings_table",
    "swiss_pairings",
    "swiss_rounds",
    "time_tournament",
    "top_cut_lines",
    "untimed",
    "worker_start_up",
]


_HOME_OF, __getattr__, __dir__ = lazy_names(__name__, _HOMES, globals(), __all__)
