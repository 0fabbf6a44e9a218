"""A stdio bot whose words are hostile terminal text, for the escaping tests. Its one argument:
``forfeit`` sends a ``Forfeit`` whose reason holds control characters and a forged line;
``stderr`` writes such a line on stderr, then exits."""

import struct
import sys

import msgpack

EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\x7f\nspellstack tournament: FORGED"
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def read():
    head = stdin.read(4)
    if len(head) < 4:
        return None
    return msgpack.unpackb(stdin.read(struct.unpack(">I", head)[0]), raw=False)


hello = read()
ready = msgpack.packb({"t": "ready"})
stdout.write(struct.pack(">I", len(ready)) + ready)
stdout.flush()
while (message := read()) is not None:
    if message["k"] not in ("PriorityRequest", "DecisionRequest"):
        continue
    if sys.argv[1] == "forfeit":
        payload = msgpack.packb({"k": "Forfeit", "v": hello["protocol"], "b": {"reason": EVIL}})
        stdout.write(struct.pack(">I", len(payload)) + payload)
        stdout.flush()
    else:
        sys.stderr.write(EVIL.replace("\n", " ") + "\n")
        sys.stderr.flush()
        sys.exit(3)
