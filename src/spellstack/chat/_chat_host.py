"""``ChatHost``: what a chat front end asks of the host its games run on, in process
(``GameHost``) or on a server (``RemoteGameHost``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Protocol

from ..cards import Deck
from ..rules import DEFAULT_TURN_LIMIT
from ._game_host import GameInfo
from ._seats import BotSeat, HumanSeat

__all__ = ["ChatHost"]


class ChatHost(Protocol):
    """The host methods a chat front end uses (``TelegramChat`` uses exactly these): games
    created, text commands in, each player's texts out."""

    async def start(self) -> None:
        """Start the host."""
        ...

    async def stop(self) -> None:
        """End every game (its players are told) and the host."""
        ...

    async def create_game(self, seats: Sequence[HumanSeat | BotSeat], decks: Sequence[str | Deck],
                          *, seed: int | None = None, game_id: str | None = None,
                          turn_limit: int = DEFAULT_TURN_LIMIT) -> str:
        """Start a game; its id."""
        ...

    async def submit(self, game_id: str, player: str, text: str) -> str:
        """Carry out a player's text command; the answer for them."""
        ...

    async def concede(self, game_id: str, player: str) -> str:
        """The player concedes; the answer for them."""
        ...

    def messages(self, game_id: str, player: str) -> AsyncIterator[str]:
        """What the player should be told, as it comes, until the game's last text."""
        ...

    async def end_game(self, game_id: str, reason: str) -> GameInfo:
        """End a running game now, with no winner; its entry once it has ended."""
        ...

    def info(self, game_id: str) -> GameInfo:
        """One game's entry."""
        ...

    def games(self) -> list[GameInfo]:
        """Every game of the host."""
        ...
