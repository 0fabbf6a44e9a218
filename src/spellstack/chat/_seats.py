"""Seats of a hosted game: a bot seat (a policy, the usual deadlines) or a human seat (a person
typing commands, with time limits of its own), and the policy that plays a human seat.

A human seat is a ``Bot`` whose ``decide`` waits for the player's command: the player actor
sends the reply as ``SubmitAction`` or ``SubmitAnswer`` like any bot's, so a chat game traces and
replays like any other. People are slow: each decision has ``HumanSeat.time_limit`` seconds;
on time-out a priority decision passes and any other question takes the deterministic
``default_answer``, each recorded; ``HumanSeat.max_misses`` time-outs in a row forfeit the seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import trio

from ..actors import SeatConcedes, SeatConfig, SeatLeaves
from ..bots import Bot
from ..protocol import Accepted, ErrorReply, Message, Rejected, Stops
from ..rules import Action, Answer, Decision, PlayerView, Reply, default_answer
from ..seats import Seat, SeatHello
from ._render import MESSAGE_LIMIT, Hasty, Numbering, fence, render_view

if TYPE_CHECKING:
    from ._game_host import Answered, Outbox

__all__ = ["HUMAN_STOPS", "BotSeat", "HumanSeat", "SeatTimeout"]

HUMAN_STOPS = Stops(my_turn=("precombat_main", "postcombat_main"), opponents_turns=(), stack=True)
"""Where a human seat wants priority by default: its own main phases, and whenever the stack
is not empty (to respond); elsewhere the engine passes for it. Questions (attackers,
blockers, targets, ...) are always asked."""
HUMAN_DEADLINE_GRACE = 10.0
"""Seconds the engine's own deadline for a human seat exceeds the seat's time limit: the seat
answers (by default, on time-out) before the engine would forfeit it."""


@dataclass(frozen=True, slots=True)
class HumanSeat:
    """A person playing by text commands."""

    name: str
    """The player's name in the game (and in ``submit``/``messages``)."""
    time_limit: float = 300.0
    """Seconds for each decision before the seat times out."""
    max_misses: int = 3
    """Time-outs in a row that forfeit the seat."""
    stops: Stops | None = HUMAN_STOPS
    """Where the seat wants priority (None: whenever it could do more than pass)."""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A bot: the normal deadlines, a missed one forfeits."""

    name: str
    """The player's name in the game."""
    bot: str | Bot | Seat = "random"
    """A bot spec as a tournament takes it (``spellstack.seats.load_bot``: ``random``,
    ``heuristic``, ``module:Class``, ``path/to/file.py:Class``, ``stdio:COMMAND``; a class runs
    in a bot process of its own, and **a spec names code to run**: never pass a chat user's
    words here), a ``Bot``, or any ``spellstack.seats.Seat``."""
    config: SeatConfig = field(default_factory=SeatConfig)
    """The seat's settings (deadline, stops)."""


class SeatTimeout(SeatLeaves):
    """A human seat missed ``max_misses`` decisions in a row: it forfeits."""


class Conceded(SeatConcedes):
    """A human seat conceded while asked something other than priority (104.3a)."""


CONCEDE = object()
"""What ``deliver`` is given for a concession."""


class Session:
    """One human player's side of a hosted game: their last view and question, their inbox
    (commands from the host program) and outbox (text for them), the feed position. It is the
    human seat (a ``spellstack.seats.Seat``): its player is a ``HumanPolicy``.

    The host program's asyncio code and the engine's trio code run on one thread (trio guest
    mode): the session's fields are read and written by both, never at the same time."""

    def __init__(self, game_id: str, seat: int, spec: HumanSeat, outbox: Outbox,
                 tell: Callable[[Session, str], None],
                 before: Callable[[Session], None] = lambda session: None) -> None:
        self.game_id = game_id
        self.seat = seat
        self.spec = spec
        self.outbox = outbox
        self._tell = tell
        self.before = before
        """Called before each question is shown (the host flushes the event feed)."""
        self.view: PlayerView | None = None
        """The last view sent to the player."""
        self.decision: Decision | None = None
        """The question waiting for the player's command, or None."""
        self.numbering = Numbering()
        """The ``[n]`` numbers of the last view."""
        self.waiting: Answered | None = None
        """The host program's ``submit`` waiting for the engine's acceptance or refusal."""
        self.summary = ""
        """What that submission did, in words."""
        self.feed_index = 0
        """How far into the game's events the feed has told the player."""
        self.misses = 0
        """Time-outs in a row."""
        self.timeouts: list[str] = []
        """Each time-out and what was done for it."""
        self.conceding = False
        """The player conceded while nothing was asked: done at the next question."""
        self.quiet = False
        """The next question is the same one asked again after a refusal: not shown again."""
        self.inbox_send, self.inbox = trio.open_memory_channel[tuple[int, object]](math.inf)
        self.over = False
        """The game is over (or the seat left it)."""
        self.hasty: Hasty | None = None
        """Which permanents have haste now (set by the host once the game is built)."""

    def tell(self, text: str) -> None:
        """Queue ``text`` for the player."""
        self._tell(self, text)

    def settle(self, text: str) -> None:
        """Answer the waiting ``submit`` with ``text``."""
        waiting, self.waiting = self.waiting, None
        if waiting is not None and not waiting.done():
            waiting.set_result(text)

    def deliver(self, decision_id: int, reply: object) -> None:
        """(trio) A command's reply for the question ``decision_id``."""
        self.inbox_send.send_nowait((decision_id, reply))

    def player(self, hello: SeatHello) -> Bot:
        """The seat's player in its game (``spellstack.seats.Seat``): the player's commands, as
        the policy of a player actor (``HumanPolicy``)."""
        return HumanPolicy(self, self.before)


class HumanPolicy:
    """The policy of a human seat: shows the question, waits for the player's command."""

    def __init__(self, session: Session, before: Callable[[Session], None]) -> None:
        self.session = session
        self.before = before
        """Called before each question is shown (the host flushes the event feed)."""
        self.stops = session.spec.stops
        """Declared with the first reply (``Bot.stops``)."""

    def notify(self, msg: Message) -> None:
        """The engine's acceptance or refusal of the last reply."""
        s = self.session
        if isinstance(msg, Accepted):
            s.settle(f"OK: {s.summary}." if s.summary else "OK.")
        elif isinstance(msg, (Rejected, ErrorReply)):
            s.quiet = True
            s.settle(f"Refused: {_one_line(msg.reason)}")

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Wait for the player's command for ``decision`` (or the time limit)."""
        s = self.session
        self.before(s)
        if s.conceding:
            return self._concede(decision)
        quiet, s.quiet = s.quiet, False
        s.view = view
        if not quiet:
            s.numbering = Numbering.of(view)
            text, s.numbering = render_view(view, decision, s.numbering, hasty=s.hasty)
            s.tell(text)
        s.decision = decision
        with trio.move_on_after(s.spec.time_limit):
            while True:
                decision_id, reply = await s.inbox.receive()
                if decision_id != decision.id:
                    s.settle("Too late: that question is no longer open.")
                    continue
                s.misses = 0
                if reply is CONCEDE:
                    return self._concede(decision)
                assert isinstance(reply, (Action, Answer))
                return reply
        s.decision = None
        s.misses += 1
        s.settle("Too late: the time for that question ran out.")
        if s.misses >= s.spec.max_misses:
            s.tell(f"You missed {s.misses} decisions in a row: you forfeit the game.")
            raise SeatTimeout(f"{s.spec.name} missed {s.misses} decisions in a row "
                              f"(time limit {s.spec.time_limit:g} s)")
        default = default_answer(decision)
        done = "you pass" if decision.kind == "priority" else "the default answer is taken"
        record = f"turn {view.turn} {view.step}: {decision.kind} timed out, {done}"
        s.timeouts.append(record)
        s.tell(f"Time is up ({s.spec.time_limit:g} s): {done} "
               f"({s.misses} of {s.spec.max_misses} misses in a row).")
        return default

    def _concede(self, decision: Decision) -> Reply:
        s = self.session
        s.decision = None
        s.conceding = False
        if decision.kind == "priority":
            return Action("concede")
        raise Conceded("conceded")


def human_config(spec: HumanSeat) -> SeatConfig:
    """The engine's settings for a human seat: a deadline past the seat's own time limit."""
    return SeatConfig(timeout=spec.time_limit + HUMAN_DEADLINE_GRACE)


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def fit_message(lines: list[str], limit: int = MESSAGE_LIMIT) -> str:
    """Feed lines as one message of at most ``limit`` characters (oldest dropped, counted)."""
    body = "\n".join(lines)
    dropped = 0
    while len(fence(body, limit)) >= limit and len(lines) > 1:
        lines = lines[1:]
        dropped += 1
        body = f"({dropped} earlier events not shown)\n" + "\n".join(lines)
    return body if len(body) <= limit else body[: limit - 4] + " ..."
