"""A complete game between two users by text, inside asyncio (trio guest mode), and bad input."""

from __future__ import annotations

import asyncio

import pytest

from spellstack.chat import MESSAGE_LIMIT, GameHost, HumanSeat
from spellstack.chat._commands import _split_list
from spellstack.rules import Decision, PlayerView
from tests.chat._driver import Refused, User, scripted_seat

SEED = 6
"""A seed whose game has a spell with a target, a response on the stack, attacks and blocks,
and a question answered by number (gruul against dimir, both users played by ``User``)."""


def test_two_users_play_a_whole_game_by_text() -> None:
    async def main() -> tuple[User, User, object, object]:
        async with GameHost() as host:
            gid = await host.create_game([scripted_seat("alice"), scripted_seat("bob")], ["gruul", "dimir"],
                                         seed=SEED, turn_limit=30)
            alice, bob = User(host, gid, "alice"), User(host, gid, "bob")
            await asyncio.gather(alice.play(), bob.play())
            return alice, bob, host.info(gid), host.engine_game(gid)

    alice, bob, info, game = asyncio.run(main())
    assert {"target", "response", "attack", "block", "number"} <= alice.features | bob.features
    assert "response" in bob.features
    assert info.result is not None and info.result.winner == "bob"  # type: ignore[attr-defined]
    assert info.reason == "bob wins: alice has 0 or less life (704.5a)"  # type: ignore[attr-defined]
    assert game.state.players[0].life <= 0 < game.state.players[1].life  # type: ignore[attr-defined]
    # Every command was one reply, each taken by the engine: the game's decisions are exactly them.
    assert all(answer.startswith("OK") for u in (alice, bob) for _, answer in u.sent)
    assert info.result.decisions == len(alice.sent) + len(bob.sent)  # type: ignore[attr-defined]
    for me, other in ((alice, bob), (bob, alice)):
        assert all(len(t) <= MESSAGE_LIMIT for t in me.told)
        assert any(f"{other.name} casts" in t for t in me.told)  # the public feed
        assert any(f"{me.name} casts" in t and "targeting" in t for u in (alice, bob) for t in u.told)
        assert me.told[-1] == "Game over: bob wins: alice has 0 or less life (704.5a)."
        assert all(f"{other.name} (you)" not in t for t in me.told)  # only one's own view
    assert any("> Your priority" in t for t in alice.told)
    assert any("Declare blockers" in t for t in alice.told + bob.told)


def test_bad_input_gets_one_line_and_changes_nothing() -> None:
    async def main() -> list[str]:
        async with GameHost() as host:
            gid = await host.create_game([HumanSeat("alice"), HumanSeat("bob")], ["gruul", "dimir"],
                                         seed=3, turn_limit=10)
            stream = host.messages(gid, "alice")
            await anext(stream)
            assert (await host.submit(gid, "alice", "play Mountain")).startswith("OK")
            await anext(stream)  # the feed: alice plays Mountain
            await anext(stream)  # asked again, now with a red mana's worth of land
            assert "cast [3] Lightning Bolt" in host.view(gid, "alice")
            game = host.engine_game(gid)
            before = game.state.state_hash()
            decision = host.pending(gid, "alice")
            answers = [await host.submit(gid, "alice", text) for text in
                       ("", "   ", "xyzzy plugh", "cast Counterspell", "cast Giant Spider",
                        "cast Lightning Bolt targeting Mountain", "cast Lightning Bolt targeting carol",
                        "cast Lightning Bolt", "cast Lightning Bolt x=3", "attack with Mountain", "2")]
            answers.append(await host.submit(gid, "bob", "pass"))
            answers.append(await host.submit(gid, "bob", "cast Doom Blade"))
            assert game.state.state_hash() == before
            assert host.pending(gid, "alice") == decision
            assert host.pending(gid, "bob") is None
            hand = await host.submit(gid, "alice", "hand")
            assert "Lightning Bolt" in hand and game.state.state_hash() == before
            await host.concede(gid, "alice")
            assert (await host.wait(gid)).reason.startswith("bob wins")
            return answers

    answers = asyncio.run(main())
    assert all(a and "\n" not in a and len(a) < 300 for a in answers)
    assert answers[0] == answers[1] == "Empty message: type `help` for the commands."
    assert answers[2] == "Unknown command 'xyzzy': type `help` for the commands."
    assert "you have no 'Counterspell' in your hand" in answers[3]
    assert "Giant Spider can't be cast now" in answers[4]
    assert answers[5].startswith("'Mountain' is not a legal target for any target (legal: ")
    assert "bob" in answers[5] and "'carol' is not a legal target" in answers[6]
    assert answers[7].startswith("Lightning Bolt needs any target: add `targeting <name>`")
    assert answers[8] == "Lightning Bolt has no X."
    assert answers[9].startswith("Attackers and blockers are declared when the engine asks")
    assert answers[10].startswith("You have priority, not a question")
    assert answers[11] == answers[12] == ("It is not your turn to act: nothing is asked of you now "
                                          "(`board`, `hand`, `stack` still work).")


def test_a_human_who_times_out_passes_takes_defaults_and_forfeits_after_misses() -> None:
    async def main() -> tuple[object, list[str]]:
        async with GameHost() as host:
            # Real time: the host runs trio in guest mode inside asyncio's loop, which has no
            # clock a test controls; each question is waited out for 0.05 s (0.3 s in all).
            gid = await host.create_game([HumanSeat("alice", time_limit=0.05, max_misses=3),
                                          HumanSeat("bob", time_limit=0.05, max_misses=50)],
                                         ["gruul", "dimir"], seed=3, turn_limit=10)
            told = [t async for t in host.messages(gid, "alice")]
            return await host.wait(gid), told

    info, told = asyncio.run(main())
    assert info.reason == ("bob wins: alice forfeited: alice missed 3 decisions in a row "  # type: ignore[attr-defined]
                           "(time limit 0.05 s)")
    assert info.result.forfeits[0][0] == "alice"  # type: ignore[attr-defined]
    assert "missed 3 decisions in a row" in info.result.forfeits[0][1]  # type: ignore[attr-defined]
    assert len(info.timeouts["alice"]) == 2  # type: ignore[attr-defined]
    # Any other question takes the default answer (bob's cleanup discard, 514.1).
    assert "turn 2 cleanup: choose timed out, the default answer is taken" in info.timeouts["bob"]  # type: ignore[attr-defined]
    assert info.timeouts["alice"][0].endswith("priority timed out, you pass")  # type: ignore[attr-defined]
    assert sum("Time is up" in t for t in told) == 2
    assert "You missed 3 decisions in a row: you forfeit the game." in told


def test_stopping_the_host_ends_every_game_and_tells_the_players() -> None:
    async def main() -> tuple[list[str], object]:
        host = GameHost()
        await host.start()
        gid = await host.create_game([HumanSeat("alice"), HumanSeat("bob")], ["gruul", "dimir"], seed=1)
        stream = host.messages(gid, "alice")
        await anext(stream)
        await host.stop()
        rest = [t async for t in stream]
        return rest, host.info(gid)

    rest, info = asyncio.run(main())
    assert rest == ["Game over: the host stopped, so the game ended with no winner."]
    assert info.reason == "stopped: the host is shutting down" and not info.running  # type: ignore[attr-defined]


class _ByName(User):
    """A user who declares attackers by their names in full, as a person would."""

    def command(self, view: PlayerView, d: Decision) -> str:
        if d.kind == "attackers":
            names = sorted({c.name for c in d.choices if c.group == 0})
            if names:
                self.features.add("attack")
                return "attack with " + ", ".join(names)
        return super().command(view, d)


def _play(users: tuple[type[User], type[User]], seed: int) -> tuple[User, User]:
    async def main() -> tuple[User, User]:
        async with GameHost() as host:
            gid = await host.create_game([scripted_seat("alice"), scripted_seat("bob")], ["orzhov", "orzhov"],
                                         seed=seed, turn_limit=30)
            alice, bob = users[0](host, gid, "alice"), users[1](host, gid, "bob")
            await asyncio.gather(alice.play(), bob.play())
            return alice, bob

    return asyncio.run(main())


COMMA_SEED = 1
"""A seed whose orzhov mirror has alice attack with Isamaru, Hound of Konda and another creature."""


def test_attack_with_a_name_that_holds_a_comma() -> None:
    alice, _ = _play((_ByName, User), COMMA_SEED)
    said = [(command, answer) for command, answer in alice.sent
            if command.startswith("attack with") and "Isamaru, Hound of Konda, " in command]
    assert said, [c for c, _ in alice.sent if c.startswith("attack")]
    # Every one was taken, naming Isamaru in full and each other creature after it.
    for command, answer in said:
        assert answer.startswith("OK: attack with ")
        assert answer.count(",") == command.count(",")
        assert "Isamaru, Hound of Konda" in answer


class _Mumbler(User):
    """A user whose attack is a creature that is not there."""

    def command(self, view: PlayerView, d: Decision) -> str:
        if d.kind == "attackers" and any(c.group == 0 for c in d.choices):
            return "attack with Nobody In Particular"
        return super().command(view, d)


def test_a_refused_command_fails_the_scripted_user_at_once() -> None:
    with pytest.raises(Refused, match=r"alice sent 'attack with Nobody In Particular' for a attackers question: "
                                      r"No creature that can attack 'Nobody In Particular'"):
        _play((_Mumbler, User), COMMA_SEED)


def test_a_list_keeps_whole_the_names_it_is_given_and_splits_the_rest() -> None:
    names = ["Isamaru, Hound of Konda", "Typhoid Rats", "Sword of Fire and Ice"]
    said = "isamaru, hound of konda and Typhoid Rats, sword of fire and ice, #4"
    assert _split_list(said, names) == ["isamaru, hound of konda", "Typhoid Rats", "sword of fire and ice", "#4"]
    # A name cut short is not a whole name: the list splits at its comma.
    assert _split_list("Isamaru, Typhoid Rats", names) == ["Isamaru", "Typhoid Rats"]
    assert _split_list("Isamaru, Hound of Kondai", names) == ["Isamaru", "Hound of Kondai"]
    assert _split_list("a, b and c") == ["a", "b", "c"]
