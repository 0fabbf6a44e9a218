"""Spy bots for the seed tests: each writes down everything it is told about its seed (its own
seed; for the stdio one, the whole hello) into the folder ``SPY_DIR`` names, so that a test can
search for the tournament's seed the way such a bot could."""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path

from spellstack.bots import RandomBot


class ClassSpy(RandomBot):
    """A class bot (run in a bot process) that writes down its seed, then plays at random."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        folder = os.environ.get("SPY_DIR")
        if folder:  # the check that builds one bot with seed 0 has no folder to write in
            (Path(folder) / f"class-{seed}.json").write_text(json.dumps({"seed": seed}))


def _stdio_main() -> None:
    """A stdio bot that writes its hello down and leaves (forfeiting its game)."""
    size = struct.unpack(">I", sys.stdin.buffer.read(4))[0]
    import msgpack

    hello = msgpack.unpackb(sys.stdin.buffer.read(size))
    folder = Path(os.environ["SPY_DIR"])
    (folder / f"stdio-{hello['game']}-{hello['seat']}.json").write_text(json.dumps(hello))


if __name__ == "__main__":
    _stdio_main()
