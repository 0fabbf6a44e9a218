"""Mana symbols and costs: parsing a mana cost (107.4), X (107.3), mana value (202.3), colour from
a mana cost (105.2, 202.2).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from ..base import WORD_BY_COLOR, Record
from ._syntax import ManaCostSyntaxError

COLORS: Final[tuple[str, ...]] = tuple(WORD_BY_COLOR)
"""The five colours (105.1) by letter, in WUBRG order."""

MANA_TYPES: Final[tuple[str, ...]] = ("W", "U", "B", "R", "G", "C")
"""The six types of mana (106.1): the five colours and colorless."""

TYPE_INDEX: Final[dict[str, int]] = {t: i for i, t in enumerate(MANA_TYPES)}

PHYREXIAN_LIFE: Final = 2
"""107.4f: each Phyrexian symbol may be paid with 2 life instead of mana."""


def syntax_error(text: str, position: int, what: str, why: str = "") -> ManaCostSyntaxError:
    """A ``ManaCostSyntaxError`` naming the text, the position and what is wrong there."""
    message = f"{what} at position {position} in {text!r}"
    if why:
        message += f": {why}"
    return ManaCostSyntaxError(message, text=text, position=position)


@dataclass(frozen=True, slots=True)
class ManaSymbol(Record):
    """One mana symbol of a cost (107.4).

    The kinds, and how they are represented:

    * generic ``{N}`` (107.4b): ``generic=N``, no colours;
    * coloured ``{W}`` (107.4a) and colorless ``{C}`` (107.4c): one entry in ``colors``;
    * hybrid ``{G/W}`` (107.4e): two colours, in the order written;
    * monocolored hybrid ``{2/W}`` (107.4e): ``generic=2`` and one colour, payable by
      either that colour or ``generic`` mana of any type;
    * Phyrexian ``{U/P}`` and Phyrexian hybrid ``{G/W/P}`` (107.4f): ``phyrexian=True``,
      payable by one of its colours or 2 life;
    * ``{X}`` (107.3): ``is_x=True``, paid as X generic mana.
    """

    generic: int = 0
    """Generic amount: N for ``{N}``, the number half for ``{2/W}``, 0 otherwise."""
    colors: tuple[str, ...] = ()
    """Mana types that can pay it, in the order written; ``("C",)`` for ``{C}``."""
    phyrexian: bool = False
    """Whether 2 life may be paid instead of mana (107.4f)."""
    is_x: bool = False
    """Whether this is ``{X}`` (107.3)."""

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ValueError(f"invalid mana symbol {self!r}: {problem}")

    def _problem(self) -> str:
        """What makes the fields inconsistent, or "" when they describe a real symbol."""
        if self.generic < 0:
            return "generic amount is negative"
        if self.is_x:
            if self.generic or self.colors or self.phyrexian:
                return "{X} has no generic amount, colours or Phyrexian mark"
            return ""
        if not self.colors:
            return "a Phyrexian symbol needs a colour" if self.phyrexian else ""
        if self.colors == ("C",):
            if self.generic or self.phyrexian:
                return "{C} cannot be hybrid or Phyrexian"
            return ""
        if any(c not in COLORS for c in self.colors):
            return f"colours must be among {''.join(COLORS)}"
        if len(self.colors) > 2:
            return "at most two colours"
        if len(set(self.colors)) != len(self.colors):
            return "a hybrid symbol cannot repeat a colour"
        if self.generic and (len(self.colors) != 1 or self.phyrexian):
            return "a generic half combines with exactly one colour and no Phyrexian mark"
        return ""

    @property
    def is_hybrid(self) -> bool:
        """Whether it offers a choice between two halves (107.4e), ``{G/W}`` or ``{2/W}``."""
        return len(self.colors) == 2 or (self.generic > 0 and len(self.colors) == 1)

    def mana_value(self, x: int = 0) -> int:
        """This symbol's share of a mana value (202.3).

        Args:
            x: The value of X.

        Returns:
            ``x`` for ``{X}``; the larger half of a hybrid symbol; 1 for a Phyrexian
            symbol; N for ``{N}``; 1 for any other symbol.
        """
        if self.is_x:
            return x
        if self.phyrexian:
            return 1
        if self.colors:
            return max(self.generic, 1)
        return self.generic

    def __repr__(self) -> str:
        # As ``dataclass`` writes it (a test checks), written out: the state hash reads the
        # last known characteristics' costs, and compiled, this is native code.
        return (f"ManaSymbol(generic={repr(self.generic)}, colors={repr(self.colors)}, "
                f"phyrexian={repr(self.phyrexian)}, is_x={repr(self.is_x)})")

    def __str__(self) -> str:
        if self.is_x:
            return "{X}"
        parts: list[str] = []
        if self.generic or not self.colors:
            parts.append(str(self.generic))
        parts.extend(self.colors)
        if self.phyrexian:
            parts.append("P")
        return "{" + "/".join(parts) + "}"


@dataclass(frozen=True, slots=True)
class ManaCost(Record):
    """A mana cost: a sequence of mana symbols (107.4, 202.1), kept in written order."""

    symbols: tuple[ManaSymbol, ...] = ()
    """The symbols as written; empty for no cost."""

    def __repr__(self) -> str:
        return f"ManaCost(symbols={repr(self.symbols)})"  # as ``ManaSymbol.__repr__``

    def mana_value(self, x: int = 0) -> int:
        """The mana value (202.3).

        Args:
            x: The value of X: the announced value while on the stack, 0 elsewhere.

        Returns:
            The total: X counts ``x``, a hybrid symbol its largest half, a Phyrexian
            symbol 1.

        Raises:
            ValueError: If ``x`` is negative.
        """
        if x < 0:
            raise ValueError(f"X must not be negative, got {x}")
        return sum(symbol.mana_value(x) for symbol in self.symbols)

    def colors(self) -> frozenset[str]:
        """The colours the cost gives its object (105.2, 202.2); colorless ``{C}`` is no colour."""
        return frozenset(c for symbol in self.symbols for c in symbol.colors if c in COLORS)

    @property
    def has_x(self) -> bool:
        """Whether the cost contains ``{X}`` (107.3)."""
        return any(symbol.is_x for symbol in self.symbols)

    def __str__(self) -> str:
        return "".join(str(symbol) for symbol in self.symbols)

    def __add__(self, other: ManaCost) -> ManaCost:
        """The total of two costs, as when adding an additional cost (601.2f).

        Symbols are concatenated, not merged, so that ``pay_as`` entries for the
        sum are this cost's hybrid/Phyrexian symbols followed by ``other``'s.
        """
        if not isinstance(other, ManaCost):
            return NotImplemented
        return ManaCost(self.symbols + other.symbols)


def _parse_symbol_body(body: str) -> ManaSymbol | str:
    """The symbol for the text between braces, or why it is not one."""
    if body != body.upper():
        return "mana symbols are written in upper case"
    parts = body.split("/")
    if len(parts) == 1:
        (part,) = parts
        if part == "X":
            return ManaSymbol(is_x=True)
        if part in MANA_TYPES:
            return ManaSymbol(colors=(part,))
        if _is_number(part):
            return ManaSymbol(generic=int(part))
        if part.isascii() and part.isdigit():
            return "numbers are written without leading zeros"
        return "not a mana symbol"
    if len(parts) == 2:
        first, second = parts
        if second == "P":
            if first in COLORS:
                return ManaSymbol(colors=(first,), phyrexian=True)
            return "Phyrexian mana needs one of the colours WUBRG before /P"
        if _is_number(first) and first != "0":
            if second in COLORS:
                return ManaSymbol(generic=int(first), colors=(second,))
            return "a monocolored hybrid symbol needs one of the colours WUBRG after the number"
        if first in COLORS and second in COLORS:
            if first == second:
                return "a hybrid symbol needs two different colours"
            return ManaSymbol(colors=(first, second))
        return "hybrid halves must be two colours, or a positive number then a colour"
    if len(parts) == 3:
        first, second, third = parts
        if third == "P" and first in COLORS and second in COLORS and first != second:
            return ManaSymbol(colors=(first, second), phyrexian=True)
        return "a Phyrexian hybrid symbol is two different colours then P"
    return "too many halves"


def _is_number(text: str) -> bool:
    # ASCII digits only, and no leading zeros, so that every accepted text is
    # canonical and str(parse_mana_cost(t)) == t.
    return (
        text != ""
        and all("0" <= ch <= "9" for ch in text)
        and (text == "0" or not text.startswith("0"))
    )


def iter_braced(text: str) -> Iterator[tuple[int, str]]:
    """Each ``{...}`` group of ``text`` as (position of its brace, body); nothing else allowed."""
    i = 0
    while i < len(text):
        if text[i] != "{":
            raise syntax_error(
                text, i, f"unexpected {text[i]!r}", "every mana symbol is enclosed in braces"
            )
        j = i + 1
        while j < len(text) and text[j] not in "{}":
            j += 1
        if j == len(text) or text[j] == "{":
            raise syntax_error(text, i, f"unterminated symbol {text[i:j]!r}", "missing '}'")
        yield i, text[i + 1 : j]
        i = j + 1


def parse_mana_cost(text: str) -> ManaCost:
    """Parse a mana cost written with mana symbols (107.4), e.g. ``"{2}{W}{U/P}{X}{G/W}"``.

    Accepted symbols: ``{N}`` (no leading zeros), ``{W}{U}{B}{R}{G}``, ``{C}``, ``{X}``,
    hybrid ``{G/W}``, monocolored hybrid ``{2/W}``, Phyrexian ``{U/P}`` and
    Phyrexian hybrid ``{G/W/P}``. Letters are upper case and nothing may stand
    between symbols. The result keeps the written order, so ``str()`` of it gives
    the text back.

    Args:
        text: The cost; ``""`` means no mana symbols.

    Returns:
        The cost.

    Raises:
        ManaCostSyntaxError: If the text is malformed; the message quotes the text
            and the position of the offending symbol or character.
    """
    symbols: list[ManaSymbol] = []
    for position, body in iter_braced(text):
        parsed = _parse_symbol_body(body)
        if isinstance(parsed, str):
            raise syntax_error(text, position, f"invalid mana symbol '{{{body}}}'", parsed)
        symbols.append(parsed)
    return ManaCost(tuple(symbols))
