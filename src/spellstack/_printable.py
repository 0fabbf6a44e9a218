"""Untrusted text made safe for a terminal, and bounded for a message.

Names, reasons and card names come from bots, deck files and traces: text nobody here wrote.
Written raw, a control character in it can set a terminal's title, clear its screen, or (a
newline) start a line that looks like the program's own. ``printable`` escapes every such
character; ``short_value`` and ``short_text`` also cut what they quote, and ``error_line``
bounds a whole message line, whatever it quotes.
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

__all__ = ["ERROR_LINE_LIMIT", "SHORT_LIMIT", "error_line", "printable", "short_text", "short_value"]

SHORT_LIMIT = 60
"""How many characters of a quoted piece of input a message shows."""

ERROR_LINE_LIMIT = 1000
"""The most characters an error line has, whatever it quotes."""

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 control characters, DEL, the Unicode line and paragraph separators (some viewers
break lines at them) and the bidirectional overrides (they reorder what a line shows)."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character (C0, C1, DEL, newlines included) and line or
    bidirectional control escaped as ``\\n``, ``\\xNN`` or ``\\uNNNN``: safe to write to a
    terminal, and on one line. Text that needs no escape comes back unchanged."""
    return _UNSAFE.sub(_escape, text)


def short_text(text: str, limit: int = SHORT_LIMIT) -> str:
    """``text`` escaped (``printable``) and cut to about ``limit`` characters, a cut shown as
    ``…`` with the number of characters left out."""
    if len(text) <= limit:
        return printable(text)
    return f"{printable(text[:limit])}… ({len(text) - limit:,} more characters)"


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = SHORT_LIMIT
_SHORT.maxother = SHORT_LIMIT
_SHORT.maxlong = SHORT_LIMIT


def short_value(value: Any) -> str:
    """A short ``repr`` of any value (nested lists and tables are cut at three levels, long
    strings and integers at 60 characters), escaped: safe to put in a message."""
    try:
        shown = _SHORT.repr(value)
    except Exception:  # pragma: no cover - reprlib bounds depth and length already
        shown = f"a {type(value).__name__}"
    return printable(shown)


def error_line(text: str, limit: int = ERROR_LINE_LIMIT) -> str:
    """``text`` as one printable line of at most ``limit`` characters: escaped, and cut in
    the middle if longer (its start names the command and the input, its end the cause)."""
    if len(text) > 4 * limit:
        # Escaping can grow the text fourfold at most: cut first, so a huge text costs little.
        text = text[: 2 * limit] + text[-2 * limit:]
    line = printable(text)
    if len(line) <= limit:
        return line
    marker = " … "
    head = (limit - len(marker)) * 2 // 3
    tail = limit - len(marker) - head
    return f"{line[:head]}{marker}{line[len(line) - tail:]}"
