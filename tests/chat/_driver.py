"""A scripted user for chat tests: reads its pending question and types a command for it, by
name (as a person would), and keeps every text it is given."""

from __future__ import annotations

from dataclasses import dataclass, field

from spellstack.chat import GameHost
from spellstack.rules import Decision, PlayerView


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
            names = sorted({c.name for c in d.choices if c.group == 0})
            if names:
                self.features.add("attack")
                return "attack with " + ", ".join(names)
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
