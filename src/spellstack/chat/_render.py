"""Rendering: a player's view as plain text for a chat message (a monospace block).

Everything here is built from the seat's own ``PlayerView`` and its pending ``Decision``, and
nothing else (but whether a permanent shown has haste now, a public fact, 702.10), so a
rendering can name only what that seat may see (400.2): the hand shown is always the viewer's
own. Objects get short numbers (``[3]``) in the order they are shown; the numbers of the last
view sent to a player are what its commands may use (``Numbering``); a question writes them
``#3``, its options being numbered ``1.``, ``2.``, ...

A view that would not fit ``MESSAGE_LIMIT`` characters is shortened step by step (lands
grouped, graveyards counted, the battlefield and then the hand summarised) and says what it
left out and how to see it (``board``, ``hand``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules import ActionOption, Decision, ObjectView, PlayerView, is_player_ref
from ..rules.views import StackItemView

__all__ = ["MESSAGE_LIMIT", "Hasty", "Numbering", "prompt_words", "render_board", "render_hand",
           "render_question", "render_stack", "render_view"]

MESSAGE_LIMIT = 2000
"""Most characters of one chat message (Discord's limit), the code-block fence included."""
_FENCE = "```"
_STEP_TEXT = {"precombat_main": "main 1", "postcombat_main": "main 2",
              "beginning_of_combat": "beginning of combat"}
Hasty = Callable[[int], bool]
"""Whether the permanent with this id has haste now (702.10): a sick one can still attack and
pay {T} costs (302.6), so it is not shown ``sick``."""
_ASKED_FOR = {"attackers": "to declare attackers", "blockers": "to declare blockers",
              "choose": "to choose", "yes_no": "to answer yes or no", "order": "to put things in order",
              "divide": "to divide"}
"""What a player is asked for, by the decision's kind (priority: ``has priority``)."""
_RULES_FIRST = re.compile(r"(?P<rules>\d{3}(?:\.\d+[a-z]?)?(?:,\s*\d{3}(?:\.\d+[a-z]?)?)*):\s*(?P<text>.+)",
                          re.DOTALL)
"""A kernel prompt: the rules that ask, then the question (``514.1: discard 1 card(s)``)."""
_PLURAL = re.compile(r"\b(\d+) (\w+)\(s\)")
"""``2 card(s)``: a count and a noun whose plural is left open."""
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(slots=True)
class Numbering:
    """The short numbers a rendering gave objects: ``[n]`` in the text stands for an object id."""

    ids: dict[int, int] = field(default_factory=dict)
    """Object id by number."""
    numbers: dict[int, int] = field(default_factory=dict)
    """Number by object id."""

    def number(self, oid: int) -> int:
        """The object's number, given it now if it had none."""
        n = self.numbers.get(oid)
        if n is None:
            n = len(self.ids) + 1
            self.ids[n] = oid
            self.numbers[oid] = n
        return n

    @classmethod
    def of(cls, view: PlayerView) -> Numbering:
        """Numbers for every object of ``view``, in the order views show them: the battlefield
        (by controller, in seat order), the stack (top first), the hand, graveyards, exile."""
        numbering = cls()
        for p in view.players:
            for o in view.battlefield:
                if o.controller == p.seat:
                    numbering.number(o.id)
        for s in view.stack:
            numbering.number(s.id)
        for o in view.hand:
            numbering.number(o.id)
        for p in view.players:
            for o in p.graveyard:
                numbering.number(o.id)
            for o in p.library_top:
                numbering.number(o.id)
        for o in view.exile:
            numbering.number(o.id)
        return numbering


def _step(view: PlayerView) -> str:
    return _STEP_TEXT.get(view.step, view.step.replace("_", " "))


def _name(o: ObjectView) -> str:
    return o.name or "face-down card"


def _ref_text(view: PlayerView, numbering: Numbering, ref: int, names: dict[int, str],
              mark: str = "[{}]") -> str:
    """A target or choice ref as the viewer knows it: a player's name, ``[n] Name`` (``mark``:
    how the number is written), ``#id``."""
    if is_player_ref(ref):
        seat = ref - 1
        return view.players[seat].name if seat < len(view.players) else f"#{ref}"
    name = names.get(ref)
    if name is None:
        return f"#{ref}"
    return f"{mark.format(numbering.number(ref))} {name}"


def _object_names(view: PlayerView) -> dict[int, str]:
    names = {oid: _name(o) for oid, o in view.objects_by_id().items()}
    for s in view.stack:
        names.setdefault(s.id, s.name or "face-down spell")
    return names


def _permanent(o: ObjectView, numbering: Numbering, view: PlayerView | None = None,
               hasty: Hasty | None = None) -> str:
    """``[n] Name 2/2 T sick dmg1 +1/+1x2 on [m]``: one permanent, compactly, with its marks
    (``(protected by Bob, sector alpha)``; ``view``: whose players' names the marks give).
    ``sick``: it can't attack or pay {T} costs this turn (302.6), having no haste (702.10)."""
    parts = [f"[{numbering.number(o.id)}] {_name(o)}"]
    if "Creature" in o.types:
        parts.append(f"{o.power}/{o.toughness}")
    if o.tapped:
        parts.append("T")
    if o.attacking:
        parts.append("attacking")
    if o.blocking:
        parts.append("blocking")
    if o.sick and "Creature" in o.types and not (hasty is not None and hasty(o.id)):
        parts.append("sick")
    if o.damage:
        parts.append(f"dmg {o.damage}")
    for kind, n in o.counters:
        parts.append(f"{kind}x{n}")
    if o.attached_to:
        parts.append(f"on [{numbering.number(o.attached_to)}]")
    if o.marks is not None:
        players = view.players if view is not None else ()
        words = o.marks.words(lambda s: players[s].name if 0 <= s < len(players) else f"seat {s}")
        parts.append(f"({', '.join(words)})")
    return " ".join(parts)


def _player_line(view: PlayerView, seat: int) -> str:
    p = view.players[seat]
    who = f"{p.name} (you)" if seat == view.seat else p.name
    parts = [who, f"{p.life} life"]
    if p.poison:
        parts.append(f"{p.poison} poison")
    if p.mana:
        parts.append("mana " + "".join(f"{c}{n}" if n > 1 else c for c, n in p.mana))
    parts.append(f"hand {p.hand_count}")
    parts.append(f"library {p.library_count}")
    if p.lost:
        parts.append("OUT")
    dungeon = p.dungeon_words()
    if dungeon:
        parts.append(dungeon)
    return " | ".join(parts)


def _wrap(items: Sequence[str], indent: str = "  ", width: int = 78) -> list[str]:
    """``items`` joined by ``, `` in lines of at most ``width`` characters."""
    lines: list[str] = []
    line = ""
    cont = " " * min(len(indent), 4)
    for item in items:
        piece = item if not line else ", " + item
        lead = indent if not lines else cont
        if line and len(lead) + len(line) + len(piece) > width:
            lines.append(lead + line + ",")
            line = item
        else:
            line += piece
    if line:
        lines.append((indent if not lines else cont) + line)
    return lines


def _lands_grouped(lands: Sequence[ObjectView], numbering: Numbering, hasty: Hasty | None) -> list[str]:
    """Plain lands (no counters, not attached, no damage) by name: ``Mountain x4 (1 T) [1-4]``."""
    groups: dict[str, list[ObjectView]] = {}
    for o in lands:
        groups.setdefault(_name(o), []).append(o)
    out = []
    for name, objs in groups.items():
        nums = [numbering.number(o.id) for o in objs]
        tapped = sum(1 for o in objs if o.tapped)
        label = ",".join(str(n) for n in nums) if len(nums) <= 2 else f"{nums[0]}..{nums[-1]}"
        out.append(f"{name} x{len(objs)}" + (f" ({tapped} T)" if tapped else "") + f" [{label}]"
                   if len(objs) > 1 else _permanent(objs[0], numbering, hasty=hasty))
    return out


def _battlefield(view: PlayerView, seat: int, numbering: Numbering, *, group_lands: bool,
                 hasty: Hasty | None) -> list[str]:
    mine = [o for o in view.battlefield if o.controller == seat]
    plain = [o for o in mine if "Land" in o.types and "Creature" not in o.types
             and not o.counters and not o.attached_to and not o.damage and o.marks is None]
    others = [o for o in mine if o not in plain]
    items = [_permanent(o, numbering, view, hasty) for o in others]
    items += (_lands_grouped(plain, numbering, hasty) if group_lands
              else [_permanent(o, numbering, view, hasty) for o in plain])
    return _wrap(items) if items else ["  (no permanents)"]


def render_board(view: PlayerView, numbering: Numbering, *, group_lands: bool = False,
                 graveyards: bool = True, hasty: Hasty | None = None) -> str:
    """Every player's public facts and permanents (power/toughness, tapped, counters,
    attachments), and graveyards; ``hasty``: which permanents have haste now (a sick creature
    with haste is not shown ``sick``; without it, none is known to have haste)."""
    lines: list[str] = []
    order = [s for s in range(len(view.players)) if s != view.seat] + [view.seat]
    for seat in order:
        lines.append(_player_line(view, seat))
        lines += _battlefield(view, seat, numbering, group_lands=group_lands, hasty=hasty)
        grave = view.players[seat].graveyard
        if grave and graveyards:
            lines += _wrap([f"[{numbering.number(o.id)}] {_name(o)}" for o in reversed(grave)],
                           indent="  graveyard: ")
        elif grave:
            lines.append(f"  graveyard: {len(grave)} cards")
        top = view.players[seat].library_top
        if top:
            lines.append(f"  library top: [{numbering.number(top[0].id)}] {_name(top[0])}")
    if view.exile:
        lines += _wrap([f"[{numbering.number(o.id)}] {_name(o)}" for o in view.exile], indent="exile: ")
    return "\n".join(lines)


def render_hand(view: PlayerView, numbering: Numbering) -> str:
    """The viewer's own hand (nobody else's is ever shown)."""
    if not view.hand:
        return "Your hand: (empty)"
    return "\n".join(_wrap([f"[{numbering.number(o.id)}] {_name(o)}" for o in view.hand],
                           indent="Your hand: "))


def _stack_item(view: PlayerView, s: StackItemView, numbering: Numbering, names: dict[int, str]) -> str:
    who = view.players[s.controller].name if s.controller < len(view.players) else "?"
    text = f"[{numbering.number(s.id)}] {s.name or 'face-down spell'}" + (" (ability)" if s.is_ability else "")
    text += f" by {who}"
    if s.targets:
        text += " -> " + ", ".join(_ref_text(view, numbering, t, names) for t in s.targets)
    return text


def render_stack(view: PlayerView, numbering: Numbering) -> str:
    """The stack, top first."""
    if not view.stack:
        return "Stack: (empty)"
    names = _object_names(view)
    return "Stack (top first):\n" + "\n".join(
        "  " + _stack_item(view, s, numbering, names) for s in view.stack)


def _header(view: PlayerView, decision: Decision | None = None) -> str:
    """``Turn 3, alice's main 1 | bob to declare blockers``: the turn, and who is asked for
    what (or, with no question, who holds priority)."""
    active = view.players[view.active].name if 0 <= view.active < len(view.players) else "-"
    head = f"Turn {view.turn}, {active}'s {_step(view)}"
    if decision is not None and 0 <= view.seat < len(view.players):
        me = view.players[view.seat].name
        return f"{head} | {me} " + _ASKED_FOR.get(decision.kind, "has priority")
    prio = view.players[view.priority].name if 0 <= view.priority < len(view.players) else "nobody"
    return f"{head} | priority: {prio}"


def prompt_words(view: PlayerView, prompt: str) -> str:
    """A kernel prompt said in words first, its rules after, with the right plural:
    ``514.1: discard 1 card(s)`` is ``Discard 1 card: your hand is over seven (514.1)``."""
    m = _RULES_FIRST.fullmatch(prompt.strip())
    rules, text = (m["rules"], m["text"]) if m else ("", prompt.strip())
    text = _PLURAL.sub(lambda p: f"{p[1]} {p[2]}" + ("" if p[1] == "1" else "s"), text)
    if rules == "514.1" and (d := re.fullmatch(r"discard (\d+) cards?", text)):
        size = len(view.hand) - int(d[1])
        over = _NUMBER_WORDS[size] if 0 <= size < len(_NUMBER_WORDS) else str(size)
        text += f": your hand is over {over}"
    text = text.rstrip(".")
    text = text[:1].upper() + text[1:]
    return f"{text} ({rules})" if rules else text


def _option_text(view: PlayerView, o: ActionOption, numbering: Numbering) -> str:
    if o.kind == "pass":
        return "pass"
    label = f"[{numbering.number(o.object_id)}] " if o.object_id else ""
    name = o.face or o.name
    text = f"{o.kind} {label}{name}"
    if o.kind == "activate" and o.ability:
        text += f" ability {o.ability}"
    if o.modes:
        text += " mode " + ",".join(str(m) for m in o.modes)
    if o.has_x:
        text += f" x=0..{o.max_x}"
    if o.required_cost:
        text += f" {o.required_cost.replace('+', ' ')}"
    if o.costs:
        text += " [" + "/".join(o.costs) + "]"
    if o.targets:
        text += " targeting " + "; ".join(t.prompt for t in o.targets)
    return text


def render_question(view: PlayerView, decision: Decision, numbering: Numbering,
                    limit: int = 900) -> str:
    """The pending question with its options numbered (or, for priority, the actions one may
    take), at most about ``limit`` characters (options that don't fit are counted)."""
    names = _object_names(view)
    if decision.kind == "priority":
        seen: set[str] = set()
        items: list[str] = []
        for o in decision.actions:
            if o.kind == "concede":
                continue
            t = _option_text(view, o, numbering)
            if t not in seen:
                seen.add(t)
                items.append(t)
        head = "> Your priority. You can:"
        return _fit_items(head, items, limit)
    if decision.kind in ("attackers", "blockers"):
        creatures = [c for c in decision.choices if c.group == 0]
        other = [c for c in decision.choices if c.group == 1]
        c_text = [_ref_text(view, numbering, c.ref, names) if c.ref and not is_player_ref(c.ref)
                  else c.name for c in creatures]
        o_text = [_ref_text(view, numbering, c.ref, names) if c.ref and not is_player_ref(c.ref)
                  else c.name for c in other]
        if decision.kind == "attackers":
            head = ("> Declare attackers: `attack with <a>, <b> [at <player>]` or `no attack`.\n"
                    "  Can attack: " + ", ".join(c_text) + "\n  At: " + ", ".join(o_text))
        else:
            head = ("> Declare blockers: `block <attacker> with <blocker>[; ...]` or `no blocks`.\n"
                    "  Attacking: " + ", ".join(o_text) + "\n  Can block: " + ", ".join(c_text))
        return _cut(head, limit)
    choices = []
    for i, c in enumerate(decision.choices, 1):
        # One number per option: an object's own number is written #n here, never [n].
        shown = (_ref_text(view, numbering, c.ref, names, "#{}") if c.ref and not is_player_ref(c.ref)
                 else c.name)
        choices.append(f"{i}. {shown}")
    count = len(decision.choices)
    span = f"from 1 to {count}" if count > 1 else "(only 1)"
    how = {"order": f"Answer with every number {span}, in order (first first).",
           "yes_no": "Answer `yes` or `no`.",
           "divide": f"Answer with amounts in order, totalling {decision.max} (e.g. `{decision.max} 0`)."}
    most = min(decision.max, count)
    if decision.min == most:
        default = f"Answer with {_count_words(most, 'number')} {span}."
    else:
        default = (f"Answer with {decision.min} to {most} numbers {span}"
                   + (" (`none` for none)." if decision.min == 0 else "."))
    head = f"> {prompt_words(view, decision.prompt)}\n  " + how.get(decision.kind, default)
    return _fit_items(head, choices, limit, sep="  ")


def _count_words(n: int, noun: str) -> str:
    """``a number``, ``2 numbers``."""
    return f"a {noun}" if n == 1 else f"{n} {noun}s"


def _fit_items(head: str, items: list[str], limit: int, sep: str = " | ") -> str:
    lines = _wrap([i for i in items], indent="  ") if sep == " | " else _wrap(items, indent="  ")
    out = head
    for n, line in enumerate(lines):
        if len(out) + len(line) + 40 > limit:
            rest = len(lines) - n
            return out + f"\n  ... {rest} more line(s) of options: type `help` for the commands"
        out += "\n" + line
    return out


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 4] + " ..."


_Section = Callable[[], str]


def render_view(view: PlayerView, decision: Decision | None, numbering: Numbering | None = None,
                *, limit: int = MESSAGE_LIMIT, hasty: Hasty | None = None) -> tuple[str, Numbering]:
    """The whole view for the chat message sent when the player is asked something (or for
    ``view``): header, each player with their permanents, the stack, the viewer's hand and the
    pending question, in a code block of at most ``limit`` characters; and the numbering used.

    When it would not fit, it is shortened in this order, and says so: lands grouped by name,
    graveyards counted, the battlefield counted (see ``board``), the hand counted (see
    ``hand``). ``hasty``: which permanents have haste now (see ``render_board``)."""
    attempts: list[tuple[bool, bool, bool, bool]] = [
        (False, True, True, True), (True, True, True, True), (True, False, True, True),
        (True, False, False, True), (True, False, False, False)]
    text = ""
    numbering = numbering or Numbering.of(view)
    for group, graves, board, hand in attempts:
        parts = [_header(view, decision)]
        left_out: list[str] = []
        if board:
            parts.append(render_board(view, numbering, group_lands=group, graveyards=graves, hasty=hasty))
        else:
            parts += [_player_line(view, s) for s in range(len(view.players))]
            parts.append(f"  ({len(view.battlefield)} permanents)")
            left_out.append("the battlefield (`board`)")
        if not graves and board:
            left_out.append("graveyard contents (`board`)")
        if view.stack:
            parts.append(render_stack(view, numbering))
        if hand:
            parts.append(render_hand(view, numbering))
        else:
            parts.append(f"Your hand: {len(view.hand)} cards")
            left_out.append("your hand (`hand`)")
        if decision is not None:
            parts.append(render_question(view, decision, numbering))
        if left_out:
            parts.append("(left out to fit: " + ", ".join(left_out) + "; type the command in "
                         "brackets to see it)")
        body = "\n".join(parts)
        text = fence(body, limit)
        if len(body) + 2 * len(_FENCE) + 2 <= limit:
            return text, numbering
    return text, numbering


def fence(body: str, limit: int = MESSAGE_LIMIT) -> str:
    """``body`` in a monospace code block, cut to ``limit`` characters (with a note) if it is
    still too long."""
    text = f"{_FENCE}\n{body}\n{_FENCE}"
    if len(text) <= limit:
        return text
    note = "\n... (cut to fit; see `board`, `hand`, `stack`)"
    room = limit - len(note) - 2 * len(_FENCE) - 2
    return f"{_FENCE}\n{body[:room]}{note}\n{_FENCE}"
