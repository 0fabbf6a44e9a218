"""A tournament's key, and every seed it uses, derived from it by a keyed hash.

Without ``--seed`` a tournament draws a 256-bit key from the operating system (``new_key``);
with ``--seed S`` the key comes from S (``key_from_seed``), so that anyone who knows S can
work out every game. Every seed the tournament uses (each game's, each bot's, the seat order,
the Swiss lots) is BLAKE2b keyed with the key over public parts (``keyed_seed``): a bot that
is told its own seed, its names, its seat and its game learns nothing of the key, so nothing
of its game's seed or any other.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["KEY_BYTES", "MIN_KEY_BYTES", "KeyFileError", "key_from_seed", "keyed_seed", "new_key",
           "parse_key", "read_key_file"]

KEY_BYTES = 32
"""A drawn key's length: 256 bits."""
MIN_KEY_BYTES = 16
"""The shortest key ``--key-from`` accepts: 128 bits."""
MAX_KEY_BYTES = 64
"""The longest key BLAKE2b takes: 512 bits."""


class KeyFileError(Exception):
    """A ``--key-from`` file that can't give a key (unreadable, no key, a bad key)."""


def new_key() -> bytes:
    """A fresh secret key from the operating system."""
    return secrets.token_bytes(KEY_BYTES)


def key_from_seed(seed: int) -> bytes:
    """The key of a tournament played with ``--seed seed``: anyone who knows the seed has it."""
    return hashlib.blake2b(f"spellstack tournament seed/{seed}".encode(),
                           digest_size=KEY_BYTES).digest()


def keyed_seed(key: bytes, *parts: object) -> int:
    """A seed for one part of a tournament (a game, a seat's bot, a pair's seats): BLAKE2b
    keyed with ``key`` over the parts joined by ``/``, as an integer below 2**63."""
    text = "/".join(str(p) for p in parts)
    digest = hashlib.blake2b(text.encode(), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def parse_key(text: object) -> bytes:
    """A key written as hex; ValueError saying what is wrong with it."""
    if not isinstance(text, str):
        raise ValueError(f"the key is not a hex string but {type(text).__name__}")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError("the key is not hex") from None
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"the key has {len(key) * 8} bits, under the {MIN_KEY_BYTES * 8} a key "
                         "needs")
    if len(key) > MAX_KEY_BYTES:
        raise ValueError(f"the key has {len(key) * 8} bits, over the {MAX_KEY_BYTES * 8} a key "
                         "may have")
    return key


def read_key_file(path: Path) -> tuple[bytes, Mapping[str, Any]]:
    """The key in a ``--results`` file and the file's whole document (its settings);
    KeyFileError naming what is wrong."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise KeyFileError(f"--key-from {str(path)!r}: can't be read ({err.strerror or err})") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise KeyFileError(f"--key-from {str(path)!r}: not a results file (not JSON)") from None
    if not isinstance(doc, dict):
        raise KeyFileError(f"--key-from {str(path)!r}: not a results file")
    if doc.get("key") is None:
        raise KeyFileError(f"--key-from {str(path)!r}: holds no key (a results file written "
                           "before tournaments had keys, or not a results file)")
    try:
        key = parse_key(doc["key"])
    except ValueError as err:
        raise KeyFileError(f"--key-from {str(path)!r}: {err}") from None
    return key, doc
