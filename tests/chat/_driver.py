"""A scripted user for chat tests: reads its pending question and types a command for it (cards
by name as a person would, creatures in combat by their ``[n]`` numbers), and keeps every text it
is given. A command the host refuses fails the test at once: the user answers only new messages,
so after a refusal it would otherwise sit until the seat's time limit ran out."""

from __future__ import annotations

from dataclasses import dataclass, field

from spellstack.chat import GameHost, HumanSeat
from spellstack.rules import Decision, PlayerView

SEAT_LIMIT = 5.0
"""Seconds a test seat has for each question. The scripted user answers each question as soon as
it is shown, so a passing test never waits this out; a seat that times out makes the user's next
command come back "Too late", which fails the test."""


def scripted_seat(name: str) -> HumanSeat:
    """A human seat for a scripted user, with the short ``SEAT_LIMIT``."""
    return HumanSeat(name, time_limit=SEAT_LIMIT)


class Refused(AssertionError):
    """The host did not take a command the scripted user sent."""


@dataclass
class User:
    """One scripted user of a hosted game."""

    host: GameHost
    game: str
    name: str
    told: list[str] = field(default_factory=list)
    """Every message from the stream."""
    sent: list[tuple[str, str]] = field(default_factory=list)
    """(command, the host's answer)."""
    features: set[str] = field(default_factory=set)
    """What the game has shown this user doing: target, response, attack, block, number."""

    async def play(self) -> None:
        async for text in self.host.messages(self.game, self.name):
            self.told.append(text)
            decision = self.host.pending(self.game, self.name)
            view = self.host.player_view(self.game, self.name)
            if decision is None or view is None:
                continue
            command = self.command(view, decision)
            answer = await self.host.submit(self.game, self.name, command)
            self.sent.append((command, answer))
            if not answer.startswith("OK"):
                raise Refused(f"{self.name} sent {command!r} for a {decision.kind} question: {answer}")

    def command(self, view: PlayerView, d: Decision) -> str:
        me = view.seat
        foe = view.players[1 - me].name
        if d.kind == "priority":
            plays = [o for o in d.actions if o.kind == "play"]
            casts = [o for o in d.actions if o.kind == "cast" and not o.has_x]
            if view.stack and view.stack[0].controller != me:
                for o in casts:
                    if not o.targets:
                        continue
                    cands = o.targets[0].candidates
                    if (me ^ 1) + 1 in cands:
                        self.features.add("response")
                        return f"cast {o.name} targeting {foe}"
                    if view.stack[0].id in cands:
                        self.features.add("response")
                        number = self.host.numbering(self.game, self.name).number(view.stack[0].id)
                        return f"cast {o.name} targeting #{number}"
                return "pass"
            if plays:
                return f"play {plays[0].name}"
            for o in casts:
                if not o.targets:
                    return f"cast {o.name}"
                cands = o.targets[0].candidates
                if (me ^ 1) + 1 in cands:
                    self.features.add("target")
                    return f"cast {o.name} targeting {foe}"
            return "pass"
        if d.kind == "attackers":
            # One creature of each name, named by its number as shown (names may hold commas).
            first: dict[str, int] = {}
            for c in d.choices:
                if c.group == 0:
                    first.setdefault(c.name, c.ref)
            if first:
                self.features.add("attack")
                numbers = self.host.numbering(self.game, self.name)
                return "attack with " + ", ".join(f"#{numbers.number(first[n])}" for n in sorted(first))
            return "no attack"
        if d.kind == "blockers":
            blockers = [c for c in d.choices if c.group == 0]
            attackers = [c for c in d.choices if c.group == 1]
            for a in attackers:
                for b in blockers:
                    if (b.key, a.key) in d.legal_pairs:
                        self.features.add("block")
                        numbers = self.host.numbering(self.game, self.name)
                        return f"block #{numbers.number(a.ref)} with #{numbers.number(b.ref)}"
            return "no blocks"
        if d.kind == "yes_no":
            return "yes"
        if d.kind == "order":
            return " ".join(str(i) for i in range(1, len(d.choices) + 1))
        if d.kind == "divide":
            return " ".join([str(d.max)] + ["0"] * (len(d.choices) - 1))
        self.features.add("number")
        return " ".join(str(i) for i in range(1, max(d.min, 1) + 1))
