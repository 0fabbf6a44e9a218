"""``printable``, ``short_text``, ``short_value`` and ``error_line``: untrusted text made safe
for a terminal and bounded for a message."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from spellstack._printable import error_line, printable, short_text, short_value
from spellstack.cards import short_value as cards_short_value

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def test_control_characters_are_escaped() -> None:
    assert printable("a\x1b]0;t\x07b") == "a\\x1b]0;t\\x07b"
    assert printable("one\ntwo\r\tthree") == "one\\ntwo\\r\\tthree"
    assert printable("\x7f\x9b\x85") == "\\x7f\\x9b\\x85"
    assert printable("\u2028\u202e") == "\\u2028\\u202e"


def test_ordinary_text_is_unchanged() -> None:
    for text in ("Grizzly Bears", "Fire // Ice", "Lim-Dûl's Vault", "C:\\decks\\mine.txt", "名前", ""):
        assert printable(text) == text


@given(st.text())
def test_escaped_text_holds_no_control_character_and_is_stable(text: str) -> None:
    shown = printable(text)
    assert UNSAFE.search(shown) is None
    assert printable(shown) == shown


def test_short_text_cuts_and_escapes() -> None:
    assert short_text("abc") == "abc"
    cut = short_text("\n" * 100)
    assert cut.startswith("\\n" * 60) and cut.endswith("… (40 more characters)")
    assert UNSAFE.search(cut) is None


def test_short_value_is_a_short_escaped_repr_and_cards_still_exports_it() -> None:
    assert cards_short_value is short_value
    assert short_value("x" * 1_000_000).startswith("'xxx") and len(short_value("x" * 1_000_000)) <= 62
    assert short_value([[[[1]]]]) == "[[[[...]]]]"
    assert UNSAFE.search(short_value("\x1b\x9b\u2028" * 50)) is None
    assert short_value(10 ** 100).count("...") == 1


@given(st.text(), st.integers(min_value=20, max_value=2000))
def test_an_error_line_is_one_bounded_printable_line(text: str, limit: int) -> None:
    line = error_line(text, limit)
    assert len(line) <= limit and UNSAFE.search(line) is None


def test_an_error_line_keeps_its_start_and_end() -> None:
    line = error_line("spellstack: " + "x\n" * 1_000_000 + "the cause")
    assert len(line) <= 1000
    assert line.startswith("spellstack: x\\nx") and line.endswith("the cause")
    assert error_line("spellstack: short") == "spellstack: short"
