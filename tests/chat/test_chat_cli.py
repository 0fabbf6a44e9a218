"""``spellstack chat --vs random`` in a pseudo-terminal: a person's session, start to end."""

from __future__ import annotations

from tests.chat._terminal import Terminal


def test_a_terminal_session_against_the_random_bot() -> None:
    term = Terminal("chat", "--vs", "random", "--seed", "3")
    try:
        term.expect("type `help` for the commands.")
        first = term.expect("> Your priority. You can:")
        assert "Your hand: [1] Giant Spider" in first and "you (you) | 20 life" in first
        term.send("help")
        term.expect("attack with <a>, <b> [at <player>]")
        term.send("cast Counterspell")
        term.expect("you have no 'Counterspell' in your hand")
        term.send("play mou")  # a unique prefix
        term.expect("OK: play Mountain.")
        term.expect("> Your priority")
        term.send("cast bolt targeting bot")
        term.expect("OK: cast Lightning Bolt targeting bot.")
        term.send("board")
        term.expect("graveyard: [10] Lightning Bolt")  # it resolved; the bot took 3
        term.send("concede")
        term.expect("Game over: bot wins. bot wins: you conceded (104.3a)")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_a_hotseat_session_clears_the_screen_and_hides_the_hand_between_players() -> None:
    term = Terminal("chat", "--hotseat", "--seed", "3", "--turn-limit", "4")
    try:
        first = term.expect("> Your priority. You can:")
        assert "p1 (you)" in first and "Your hand: [1] Giant Spider" in first
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
        term.send("concede")
        term.expect("Game over")
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
