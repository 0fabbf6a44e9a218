"""What a fuzz run counted: per mutation kind, forfeits, results, and each failed check with
the command that replays it; and the report as text."""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field

from ..actors import MAX_REJECTIONS, MAX_STRIKES

__all__ = ["Failure", "FuzzReport", "KindCounts", "PolicyCounts", "SiblingCounts", "render_fuzz"]


@dataclass(slots=True)
class Failure:
    """A check that failed, with what reproduces it."""

    seed: int
    """The run's seed."""
    game: int
    """The game's number in the run."""
    message: int
    """The hostile message's number within the game (from 1; 0: after the last one)."""
    run_message: int
    """Its number within the run."""
    kind: str
    """The mutation that was sent."""
    what: str
    """What went wrong."""
    data: bytes = b""
    """The bytes sent."""
    quota: int = 0
    """If not 0: the game's mutated stream was cut after this many messages."""
    players: int = 2
    """Seats at the game's table."""
    siblings: int = 0
    """Honest games played beside it (``--siblings``), if it takes them to replay it."""

    def replay(self) -> str:
        """The command that replays this game alone."""
        cut = f" --messages {self.quota}" if self.quota else ""
        table = f" --players {self.players}" if self.players != 2 else ""
        beside = f" --siblings {self.siblings}" if self.siblings else ""
        return f"spellstack fuzz --seed {self.seed} --game {self.game}{cut}{table}{beside}"


@dataclass(slots=True)
class KindCounts:
    """What became of the messages of one kind."""

    sent: int = 0
    """Messages sent."""
    error: int = 0
    """Answered with an ErrorReply."""
    rejected: int = 0
    """Answered with Rejected."""
    accepted: int = 0
    """Accepted."""
    unread: int = 0
    """Never read (the game ended first)."""
    take_action: int = 0
    """Reached the kernel's take_action."""
    check_answer: int = 0
    """Reached the kernel's check_answer."""


@dataclass(slots=True)
class PolicyCounts:
    """What became of the games of one hostile policy."""

    games: int = 0
    """Games played with it."""
    forfeits: int = 0
    """Games its seat forfeited, as called for."""
    blocked: float = 0.0
    """Seconds it blocked the thread, in all (``block``)."""


@dataclass(slots=True)
class SiblingCounts:
    """The honest games played beside hostile ones, and the same games alone."""

    games: int = 0
    """Honest games played beside a hostile one (each played alone too)."""
    decisions: int = 0
    """Their decisions (the same beside and alone)."""
    beside: float = 0.0
    """Seconds they took beside the hostile games (from each start to the last one's end)."""
    alone: float = 0.0
    """Seconds the same games took alone."""


@dataclass(slots=True)
class FuzzReport:
    """Everything a run counted."""

    seed: int
    """The run's seed."""
    players: int = 2
    """Seats per game."""
    games: int = 0
    """Games played."""
    messages: int = 0
    """Hostile messages sent."""
    kinds: dict[str, KindCounts] = field(default_factory=dict)
    """Counts by mutation kind."""
    forfeits: dict[str, int] = field(default_factory=dict)
    """Forfeits of the hostile seat the protocol called for, by cause."""
    results: dict[str, int] = field(default_factory=dict)
    """How games ended: hostile win, loss, draw."""
    legal_refused: int = 0
    """Legal replies (options the request listed) that were refused all the same."""
    refusal_copies: int = 0
    """Refusals naming a hidden id that were compared with the same refusal for a fresh id."""
    failures: list[Failure] = field(default_factory=list)
    """Failed checks (at most a few per game)."""
    failure_count: int = 0
    """All failed checks."""
    seconds: float = 0.0
    """Wall time."""
    policies: dict[str, PolicyCounts] = field(default_factory=dict)
    """The policy games, by hostile policy."""
    siblings: SiblingCounts = field(default_factory=SiblingCounts)
    """The honest games played beside the hostile ones (``--siblings``)."""
    bombs_refused: int = 0
    """Object-count bombs refused with an ErrorReply naming a limit."""
    bomb_seconds: float = 0.0
    """The time the coordinator took to refuse them, in all (from reading one to replying)."""
    bomb_slowest: float = 0.0
    """The longest it took to refuse one."""

    def bomb_refused(self, seconds: float) -> None:
        """Count an object-count bomb refused in ``seconds``."""
        self.bombs_refused += 1
        self.bomb_seconds += seconds
        self.bomb_slowest = max(self.bomb_slowest, seconds)

    def kind(self, name: str) -> KindCounts:
        """The counts of a kind (created on first use)."""
        if name not in self.kinds:
            self.kinds[name] = KindCounts()
        return self.kinds[name]


def render_fuzz(report: FuzzReport, quota: int, game: int | None = None) -> list[str]:
    """The report as ``spellstack fuzz`` prints it (``quota``: the messages asked for;
    ``game``: the game replayed alone, if one was)."""
    out: list[str] = []
    rate = report.messages / report.seconds if report.seconds else 0.0
    if game is None:
        what = (f"{report.games} games, {report.messages} hostile messages (quota {quota}; "
                "the last game is played out)")
    else:
        cut = f", mutated stream cut after {quota}" if quota else ""
        what = f"game {game} replayed alone{cut}, {report.messages} hostile messages"
    out.append(f"spellstack fuzz: seed {report.seed}, {what}, {report.seconds:.1f} s, "
               f"{rate:.0f} messages/s")
    out.append(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
               f"{platform.python_version()}")
    head = ("kind", "sent", "error", "rejected", "accepted", "unread", "take_action",
            "check_answer")
    out.append("  ".join(f"{h:>12}" for h in head))
    total = KindCounts()
    for name in sorted(report.kinds):
        c = report.kinds[name]
        row = (c.sent, c.error, c.rejected, c.accepted, c.unread, c.take_action, c.check_answer)
        out.append(f"{name:>12}  " + "  ".join(f"{v:>12}" for v in row))
        for f in ("sent", "error", "rejected", "accepted", "unread", "take_action",
                  "check_answer"):
            setattr(total, f, getattr(total, f) + getattr(c, f))
    out.append(f"{'total':>12}  " + "  ".join(f"{getattr(total, f):>12}" for f in (
        "sent", "error", "rejected", "accepted", "unread", "take_action", "check_answer")))
    mutated = sum(c.sent for k, c in report.kinds.items() if k not in ("legal", "leave"))
    reached_mut = sum(c.take_action + c.check_answer for k, c in report.kinds.items()
                      if k not in ("legal", "leave"))
    reached = total.take_action + total.check_answer
    out.append(f"reached the kernel (take_action or check_answer): {reached} of {total.sent} "
               f"messages ({100 * reached / max(total.sent, 1):.1f}%); mutated: {reached_mut} of "
               f"{mutated} ({100 * reached_mut / max(mutated, 1):.1f}%)")
    out.append(f"refusals naming a hidden id compared with a fresh id's: {report.refusal_copies}"
               f"; legal replies refused: {report.legal_refused}")
    if report.bombs_refused:
        out.append(f"object-count bombs refused: {report.bombs_refused}, in "
                   f"{1000 * report.bomb_seconds / report.bombs_refused:.2f} ms on average, "
                   f"{1000 * report.bomb_slowest:.2f} ms at most")
    forfeits = ", ".join(f"{k} {v}" for k, v in sorted(report.forfeits.items())) or "none"
    out.append(f"hostile forfeits the protocol called for (limits: {MAX_STRIKES} malformed, "
               f"{MAX_REJECTIONS} illegal in a row): {forfeits}")
    out.append("games: " + ", ".join(f"{k} {v}" for k, v in sorted(report.results.items())))
    if report.policies:
        out.append("policy games (a hostile bot in a player actor; games, forfeits): " + ", ".join(
            f"{k} {c.games}/{c.forfeits}" + (f" ({c.blocked:.1f} s blocked)" if c.blocked else "")
            for k, c in sorted(report.policies.items())))
    sib = report.siblings
    if sib.games:
        rate_beside = sib.decisions / sib.beside if sib.beside else 0.0
        rate_alone = sib.decisions / sib.alone if sib.alone else 0.0
        out.append(f"siblings: {sib.games} honest games beside the hostile ones, "
                   f"{sib.decisions} decisions: {rate_beside:.0f} decisions/s beside, "
                   f"{rate_alone:.0f} alone ({rate_beside / max(rate_alone, 1e-9):.2f}x), "
                   f"{sib.beside:.1f} s against {sib.alone:.1f} s")
    out.append(f"failures: {report.failure_count}")
    for fail in report.failures:
        out.append(f"FAIL game {fail.game} message {fail.message} (run message "
                   f"{fail.run_message}) [{fail.kind}]: {fail.what}")
        if fail.data:
            out.append(f"  bytes: {fail.data[:64].hex()}{'...' if len(fail.data) > 64 else ''}")
        out.append(f"  replay: {fail.replay()}")
    if report.failure_count > len(report.failures):
        out.append(f"({report.failure_count - len(report.failures)} more not shown)")
    return out
