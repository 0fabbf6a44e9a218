"""A class bot that raises with hostile terminal text, for the escaping tests."""

from typing import NoReturn

EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\x7f\nspellstack tournament: FORGED"


class Raiser:
    """Raises at its first decision, its message holding control characters and a line."""

    def decide(self, view: object, decision: object) -> NoReturn:
        raise ValueError(EVIL)
