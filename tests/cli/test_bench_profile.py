"""``spellstack bench --profile``: the time of the games sorted into components, every recorded
second in exactly one of them, and each component where the run puts it."""

from __future__ import annotations

import pytest

from spellstack.build import compiled_modules
from spellstack.harness import PROFILE_GROUPS as GROUPS
from spellstack.harness import bench_profile, group_of, profile_call


def _table(out: list[str]) -> dict[str, tuple[float, float]]:
    """Seconds and share per component, read back from the printed table."""
    start = next(i for i, line in enumerate(out) if line.startswith("component ")) + 1
    rows = {}
    for line in out[start:start + len(GROUPS) + 1]:
        name, rest = line[:26].strip(), line[26:].split()
        rows[name] = (float(rest[0]), float(rest[1].rstrip("%")))
    return rows


def test_profile_of_the_actors_puts_time_in_codec_channels_and_kernel() -> None:
    out: list[str] = []
    bench_profile(range(1), kernel=False, trace=False, out=out, progress=False)
    rows = _table(out)
    assert list(rows) == [*GROUPS, "total"]
    assert sum(share for name, (_, share) in rows.items() if name != "total") == pytest.approx(
        100, abs=0.5)
    for busy in ("kernel rules", "views", "protocol encode/decode", "trio channels/scheduling",
                 "actors/driver glue", "bots"):
        assert rows[busy][1] > 0, busy
    assert rows["tracer"] == (0.0, 0.0)  # nothing is traced
    assert any(line.startswith("top 15 functions by own time:") for line in out)


def test_profile_of_the_kernel_driver_has_no_codec_and_no_channels() -> None:
    out: list[str] = []
    bench_profile(range(2), kernel=True, trace=False, out=out, progress=False)
    rows = _table(out)
    assert rows["protocol encode/decode"] == rows["trio channels/scheduling"] == (0.0, 0.0)
    assert rows["kernel rules"][1] > 50 and rows["views"][1] > 0
    assert "through the kernel driver" in out[0]


def test_profile_of_a_traced_run_shows_the_tracer() -> None:
    out: list[str] = []
    bench_profile(range(1), kernel=False, trace=True, out=out, progress=False)
    assert _table(out)["tracer"][1] > 0


def test_every_second_recorded_goes_to_one_component() -> None:
    def work() -> None:
        sorted(str(i) for i in range(20_000))  # built-ins and the standard library only

    profile = profile_call(work)
    assert set(profile.groups) == set(GROUPS)
    assert sum(profile.groups.values()) == pytest.approx(profile.total, rel=1e-6)
    # Called from this test, which is in no component: all of it is "other".
    assert profile.groups["other"] == pytest.approx(profile.total, rel=1e-6)


def test_modules_belong_to_their_components() -> None:
    assert group_of(("/x/spellstack/rules/_casting.py", 1, "legal_actions")) == "kernel rules"
    assert group_of(("/x/spellstack/rules/_viewing.py", 1, "view_for")) == "views"
    assert group_of(("/x/spellstack/protocol/_codec.py", 1, "decode")) == "protocol encode/decode"
    assert group_of(("/x/spellstack/protocol/_views.py", 1, "update")) == "views"
    assert group_of(("~", 0, "<built-in method msgpack._cmsgpack.unpackb>")) == (
        "protocol encode/decode")
    assert group_of(("/v/site-packages/trio/_channel.py", 1, "send")) == "trio channels/scheduling"
    assert group_of(("/x/spellstack/actors/_tracer.py", 1, "message")) == "tracer"
    assert group_of(("/x/spellstack/actors/_coordinator.py", 1, "run")) == "actors/driver glue"
    assert group_of(("/x/spellstack/bots/_random.py", 1, "decide")) == "bots"
    # Shared by the kernel and the bots, built-ins, the standard library: the caller's.
    assert group_of(("/x/spellstack/rules/_random.py", 1, "below")) is None
    assert group_of(("~", 0, "<method 'get' of 'dict' objects>")) is None
    assert group_of(("/usr/lib/python3.11/dataclasses.py", 1, "replace")) is None


def test_a_function_of_a_compiled_module_takes_its_module_component() -> None:
    # cProfile names a compiled function as a built-in (the compiled build): its module says
    # whose it is; a built-in of no spellstack module is its caller's (None).
    assert group_of(("~", 0, "<built-in method spellstack.rules.turn._driver.perform>")) == "kernel rules"
    assert group_of(("~", 0, "{built-in method spellstack.protocol._convert.to_wire}")) == (
        "protocol encode/decode")
    assert group_of(("~", 0, "<method 'get' of 'dict' objects>")) is None
    assert group_of(("~", 0, "<built-in method builtins.len>")) is None
    # A method is named by its class alone: a class of a compiled module is that module's.
    compiled = "spellstack.rules.turn._driver" in compiled_modules()
    assert group_of(("~", 0, "<method 'next' of 'GameLoop' objects>")) == (
        "kernel rules" if compiled else None)
