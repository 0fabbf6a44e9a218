"""The decks a chat user may name: the built-in decks and the deck files of a folder the
operator gives. A user's word is only ever looked up among these names: it is never a path,
so nothing but the operator's own deck files is opened, and a reply never quotes a file."""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from ..cards import DECKS, Deck, load_cards, load_deck
from ..rules import CardDefinition, CardDefinitionError

__all__ = ["MAX_DECK_FILE", "DeckRefused", "DeckShelf", "log"]

log = logging.getLogger("spellstack.chat")
"""The host's log: why an operator's deck file failed to load, folder entries left out."""

MAX_DECK_FILE = 1 << 20
"""The largest deck file (bytes) the folder may offer; a larger one is refused unread."""

MAX_NAMES = 100
"""The most deck names the folder offers (the list goes into one chat message)."""

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}\Z")
"""A deck name a user can type: a file's name, less ``.toml``/``.txt``, in lower case."""

_SUFFIXES = (".toml", ".txt")


class DeckRefused(Exception):
    """A deck word that names no deck, or a deck that fails to load; ``str()`` is the reply."""


def _refusal_text(names: tuple[str, ...]) -> str:
    return ("Unknown deck. Use /play [random|heuristic] [DECK] [BOT_DECK], where a deck is one "
            f"of: {', '.join(names)}.")


class DeckShelf:
    """The deck names of the built-in decks and of ``folder`` (None: built-in decks only).

    A folder deck is a regular file ``NAME.toml`` (a TOML deck) or ``NAME.txt`` (a text
    decklist) directly in the folder, at most ``MAX_DECK_FILE`` bytes; its name is ``NAME`` in
    lower case: 1 to 40 letters, digits, ``-`` and ``_``. A built-in deck's name wins over a
    file's; a name two files share is left out. The folder is listed again when it changes.
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None
        """The operator's deck folder, or None."""
        if self.folder is not None and not self.folder.is_dir():
            raise NotADirectoryError(f"deck_dir {str(self.folder)!r}: not a folder")
        self._listed: tuple[int, dict[str, Path]] | None = None

    def _files(self) -> dict[str, Path]:
        """The folder's decks, name -> path (listed again when the folder's mtime changes)."""
        if self.folder is None:
            return {}
        try:
            mtime = self.folder.stat().st_mtime_ns
        except OSError as err:
            log.error("deck folder %s: can't read it: %s", self.folder, err.strerror)
            return {}
        if self._listed is not None and self._listed[0] == mtime:
            return self._listed[1]
        found: dict[str, list[Path]] = {}
        try:
            entries = sorted(os.scandir(self.folder), key=lambda e: e.name)
        except OSError as err:
            log.error("deck folder %s: can't list it: %s", self.folder, err.strerror)
            return {}
        for entry in entries:
            stem, dot, suffix = entry.name.rpartition(".")
            if not dot or f".{suffix.lower()}" not in _SUFFIXES:
                continue
            name = stem.lower()
            if not _NAME.match(name):
                log.warning("deck folder: %r left out: a deck's name is 1 to 40 letters, "
                            "digits, '-' and '_'", entry.name)
                continue
            if name in DECKS:
                log.warning("deck folder: %r left out: %r is a built-in deck", entry.name, name)
                continue
            try:
                regular = entry.is_file()  # a stat (following a link), nothing opened
            except OSError:
                regular = False
            if not regular:
                log.warning("deck folder: %r left out: not a regular file", entry.name)
                continue
            found.setdefault(name, []).append(Path(entry.path))
        files: dict[str, Path] = {}
        for name, paths in found.items():
            if len(paths) > 1:
                log.warning("deck folder: %r left out: %d files have that name", name, len(paths))
            elif len(files) >= MAX_NAMES:
                log.warning("deck folder: %r left out: more than %d decks", name, MAX_NAMES)
            else:
                files[name] = paths[0]
        self._listed = (mtime, files)
        return files

    def names(self) -> tuple[str, ...]:
        """Every deck name a user may give: the built-in decks, then the folder's."""
        return (*DECKS, *sorted(self._files()))

    def refusal(self) -> str:
        """The one reply to a word that names no deck: it lists the names, and quotes nothing."""
        return _refusal_text(self.names())

    def known(self, word: str) -> bool:
        """Whether ``word`` names a deck (checked without touching the file system when it
        holds ``/``, ``\\`` or ``..``)."""
        if "/" in word or "\\" in word or ".." in word:
            return False
        name = word.lower()
        return name in DECKS or name in self._files()

    def resolve(self, word: str, cards: Mapping[str, CardDefinition] | None = None) -> Deck:
        """The deck ``word`` names.

        Raises:
            DeckRefused: the word holds ``/``, ``\\`` or ``..``, or names no deck (nothing is
                opened: the reply lists the names); or the folder's deck fails to load (the
                reply names the deck and quotes nothing of it; the reason goes to the log).
        """
        if not self.known(word):
            raise DeckRefused(self.refusal())
        cards = cards if cards is not None else load_cards()
        name = word.lower()
        if name in DECKS:
            return load_deck(name, cards)
        path = self._files()[name]
        try:
            # Checked again just before reading: the file may have changed since the listing.
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise CardDefinitionError(f"{path}: not a regular file")
            if info.st_size > MAX_DECK_FILE:
                raise CardDefinitionError(f"{path}: {info.st_size} bytes, more than "
                                          f"{MAX_DECK_FILE}")
            return load_deck(str(path), cards)
        except (CardDefinitionError, OSError) as err:
            log.warning("deck %r can't be loaded: %s", name, err)
            raise DeckRefused(f"The deck {name} can't be loaded: the bot's operator can see why "
                              "in its log.") from None
