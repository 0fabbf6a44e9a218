"""Hosted games: a ``CreateGame`` checked into a game's setup (``plan_game``), and the game run
with its seats, its trace and its spectators (``HostedGame``)."""

from __future__ import annotations

import math
import re
import secrets
from pathlib import Path

import trio

from ..actors import ENGINE_ERROR, GameResult, GameSetup, SeatConfig, parse_clock
from ..cards import DECKS, load_cards
from ..protocol import CreateGame, GameOver
from ..rules import Game
from ..seats import BUILT_IN_BOTS, PolicySeat, Seat, hellos, play_seats
from ._rate import MessageRate
from ._remote_seat import RemoteSeat
from ._settings import DEFAULT_MESSAGES_PER_SECOND
from ._spectators import SpectatorFeed

__all__ = ["MAX_DEADLINE", "MAX_SEATS", "MAX_TURN_LIMIT", "MIN_DEADLINE", "PLAYER_NAME", "SEED_LIMIT",
           "GameRequestError", "HostedGame", "game_over", "plan_game"]

MAX_SEATS = 4
"""The most seats a game may have (2 at least)."""
MIN_DEADLINE = 0.1
"""The shortest deadline a game may give, in seconds (a network round trip must fit)."""
MAX_DEADLINE = 600.0
"""The longest deadline a game may give, in seconds (a seat's silence holds its game that long)."""
MAX_TURN_LIMIT = 1000
"""The highest turn limit a game may have."""
PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}\Z")
"""A player's name: what a log line, a trace and a terminal show as it is."""
SEED_LIMIT = 1 << 63
"""Seeds are below this (63 bits)."""


class GameRequestError(ValueError):
    """A ``CreateGame`` that can't be played: one line saying what is wrong (the client's
    words are not quoted back)."""


def plan_game(request: CreateGame, game_id: str) -> GameSetup:
    """The setup of the game ``request`` asks for, its decks read (built-in decks only, by
    name: nothing the client sends is ever opened as a file). Without a seed, the game's seed
    and each seat's are drawn from the operating system, unrelated to each other; with one,
    the seats' are derived from it as ``spellstack play`` derives them.

    Raises:
        GameRequestError: naming the seat or field at fault.
    """
    seats = request.seats
    if not 2 <= len(seats) <= MAX_SEATS:
        raise GameRequestError(f"a game has 2 to {MAX_SEATS} seats, not {len(seats)}")
    for n, spec in enumerate(seats):
        if not PLAYER_NAME.match(spec.name):
            raise GameRequestError(f"seat {n}: a name is 1 to 40 letters, digits, '_', '-' or '.'")
        if spec.deck not in DECKS:
            raise GameRequestError(f"seat {n}: unknown deck (decks are named: {', '.join(DECKS)})")
        if spec.bot and spec.bot not in BUILT_IN_BOTS:
            raise GameRequestError(f"seat {n}: unknown bot (empty for a remote seat, or one of: "
                                   f"{', '.join(BUILT_IN_BOTS)})")
    names = [spec.name for spec in seats]
    if len(set(names)) != len(names):
        raise GameRequestError("two seats have the same name")
    deadline = request.deadline
    if not (math.isfinite(deadline) and MIN_DEADLINE <= deadline <= MAX_DEADLINE):
        raise GameRequestError(f"deadline: {MIN_DEADLINE:g} to {MAX_DEADLINE:g} seconds")
    try:
        clock = parse_clock(request.clock) if request.clock else None
    except ValueError as err:
        raise GameRequestError(str(err)) from None
    if not 1 <= request.turn_limit <= MAX_TURN_LIMIT:
        raise GameRequestError(f"turn limit: 1 to {MAX_TURN_LIMIT}")
    seed = request.seed
    bot_seeds: list[int] = []
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
        bot_seeds = [secrets.randbelow(SEED_LIMIT) for _ in seats]
    elif not 0 <= seed < SEED_LIMIT:
        raise GameRequestError(f"seed: 0 to {SEED_LIMIT - 1}")
    configs = [SeatConfig(timeout=deadline, clock=clock)] * len(seats)
    setup = GameSetup([spec.deck for spec in seats], seed, names, turn_limit=request.turn_limit,
                      configs=configs, bot_seeds=bot_seeds, game_id=game_id)
    return setup.loaded(load_cards())


def game_over(game: Game, result: GameResult) -> GameOver:
    """The game's end as a seat is told it (an engine error's text stays on the server)."""
    losers = tuple(p.name for p in game.state.players if p.lost)
    reason = ENGINE_ERROR if result.reason.startswith(ENGINE_ERROR) else result.reason
    return GameOver(result.winner or "", losers, reason)


class HostedGame:
    """One game the server hosts: its setup, who plays each seat, its spectator feed."""

    def __init__(self, setup: GameSetup, bots: list[str], *, grace: float, after_game: float,
                 spectate: bool, trace_dir: Path | None,
                 messages_per_second: float = DEFAULT_MESSAGES_PER_SECOND) -> None:
        self.setup = setup
        """The game's setup."""
        self.remote: dict[int, RemoteSeat] = {}
        """The remote seats, by seat."""
        self.seats: list[Seat] = []
        """Who plays each seat: a remote seat, or a built-in bot (``bots[i]`` names it)."""
        for hello, bot in zip(hellos(setup), bots, strict=True):
            if bot:
                self.seats.append(PolicySeat(BUILT_IN_BOTS[bot]))
            else:
                seat = self.remote[hello.seat] = RemoteSeat(hello, grace, after_game,
                                                            rate=MessageRate(messages_per_second))
                self.seats.append(seat)
        self.feed = SpectatorFeed(setup.game_id, setup.players) if spectate else None
        """The spectator feed; None if nobody may watch."""
        self.trace_path = None if trace_dir is None else trace_dir / f"{setup.game_id}.jsonl"
        """Where its trace is written; None: no trace."""
        self.result: GameResult | None = None
        """How it ended, once it has."""
        self.done = trio.Event()
        """Set once the game is over and the server has let it go (its tokens open nothing)."""

    @property
    def game_id(self) -> str:
        """The game's id."""
        return self.setup.game_id

    async def run(self) -> GameResult:
        """Play the game to its end; then its spectators are told the end."""
        game, result = await play_seats(self.setup, self.seats, trace_path=self.trace_path, watch=self.feed)
        self.result = result
        if self.feed is not None:
            self.feed.finish(game_over(game, result))
        return result
