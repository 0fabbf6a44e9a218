"""Hidden information in what the fuzz's hostile seat receives: card names and ids that the
seat may not see (``rules.visible_to`` decides), looked for in every text and map of a
message."""

from __future__ import annotations

import re
from typing import Any

from ..rules import Game, visible_to

__all__ = ["HiddenNames", "hidden_leaks"]

_ID = re.compile(r"#(\d+)")
_NAME_RES: dict[str, re.Pattern[str]] = {}


def _name_re(name: str) -> re.Pattern[str]:
    pattern = _NAME_RES.get(name)
    if pattern is None:
        pattern = _NAME_RES[name] = re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")
    return pattern


class HiddenNames:
    """What is hidden from one seat now: objects it may not see (``visible_to``) and ids that
    were hidden from it when they last existed, with their names, and the names it may not
    know from anything it sees. Recomputed when objects have moved (every zone change makes a
    new object, 400.7, so the id counter and the table sizes tell), a player looked at a
    hidden card or a face-down permanent was turned face up."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.key: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self.ids: dict[int, str] = {}
        """Hidden id -> its name."""
        self.names: dict[str, tuple[str, ...]] = {}
        """Names only hidden objects have -> the visible names that contain them as words."""
        self.clean: set[str] = set()
        """Texts already found to name nothing hidden (since the last refresh)."""

    def refresh(self) -> None:
        st = self.game.state
        # Some objects become visible without moving: a card an effect let a player look at
        # (400.2, ``looked_at_by``) and a face-down permanent turned face up (702.37e, 708.8).
        key = (st.next_id, len(st.lki), len(st.objects),
               sum(len(o.looked_at_by) + 2 * o.face_down for o in st.objects.values()))
        if key == self.key:
            return
        self.key = key
        ids: dict[int, str] = {}
        seen: set[str] = {p.name for p in st.players}
        for table in (st.objects, st.lki):
            for oid, obj in table.items():
                if visible_to(self.game, self.seat, obj):
                    seen.add(obj.name)
                    # A merged permanent shows each of its cards, the ones under its top too
                    # (725.1): a Clone that copied a Dryad Arbor since mutated over is named so.
                    for _, card, _ in obj.merged:
                        seen.add(card)
                else:
                    ids[oid] = obj.name
        self.ids = ids
        self.names = {n: tuple(v for v in seen if _name_re(n).search(v))
                      for n in set(ids.values()) if n and n not in seen}
        self.clean = set()

    def text_leaks(self, s: str) -> list[str]:
        """What the text ``s`` reveals."""
        if s in self.clean:
            return []
        out: list[str] = []
        for name, shadows in self.names.items():
            if name in s:
                rest = s
                for v in shadows:  # a visible name that contains it ("Elves" in "Llanowar Elves")
                    rest = rest.replace(v, "")
                if _name_re(name).search(rest):
                    out.append(f"names hidden card {name!r}: {s!r}")
        if "#" in s:
            for m in _ID.finditer(s):
                n = int(m.group(1))
                known = self.ids.get(n)
                if known and any(form in s for form in (f"{known} (#{n})", f"{known} #{n}",
                                                          f"#{n} {known}", f"#{n} ({known})")):
                    out.append(f"identifies hidden #{n} as {known!r}: {s!r}")
        if not out:
            self.clean.add(s)
        return out


_ID_BYTES = re.compile(rb"#(\d+)")


def hidden_leaks(game: Game, seat: int, plain: Any, hidden: HiddenNames | None = None,
                 data: bytes | None = None) -> list[str]:
    """What in ``plain`` (a decoded message, as it crossed the wire) names or identifies a card
    hidden from ``seat``: a name no visible object has, a hidden id written next to its name,
    or a map giving a hidden id together with a name. ``data``: the message's bytes, if known
    (msgpack carries strings as UTF-8 bytes, so a name or ``#N`` absent from them is absent
    from every text, and the texts need not be read one by one)."""
    if hidden is None:
        hidden = HiddenNames(game, seat)
    hidden.refresh()
    out: list[str] = []
    ids = hidden.ids
    texts = data is None or any(n.encode() in data for n in hidden.names) or any(
        int(m) in ids for m in _ID_BYTES.findall(data))
    todo = [plain]
    clean = hidden.clean
    while todo:
        v = todo.pop()
        if type(v) is dict:
            name = v.get("name")
            if type(name) is str and name:
                for key in ("id", "object_id", "ref", "source_id"):
                    ref = v.get(key)
                    if type(ref) is int and ref in ids and name != f"#{ref}":  # "#N": no name
                        out.append(f"shows hidden #{ref} with the name {name!r}")
            items: Any = v.values()
        elif type(v) is list:
            items = v
        else:  # a bare scalar message body
            items = (v,)
        for x in items:
            tx = type(x)
            if tx is dict or tx is list:
                todo.append(x)
            elif tx is str and texts and x not in clean:
                out += hidden.text_leaks(x)
    return out
