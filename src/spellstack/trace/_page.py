"""What the HTML page of a trace shows, as plain data: the account's lines with the lane and
mark of each, the payload of each record a line shows, the views the lines' requests carried,
and the life totals along the game.

``page_data`` builds it on ``show_trace``: the lines, what a viewer may see (``as_player``) and
the views rebuilt from each seat's deltas are the account's. Each card name the views show has
its printed mana cost, type line, power and toughness and Oracle text once, in a table by name.
Shown as a player, the data holds only what that player was shown: its own requests and
replies, the events public or private to it, its views (and so only cards it was shown); no
record's number in the trace, no seed, and no deck name but its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import load_cards
from ..rules import CardDefinition, ObjectView, PlayerView
from ._read import Trace, TraceMessage
from ._show import ShowLine, ShowOptions, show_trace

__all__ = ["PageData", "page_data"]

_MARKS: Mapping[str, str] = {
    "PriorityRequest": "priority", "priority": "priority",
    "pass": "pass", "auto_pass": "pass", "fold": "pass",
    "cast": "cast", "activate": "cast", "play": "cast",
    "resolve": "resolve", "counter": "resolve",
    "sba": "sba",
    "trigger": "trigger", "trigger_removed": "trigger", "ordered": "trigger",
    "attack": "combat", "block": "combat",
    "damage": "damage", "prevent": "damage", "life": "damage", "poison": "damage",
    "DecisionRequest": "decision", "SubmitAnswer": "decision",
    "lose": "end", "game_over": "end", "GameOver": "end", "forfeit": "end",
    "Rejected": "error", "ErrorReply": "error", "refused": "error", "malformed": "error",
}
"""The mark of a line on the timeline, by its kind (any other kind: ``other``)."""


@dataclass(frozen=True, slots=True)
class PageData:
    """Everything the page shows, as plain data (what its embedded JSON holds)."""

    data: Mapping[str, Any]
    """The page's data: players, viewer, result, lines, payloads, views, life, cards. A line is
    ``[label, turn, step, active, lanes, mark, kind, text, view, step_seq, folded]``: ``turn``
    0 before the game; ``step_seq`` the record of its step's change (0: none, or a viewer's
    page); ``folded`` a folded run's passes, ``[label, lanes, mark, text]`` each."""
    lines: int
    """How many lines of the account it holds."""


def _seat(actor: str, names: Sequence[str]) -> int:
    name = actor.removeprefix("player:")
    return names.index(name) if actor.startswith("player:") and name in names else -1


def _lanes(line: ShowLine, trace: Trace, by_seq: Mapping[int, TraceMessage]) -> list[int]:
    """The seats a line concerns, for its lane (empty: the game's own lane)."""
    names = trace.header.players
    if line.kind == "fold":
        # The passes folded: every one of them public, as is who passed.
        seats = {by_seq[s].payload["player"] for s in range(line.seq, line.seq_last + 1)
                 if s in by_seq and by_seq[s].kind == "GameEvent"
                 and by_seq[s].payload["kind"] in ("pass", "auto_pass")
                 and not by_seq[s].payload["private_to"]}
        return sorted(s for s in seats if s >= 0)
    m = by_seq[line.seq]
    if m.kind == "GameEvent":
        player = m.payload["player"]
        return [player] if isinstance(player, int) and player >= 0 else []
    seat = _seat(m.receiver, names)
    if seat < 0:
        seat = _seat(m.sender, names)
    return [seat] if seat >= 0 else []


def _mark(line: ShowLine, m: TraceMessage | None) -> str:
    if m is not None and m.kind == "SubmitAction":
        action = m.payload["action"]["kind"]
        return "pass" if action == "pass" else "cast" if action in ("cast", "activate", "play") else "other"
    return _MARKS.get(line.kind, "other")


def _payload(line: ShowLine, m: TraceMessage | None, viewer: bool) -> Any:
    """The payload a line shows: its record's, as the account tells it to a viewer."""
    if m is None or line.kind == "fold":
        return None
    payload = dict(m.payload)
    if viewer and m.kind == "GameEvent" and payload["kind"] != line.kind:
        # Another seat's pass, as a viewer saw it: a pass (whether the engine made it does
        # not show), as the account says.
        payload["kind"], payload["text"] = line.kind, line.text
    return {"kind": m.kind, "sender": m.sender, "receiver": m.receiver, "payload": payload}


def _printed(name: str) -> CardDefinition | None:
    return load_cards().get(name) if name else None


def _object(o: ObjectView, names: Sequence[str], on_battlefield: bool = False) -> list[Any]:
    """An object as the page draws it: id, name, controller, types, tapped, power,
    toughness, damage, counters, flags (sick, attacking, blocking), attached to, and its marks
    in words (a battle's protector, a sector, a merged permanent's cards).

    Off the battlefield a view's power and toughness are 0 (it gives current values for
    permanents only): there the object has its card's printed ones, null if none is printed."""
    flags = "".join(c for c, on in (("s", o.sick and "Creature" in o.types), ("a", o.attacking),
                                    ("b", o.blocking)) if on)
    marks = list(o.marks.words(lambda s: names[s] if 0 <= s < len(names) else f"seat {s}")
                 ) if o.marks is not None else []
    power: int | None = o.power
    toughness: int | None = o.toughness
    if not on_battlefield:
        card = _printed(o.name)
        power, toughness = (card.power, card.toughness) if card is not None else (None, None)
    return [o.id, o.name, o.controller, list(o.types), int(o.tapped), power, toughness,
            o.damage, [list(c) for c in o.counters], flags, o.attached_to, marks]


def _view(view: PlayerView) -> dict[str, Any]:
    names = [p.name for p in view.players]
    return {
        "seat": view.seat, "turn": view.turn, "step": view.step, "active": view.active,
        "priority": view.priority,
        "players": [{"name": p.name, "life": p.life, "poison": p.poison, "hand": p.hand_count,
                     "library": p.library_count,
                     "graveyard": [_object(o, names) for o in p.graveyard],
                     "mana": [list(m) for m in p.mana], "lost": p.lost,
                     "dungeon": p.dungeon_words()} for p in view.players],
        "hand": [_object(o, names) for o in view.hand],
        "battlefield": [_object(o, names, on_battlefield=True) for o in view.battlefield],
        "stack": [[s.id, s.name, s.controller, int(s.is_ability), list(s.targets)] for s in view.stack],
        "exile": [_object(o, names) for o in view.exile],
    }


def _life(lines: Sequence[ShowLine], by_seq: Mapping[int, TraceMessage],
          players: int) -> list[list[Any]]:
    """The life and poison totals along the account: a point ``[line, lives, poisons]`` at
    each line where one changed, from the views the requests carried (each resets them) and
    the ``life`` and ``poison`` events between."""
    points: list[list[Any]] = []
    life: list[int] | None = None
    poison = [0] * players
    for i, line in enumerate(lines):
        before = None if life is None else (list(life), list(poison))
        if line.view is not None:
            life = [p.life for p in line.view.players]
            poison = [p.poison for p in line.view.players]
        elif life is not None and line.kind in ("life", "poison"):
            p = by_seq[line.seq].payload
            if 0 <= p["player"] < players:
                (life if line.kind == "life" else poison)[p["player"]] += p["amount"]
        if life is not None and (before is None or before != (life, poison)):
            points.append([i, list(life), list(poison)])
    return points


def _folded(lines: Sequence[ShowLine], unfolded: Sequence[ShowLine], trace: Trace,
            by_seq: Mapping[int, TraceMessage], viewer: bool) -> dict[int, list[list[Any]]]:
    """The passes each folded line holds, by the line's index: ``[label, lanes, mark, text]``
    each, as the unfolded account tells them (for a viewer without a label: the record's
    ``seq`` is not shown to one, and the unfolded account's numbers are not the page's)."""
    by_record = {u.seq: u for u in unfolded}
    out: dict[int, list[list[Any]]] = {}
    for i, line in enumerate(lines):
        if line.kind == "fold":
            held = [by_record[s] for s in range(line.seq, line.seq_last + 1) if s in by_record]
            out[i] = [["" if viewer else str(u.seq), _lanes(u, trace, by_seq),
                       _mark(u, by_seq[u.seq]), u.text] for u in held]
    return out


def _card(card: CardDefinition) -> dict[str, Any]:
    """A card as the page tells it on hover: mana cost, type line, printed P/T, Oracle text."""
    types = " ".join((*card.supertypes, *card.card_types))
    pt = ""
    if card.power is not None or card.toughness is not None:
        pt = f"{'*' if card.power is None else card.power}/{'*' if card.toughness is None else card.toughness}"
    elif "Creature" in card.card_types:
        pt = "*/*"
    elif card.loyalty is not None:
        pt = f"loyalty {card.loyalty}"
    return {"cost": "" if card.mana_cost is None else str(card.mana_cost),
            "type": types + (" — " + " ".join(card.subtypes) if card.subtypes else ""),
            "pt": pt, "text": card.text}


def _cards(views: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The printed card of each name the views show (on the board, in a zone or on the stack),
    by name, in the order first shown: only names the page's reader was shown."""
    shown: dict[str, None] = {}
    for v in views:
        objects = [*v["battlefield"], *v["hand"], *v["exile"],
                   *(o for p in v["players"] for o in p["graveyard"])]
        shown.update((o[1], None) for o in objects)
        shown.update((s[1], None) for s in v["stack"])
    return {name: _card(card) for name in shown if (card := _printed(name)) is not None}


def page_data(trace: Trace, as_player: str | None = None) -> PageData:
    """The data of the page of ``trace``: as everybody saw the game, or ``as_player`` did
    (only what that player could see; lines numbered from 1).

    Raises:
        TraceQueryError: ``as_player`` is no player of the trace.
    """
    lines = show_trace(trace, ShowOptions(as_player=as_player))
    by_seq = {m.seq: m for m in trace.messages}
    viewer = as_player is not None
    folded = _folded(lines, show_trace(trace, ShowOptions(as_player=as_player, unfold=True)),
                     trace, by_seq, viewer)
    names = list(trace.header.players)
    views: list[dict[str, Any]] = []
    rows: list[list[Any]] = []
    payloads: list[Any] = []
    for i, line in enumerate(lines):
        m = None if line.kind == "fold" else by_seq[line.seq]
        view = -1
        if line.view is not None:
            view = len(views)
            views.append(_view(line.view))
        label = str(line.number) if line.last == line.number else f"{line.number}-{line.last}"
        rows.append([label, line.turn, line.step, names.index(line.active), _lanes(line, trace, by_seq),
                     _mark(line, m), line.kind, line.text, view, line.step_seq, folded.get(i, [])])
        payloads.append(_payload(line, m, viewer))
    r = trace.result
    data: dict[str, Any] = {"game": trace.header.game}
    if not viewer:
        data["seed"] = trace.header.seed
    data |= {
        "players": names,
        # A viewer knows its own deck. The seed and the others' deck names it was never told:
        # with the built-in decklists, they would rebuild every hand and draw (new_game).
        "decks": [trace.header.decks.get(n, "") if not viewer or n == as_player else "" for n in names],
        "viewer": as_player,
        # A trace cut short has no result: the page says after which record it was cut (for a
        # viewer, its own last line: a seq would tell how many records it was not shown).
        "result": ({"winner": r.winner, "reason": r.reason, "turns": r.turns, "cut": None} if r is not None
                   else {"winner": None, "reason": "", "turns": max((ln.turn for ln in lines), default=0),
                         "cut": lines[-1].number if viewer and lines else trace.last_seq}),
        "lines": rows,
        "payloads": payloads,
        "views": views,
        "life": _life(lines, by_seq, len(names)),
        "cards": _cards(views),
    }
    return PageData(data, len(rows))
