"""``spellstack chat --vs random`` in a pseudo-terminal: a person's session, start to end."""

from __future__ import annotations

import re

import pytest

from spellstack.cli import _chat as chat_cli
from spellstack.cli import main
from tests.chat._terminal import Terminal


@pytest.mark.slow
def test_a_terminal_session_against_the_random_bot() -> None:
    term = Terminal("chat", "--vs", "random", "--seed", "3")  # LOGNAME ann: the default name
    try:
        term.expect("type `help` for the commands.")
        first = term.expect("> Your priority. You can:")
        assert "Your hand: [1] Giant Spider" in first and "ann (you) | 20 life" in first
        assert "Turn 1, ann's main 1 | ann has priority" in first
        assert "```" not in first  # chat platforms' markup, not a terminal's
        term.expect("ann> ")  # asked: the prompt says so
        term.send("help")
        term.expect("attack with <a>, <b> [at <player>]")
        term.expect("ann> ")  # still asked
        term.send("cast Counterspell")
        term.expect("you have no 'Counterspell' in your hand")
        term.send("play mou")  # a unique prefix
        term.expect("OK: play Mountain.")
        term.expect("> Your priority")
        term.send("cast bolt targeting bot")
        waited = term.expect("OK: cast Lightning Bolt targeting bot.")
        assert "ann> " in waited
        # Not asked while the bot plays its turn: no prompt until the next question.
        between = term.expect("> Your priority")
        assert "ann> " not in between and "```" not in between
        assert "ann's Lightning Bolt resolves" in between
        term.send("board")
        term.expect("graveyard: [10] Lightning Bolt")  # it resolved; the bot took 3
        term.send("concede")
        term.expect("Game over: bot wins: ann conceded (104.3a).")
        assert term.close() == 0
        end = term.out[term.out.index("You concede"):]
        assert end.count("conceded") == 1, end  # the end is told once
        assert "ann> " not in end
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def _command(question: str, sent: list[str]) -> str:
    """What a person types for ``question`` (the last ``> ...`` block shown): a land when one can
    be played, else a pass; the first card for a discard; no attack, no blocks; a look at the
    hand first."""
    land = re.search(r"play \[\d+\] ([^,\n]+)", question)
    if not sent:
        return "hand"
    if question.startswith("> Your priority"):
        return f"play {land.group(1)}" if land else "pass"
    if "attackers" in question:
        return "no attack"
    if "blockers" in question:
        return "no blocks"
    return "1"


@pytest.mark.slow
def test_a_session_with_a_name_against_the_random_bot_as_a_person_reads_it() -> None:
    term = Terminal("chat", "--vs", "random", "--name", "ann", "--seed", "1", login="someone")
    sent: list[str] = []
    try:
        while not (len(sent) >= 10 and "(hand size)" in term.out and " resolves" in term.out):
            assert len(sent) < 60, "no discard to hand size and resolution in 60 commands"
            term.expect("ann> ")
            question = term.out[term.out.rfind("\n> ") + 1:]
            sent.append(_command(question, sent))
            term.send(sent[-1])
        term.expect("ann> ")
        term.send("concede")
        term.expect("Game over: bot wins: ann conceded (104.3a).")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    out = term.out.replace("\r\n", "\n")
    assert {"hand", "pass", "1"} <= set(sent) and any(c.startswith("play ") for c in sent)
    # A prompt when, and only when, a question waits for an answer: each question is followed by
    # one before it is answered, and none comes after an answer until the next question.
    prompts = [m.start() for m in re.finditer(r"ann> ", out)]
    questions = [m.start() for m in re.finditer(r"^> ", out, re.M)]
    answered = [m.start() for m in re.finditer(r"^(OK: |You concede)", out, re.M)]
    assert len(questions) >= 10 and len(answered) >= 10
    for p in prompts:
        assert max(q for q in questions if q < p) > max((a for a in answered if a < p), default=-1), out[:p][-500:]
    for q in questions:
        reply = min((a for a in answered if a > q), default=len(out))
        assert any(q < p < reply for p in prompts), out[q:q + 500]
    assert "```" not in out  # no chat markup in a terminal
    assert "ann (you) | 20 life" in out and "Turn 1, ann's main 1 | ann has priority" in out
    assert "you's" not in out and "someone" not in out
    feed = out.splitlines()
    assert "  bot discards Counterspell (hand size)" in feed  # a discard to hand size
    assert any(re.fullmatch(r"  (ann|bot)'s .+ resolves", line) for line in feed)  # a resolution
    end = out[out.index("You concede"):]
    assert out.count("Game over") == 1 and end.count("conceded") == 1 and "ann> " not in end


@pytest.mark.slow
def test_end_of_input_at_a_question_reads_as_a_concession() -> None:
    term = Terminal("chat", "--vs", "random", "--seed", "3")
    try:
        term.expect("ann> ")
        term.send("\x04")  # Ctrl-D: the end of input
        term.expect("Game over: bot wins: ann conceded (104.3a).")
        assert term.close() == 0
        assert "policy raised" not in term.out
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


@pytest.mark.slow
def test_a_hotseat_session_clears_the_screen_and_hides_the_hand_between_players() -> None:
    term = Terminal("chat", "--hotseat", "--seed", "3", "--turn-limit", "4")
    try:
        first = term.expect("> Your priority. You can:")
        assert "p1 (you)" in first and "Your hand: [1] Giant Spider" in first
        term.expect("p1> ")
        term.send("pass")
        term.expect("Turn 1, p1's main 2")
        term.send("pass")
        # p2 is asked next: the screen is cleared (p1's hand with it) before anything of p2's.
        handover = term.expect("Pass the terminal to p2, then press Enter.")
        assert handover.endswith("\x1b[2J\x1b[HPass the terminal to p2, then press Enter.")
        assert "Typhoid Rats" not in handover  # p2's hand waits for Enter
        term.send("")
        second = term.expect("> Your priority")
        assert "\x1b[2J\x1b[H" in second  # cleared again once p2 pressed Enter
        assert "p2 (you)" in second and "[8] Typhoid Rats" in second
        assert "Giant Spider" not in second  # p1's hand is not shown to p2
        term.expect("p2> ")
        term.send("concede")
        term.expect("Game over")
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one error line of a command line refused before any game starts (exit 2)."""
    code = main(["chat", *args])
    out, err = capsys.readouterr()
    assert code == 2 and not out, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


@pytest.mark.parametrize(("args", "says"), [
    (("--vs", "random", "--name", "ann", "--name", "bob"), "--vs: give --name once (the bot is bot), got 2"),
    (("--name", "ann", "--name", "bob"), "--vs: give --name once"),
    (("--name", ""), "--name is empty"),
    (("--name", "bot"), "--name 'bot': that is the bot's name (bot)"),
    (("--name", "Bot"), "--name 'Bot': that is the bot's name (bot)"),
    (("--name", "a\tb"), "--name 'a\\tb': a name can't hold a control character"),
    (("--name", "a\x1b[2Jb"), "a name can't hold a control character"),
    (("--hotseat", "--name", "ann"), "--hotseat: give --name twice (or not at all), got 1"),
    (("--hotseat", "--name", "ann", "--name", "ann"), "--name 'ann' twice"),
    (("--hotseat", "--name", "Ann", "--name", "ann"), "--name 'Ann' twice"),
], ids=["twice-with-vs", "twice-default-vs", "empty", "bots-name", "bots-name-capital", "tab", "escape",
        "hotseat-once", "hotseat-same", "hotseat-same-but-case"])
def test_bad_names_get_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str) -> None:
    assert says in _error(capsys, *args)


def test_name_given_once_with_vs_names_the_player() -> None:
    assert chat_cli._names(["ann"], hotseat=False) == ["ann", "bot"]
    assert chat_cli._names(None, hotseat=True) == ["p1", "p2"]


@pytest.mark.parametrize(("login", "name"), [("alice", "alice"), ("bot", "player"), ("BOT", "player"), ("", "player"),
                                             ("x\x1by", "player")])
def test_the_default_name_is_the_login_name_else_player(monkeypatch: pytest.MonkeyPatch, login: str,
                                                        name: str) -> None:
    monkeypatch.setattr(chat_cli.getpass, "getuser", lambda: login)
    assert chat_cli._names(None, hotseat=False) == [name, "bot"]


def test_no_login_name_at_all_is_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_user() -> str:
        raise OSError("No username set in the environment")

    monkeypatch.setattr(chat_cli.getpass, "getuser", no_user)
    assert chat_cli._names(None, hotseat=False) == ["player", "bot"]
