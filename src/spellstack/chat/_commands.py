"""The text command language: one line of a player's text to at most one reply to the engine.

Every command that changes the game becomes exactly one ``Action`` (for a priority decision,
sent as ``SubmitAction``) or one ``Answer`` (for any other question, sent as ``SubmitAnswer``;
attack and block declarations are answers); ``hand``, ``board``, ``stack``, ``view`` and
``help`` send nothing. A command that can't be understood, or is not legal now, gets a one-line
error with suggestions and sends nothing.

The parser is table-driven over the decision it answers: priority verbs (``PRIORITY_VERBS``)
map to ``ActionOption.kind`` and pick among the options the engine offers, so a new action kind
(``turn face up``) is a new row; questions are answered by the numbers shown, or by the
options' names. Card and permanent names match case-insensitively, in full, by unique prefix
(of the name or of one of its words), or by the ``[n]`` numbers of the last view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import Action, ActionOption, Answer, Decision, PlayerView, is_player_ref
from ._render import Numbering

__all__ = ["LOCAL_COMMANDS", "PRIORITY_VERBS", "Parsed", "help_text", "parse_command"]

LOCAL_COMMANDS = ("hand", "board", "stack", "view", "help")
"""Commands that show something and send nothing."""
PRIORITY_VERBS: dict[str, str] = {
    "cast": "cast",
    "play": "play",
    "activate": "activate",
    "turn face up": "turn_face_up",  # morph (702.37): offered once the engine lists the kind
}
"""Words that start a priority action, and the ``ActionOption.kind`` each picks among."""
_SUGGESTIONS = 5
"""Most names an error suggests."""


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a line of text comes to."""

    reply: Action | Answer | None = None
    """The one reply to send to the engine, or None."""
    local: str = ""
    """A local command (``LOCAL_COMMANDS``, or ``concede``), or empty."""
    error: str = ""
    """A one-line error (nothing is sent), or empty."""
    summary: str = ""
    """The reply in words, for the player's acknowledgement."""


def _fail(text: str) -> Parsed:
    return Parsed(error=text)


def help_text() -> str:
    """The command reference, with examples (no card is named: examples use placeholders)."""
    return "\n".join([
        "Commands (names: any unique prefix, case-insensitive, or the [n] numbers shown):",
        "  cast <card> [targeting <a>, <b>] [x=3] [mode 2] [kicker] [from graveyard] [split 2,1]",
        "  play <land>            activate <permanent> [ability 2] [targeting <a>]",
        "  pass                   concede",
        "  attack with <a>, <b> [at <player>]     no attack",
        "  block <attacker> with <blocker>[; <attacker> with <blocker>]     no blocks",
        "  answers: a number (`2`), several (`1 3`), a name, `yes`/`no`, `none`",
        "  hand, board, stack, view, help: show things; they change nothing",
        "Players: their names, or `me`.",
    ])


@dataclass(frozen=True, slots=True)
class _Context:
    view: PlayerView
    decision: Decision
    numbering: Numbering
    names: dict[int, str]


def parse_command(text: str, view: PlayerView | None, decision: Decision | None,
                  numbering: Numbering) -> Parsed:
    """The reply a player's ``text`` comes to, given their last ``view`` and pending
    ``decision`` (None if they are not asked anything now)."""
    line = " ".join(text.strip().split())
    if not line:
        return _fail("Empty message: type `help` for the commands.")
    low = line.lower()
    word = low.split()[0]
    if low in LOCAL_COMMANDS:
        return Parsed(local=low)
    if low == "concede":
        return Parsed(local="concede")
    if decision is None or view is None:
        if word in _KNOWN_WORDS or low[0].isdigit():
            return _fail("It is not your turn to act: nothing is asked of you now "
                         "(`board`, `hand`, `stack` still work).")
        return _fail(f"Unknown command {line.split()[0][:30]!r}: type `help` for the commands.")
    ctx = _Context(view, decision, numbering, _names(view))
    if decision.kind == "priority":
        return _priority(ctx, line, low)
    return _question(ctx, line, low)


_KNOWN_WORDS = frozenset({*PRIORITY_VERBS, "turn", "pass", "attack", "block", "yes", "no", "none",
                          "keep", "mulligan"})


def _names(view: PlayerView) -> dict[int, str]:
    names = {oid: o.name for oid, o in view.objects_by_id().items() if o.name}
    for s in view.stack:
        if s.name:
            names.setdefault(s.id, s.name)
    for p in view.players:
        names[p.seat + 1] = p.name
    return names


# ---------------------------------------------------------------- matching names


def _match(ctx: _Context, query: str, refs: Sequence[int], what: str,
           extra: Callable[[int], Sequence[str]] | None = None) -> tuple[int, str]:
    """The one ref among ``refs`` that ``query`` names (a number shown, ``me``, a name in
    full or by unique prefix), or 0 and a one-line error with suggestions."""
    q = query.strip().lower()
    if not q:
        return 0, f"Name the {what}."
    num = q[1:] if q.startswith("#") else q
    if num.isdigit():
        oid = ctx.numbering.ids.get(int(num), 0)
        if oid in refs:
            return oid, ""
        return 0, f"[{num}] is not a {what} you can choose now; choices: {_suggest(ctx, refs)}."
    if q in ("me", "myself") and ctx.view.seat + 1 in refs:
        return ctx.view.seat + 1, ""

    def labels(ref: int) -> list[str]:
        out = [ctx.names.get(ref, "")]
        if extra is not None:
            out += list(extra(ref))
        return [x.lower() for x in out if x]

    exact = [r for r in refs if q in labels(r)]
    if exact:
        return exact[0], ""
    found = [r for r in refs if any(lab.startswith(q) or any(w.startswith(q) for w in lab.split())
                                     for lab in labels(r))]
    distinct = sorted({ctx.names.get(r, "") for r in found})
    if len(distinct) == 1:
        return found[0], ""
    if len(distinct) > 1:
        return 0, f"{query!r} is ambiguous: {', '.join(distinct[:_SUGGESTIONS])}."
    return 0, f"No {what} {query[:40]!r} here; choices: {_suggest(ctx, refs)}."


def _suggest(ctx: _Context, refs: Sequence[int]) -> str:
    shown: list[str] = []
    for r in refs:
        name = ctx.names.get(r, f"#{r}")
        label = name if is_player_ref(r) else f"[{ctx.numbering.number(r)}] {name}"
        if label not in shown:
            shown.append(label)
    if not shown:
        return "none"
    more = f" (+{len(shown) - _SUGGESTIONS} more)" if len(shown) > _SUGGESTIONS else ""
    return ", ".join(shown[:_SUGGESTIONS]) + more


_LIST_GAP = re.compile(r"(?:\s|,|\band\b)*", re.IGNORECASE)
_LIST_SEP = re.compile(r"\s*(?:,|\band\b)", re.IGNORECASE)


def _split_list(text: str, names: Sequence[str] = ()) -> list[str]:
    """The items of a list said with commas and ``and``. Where an item starts with one of
    ``names`` in full (longest first), that name is one item even if it holds a comma or an
    ``and`` ("Isamaru, Hound of Konda")."""
    known = sorted({n for n in names if n}, key=len, reverse=True)
    items: list[str] = []
    pos = _gap_end(text, 0)
    while pos < len(text):
        for name in known:
            end = pos + len(name)
            if text[pos:end].lower() == name.lower() and (end == len(text) or _LIST_SEP.match(text, end)):
                break
        else:
            sep = _LIST_SEP.search(text, pos)
            end = sep.start() if sep else len(text)
        items.append(text[pos:end].strip())
        pos = _gap_end(text, end)
    return [item for item in items if item]


def _gap_end(text: str, pos: int) -> int:
    """Where the separators (spaces, commas, ``and``) from ``pos`` on end."""
    gap = _LIST_GAP.match(text, pos)
    return gap.end() if gap else pos


# ---------------------------------------------------------------- priority

_MODIFIERS = re.compile(r"\s+(?=(?:targeting|target|at|x\s*=|mode|modes|split|from|ability|"
                        r"with)\b)", re.IGNORECASE)


def _priority(ctx: _Context, line: str, low: str) -> Parsed:
    if low == "pass":
        return Parsed(reply=Action("pass"), summary="pass")
    for verb in sorted(PRIORITY_VERBS, key=len, reverse=True):
        if low == verb or low.startswith(verb + " "):
            return _act(ctx, PRIORITY_VERBS[verb], verb, line[len(verb):].strip())
    if low.startswith(("attack", "block", "no attack", "no block")):
        return _fail("Attackers and blockers are declared when the engine asks (in the declare "
                     "attackers/blockers step): `pass` to move on.")
    if low in ("yes", "no", "none") or low[0].isdigit():
        return _fail("You have priority, not a question: `cast`, `play`, `activate` or `pass`.")
    return _fail(f"Unknown command {line.split()[0][:30]!r}: type `help` for the commands.")


@dataclass(slots=True)
class _Wanted:
    name: str = ""
    targets: list[str] | None = None
    x: int | None = None
    modes: tuple[int, ...] = ()
    costs: list[str] | None = None
    zone: str = ""
    ability: int = 0
    split: tuple[int, ...] = ()


_COST_WORDS = ("kicker", "kicked", "flashback", "evoke", "bestow", "dash", "flash", "buyback",
               "jump-start", "overload", "morph", "free")


def _modifiers(rest: str) -> tuple[_Wanted, str]:
    parts = _MODIFIERS.split(rest)
    want = _Wanted(name=parts[0].strip(), costs=[])
    assert want.costs is not None
    # trailing cost words on the name: "cast Fireball kicker"
    words = want.name.split()
    while words and words[-1].lower() in _COST_WORDS:
        want.costs.insert(0, words.pop().lower().replace("kicked", "kicker"))
    want.name = " ".join(words)
    for part in parts[1:]:
        p = part.strip()
        pl = p.lower()
        tail_words = p.split()
        while len(tail_words) > 1 and tail_words[-1].lower() in _COST_WORDS:
            want.costs.append(tail_words.pop().lower().replace("kicked", "kicker"))
        p = " ".join(tail_words)
        pl = p.lower()
        if pl.startswith(("targeting", "target ")):
            want.targets = _split_list(p.split(None, 1)[1] if " " in p else "")
        elif pl.startswith("x"):
            value = pl.split("=", 1)[1].strip() if "=" in pl else ""
            if not value.isdigit():
                return want, f"x must be a number: `x=3`, not {p!r}."
            want.x = int(value)
        elif pl.startswith("mode"):
            nums = re.findall(r"\d+", pl)
            if not nums:
                return want, "Name the mode by number: `mode 2` (or `modes 1,3`)."
            want.modes = tuple(int(n) for n in nums)
        elif pl.startswith("split"):
            want.split = tuple(int(n) for n in re.findall(r"\d+", pl))
        elif pl.startswith("from"):
            want.zone = pl.split(None, 1)[1] if " " in pl else ""
        elif pl.startswith("ability"):
            nums = re.findall(r"\d+", pl)
            want.ability = int(nums[0]) if nums else 0
        else:
            return want, f"Can't read {p[:40]!r}: type `help` for the command's form."
    return want, ""


def _act(ctx: _Context, kind: str, verb: str, rest: str) -> Parsed:
    options = [o for o in ctx.decision.actions if o.kind == kind]
    want, problem = _modifiers(rest)
    if problem:
        return _fail(problem)
    if not want.name:
        return _fail(f"{verb.capitalize()} what? `{verb} <name>`" + (
            f"; now: {_suggest(ctx, _unique([o.object_id for o in options]))}." if options else "."))
    if not options:
        noun = {"cast": "spell you can cast", "play": "land you can play",
                "activate": "ability you can activate"}.get(kind, f"{verb} action")
        return _fail(f"There is no {noun} now" + _why_not(ctx, kind, want.name) + ".")
    refs = _unique([o.object_id for o in options])
    faces: dict[int, list[str]] = {}
    for o in options:
        if o.face:
            faces.setdefault(o.object_id, []).append(o.face)
    oid, problem = _match(ctx, want.name, refs, "card" if kind != "activate" else "permanent",
                          extra=lambda r: faces.get(r, []))
    if not oid:
        hint = _why_not(ctx, kind, want.name)
        return _fail(problem.rstrip(".") + (f" ({hint.strip()})" if hint else "") + ".")
    mine = [o for o in options if o.object_id == oid]
    face = want.name.lower()
    by_face = [o for o in mine if o.face and (o.face.lower() == face or o.face.lower().startswith(face))]
    if by_face and len({o.face for o in mine}) > 1:
        mine = by_face
    if want.zone:
        zone = want.zone.split()[0]
        in_zone = [o for o in mine if _zone_of(ctx, o.object_id).startswith(zone)]
        if not in_zone:
            return _fail(f"{ctx.names.get(oid, 'that')} can't be {verb}ed from {want.zone} now.")
        mine = in_zone
    if want.ability:
        mine = [o for o in mine if o.ability == want.ability]
        if not mine:
            n = sorted({o.ability for o in options if o.object_id == oid})
            return _fail(f"No ability {want.ability} to activate now; abilities: "
                         f"{', '.join(str(a) for a in n)}.")
    if want.modes:
        moded = [o for o in mine if o.modes == want.modes]
        if not moded:
            offered = sorted({",".join(map(str, o.modes)) for o in mine if o.modes})
            return _fail(f"Mode {','.join(map(str, want.modes))} isn't offered now; modes: "
                         f"{'; '.join(offered) or 'the spell is not modal'}.")
        mine = moded
    elif any(o.modes for o in mine) and len({o.modes for o in mine}) > 1:
        lines = "; ".join(f"mode {','.join(map(str, o.modes))}: "
                          f"{' / '.join(t[:40] for t in o.mode_texts)}" for o in mine)
        return _fail(f"Choose a mode: {lines}"[:300])
    named = list(want.costs or [])
    # The option's own alternative (or timing) cost is always named in the action; one the
    # player named is preferred, else an option without one (the mana cost alone).
    def rank(o: ActionOption) -> int:
        req = o.required_cost.split("+") if o.required_cost else []
        return 0 if req and all(r in named for r in req) else 1 if not req else 2
    chosen = None
    costs: list[str] = []
    for o in sorted(mine, key=rank):
        req = o.required_cost.split("+") if o.required_cost else []
        extra_costs = [c for c in named if c not in req]
        if all(c in o.costs for c in extra_costs):
            chosen, costs = o, req + extra_costs
            break
    if chosen is None:
        offered = sorted({c for o in mine for c in o.costs}
                         | {o.required_cost for o in mine if o.required_cost})
        return _fail(f"Can't pay {', '.join(named)} for that now; optional costs: "
                     f"{', '.join(offered) or 'none'}.")
    return _finish(ctx, chosen, want, tuple(costs), verb)


def _unique(items: Sequence[int]) -> list[int]:
    out: list[int] = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


def _zone_of(ctx: _Context, oid: int) -> str:
    v = ctx.view
    if any(o.id == oid for o in v.hand):
        return "hand"
    if any(o.id == oid for p in v.players for o in p.graveyard):
        return "graveyard"
    if any(o.id == oid for o in v.exile):
        return "exile"
    if any(o.id == oid for p in v.players for o in p.library_top):
        return "library"
    if any(o.id == oid for o in v.battlefield):
        return "battlefield"
    return ""


def _why_not(ctx: _Context, kind: str, name: str) -> str:
    """Why a named card is not among the options: not in hand, or not castable now."""
    if not name:
        return ""
    q = name.lower()
    pool = ctx.view.hand if kind in ("cast", "play") else tuple(
        o for o in ctx.view.battlefield if o.controller == ctx.view.seat)
    hits = [o for o in pool if o.name.lower().startswith(q)
            or any(w.startswith(q) for w in o.name.lower().split())]
    if not hits:
        where = "in your hand" if kind in ("cast", "play") else "among your permanents"
        return f"; you have no {name[:40]!r} {where}"
    done = {"activate": "activated", "play": "played"}.get(kind, "cast")
    return f"; {hits[0].name} can't be {done} now (mana, timing or targets)"


def _finish(ctx: _Context, option: ActionOption, want: _Wanted, costs: tuple[str, ...], verb: str) -> Parsed:
    if option.kind == "play":
        return Parsed(reply=Action("play", option.object_id, face=option.face),
                      summary=f"play {option.face or option.name}")
    x = want.x or 0
    if want.x is not None and not option.has_x:
        return _fail(f"{option.name} has no X.")
    if option.has_x and want.x is None:
        return _fail(f"{option.name} needs X: add `x=N` (at most {option.max_x} now).")
    if option.has_x and x > option.max_x:
        return _fail(f"You can pay at most X={option.max_x} now.")
    given = list(want.targets or [])
    targets: list[int] = []
    for req in option.targets:
        picked: list[int] = []
        while given and len(picked) < req.max:
            ref, _ = _match(ctx, given[0], [c for c in req.candidates if c not in picked],
                            "legal target")
            if not ref:
                if len(picked) >= req.min:
                    break  # maybe the next requirement's
                return _fail(f"{given[0][:40]!r} is not a legal target for {req.prompt} "
                             f"(legal: {_suggest(ctx, req.candidates)}).")
            picked.append(ref)
            given.pop(0)
        if len(picked) < req.min:
            return _fail(f"{option.face or option.name} needs {req.prompt}: add `targeting <name>` "
                         f"(legal: {_suggest(ctx, req.candidates)}).")
        targets.extend(picked)
    if given:
        return _fail(f"{given[0][:40]!r} is not a legal target here"
                     + (f" (legal: {_suggest(ctx, [c for r in option.targets for c in r.candidates])})."
                        if option.targets else f": {option.name} has no targets."))
    divide: tuple[tuple[int, int], ...] = ()
    if want.split:
        if not option.divide:
            return _fail(f"{option.name} divides nothing.")
        if len(want.split) != len(targets):
            return _fail(f"Give one amount per target: `split {','.join(['1'] * len(targets))}`.")
        divide = tuple(zip(targets, want.split, strict=True))
    action = Action(option.kind, option.object_id, option.ability, tuple(targets), x,
                    divide=divide, face=option.face, modes=option.modes, costs=costs)
    summary = f"{verb} {option.face or option.name}"
    if option.kind == "activate":
        summary += f" (ability {option.ability})"
    if targets:
        summary += " targeting " + ", ".join(ctx.names.get(t, f"#{t}") for t in targets)
    if option.has_x:
        summary += f" with X={x}"
    if costs:
        summary += " paying " + ", ".join(costs)
    return Parsed(reply=action, summary=summary)


# ---------------------------------------------------------------- questions


def _question(ctx: _Context, line: str, low: str) -> Parsed:
    d = ctx.decision
    first = low.split()[0]
    if first in PRIORITY_VERBS or first == "turn" or (low == "pass" and d.kind not in (
            "attackers", "blockers", "choose")):
        return _fail(f"You are asked a question, not given priority: {d.prompt[:120]} "
                     "(answer by number; `view` shows it again).")
    if d.kind == "attackers":
        return _attackers(ctx, line, low)
    if d.kind == "blockers":
        return _blockers(ctx, line, low)
    if d.kind == "divide":
        amounts = [int(n) for n in re.findall(r"\d+", low)]
        keys = [c.key for c in d.choices]
        if len(amounts) != len(keys) or sum(amounts) != d.max:
            return _fail(f"Give {len(keys)} amounts totalling {d.max}, in the order shown.")
        return Parsed(reply=Answer(d.id, (), tuple(zip(keys, amounts, strict=True))),
                      summary="divide " + " ".join(map(str, amounts)))
    if d.kind == "yes_no":
        by_name = {c.name.lower(): c.key for c in d.choices}
        if low in ("y", "yes", "no", "n"):
            key = by_name.get("yes" if low.startswith("y") else "no", 1 if low.startswith("y") else 0)
            return Parsed(reply=Answer(d.id, (key,)), summary=low if len(low) > 1 else
                          ("yes" if low == "y" else "no"))
    if low in ("none", "pass", "no") and d.min == 0:
        return Parsed(reply=Answer(d.id, ()), summary="none")
    picks: list[int] = []
    for token in ([t for t in re.split(r"[\s,]+", low) if t]
                  if re.fullmatch(r"[#\d\s,]+", low) else _split_list(line, [c.name for c in d.choices])):
        if token.isdigit():
            n = int(token)
            if not 1 <= n <= len(d.choices):
                return _fail(f"No option {n}: answer with 1 to {len(d.choices)}.")
            key = d.choices[n - 1].key
        elif re.fullmatch(r"#\d+", token):  # an object's own number, as the question writes it
            ref = ctx.numbering.ids.get(int(token[1:]), 0)
            found_key = next((c.key for c in d.choices if ref and c.ref == ref), None)
            if found_key is None:
                return _fail(f"{token} is not one of the options; answer with 1 to {len(d.choices)}.")
            key = found_key
        else:
            found = _choice_by_name(ctx, token)
            if found is None:
                names = ", ".join(f"{i}. {c.name}" for i, c in enumerate(d.choices[:_SUGGESTIONS], 1))
                return _fail(f"No option {token[:40]!r}; answer by number ({names}).")
            key = found
        if key in picks:
            return _fail("Each option may be picked once.")
        picks.append(key)
    if d.kind == "order":
        if sorted(picks) != sorted(c.key for c in d.choices):
            return _fail(f"Put every option in order: all {len(d.choices)} numbers, e.g. "
                         f"`{' '.join(str(i) for i in range(1, len(d.choices) + 1))}`.")
    elif not d.min <= len(picks) <= max(d.max, d.min):
        want = str(d.min) if d.min == d.max else f"{d.min} to {d.max}"
        return _fail(f"Pick {want} option(s), by number.")
    shown = ", ".join(next(c.name for c in d.choices if c.key == k) for k in picks)
    return Parsed(reply=Answer(d.id, tuple(picks)), summary=shown or "none")


def _choice_by_name(ctx: _Context, token: str) -> int | None:
    q = token.lower().strip()
    exact = [c.key for c in ctx.decision.choices if c.name.lower() == q]
    if exact:
        return exact[0]
    found = [c for c in ctx.decision.choices if c.name.lower().startswith(q)
             or any(w.startswith(q) for w in c.name.lower().split())]
    if len({c.name for c in found}) == 1:
        return found[0].key
    return None


def _keyed(ctx: _Context, group: int) -> dict[int, int]:
    """Ref -> key of the decision's choices in ``group``."""
    return {c.ref: c.key for c in ctx.decision.choices if c.group == group}


def _attackers(ctx: _Context, line: str, low: str) -> Parsed:
    d = ctx.decision
    if low in ("no attack", "no attacks", "no attackers", "none", "pass", "no"):
        return Parsed(reply=Answer(d.id), summary="no attack")
    m = re.fullmatch(r"attack(?:\s+with)?\s+(.+?)(?:\s+at\s+(.+))?", line, re.IGNORECASE)
    if not m:
        return _fail("Declare attackers as `attack with <a>, <b> [at <player>]`, or `no attack`.")
    creatures, defenders = _keyed(ctx, 0), _keyed(ctx, 1)
    at_key: int | None = None
    if m.group(2):
        ref, problem = _match(ctx, m.group(2), list(defenders), "player or planeswalker to attack")
        if not ref:
            return _fail(problem)
        at_key = defenders[ref]
    pairs: list[tuple[int, int]] = []
    names = _split_list(m.group(1), [ctx.names.get(r, "") for r in creatures])
    if [n.lower() for n in names] == ["all"]:
        names = [f"#{ctx.numbering.number(r)}" for r in creatures]
    for nm in names:
        ref, problem = _match(ctx, nm, [r for r in creatures if creatures[r] not in {a for a, _ in pairs}],
                              "creature that can attack")
        if not ref:
            return _fail(problem)
        key = creatures[ref]
        legal = [b for a, b in d.legal_pairs if a == key]
        if at_key is not None:
            if at_key not in legal:
                return _fail(f"{ctx.names.get(ref, 'It')} can't attack that.")
            pairs.append((key, at_key))
        elif legal:
            players = [b for b in legal if any(c.key == b and is_player_ref(c.ref) for c in d.choices)]
            pairs.append((key, (players or legal)[0]))
        else:
            return _fail(f"{ctx.names.get(ref, 'It')} can't attack now.")
    ref_of = {c.key: c.ref for c in d.choices}
    summary = "attack with " + ", ".join(ctx.names.get(ref_of[a], "?") for a, _ in pairs)
    return Parsed(reply=Answer(d.id, (), tuple(pairs)), summary=summary)


def _blockers(ctx: _Context, line: str, low: str) -> Parsed:
    d = ctx.decision
    if low in ("no block", "no blocks", "no blockers", "none", "pass", "no"):
        return Parsed(reply=Answer(d.id), summary="no blocks")
    blockers, attackers = _keyed(ctx, 0), _keyed(ctx, 1)
    pairs: list[tuple[int, int]] = []
    said: list[str] = []
    for clause in [c.strip() for c in line.split(";") if c.strip()]:
        m = re.fullmatch(r"(?:block\s+)?(.+?)\s+with\s+(.+)", clause, re.IGNORECASE)
        if not m:
            return _fail("Declare blockers as `block <attacker> with <blocker>[; ...]`, or `no blocks`.")
        a_ref, problem = _match(ctx, m.group(1), list(attackers), "attacking creature")
        if not a_ref:
            return _fail(problem)
        for nm in _split_list(m.group(2), [ctx.names.get(r, "") for r in blockers]):
            b_ref, problem = _match(ctx, nm, list(blockers), "creature that can block")
            if not b_ref:
                return _fail(problem)
            pair = (blockers[b_ref], attackers[a_ref])
            if pair not in d.legal_pairs:
                return _fail(f"{ctx.names.get(b_ref, 'It')} can't block {ctx.names.get(a_ref, 'that')}.")
            if any(b == pair[0] for b, _ in pairs):
                return _fail(f"{ctx.names.get(b_ref, 'A creature')} blocks only once here.")
            pairs.append(pair)
            said.append(f"{ctx.names.get(b_ref, '?')} blocks {ctx.names.get(a_ref, '?')}")
    return Parsed(reply=Answer(d.id, (), tuple(pairs)), summary="; ".join(said))
