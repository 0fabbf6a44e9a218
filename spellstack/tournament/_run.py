"""Running a tournament: rounds of matches, each match's games one after another, as many games
at once as the executor plays, every finished game recorded before anything else happens.

Round robin: every round is known from the start, so every match may be played at once. Swiss
(MTR appendix: pairings from the standings): a round is paired when the one before has ended.
Either way what is played depends only on the settings and the games' own outcomes, never on
the order games finish in, so the results are the same whatever runs them, in how many
processes, how many at a time, and whether the tournament was stopped and resumed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from ._entrants import Entrant
from ._executors import Executor
from ._games import DEFAULT_DEADLINE, GameRow
from ._match import MatchSpec, Score, match_score, next_game
from ._pairings import FORMATS, round_robin, swiss_pairings, swiss_rounds
from ._standings import MatchResult

__all__ = ["FORMATS", "Played", "TournamentSettings", "run_tournament"]


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """Everything a tournament's results depend on (its key in the results database)."""

    entrants: tuple[Entrant, ...]
    """The entrants, by index."""
    format: str
    """``round-robin`` or ``swiss``."""
    best_of: int
    """Games a match is the best of."""
    seed: int
    """The tournament's seed: every game's and bot's seed, and the pairings, come from it."""
    rounds: int = 0
    """Swiss rounds (0: ``swiss_rounds`` of the entrants); a round robin has as many as its
    schedule needs."""
    deadline: float = DEFAULT_DEADLINE
    """Seconds each seat has for each decision (a bot over it forfeits the game)."""
    trust: bool = False
    """Python class bots run in the tournament's own processes (``--trust``) instead of a
    bot process each (``load_bot``); it changes where they run, not how games come out."""

    def round_count(self) -> int:
        """The number of rounds it has."""
        n = len(self.entrants)
        if self.format == "round-robin":
            return len(round_robin(n))
        return self.rounds or swiss_rounds(n)

    def as_dict(self) -> dict[str, Any]:
        """The settings as plain data: what the results database keys the tournament by."""
        return {
            "entrants": [{"name": e.name, "bot": e.bot, "deck": e.deck.name,
                          "cards": list(e.deck.cards)} for e in self.entrants],
            "format": self.format,
            "rounds": self.round_count(),
            "best_of": self.best_of,
            "seed": self.seed,
            "deadline": self.deadline,
        }


@dataclass(slots=True)
class Played:
    """What a tournament (or the part of it played so far) came to."""

    settings: TournamentSettings
    """Its settings."""
    rows: list[GameRow] = field(default_factory=list)
    """Every game, by round, match and number."""
    matches: list[tuple[MatchSpec | None, MatchResult]] = field(default_factory=list)
    """Every match (None for a Swiss bye) with its result, by round and match."""
    checked: int = 0
    """Games played again that the results database held already (a tournament run again
    without ``--resume``), each checked against the recorded one."""
    mismatched: list[tuple[GameRow, GameRow]] = field(default_factory=list)
    """Of those, (recorded, played now) for each that came out differently."""
    replayed: int = 0
    """Games sent again because the worker process playing them died (``--jobs``)."""
    workers: int = 0
    """Worker processes started, replacements of dead ones included (0: in process)."""
    sat_out: list[tuple[int, int]] = field(default_factory=list)
    """A round robin of an odd number of entrants: (round, entrant) for the one that sits
    each round out (no match, no points)."""


def _estimate(settings: TournamentSettings) -> int:
    """Games a tournament has at most if no game is drawn: ``best_of`` per match."""
    n = len(settings.entrants)
    return settings.round_count() * (n // 2) * settings.best_of


async def run_tournament(settings: TournamentSettings, executor: Executor,
                         done: Mapping[str, GameRow], record: Callable[[GameRow], None],
                         progress: Callable[[int, int, GameRow | None], None] | None = None) -> Played:
    """Play the tournament's games that ``done`` (rows by game id, from the results database)
    does not hold, each one given to ``record`` as soon as it ends; returns everything.

    ``progress(games done, games in all, the game)`` is called after each game played (the
    games done count those in ``done`` too; the total is an upper bound that shrinks as matches
    end early), and with no game when the total changes."""
    n = len(settings.entrants)
    if n < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {n}")
    limiter = trio.CapacityLimiter(executor.capacity)
    played = Played(settings)
    by_match: dict[tuple[int, int], list[GameRow]] = {}
    results: list[MatchResult] = []
    count = [0, _estimate(settings)]

    def tick(row: GameRow | None = None, shrink: int = 0) -> None:
        count[1] -= shrink
        if progress is not None:
            progress(count[0], count[1], row)

    async def play_match(match: MatchSpec) -> None:
        rows = by_match.setdefault((match.round, match.match), [])
        while True:
            spec = next_game(settings.seed, match, rows, settings.best_of)
            if spec is None:
                break
            row = done.get(spec.game_id)
            if row is None:
                async with limiter:
                    row = await executor.play(spec)
                record(row)
                rows.append(row)
                count[0] += 1
                tick(row)
            else:
                rows.append(row)
                count[0] += 1
        # Games it did not need (an early win) or needed more of (draws) than best_of.
        if len(rows) != settings.best_of:
            tick(shrink=settings.best_of - len(rows))

    def result_of(match: MatchSpec) -> MatchResult:
        score: Score = match_score(by_match[(match.round, match.match)], settings.best_of)
        a, b = match.entrants
        return MatchResult(match.round, a, b, score.wins[0], score.wins[1], score.draws)

    def bye(round_no: int, entrant: int) -> MatchResult:
        return MatchResult(round_no, entrant, None, settings.best_of // 2 + 1, 0, 0)

    tick()
    if settings.format == "round-robin":
        schedule = round_robin(n)
        matches: list[list[tuple[MatchSpec | None, int]]] = []
        async with trio.open_nursery() as nursery:
            for r, pairs in enumerate(schedule, 1):
                listed = _listed(r, pairs)
                matches.append(listed)
                for spec, _ in listed:
                    if spec is not None:
                        nursery.start_soon(play_match, spec)
        for r, listed in enumerate(matches, 1):
            for spec, entrant in listed:
                if spec is None:
                    # An odd number of entrants: each sits out one round. That is no match
                    # won (MTR's bye is a Swiss pairing's), so the standings leave it out.
                    played.sat_out.append((r, entrant))
                    continue
                result = result_of(spec)
                results.append(result)
                played.matches.append((spec, result))
    elif settings.format == "swiss":
        for r in range(1, settings.round_count() + 1):
            pairs = swiss_pairings(n, results, r, settings.seed, settings.best_of // 2 + 1)
            listed = _listed(r, pairs)
            async with trio.open_nursery() as nursery:
                for spec, _ in listed:
                    if spec is not None:
                        nursery.start_soon(play_match, spec)
            for spec, entrant in listed:
                result = result_of(spec) if spec is not None else bye(r, entrant)
                results.append(result)
                played.matches.append((spec, result))
    else:
        raise ValueError(f"unknown format {settings.format!r} (formats: {', '.join(FORMATS)})")
    played.rows = [row for key in sorted(by_match) for row in by_match[key]]
    return played


def _listed(round_no: int, pairs: Sequence[tuple[int, int | None]]) -> list[tuple[MatchSpec | None, int]]:
    """A round's pairings as matches numbered from 1 (a bye: None and the entrant)."""
    out: list[tuple[MatchSpec | None, int]] = []
    number = 0
    for a, b in pairs:
        if b is None:
            out.append((None, a))
        else:
            number += 1
            out.append((MatchSpec(round_no, number, (a, b)), a))
    return out
