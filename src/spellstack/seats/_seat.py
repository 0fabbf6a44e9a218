"""The seat protocol: who plays a seat, in any game.

A ``Seat`` is told the game it is to play (``SeatHello``: the game's id, its seat, every
player's name, its deadline and its own seed) and gives what plays it there: a policy (a
``Bot``), which the engine's player actor plays in the engine's process, or a ``Client``, which
plays over the seat's link itself. Every kind of seat is one:

- ``PolicySeat``: a bot built afresh for each game from its seed, played in process (the
  built-in bots; a Python class the caller trusts);
- ``BuiltBot``: a bot built already, played in process as it is;
- ``ProcessBot``: a bot process started for each game (a hosted Python class, or any program
  speaking the stdio protocol), relayed by a ``Client``;
- the chat's human seat (``spellstack.chat``): a person typing commands;
- the harness's hostile seat (``spellstack.harness``): a client sending mutated messages.

``seat_of`` makes what ``load_bot`` gives a seat; ``play_seats`` plays a ``GameSetup`` with one
seat per player, each told its game first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..actors import (
    REASON_LIMIT,
    Client,
    GameResult,
    GameSetup,
    Link,
    TraceSink,
    error_text,
    play_setup,
    raise_unless_policys,
)
from ..bots import Bot
from ..protocol import DecisionRequest, Forfeit, GameOver, PriorityRequest
from ..rules import Game, InvalidMessageError
from ._entrants import AnyBot, BotFactory
from ._hello import SeatHello

__all__ = ["BuiltBot", "PolicySeat", "Seat", "hellos", "play_seats", "seat_of", "unbuilt"]

@runtime_checkable
class Seat(Protocol):
    """Who plays a seat: given its game, what plays it there."""

    def player(self, hello: SeatHello) -> Bot | Client:
        """What plays the seat in the game ``hello`` describes: a policy for the engine's
        player actor, or a client playing over the seat's link. Called once per game."""
        ...


@dataclass(frozen=True, slots=True)
class PolicySeat:
    """A bot built afresh for each game from the seat's seed and played in the engine's
    process. A constructor that raises (any ``BaseException`` that is not the runner's:
    ``raise_unless_policys``) forfeits the seat at its first request."""

    factory: BotFactory
    """Seed -> a fresh bot (a bot class, or what ``load_bot`` gives for one)."""

    def player(self, hello: SeatHello) -> Bot | Client:
        """The bot for this game, or a stand-in that forfeits naming why it could not be built."""
        try:
            return self.factory(hello.seed)
        except BaseException as err:  # a bot's own error, whatever it is, loses its own game
            raise_unless_policys(err)
            # The trace's header names the class that could not be built, not its stand-in.
            made = getattr(self.factory, "cls", self.factory)
            cls = made if isinstance(made, type) else type(made)
            return unbuilt(err, entrant=f"{cls.__module__}.{cls.__qualname__}")


@dataclass(frozen=True, slots=True)
class BuiltBot:
    """A bot built already, played in the engine's process as it is (whatever seed its game
    gives): a bot object handed over by a program."""

    bot: Bot
    """The bot."""

    def player(self, hello: SeatHello) -> Bot | Client:
        """The bot itself."""
        return self.bot


def seat_of(bot: AnyBot | Seat) -> Seat:
    """A seat for what ``load_bot`` gives: a bot process is one already, a factory of bots is
    a ``PolicySeat``; a seat is itself."""
    if isinstance(bot, Seat):
        return bot
    return PolicySeat(bot)


def hellos(setup: GameSetup) -> list[SeatHello]:
    """What each seat of ``setup``'s game is told: its deadline from its settings, its seed
    from the setup's bot seeds."""
    names = setup.players
    return [SeatHello(setup.game_id, seat, names, config.timeout, setup.bot_seed(seat))
            for seat, config in enumerate(setup.seat_configs)]


async def play_seats(setup: GameSetup, seats: Sequence[Seat], *, trace_path: Path | None = None,
                     history: bool = False, timestamps: bool = False,
                     record_path: Path | None = None, watch: TraceSink | None = None,
                     entrants: Sequence[str] | None = None) -> tuple[Game, GameResult]:
    """Play ``setup``'s game with seat ``i`` played by what ``seats[i]`` gives for it
    (``play_setup``: ``trace_path``, ``history``, ``timestamps``, ``record_path``, ``watch``,
    ``entrants`` are its); returns the game (its final state) and the result."""
    if len(seats) != len(setup.decks):
        raise ValueError(f"{len(setup.decks)} decks but {len(seats)} seats")
    players = [seat.player(hello) for seat, hello in zip(seats, hellos(setup), strict=True)]
    return await play_setup(setup, players, trace_path=trace_path, history=history, timestamps=timestamps,
                            record_path=record_path, watch=watch, entrants=entrants)


def unbuilt(err: BaseException, *, entrant: str = "seat played by its caller") -> Client:
    """What plays a seat whose bot's constructor raised ``err``: it forfeits at its first
    request, with a reason naming the exception. ``entrant``: who was to play, for the trace's
    header."""
    reason = f"bot's constructor raised {error_text(err)}"
    if len(reason) > REASON_LIMIT:
        reason = reason[:REASON_LIMIT - 3] + "..."

    async def play(link: Link) -> None:
        while True:
            try:
                msg = await link.receive()
            except InvalidMessageError:  # nothing to answer: the forfeit is due anyway
                break
            if isinstance(msg, GameOver):
                return
            if isinstance(msg, (PriorityRequest, DecisionRequest)):
                break
        await link.send(Forfeit(reason))

    return Client(play, entrant=entrant)
