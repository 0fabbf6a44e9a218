"""``spellstack play --clock``: a bot in a process of its own reads its game clock from each
request, and loses on time when it runs out. Real time with small figures (the mock clock does
not see other processes): a 0.4 s clock, a bot that thinks 0.05 s a decision."""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

from spellstack.cli import main

BOT = '''
import json, struct, sys, time
import msgpack

readings = open(sys.argv[1], "w")
def read():
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        return None
    return msgpack.unpackb(sys.stdin.buffer.read(struct.unpack(">I", head)[0]), raw=False)
def write(message):
    data = msgpack.packb(message, use_bin_type=True)
    sys.stdout.buffer.write(struct.pack(">I", len(data)) + data)
    sys.stdout.buffer.flush()
hello = read()
v = hello["protocol"]
write({"t": "ready"})
while (message := read()) is not None:
    if message["k"] not in ("PriorityRequest", "DecisionRequest"):
        continue
    readings.write(json.dumps(message["b"]["clock"]) + "\\n")
    readings.flush()
    time.sleep(0.05)
    decision = message["b"]["decision"]
    if message["k"] == "PriorityRequest":
        write({"k": "SubmitAction", "v": v, "b": {"decision_id": decision["id"], "action": {
            "kind": "pass", "object_id": 0, "ability": 0, "targets": [], "x": 0, "divide": [],
            "pay": [], "pay_as": [], "face": "", "modes": [], "costs": []}}})
    else:
        keys = [c[0] for c in decision["choices"]]
        least = 1 if decision["kind"] == "yes_no" else decision["min"]
        keys = keys if decision["kind"] == "order" else keys[:least]
        write({"k": "SubmitAnswer", "v": v, "b": {"answer": {
            "decision_id": decision["id"], "keys": keys, "pairs": []}}})
'''


@pytest.mark.slow
def test_a_bot_process_reads_its_clock_and_loses_on_time(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    bot, readings = tmp_path / "clock_bot.py", tmp_path / "readings.jsonl"
    bot.write_text(BOT, "utf-8")
    code = main(["play", "--entrant", f"slow=stdio:{sys.executable} {bot} {readings}@gruul",
                 "--entrant", "random@orzhov", "--clock", "0.4"])
    out = capsys.readouterr().out
    assert code == 0
    assert "random-orzhov wins: slow lost on time (clock 0.4+0)" in out, out
    shown = [json.loads(line) for line in readings.read_text("utf-8").splitlines()]
    lefts = [c["left"] for c in shown]
    assert shown[0] == {"left": 0.4, "increment": 0.0}
    # Each answer took its time off (about its 0.05 s: less what the loop's lag monitor counted
    # as held by others, its wakes' own lateness, which a loaded machine makes larger); the
    # clock ran out after a handful of answers.
    assert all(0 < earlier - later <= 0.2 for earlier, later in itertools.pairwise(lefts))
    assert len(lefts) >= 2
    # The random bot answers in milliseconds: it has nearly all of its time left.
    assert re.search(r"^time left: slow 0\.000 s, random-orzhov 0\.[34]\d\d s$", out, re.M), out
