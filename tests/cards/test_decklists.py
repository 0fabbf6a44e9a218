"""Text decklists: MTG Arena exports and MTGO .txt lists, their sections, and every refusal."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from spellstack.cards import MAX_DECK_SIZE, MIN_DECK_SIZE, load_cards, load_deck, parse_decklist, short_value
from spellstack.rules import CardDefinition, CardDefinitionError

LISTS = Path(__file__).parent / "decklists"
CARDS = load_cards()

RED_GREEN = (("Mountain",) * 11 + ("Forest",) * 11 + ("Raging Goblin",) * 4
             + ("Glistener Elf",) * 4 + ("Young Wolf",) * 4 + ("Grizzly Bears",) * 4
             + ("Hill Giant",) * 4 + ("Giant Spider",) * 4 + ("Lightning Bolt",) * 4
             + ("Giant Growth",) * 4 + ("Monstrous Rage",) * 4 + ("Bonesplitter",) * 2)
"""tests/cards/decklists/red-green.txt's main deck, worked out by hand from the file."""

WHITE_WEENIE = (("Savannah Lions",) * 4 + ("Isamaru, Hound of Konda",) * 4 + ("Soul Warden",) * 4
                + ("Fiend Hunter",) * 4 + ("Kitchen Finks",) * 4 + ("Serra Angel",) * 3
                + ("Raise the Alarm",) * 4 + ("Pacifism",) * 4 + ("Sigarda's Aid",) * 3
                + ("Angelic Destiny",) * 2 + ("Plains",) * 24)
"""tests/cards/decklists/white-weenie.txt's main deck."""

FORTY = "20 Mountain\n20 Forest\n"
"""A main deck of exactly MIN_DECK_SIZE cards."""


def parse(text: str, source: str = "lists/deck.txt") -> tuple[str, tuple[str, ...]]:
    deck = parse_decklist(text, source, CARDS)
    return deck.name, deck.cards


def refused(text: str, cards: Mapping[str, CardDefinition] = CARDS) -> str:
    """The error parsing ``text`` as ``lists/deck.txt`` with ``cards`` gives (it must give one)."""
    with pytest.raises(CardDefinitionError) as err:
        parse_decklist(text, "lists/deck.txt", cards)
    return str(err.value)


def test_the_sizes_the_tests_assume() -> None:
    assert (MIN_DECK_SIZE, MAX_DECK_SIZE) == (40, 10_000)
    assert len(RED_GREEN) == 60 and len(WHITE_WEENIE) == 60


# --- real-looking lists, each with a sideboard ---------------------------------------------


def test_an_arena_export_gives_its_main_deck_and_its_about_name() -> None:
    deck = load_deck(str(LISTS / "red-green.txt"), CARDS)
    assert deck.name == "Red-Green Stompy"
    assert deck.cards == RED_GREEN  # set codes and collector numbers gone, sideboard ignored


def test_an_mtgo_list_gives_the_cards_above_the_blank_line_and_is_named_after_its_file() -> None:
    deck = load_deck(str(LISTS / "white-weenie.txt"), CARDS)
    assert deck.name == "white-weenie"
    assert deck.cards == WHITE_WEENIE
    assert "Pressure Point" not in deck.cards  # the sideboard's


def test_the_same_list_as_arena_and_as_mtgo_is_the_same_deck() -> None:
    arena = "Deck\n20 Mountain (ANA) 63\n20 Forest (ANA) 59\n\nSideboard\n4 Shock (M19) 156\n"
    mtgo = "20 Mountain\n20 Forest\n\n4 Shock\n"
    assert parse(arena) == parse(mtgo) == ("deck", ("Mountain",) * 20 + ("Forest",) * 20)


# --- Arena's sections ------------------------------------------------------------------------


def test_arena_without_the_deck_header_the_lines_before_the_sideboard_are_the_deck() -> None:
    text = "20 Mountain (ANA) 63\n\n\n20 Forest\n\nSideboard\n4 Shock (M19) 156\n"
    # With headers, blank lines only separate: the Forests are main-deck cards.
    assert parse(text) == ("deck", ("Mountain",) * 20 + ("Forest",) * 20)


def test_an_arena_export_without_headers_splits_at_its_blank_line() -> None:
    text = "20 Mountain (ANA) 63\n20 Forest (ANA) 59\n\n4 Shock (M19) 156\n1 Hill Giant (M14) 143\n"
    assert parse(text) == ("deck", ("Mountain",) * 20 + ("Forest",) * 20)


def test_commander_and_companion_sections_are_checked_and_left_out() -> None:
    text = ("Commander\n1 Serra Angel (M10) 39\n\nCompanion\n1 Kitchen Finks (SHM) 229\n\n"
            "Deck\n40 Plains (ANA) 55\n")
    assert parse(text) == ("deck", ("Plains",) * 40)
    wrong = text.replace("Kitchen Finks", "Kitchen Finx")
    assert refused(wrong) == ("lists/deck.txt: line 5 '1 Kitchen Finx (SHM) 229': unknown card "
                              "'Kitchen Finx' (did you mean 'Kitchen Finks'?)")


def test_about_name_is_the_decks_name_and_stays_out_of_the_cards() -> None:
    text = "About\nName Mountains and Forests, 40\n\nDeck\n" + FORTY
    assert parse(text) == ("Mountains and Forests, 40", ("Mountain",) * 20 + ("Forest",) * 20)


def test_headers_in_any_case_and_with_a_colon() -> None:
    text = "DECK:\n20 Mountain\n20 Forest\nsideboard:\n4 Shock\n"
    assert parse(text) == ("deck", ("Mountain",) * 20 + ("Forest",) * 20)
    assert parse("ABOUT\nname  Burn \n" + text)[0] == "Burn"


# --- MTGO's sections ---------------------------------------------------------------------------


def test_an_mtgo_list_may_say_sideboard_instead_of_a_blank_line() -> None:
    assert parse(FORTY + "Sideboard\n4 Shock\n") == parse(FORTY + "\n4 Shock\n")
    assert parse(FORTY + "\nSIDEBOARD:\n4 Shock\n")[1] == ("Mountain",) * 20 + ("Forest",) * 20


def test_blank_lines_before_the_first_card_and_after_the_sideboard_start_nothing() -> None:
    text = "\n\n" + FORTY + "\n4 Shock\n\n2 Naturalize\n\n"
    assert parse(text)[1] == ("Mountain",) * 20 + ("Forest",) * 20


def test_an_mtgo_name_is_taken_as_written() -> None:
    # Only an Arena export has set codes; a line that ends like one makes the list Arena's.
    assert parse("40 Isamaru, Hound of Konda\n")[1] == ("Isamaru, Hound of Konda",) * 40


# --- how the common tools write a list -------------------------------------------------------


@pytest.mark.parametrize("line", ["4 Fire/Ice", "4 Fire / Ice", "4 Fire // Ice", "4 fire // ice",
                                  "4 FIRE//ICE", "4  Fire  /  Ice "])
def test_a_split_card_in_any_spelling_of_its_slash_and_any_case(line: str) -> None:
    assert parse("36 Mountain\n" + line + "\n")[1] == ("Mountain",) * 36 + ("Fire // Ice",) * 4


def test_names_are_matched_ignoring_case_and_repeated_spaces() -> None:
    text = "32 mountain\n4 Lightning  Bolt\n4 ISAMARU,   hound of konda\n"
    assert parse(text)[1] == (("Mountain",) * 32 + ("Lightning Bolt",) * 4
                              + ("Isamaru, Hound of Konda",) * 4)


def test_sb_lines_are_the_sideboard_and_comment_lines_are_skipped() -> None:
    # An Apprentice .dec / Cockatrice list: comments, and SB: before each sideboard card.
    text = "// Lands\n20 Mountain\n// Creatures\n20 Raging Goblin\nSB: 2 Shock\nsb:4 Naturalize\n"
    assert parse(text)[1] == ("Mountain",) * 20 + ("Raging Goblin",) * 20
    assert parse(FORTY + "SB: 2 Shock\n") == parse(FORTY)


def test_an_unknown_card_on_an_sb_line_names_the_line() -> None:
    assert refused(FORTY + "SB: 2 Shcok\n") == ("lists/deck.txt: line 3 'SB: 2 Shcok': unknown card "
                                                 "'Shcok' (did you mean 'Shock'?)")
    assert refused(FORTY + "SB: 0 Shock\n").startswith("lists/deck.txt: line 3 'SB: 0 Shock': the count")


def test_counts_written_with_an_x() -> None:
    assert parse("20x Mountain\n20X Forest\n")[1] == ("Mountain",) * 20 + ("Forest",) * 20


def test_moxfield_foil_and_etched_markers_and_set_codes_are_dropped() -> None:
    text = "16 Mountain (M21) 1 *F*\n20 Forest (ANA) 59 *E*\n4 Shock (m19) 156\n"
    assert parse(text)[1] == ("Mountain",) * 16 + ("Forest",) * 20 + ("Shock",) * 4


def test_an_unknown_card_before_a_marker_names_the_line() -> None:
    assert refused(FORTY + "4 Shcok (M19) 156 *F*\n") == (
        "lists/deck.txt: line 3 '4 Shcok (M19) 156 *F*': unknown card 'Shcok' (did you mean 'Shock'?)")


@pytest.mark.parametrize("header", ["Maybeboard", "MAYBEBOARD:", "Considering", "considering:"])
def test_maybeboard_and_considering_are_left_out(header: str) -> None:
    assert parse(f"Deck\n{FORTY}\n{header}\n4 Shock\n")[1] == ("Mountain",) * 20 + ("Forest",) * 20
    # After an MTGO list's sideboard, the blank line still starts the sideboard.
    assert parse(f"{FORTY}\n4 Shock\n\n{header}\n4 Shock\n")[1] == ("Mountain",) * 20 + ("Forest",) * 20


def test_a_misspelt_card_in_the_maybeboard_is_named() -> None:
    assert refused(f"{FORTY}\nMaybeboard\n4 Shcok\n").startswith("lists/deck.txt: line 5 '4 Shcok': ")


@pytest.mark.parametrize(("line", "card"), [("Giant Killer // Chop Down", "Giant Killer"),
                                            ("giant killer/chop down", "Giant Killer"),
                                            ("Shatterskull Smashing // Shatterskull, the Hammer Pass",
                                             "Shatterskull Smashing"),
                                            ("Invasion of Gobakhan // Lightshield Array",
                                             "Invasion of Gobakhan")])
def test_a_two_faced_card_by_its_full_name(line: str, card: str) -> None:
    assert parse(f"36 Plains\n4 {line}\n")[1] == ("Plains",) * 36 + (card,) * 4


@pytest.mark.parametrize(("name", "front"), [
    ("Shatterskull Smashing // Shatterskull, the Hammer Pas", "Shatterskull Smashing"),
    ("Shatterskull, the Hamer Pass", "Shatterskull Smashing"),
    ("Giant Killer // Chop Dow", "Giant Killer"),
])
def test_a_suggestion_for_a_two_faced_card_names_its_front_face(name: str, front: str) -> None:
    assert refused(f"36 Plains\n4 {name}\n").endswith(f"(did you mean {front!r}?)")


# --- what a text file may look like ------------------------------------------------------------


def test_windows_line_ends_a_byte_order_mark_and_tabs() -> None:
    text = "\ufeff20\tMountain\r\n  20   Forest  \r\n\r\n4 Shock\r\n"
    assert parse(text)[1] == ("Mountain",) * 20 + ("Forest",) * 20
    assert refused("\ufeff20 Mountain\r\n20 Forest\r\n0 Shock\r\n").startswith(
        "lists/deck.txt: line 3 '0 Shock': ")


def test_counts_add_up_and_repeated_names_keep_file_order() -> None:
    text = "10 Mountain\n20 Forest\n10 Mountain\n"
    assert parse(text)[1] == ("Mountain",) * 10 + ("Forest",) * 20 + ("Mountain",) * 10


def test_a_deck_of_exactly_the_largest_size_is_read() -> None:
    assert len(parse(f"{MAX_DECK_SIZE - 1} Forest\n1 Mountain\n")[1]) == MAX_DECK_SIZE


# --- refusals ----------------------------------------------------------------------------------


def test_an_unknown_card_is_named_with_its_line_and_the_close_match() -> None:
    text = "About\nName Burn\n\nDeck\n20 Mountain (ANA) 63\n4 Lightning Blot (M11) 149\n16 Shock\n"
    assert refused(text) == ("lists/deck.txt: line 6 '4 Lightning Blot (M11) 149': unknown card "
                             "'Lightning Blot' (did you mean 'Lightning Bolt'?)")


def test_every_unknown_name_of_a_file_comes_in_one_error_sideboard_included() -> None:
    text = "20 Mountian\n1 The Eldest Reborn\n19 Forest\n\n2 Shcok\n1 Xyzzy Plugh\n"
    # The engine as it was before the card: every pool card is implemented now.
    lacking = {name: d for name, d in CARDS.items() if name != "The Eldest Reborn"}
    assert refused(text, lacking) == (
        "lists/deck.txt: line 1 '20 Mountian': unknown card 'Mountian' (did you mean "
        "'Mountain'?); line 2 '1 The Eldest Reborn': 'The Eldest Reborn' is a pool card not implemented "
        "yet; line 5 '2 Shcok': unknown card 'Shcok' (did you mean 'Shock'?); line 6 "
        "'1 Xyzzy Plugh': unknown card 'Xyzzy Plugh'")


def test_a_file_of_many_unknown_names_lists_ten() -> None:
    text = FORTY + "".join(f"1 Nocard {i}\n" for i in range(25))
    message = refused(text)
    assert message.count("unknown card") == 10 and message.endswith("; and 15 more")
    assert "line 3 '1 Nocard 0'" in message and "line 12 '1 Nocard 9'" in message


def test_a_token_is_refused_as_in_toml_decks() -> None:
    assert refused("36 Plains\n4 Soldier\n") == ("lists/deck.txt: line 2 '4 Soldier': 'Soldier' is "
                                                 "a token, not a card")


@pytest.mark.parametrize(("count", "shown"), [("0", "'0'"), ("0x", "'0x'"), ("4y", "'4y'"),
                                              ("-4", "'-4'"),
                                              ("+4", "'+4'"), ("4.5", "'4.5'"), ("10001", "'10001'"),
                                              ("9" * 5000, short_value("9" * 5000)),
                                              ("٤", "'٤'")])
def test_a_bad_count(count: str, shown: str) -> None:
    message = refused(FORTY + f"{count} Shock\n")
    assert message.endswith(f": the count must be a whole number from 1 to 10,000, not {shown}")
    assert message.startswith("lists/deck.txt: line 3 ")


def test_a_bad_count_in_the_sideboard_is_refused_too() -> None:
    with pytest.raises(CardDefinitionError, match=r"^lists/deck\.txt: line 4 '0 Shock': the count"):
        parse_decklist(FORTY + "\n0 Shock\n", "lists/deck.txt", CARDS)


@pytest.mark.parametrize("line", ["Lightning Bolt", "Lightning Bolt x4", "/ Creatures", "Maybe", "SB:"])
def test_a_line_without_a_count(line: str) -> None:
    assert refused(FORTY + line + "\n") == (f"lists/deck.txt: line 3 {line!r}: a card line starts "
                                            "with its count, '4 Lightning Bolt'")


def test_a_count_with_no_name() -> None:
    assert refused("40\n") == ("lists/deck.txt: line 1 '40': a count with no card name after it "
                               "('4 Lightning Bolt')")


def test_a_long_line_is_cut_in_the_message() -> None:
    message = refused("Lightning " * 1000 + "\n")
    assert len(message) < 200
    assert message.startswith("lists/deck.txt: line 1 'Lightning Lightning")


def test_an_mtgo_dek_file_is_named_for_what_it_is() -> None:
    with pytest.raises(CardDefinitionError, match=r"line 1 '<\?xml version=\"1.0\"\?>': a card line "
                                                  r"starts with its count.*MTGO \.dek file is XML"):
        parse_decklist('<?xml version="1.0"?>\n<Deck>\n', "lists/deck.dek", CARDS)


def test_too_few_cards() -> None:
    with pytest.raises(CardDefinitionError,
                       match=r"^lists/deck\.txt: the main deck has 39 cards; at least 40$"):
        parse_decklist("Deck\n39 Forest\nSideboard\n15 Shock\n", "lists/deck.txt", CARDS)


@pytest.mark.parametrize("text", ["10 Forest\n", "10 Forest\n\n\n", "Deck\n10 Forest\n\nSideboard\n4 Shock\n",
                                  "10 Forest\nSB: 4 Shock\n", "10 Forest\n\n// the sideboard\n"])
def test_too_few_cards_says_nothing_of_a_blank_line_with_no_cards_after_it(text: str) -> None:
    assert refused(text) == "lists/deck.txt: the main deck has 10 cards; at least 40"


def test_too_few_cards_says_when_a_blank_line_made_the_rest_a_sideboard() -> None:
    assert refused("20 Forest\n\n20 Mountain\n4 Shock\n") == (
        "lists/deck.txt: the main deck has 20 cards; at least 40 (a blank line ends the main "
        "deck: the 24 cards after it are the sideboard)")


def test_too_many_cards_names_the_line_that_passes_the_limit() -> None:
    assert refused(f"{MAX_DECK_SIZE} Forest\n1 Mountain\n") == (
        "lists/deck.txt: line 2 '1 Mountain': the main deck has more than 10,000 cards")


def test_the_sideboard_does_not_count_towards_the_limit() -> None:
    assert len(parse(f"{MAX_DECK_SIZE} Forest\n\n{MAX_DECK_SIZE} Mountain\n")[1]) == MAX_DECK_SIZE


@pytest.mark.parametrize("text", ["", "\n\n", "  \r\n\t\n", "\ufeff"])
def test_an_empty_file(text: str) -> None:
    assert refused(text) == ("lists/deck.txt: empty: a decklist has a line per card, "
                             "'4 Lightning Bolt'")


def test_only_headers_is_a_deck_of_no_cards() -> None:
    assert refused("Deck\n\nSideboard\n") == "lists/deck.txt: the main deck has 0 cards; at least 40"


@pytest.mark.parametrize(("about", "line", "reason"), [
    ("About\nName\n", "line 2 'Name'", "a 'Name' line with no name after it"),
    ("About\nName A\nName B\n", "line 3 'Name B'", "a second 'Name' line"),
    ("About\n40 Forest\n", "line 2 '40 Forest'", "under About, only a 'Name' line (is a 'Deck' "
                                                 "line missing?)"),
    ("About\nAuthor Me\n", "line 2 'Author Me'", "under About, only a 'Name' line (is a 'Deck' "
                                                 "line missing?)"),
])
def test_about_holds_one_name(about: str, line: str, reason: str) -> None:
    assert refused(about + "\nDeck\n" + FORTY) == f"lists/deck.txt: {line}: {reason}"


# --- through load_deck -------------------------------------------------------------------------


def test_a_file_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(b"20 Mountain\n20 For\xeat\n")
    with pytest.raises(CardDefinitionError, match=r"deck\.txt: a deck file must be UTF-8 text "
                                                  r"\(byte 18 is not\)$"):
        load_deck(str(path), CARDS)


def test_a_utf16_file_is_read_by_its_byte_order_mark(tmp_path: Path) -> None:
    text = "About\r\nName Notepad\r\n\r\nDeck\r\n20 Mountain\r\n20 Forest\r\n"
    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
        bom = "\ufeff" if encoding != "utf-16" else ""
        (tmp_path / "deck.txt").write_bytes((bom + text).encode(encoding))
        deck = load_deck(str(tmp_path / "deck.txt"), CARDS)
        assert (deck.name, deck.cards) == ("Notepad", ("Mountain",) * 20 + ("Forest",) * 20)


def test_a_utf8_byte_order_mark_with_windows_line_ends(tmp_path: Path) -> None:
    (tmp_path / "deck.txt").write_bytes(("\ufeff" + FORTY.replace("\n", "\r\n")).encode())
    assert load_deck(str(tmp_path / "deck.txt"), CARDS).cards == ("Mountain",) * 20 + ("Forest",) * 20


def test_utf16_without_its_byte_order_mark_must_be_utf8(tmp_path: Path) -> None:
    (tmp_path / "deck.txt").write_bytes(FORTY.encode("utf-16-le"))
    with pytest.raises(CardDefinitionError, match=r"deck\.txt: a deck file must be UTF-8 text "):
        load_deck(str(tmp_path / "deck.txt"), CARDS)


def test_a_broken_utf16_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "deck.txt").write_bytes("\ufeff20 Mountain\n".encode("utf-16-le") + b"\x00\xd8")
    with pytest.raises(CardDefinitionError, match=r"deck\.txt: a deck file must be UTF-16 text after "
                                                  r"its byte-order mark \(byte \d+ is not\)$"):
        load_deck(str(tmp_path / "deck.txt"), CARDS)


def test_any_file_not_ending_toml_is_a_text_list(tmp_path: Path) -> None:
    for name in ("burn", "burn.dec", "burn.txt"):
        (tmp_path / name).write_text(FORTY, "utf-8")
        deck = load_deck(str(tmp_path / name), CARDS)
        assert (deck.name, len(deck.cards)) == ("burn", 40)


def test_a_toml_file_stays_toml_and_toml_named_txt_is_a_bad_list(tmp_path: Path) -> None:
    toml = 'name = "green"\n[cards]\n"Forest" = 40\n'
    for name in ("green.toml", "green.TOML"):
        (tmp_path / name).write_text(toml, "utf-8")
        assert load_deck(str(tmp_path / name), CARDS).cards == ("Forest",) * 40
    (tmp_path / "green.txt").write_text(toml, "utf-8")
    with pytest.raises(CardDefinitionError, match=re.escape(
            "green.txt: line 1 'name = \"green\"': a card line starts with its count")):
        load_deck(str(tmp_path / "green.txt"), CARDS)


def test_errors_name_the_file_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("lists").mkdir()
    Path("lists/mine.txt").write_text("4 Grizly Bears\n", "utf-8")
    with pytest.raises(CardDefinitionError, match=re.escape(
            "lists/mine.txt: line 1 '4 Grizly Bears': unknown card 'Grizly Bears' (did you mean "
            "'Grizzly Bears'?)")):
        load_deck("lists/mine.txt", CARDS)
