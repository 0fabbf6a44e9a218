"""One game of a tournament: what to play (``GameSpec``), what came of it (``GameRow``), and
playing it (``play_spec``), the same in the tournament's own process and in a worker process.

Every number a game depends on comes from the tournament's key, the two entrants' names,
which meeting of the two its match is and its number in the match (``keyed_seed``), so a
game played again, by any process, in any order, beside any others, in a tournament with
other entrants besides, is the same game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..actors import ON_TIME, GameClock, GameResult, GameSetup, SeatConfig
from ..cards import Deck
from ..rules import DEFAULT_TURN_LIMIT, StartSettings
from ..seats import AnyBot, Seat, play_seats, seat_of

__all__ = ["DEFAULT_DEADLINE", "Contestant", "GameRow", "GameSpec", "lost_on_time", "play_spec", "untimed"]

DEFAULT_DEADLINE = 30.0
"""Seconds a seat has for each decision unless the tournament says otherwise (``--deadline``):
the engine's own default (``SeatConfig.timeout``)."""

@dataclass(frozen=True, slots=True)
class Contestant:
    """An entrant as one game needs it: its name, deck and bot."""

    name: str
    """The entrant's name (the player's name in the game)."""
    deck: Deck
    """Its deck."""
    bot: AnyBot | Seat
    """Makes its bot from a seed, or is a bot process (one per game), or any other seat (a
    remote entrant's, which a server seats game by game)."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game to play."""

    game_id: str
    """Unique in its tournament: ``r{round}-m{match}-g{game}``."""
    round: int
    """The round, from 1."""
    match: int
    """The match's number in its round, from 1."""
    number: int
    """The game's number in its match, from 1."""
    seed: int
    """The game's seed (from the tournament's key, the players' names, the meeting and the
    game's number: ``next_game``)."""
    entrants: tuple[int, ...]
    """Entrant indexes in seat order (the match's first entrant in seat 0)."""
    bot_seeds: tuple[int, ...]
    """Each seat's bot seed (from what the game's seed comes from, and the seat)."""
    chooser: int | None
    """103.1: the seat that chooses who takes the first turn (the previous game's loser, or
    after a draw its chooser); None in a match's first game: the game's generator picks."""
    starting: int | None = None
    """A game pair's game: the seat that takes the first turn, fixed (nobody chooses); None:
    the chooser chooses."""
    library_seeds: tuple[int, ...] = ()
    """A game pair's game: each seat's library shuffle seed, so that a deck's library is in the
    same order in both games; empty: the game's own generator shuffles."""
    turn_limit: int = DEFAULT_TURN_LIMIT
    """The turn after which the game is drawn (``--turn-limit``)."""
    record_path: str = ""
    """Where the game's compact record is written (``--record-dir``); empty: nowhere."""
    clock: GameClock | None = None
    """Each seat's game clock (``--clock``), or None."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One finished game, as the results database keeps it."""

    game_id: str
    """The game's id."""
    round: int
    """Its round."""
    match: int
    """Its match in the round."""
    number: int
    """Its number in the match."""
    seed: int
    """Its seed."""
    entrants: tuple[int, ...]
    """Entrant indexes in seat order."""
    bot_seeds: tuple[int, ...]
    """Each seat's bot seed."""
    chooser: int
    """The seat that chose who took the first turn."""
    starting: int
    """The starting player's seat (-1 if the game ended before the choice)."""
    mulligans: tuple[int, ...]
    """Mulligans taken, by seat."""
    winner: int
    """The winning seat, or -1 for a draw (or an engine error: ``reason`` says)."""
    reason: str
    """Why the game ended."""
    turns: int
    """The turn it ended on."""
    decisions: int
    """Decisions the bots answered."""
    final_hash: str
    """The state hash at the end."""
    seconds: float = 0.0
    """Wall-clock seconds it took (a timing: not in results compared across runs)."""
    clock_left: tuple[float, ...] = ()
    """With game clocks, each seat's time left at the end, in seconds (seat order)."""


def untimed(row: GameRow) -> GameRow:
    """The row without its timing: what two plays of one game must agree on (time left on a
    clock is a timing too)."""
    return replace(row, seconds=0.0, clock_left=())


def lost_on_time(row: GameRow) -> bool:
    """Whether a game ended with a seat's clock run out: a result that depends on the machine."""
    return f" {ON_TIME} (clock " in row.reason


async def play_spec(spec: GameSpec, seats: Sequence[Contestant], *, trace_dir: Path | None = None,
                    deadline: float = DEFAULT_DEADLINE) -> GameRow:
    """Play ``spec``'s game between ``seats`` (every entrant of the tournament, by index), its
    trace in ``trace_dir/{game_id}.jsonl`` if given, each seat with ``deadline`` seconds for
    each decision; returns its row. A bot played in process whose constructor raises forfeits
    its seat at its first decision (``PolicySeat``), as a bot process that can't build its bot
    does."""
    players = [seats[i] for i in spec.entrants]
    names = [p.name for p in players]
    how = StartSettings(chooser=spec.chooser, starting=spec.starting, library_seeds=spec.library_seeds)
    setup = GameSetup([p.deck for p in players], spec.seed, names, how, spec.turn_limit,
                      configs=[SeatConfig(timeout=deadline, clock=spec.clock)] * len(players),
                      bot_seeds=spec.bot_seeds,
                      game_id=spec.game_id)
    began = time.perf_counter()
    game, result = await play_seats(setup, [seat_of(p.bot) for p in players],
                                    trace_path=None if trace_dir is None else trace_dir / f"{spec.game_id}.jsonl",
                                    record_path=Path(spec.record_path) if spec.record_path else None)
    seconds = time.perf_counter() - began
    start = game.state.start
    assert start is not None
    return GameRow(spec.game_id, spec.round, spec.match, spec.number, spec.seed, spec.entrants,
                   spec.bot_seeds, start.chooser, start.starting, tuple(start.mulligans),
                   _seat_of(result, names), result.reason, result.turns, result.decisions,
                   result.final_hash, seconds, tuple(result.clock_left))


def _seat_of(result: GameResult, names: Sequence[str]) -> int:
    """The winner's seat, or -1."""
    return names.index(result.winner) if result.winner is not None else -1
