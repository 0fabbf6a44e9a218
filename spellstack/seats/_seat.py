"""What plays a seat whose bot could not be built."""

from __future__ import annotations

from ..actors import REASON_LIMIT, Client, Link, error_text
from ..protocol import DecisionRequest, Forfeit, GameOver, PriorityRequest
from ..rules import InvalidMessageError

__all__ = ["unbuilt"]


def unbuilt(err: BaseException) -> Client:
    """A seat for a bot whose constructor raised ``err``: it forfeits at its first request,
    with a reason naming the exception."""
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

    return Client(play)
