"""Text decklists: the MTG Arena export and the MTGO ``.txt`` list, read into a ``Deck``.

Both are a card per line, its count first: ``4 Lightning Bolt``. Which of the two a text is
comes from its content:

- **Arena** if a line is one of Arena's section headers ``About``, ``Deck``, ``Commander``
  or ``Companion``, or a card line ends with a set code and collector number, as Arena's
  export writes them (``4 Lightning Bolt (M11) 146``). The set code (in parentheses) and the
  collector number after it are dropped: a card is named by its name alone.
- **MTGO** otherwise: ``4 Lightning Bolt`` lines, the name taken as written.

What other tools write is read too: ``//`` comment lines (skipped), ``SB: 2 Shock`` (a
sideboard card), ``20x Island`` (a count), Moxfield's ``*F*``/``*E*`` after the set code
(dropped), and ``Maybeboard``/``Considering`` sections (checked, then left out as the
sideboard is). A name matches a card's in any case, with runs of spaces as one and a split
card's slash written ``/``, `` / `` or `` // ``; a two-faced card's full ``front // back``
name is its front face's card.

Sections. A text with a header line (Arena's, or a ``Sideboard`` line, with or without a
colon, in any case) is split by its headers: the lines before the first header and those
under ``Deck`` are the main deck, and blank lines only separate. A text without headers (an
MTGO list, or Arena's export before it had headers) is split by its first blank line after a
card: the main deck above, the sideboard below.

What is kept: only the main deck, the cards a game shuffles into the library. The other
sections are read, their counts and names checked like the main deck's (so a misspelt name
anywhere in the file is an error, before any game starts), and then ignored:

- ``Sideboard``: every game of a match is played with the main deck (no sideboarding).
- ``Companion`` (702.139): a companion starts the game outside it, as a sideboard card, and
  the engine has no rule for bringing it in.
- ``Commander`` (903): the Commander variant is not played. Under its rules the commander
  starts in the command zone, not in the library (903.6), so leaving it out still gives the
  library the deck would have.
- ``About``: its one line, ``Name X``, gives the deck its name; without one the deck is
  named after its file (the file name without its extension).

The main deck must have from ``MIN_DECK_SIZE`` to ``MAX_DECK_SIZE`` cards, and every name in
the file must be a card the engine implements (a token is not a card), as in TOML decks.
An error is one ``CardDefinitionError`` naming the file and, for a fault of a line, its
number and the line (cut short if it is long); all the unknown names of a file come in one
error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import PurePath

from ..rules import CardDefinition, CardDefinitionError
from ._decks import MAX_DECK_SIZE, MIN_DECK_SIZE, Deck
from ._pool import card_name_problem
from ._toml import short_value

__all__ = ["parse_decklist"]

_ARENA_HEADERS = frozenset({"about", "deck", "commander", "companion"})
"""Section headers only an Arena export has (lower case)."""

_LEFT_OUT = frozenset({"maybeboard", "considering"})
"""Sections of cards a deck-building site keeps beside the deck, not in it (lower case)."""

_HEADERS = _ARENA_HEADERS | _LEFT_OUT | {"sideboard"}
"""Every section header (lower case; a trailing colon is allowed)."""

_SET_AND_NUMBER = re.compile(r"\s+\([A-Za-z0-9]{2,8}\)(?:\s+[^\s()]+)?$")
"""Arena's ``(SET) NUMBER`` after a card's name (the number may be missing)."""

_PRINTING_MARKS = re.compile(r"(?:\s+\*[FE]\*)+$")
"""Moxfield's foil and etched markers after the set code: ``*F*``, ``*E*``."""

_SIDEBOARD_PREFIX = re.compile(r"SB:\s*", re.IGNORECASE)
"""The ``SB:`` an Apprentice ``.dec`` or Cockatrice list puts before a sideboard card."""

_TIMES = re.compile(r"([0-9]+)[xX]")
"""A count written ``20x``, as TappedOut and forums do."""

_SLASHES = re.compile(r"\s*/{1,2}\s*")
"""The slash between a split card's halves, as the tools write it: ``/``, `` / ``, `` // ``."""

_MAX_DIGITS = len(str(MAX_DECK_SIZE))
"""A count with more digits than this is over ``MAX_DECK_SIZE`` without converting it."""

_MAX_LISTED = 10
"""How many unknown names one error lists before saying how many more there are."""

_EXAMPLE = "'4 Lightning Bolt'"
"""A card line, for the messages."""


@dataclass(frozen=True, slots=True)
class _Line:
    """A card line of the text."""

    number: int
    """Its line number, from 1."""
    text: str
    """The line as written (without the line break)."""
    section: str
    """The section it is in: ``deck``, ``sideboard``, ``commander`` or ``companion``."""
    name: str
    """The card's name (without Arena's set code and collector number)."""
    count: int
    """How many copies."""


def _header(line: str) -> str | None:
    """The section ``line`` (stripped) starts, lower case, or None if it is not a header."""
    word = line.removesuffix(":").strip().lower()
    return word if word in _HEADERS else None


def _is_comment(line: str) -> bool:
    """Whether ``line`` (stripped) is a ``//`` comment (``.dec`` and Cockatrice lists)."""
    return line.startswith("//")


def _is_arena(lines: list[str]) -> bool:
    """Whether the text is an Arena export (a header only Arena writes, or a set code)."""
    for line in lines:
        line = line.strip()
        header = _header(line)
        if header in _ARENA_HEADERS:
            return True
        if header is None and not _is_comment(line) and _SET_AND_NUMBER.search(
                _PRINTING_MARKS.sub("", line)):
            return True
    return False


def _match_key(name: str) -> str:
    """``name`` as names are compared: in lower case, runs of spaces as one, and a split
    card's halves joined by `` // `` however the slash was written."""
    return " ".join(_SLASHES.sub(" // ", name).split()).lower()


def _names_by_key(cards: Mapping[str, CardDefinition]) -> dict[str, str]:
    """Each card's name by its ``_match_key``, and a two-faced card's full ``front // back``
    name (an adventurer's, a double-faced card's) by its key, to the front face's name."""
    out: dict[str, str] = {}
    for name, defn in cards.items():
        out.setdefault(_match_key(name), name)
        if defn.layout != "split" and len(defn.faces) == 2:
            out.setdefault(_match_key(" // ".join(defn.faces)), name)
    return out


def _fail(source: str, number: int, text: str, reason: str) -> CardDefinitionError:
    return CardDefinitionError(f"{source}: line {number} {short_value(text)}: {reason}")


def _card_line(source: str, number: int, raw: str, section: str, arena: bool,
               whole: str | None = None) -> _Line:
    """The card line ``raw`` (line ``number``; ``whole``: the line as written, if ``raw`` is
    what follows its ``SB:``), or an error naming what is wrong with it."""
    shown = raw if whole is None else whole
    if not raw.strip():
        raise _fail(source, number, shown, f"a card line starts with its count, {_EXAMPLE}")
    first, *more = raw.split(None, 1)
    rest = more[0].strip() if more else ""
    times = _TIMES.fullmatch(first)
    if times:
        first = times.group(1)
    if not first[:1].isdigit() and not (first[:1] in "+-" and first[1:2].isdigit()):
        hint = ""
        if first.startswith("<"):
            hint = " (an MTGO .dek file is XML: export the deck as a .txt list instead)"
        raise _fail(source, number, shown, f"a card line starts with its count, {_EXAMPLE}{hint}")
    if not (first.isascii() and first.isdigit()) or len(first) > _MAX_DIGITS or not 1 <= int(first) <= MAX_DECK_SIZE:
        count = times.group(0) if times else first
        raise _fail(source, number, shown, f"the count must be a whole number from 1 to "
                                           f"{MAX_DECK_SIZE:,}, not {short_value(count)}")
    rest = _PRINTING_MARKS.sub("", rest)
    name = _SET_AND_NUMBER.sub("", rest) if arena else rest
    if not name:
        raise _fail(source, number, shown, f"a count with no card name after it ({_EXAMPLE})")
    return _Line(number, shown, section, name, int(first))


def _read(text: str, source: str) -> tuple[str | None, list[_Line], int]:
    """The ``About`` name if any, the card lines, and how many cards a blank line (not a
    header) put in the sideboard."""
    lines = text.removeprefix("\ufeff").split("\n")
    lines = [line.removesuffix("\r") for line in lines]
    arena = _is_arena(lines)
    # A Maybeboard after an MTGO list's sideboard leaves its blank line the sideboard's start.
    by_headers = any(_header(line.strip()) not in (None, *_LEFT_OUT) for line in lines)
    section = "deck"
    name: str | None = None
    out: list[_Line] = []
    blank_split = False
    after_blank = 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            if not by_headers and section == "deck" and out:
                section, blank_split = "sideboard", True
            continue
        if _is_comment(line):
            continue
        header = _header(line)
        if header is not None:
            section = header
            continue
        if section == "about":
            key, _, value = line.partition(" ")
            if key.lower() != "name":
                raise _fail(source, number, raw, "under About, only a 'Name' line (is a "
                                                 "'Deck' line missing?)")
            if not value.strip():
                raise _fail(source, number, raw, "a 'Name' line with no name after it")
            if name is not None:
                raise _fail(source, number, raw, "a second 'Name' line")
            name = value.strip()
            continue
        prefix = _SIDEBOARD_PREFIX.match(line)
        if prefix:
            out.append(_card_line(source, number, line[prefix.end():], "sideboard", arena, raw))
            continue
        out.append(_card_line(source, number, raw, section, arena))
        if blank_split:
            after_blank += out[-1].count
    return name, out, after_blank


def _unknown(source: str, lines: list[_Line], cards: Mapping[str, CardDefinition]) -> None:
    """Raise one error for every line naming something that is not a card ``cards`` has."""
    bad = [line for line in lines if line.name not in cards or cards[line.name].is_token
           or cards[line.name].test_only or "Dungeon" in cards[line.name].card_types]
    if not bad:
        return
    parts = [f"line {line.number} {short_value(line.text)}: "
             + (f"{line.name!r} is a test-only card (for the tests of a rule), never in a deck"
                if line.name in cards and cards[line.name].test_only
                else f"{line.name!r} is a dungeon (309.2: it starts outside the game), never in a deck"
                if line.name in cards and "Dungeon" in cards[line.name].card_types
                else card_name_problem(line.name, cards)[1]) for line in bad[:_MAX_LISTED]]
    more = f"; and {len(bad) - _MAX_LISTED} more" if len(bad) > _MAX_LISTED else ""
    raise CardDefinitionError(f"{source}: {'; '.join(parts)}{more}")


def parse_decklist(text: str, source: str, cards: Mapping[str, CardDefinition]) -> Deck:
    """The main deck of an Arena export or an MTGO ``.txt`` list (see the module's text).

    ``source`` names the text in errors; without an ``About`` ``Name``, the deck is named
    after it (``decks/burn.txt``: ``burn``).

    Raises:
        CardDefinitionError: ``"{source}: line N 'the line': what is wrong"``, or one error
            listing every line that names an unknown card or a token, or the main deck's size
            out of bounds, or no cards at all.
    """
    if not text.strip("\ufeff \t\r\n"):
        raise CardDefinitionError(f"{source}: empty: a decklist has a line per card, "
                                  f"{_EXAMPLE}")
    name, lines, after_blank = _read(text, source)
    keys = _names_by_key(cards)
    lines = [line if line.name in cards else replace(line, name=keys.get(_match_key(line.name), line.name))
             for line in lines]
    _unknown(source, lines, cards)
    main: list[str] = []
    for line in lines:
        if line.section != "deck":
            continue
        if len(main) + line.count > MAX_DECK_SIZE:
            raise _fail(source, line.number, line.text,
                        f"the main deck has more than {MAX_DECK_SIZE:,} cards")
        main.extend([line.name] * line.count)
    if len(main) < MIN_DECK_SIZE:
        hint = ""
        if after_blank:
            hint = (f" (a blank line ends the main deck: the {after_blank} cards after it are "
                    "the sideboard)")
        raise CardDefinitionError(f"{source}: the main deck has {len(main)} cards; at least "
                                  f"{MIN_DECK_SIZE}{hint}")
    return Deck(name if name is not None else PurePath(source).stem, tuple(main))
