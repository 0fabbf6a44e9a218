"""The effect-verb registry stays general, and broken card and deck files fail at load time
with an error naming the file, the card and the field."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from spellstack.cards import DECKS, load_card_file, load_cards, load_deck
from spellstack.rules import EFFECT_VERBS, CardDefinition, CardDefinitionError, Effect

CARDS: Mapping[str, CardDefinition] = load_cards()

# Verbs used by a single card today. Each must be a keyword action or a general game action
# that other cards will share, never one card's special case.
SINGLE_USE_ALLOWED: dict[str, str] = {
    "add_mana_of_any_color": "106.3: \"add one mana of any color\" is the general wording of mana "
                             "abilities (Treasure's, 111.10a), not one card's",
    "win_game": "104.2b: an effect that says a player wins the game is a general game action",
    "counter": "701.5: counter is a keyword action",
    "if_paid": "702.33d: whether an optional or alternative cost was paid is a question any "
               "spell with such a cost may ask (kicked, evoked, dashed)",
    "shuffle": "701.20: shuffle is a keyword action",
    "discard": "701.8: discard is a keyword action",
    "destroy": "701.7: destroy is a keyword action",
    "put_counters": "122.1: putting counters on objects is a general primitive",
    "add_abilities": "613.1f: gaining abilities for a time is the general layer 6 effect, the one "
                     "static abilities use too",
    "delayed_trigger": "603.7: creating a delayed triggered ability is a general primitive",
    "gain_life": "119.3: gaining life is a general life-total change",
    "lose_life": "119.3: losing life is a general life-total change",
    "regenerate": "701.15: regenerate is a keyword action",
    "prevent_damage": "615.7: preventing the next N damage is a general prevention effect",
    "set_life": "119.5: a life total becoming a number is a general life-total change",
    "shuffle_into_library": "701.20: shuffling cards into a library is a keyword action",
    "tap": "701.26: tap is a keyword action",
    "venture": "701.49: venture into the dungeon is a keyword action",
    "scry": "701.22: scry is a keyword action",
    "return_exiled": "607.2a: returning the cards a linked ability exiled is a general primitive",
    "gain_protection": "702.16: gaining protection from a quality chosen on resolution is a "
                       "general ability-granting primitive",
    "any_player_may": "101.4: an option each player is offered in APNAP order (punisher "
                      "effects) is a general primitive",
    "sacrifice": "701.21: sacrifice is a keyword action",
    "discard_hand": "701.8: discarding a whole hand is the discard keyword action",
    "gain_control": "613.1b: a control-changing effect is a layer primitive (613)",
    "cant_block": "613.11: with 509.1b, \"can't block this turn\" is a general rule-changing effect "
                  "of resolved spells and abilities",
    "choose_card": "608.2d: choosing a card of some kind from a zone as an ability resolves "
                   "(\"you may exile an instant card ... from your hand\") is a general "
                   "primitive that later instructions act on",
    "copy_card": "707.12: copying a card so as to cast the copy is a general game action",
    "mill": "701.13: mill is a keyword action",
    "cast_as_though_flash": "702.8a: with 613.11, a resolved effect letting players cast spells of a "
                            "kind as though they had flash for a while is a general "
                            "rule-changing effect (the permission static abilities also give)",
    "players_sacrifice": "608.2e: each player sacrificing permanents of their choice, chosen in "
                         "APNAP order and then sacrificed at once, is the sacrifice keyword "
                         "action (701.21) as a multi-player step",
    "for_each": "608.2f: doing instructions to each of several players or objects in turn, in the "
                "order the controller chooses, is a general primitive",
    "exile_top": "406.3: exiling the top card of a library is a general zone change",
    "may_play": "601.2a: with 613.11, a resolved effect letting a player play cards in exile for a "
                "while is a general rule-changing effect (impulse draw)",
}


def effects_of(defn: CardDefinition) -> Iterator[Effect]:
    """Every effect of a card's abilities (not intervening-if conditions)."""
    if defn.spell is not None:
        yield from defn.spell.effects
    for activated in defn.activated:
        yield from activated.effects
    for triggered in defn.triggered:
        yield from triggered.effects
    for replacement in defn.replacements:
        yield from replacement.effects


def walk(effects: Iterator[Effect] | tuple[Effect, ...]) -> Iterator[Effect]:
    """Effects and, recursively, effects nested in their arguments (delayed triggers)."""
    for eff in effects:
        yield eff
        for _, inner in eff.nested():
            yield from walk(inner)


def verb_users(cards: Mapping[str, CardDefinition]) -> dict[str, set[str]]:
    users: dict[str, set[str]] = defaultdict(set)
    for name, defn in cards.items():
        for eff in walk(effects_of(defn)):
            users[eff.verb].add(name)
    return users


USERS = verb_users(CARDS)


def test_walk_finds_nested_effects() -> None:
    # Wall of Tears returns the creature from inside a delayed trigger.
    assert "put_into_zone" in {e.verb for e in walk(effects_of(CARDS["Wall of Tears"]))}
    assert "Wall of Tears" in USERS["delayed_trigger"]
    assert "Wall of Tears" in USERS["put_into_zone"]


def test_no_verb_is_one_cards_special_case() -> None:
    single = {verb: sorted(names) for verb, names in USERS.items() if len(names) == 1}
    unexplained = {verb: names for verb, names in single.items()
                   if verb not in SINGLE_USE_ALLOWED}
    assert not unexplained, (
        f"verbs used by only one card (make them general or justify them): {unexplained}")


def test_allow_list_names_registered_verbs() -> None:
    unknown = sorted(set(SINGLE_USE_ALLOWED) - set(EFFECT_VERBS))
    assert not unknown, f"allow-list entries that are not registered verbs: {unknown}"
    assert all(re.match(r"\d{3}\.\d+[a-z]?: ", why) for why in SINGLE_USE_ALLOWED.values())


def test_every_used_verb_is_registered() -> None:
    assert USERS, "no card uses any verb"
    unregistered = sorted(set(USERS) - set(EFFECT_VERBS))
    assert not unregistered, f"verbs used by cards but not in EFFECT_VERBS: {unregistered}"


def test_every_registered_verb_cites_a_rule() -> None:
    for verb, cls in EFFECT_VERBS.items():
        assert cls.verb == verb
        assert re.fullmatch(r"\d{3}\.\d+[a-z]?", cls.rule), (verb, cls.rule)
        # The class's own docstring (a dataclass without one gets its signature instead).
        assert cls.__doc__ and cls.rule in cls.__doc__, (verb, cls.__doc__)


# ---------------------------------------------------------------------- broken card files

GOOD = '''
[[card]]
name = "Grizzly Bears"
cost = "{1}{G}"
type = "Creature — Bear"
pt = "2/2"
'''

BROKEN: dict[str, tuple[str, str, str]] = {
    # case: (card tables after a good card, broken card's name, regex for field and problem)
    "unknown verb": ('''
[[card]]
name = "Bad Bolt"
cost = "{R}"
type = "Instant"
text = "Bad Bolt teleports."
spell.effects = [{ verb = "teleport" }]
''', "Bad Bolt", r"spell\.effects\[0\]: unknown verb 'teleport'"),
    "unknown verb nested in a delayed trigger": ('''
[[card]]
name = "Bad Wall"
cost = "{1}{U}"
type = "Creature — Wall"
pt = "0/4"
text = "Whenever Bad Wall blocks a creature, it vanishes at end of combat."
  [[card.triggered]]
  event = "blocks"
  effects = [{ verb = "delayed_trigger", at = "end_of_combat", effects = [{ verb = "vanish" }] }]
''', "Bad Wall", r"triggered\[0\]\.effects\[0\]\.effects\[0\]: unknown verb 'vanish'"),
    "unknown argument": ('''
[[card]]
name = "Bad Divination"
cost = "{2}{U}"
type = "Sorcery"
text = "Draw two cards."
spell.effects = [{ verb = "draw", amount = 2, colour = "blue" }]
''', "Bad Divination", r"spell\.effects\[0\]\.colour: verb 'draw' takes no argument 'colour'"),
    "missing required argument": ('''
[[card]]
name = "Bad Shock"
cost = "{R}"
type = "Instant"
text = "Bad Shock deals 2 damage."
spell.effects = [{ verb = "deal_damage", amount = 2 }]
''', "Bad Shock", r"spell\.effects\[0\]: verb 'deal_damage' needs argument 'to'"),
    "bad argument value": ('''
[[card]]
name = "Bad Ritual"
cost = "{B}"
type = "Instant"
text = "Add purple."
spell.effects = [{ verb = "add_mana", mana = "P" }]
''', "Bad Ritual", r"spell\.effects\[0\]\.mana: 'P' is not a valid mana"),
    "bad mana cost": ('''
[[card]]
name = "Bad Cost"
cost = "{Q}"
type = "Creature — Bear"
pt = "2/2"
''', "Bad Cost", r"cost: .*\{Q\}"),
    "bad type line": ('''
[[card]]
name = "Bad Type"
cost = "{G}"
type = "Kreature — Bear"
pt = "2/2"
''', "Bad Type", r"type: 'Kreature — Bear': unknown card type 'Kreature'"),
    "creature without pt": ('''
[[card]]
name = "Bad Body"
cost = "{G}"
type = "Creature — Bear"
''', "Bad Body", r"pt: a creature needs power/toughness"),
    "malformed pt": ('''
[[card]]
name = "Bad Body"
cost = "{G}"
type = "Creature — Bear"
pt = "two/2"
''', "Bad Body", r"pt: expected 'P/T'"),
    "unknown target kind": ('''
[[card]]
name = "Bad Target"
cost = "{R}"
type = "Instant"
text = "Bad Target deals 3 damage to target planet."
spell.targets = [{ kind = "planet" }]
spell.effects = [{ verb = "deal_damage", amount = 3, to = "target" }]
''', "Bad Target", r"spell\.targets\[0\]\.kind: unknown target kind 'planet'"),
    "unknown keyword": ('''
[[card]]
name = "Bad Knight"
cost = "{W}"
type = "Creature — Knight"
pt = "2/2"
text = "Flanking"
keywords = ["flanking"]
''', "Bad Knight", r"keywords\[0\]: unknown keyword 'flanking'"),
    "unknown trigger event": ('''
[[card]]
name = "Bad Trigger"
cost = "{G}"
type = "Creature — Elf"
pt = "1/1"
text = "Whenever Bad Trigger sneezes, draw a card."
  [[card.triggered]]
  event = "sneezes"
  effects = [{ verb = "draw", amount = 1 }]
''', "Bad Trigger", r"triggered\[0\]\.event: unknown trigger event 'sneezes'"),
    "unknown card field": ('''
[[card]]
name = "Bad Field"
cost = "{G}"
type = "Creature — Elf"
pt = "1/1"
flavour = "Tasty."
''', "Bad Field", r"unknown field 'flavour' for CardTable"),
    "instant without a spell ability": ('''
[[card]]
name = "Bad Instant"
cost = "{U}"
type = "Instant"
text = "Nothing."
''', "Bad Instant", r"spell: an instant or sorcery needs a spell ability"),
}


def write(tmp_path: Path, text: str, name: str = "broken.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def test_the_good_card_loads(tmp_path: Path) -> None:
    # The broken files below are this good card plus one broken card.
    cards = load_card_file(write(tmp_path, GOOD))
    assert list(cards) == ["Grizzly Bears"]
    assert cards["Grizzly Bears"] == CARDS["Grizzly Bears"]


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_card_names_file_card_and_field(case: str, tmp_path: Path) -> None:
    tables, card, field_and_problem = BROKEN[case]
    path = write(tmp_path, GOOD + tables)
    pattern = f"^{re.escape(str(path))}: card {re.escape(repr(card))}: {field_and_problem}"
    with pytest.raises(CardDefinitionError, match=pattern):
        load_card_file(path)


ELF = 'name = "Bad Elf"\ncost = "{G}"\ntype = "Creature — Elf"\npt = "1/1"\ntext = "Flying"\n'


# (fields after ELF's, regex for the field and problem). Malformed structure must give the same
# clear CardDefinitionError as a bad value, never a Python exception or a silent misreading.
MALFORMED = [
    pytest.param('activated = [1]\n', r"activated\[0\]", id="activated entry not a table"),
    pytest.param('triggered = [1]\n', r"triggered\[0\]", id="triggered entry not a table"),
    pytest.param('color = 5\n', r"color", id="color not a string"),
    pytest.param('keywords = 5\n', r"keywords", id="keywords not a list"),
    pytest.param('loyalty = "four"\n', r"loyalty", id="loyalty not a number"),
    pytest.param('triggered = [{ event = ["enters"], effects = [{ verb = "draw" }] }]\n',
                 r"triggered\[0\]\.event", id="event not a string"),
    pytest.param('triggered = [{ event = "enters", text = 5, effects = [{ verb = "draw" }] }]\n',
                 r"triggered\[0\]\.text", id="ability text not a string"),
    pytest.param('triggered = [{ event = "enters", targets = [{ kind = "creature", '
                 'not_colors = 5 }], effects = [{ verb = "draw" }] }]\n',
                 r"triggered\[0\]\.targets\[0\]", id="not_colors not a list"),
    pytest.param('triggered = [{ event = "enters", condition = { test = "life_at_least" }, '
                 'effects = [{ verb = "draw" }] }]\n',
                 r"triggered\[0\]\.condition", id="condition without its amount"),
    pytest.param('activated = [{ cost = "{1}", sorcery_speed = "no", '
                 'effects = [{ verb = "draw" }] }]\n',
                 r"activated\[0\]\.sorcery_speed", id="sorcery_speed not a boolean"),
    pytest.param('triggered = [{ event = "enters", effects = [{ verb = "deal_damage", '
                 'amount = 1, to = "target" }] }]\n',
                 r"triggered\[0\]\.effects\[0\]\.to", id="target word without a target"),
    pytest.param('triggered = [{ event = "enters", effects = [{ verb = "draw", amount = 1.5 }] }]'
                 '\n', r"triggered\[0\]\.effects\[0\]\.amount", id="fractional amount"),
    pytest.param('triggered = [{ event = "beginning_of_step", step = "teatime", '
                 'effects = [{ verb = "draw" }] }]\n', r"triggered\[0\]\.step: unknown step",
                 id="unknown step"),
    pytest.param('triggered = [{ event = "enters", condition = { test = "is_tuesday" }, '
                 'effects = [{ verb = "draw" }] }]\n', r"triggered\[0\]\.condition: unknown",
                 id="unknown condition"),
    pytest.param('activated = [{ cost = "{Q}, {T}", effects = [{ verb = "draw" }] }]\n',
                 r"activated\[0\]\.cost: .*\{Q\}", id="bad ability cost"),
    pytest.param('triggered = [{ event = "enters", text = "Draw a card.", '
                 'effects = [{ verb = "draw" }] }]\n', r"triggered\[0\]\.text: "
                 r"'Draw a card\.' is not part of the card's Oracle text", id="misquoted text"),
    pytest.param('triggered = [{ event = "enters", targets = [{ kind = "creature", min = 2, '
                 'max = 1 }], effects = [{ verb = "draw" }] }]\n',
                 r"triggered\[0\]\.targets\[0\]: bad min/max", id="min above max"),
]


@pytest.mark.parametrize(("fields", "field_and_problem"), MALFORMED)
def test_malformed_card_names_file_card_and_field(fields: str, field_and_problem: str,
                                                  tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "\n[[card]]\n" + ELF + fields)
    pattern = f"^{re.escape(str(path))}: card 'Bad Elf': {field_and_problem}"
    with pytest.raises(CardDefinitionError, match=pattern):
        load_card_file(path)


def test_card_table_that_is_not_a_table_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "card = [1]\n")
    with pytest.raises(CardDefinitionError, match=f"^{re.escape(str(path))}: "):
        load_card_file(path)


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + '[[card]]\nname = "Unclosed\n')
    with pytest.raises(CardDefinitionError, match=f"^{re.escape(str(path))}: .*at line 8"):
        load_card_file(path)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(CardDefinitionError, match=f"^{re.escape(str(path))}: "):
        load_card_file(path)


def test_duplicate_card_names_file_and_card(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + GOOD)
    with pytest.raises(CardDefinitionError,
                       match=f"^{re.escape(str(path))}: card 'Grizzly Bears' is defined twice"):
        load_card_file(path)


def test_card_and_token_with_one_name_is_a_duplicate(tmp_path: Path) -> None:
    token = '[[token]]\nname = "Grizzly Bears"\ntype = "Token Creature — Bear"\npt = "2/2"\n'
    path = write(tmp_path, GOOD + token)
    with pytest.raises(CardDefinitionError, match="'Grizzly Bears' is defined twice"):
        load_card_file(path)


def test_unknown_top_level_table_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + '[[cards]]\nname = "Typo"\n')
    with pytest.raises(CardDefinitionError,
                       match=f"^{re.escape(str(path))}: unknown field 'cards' for DataFile"):
        load_card_file(path)


# ---------------------------------------------------------------------- decks


@pytest.mark.parametrize("deck", DECKS)
def test_builtin_deck_has_60_known_cards(deck: str) -> None:
    loaded = load_deck(deck, CARDS)
    assert loaded.name == deck
    assert len(loaded.cards) == 60
    unknown = sorted({c for c in loaded.cards if c not in CARDS or CARDS[c].is_token})
    assert not unknown, f"deck {deck!r} names unknown cards or tokens: {unknown}"


@pytest.mark.parametrize("deck", DECKS)
def test_builtin_deck_has_at_most_four_of_a_card(deck: str) -> None:
    # 100.2a: at most four copies of any card other than basic lands.
    loaded = load_deck(deck, CARDS)
    over = {c: loaded.cards.count(c) for c in set(loaded.cards)
            if loaded.cards.count(c) > 4 and "Basic" not in CARDS[c].supertypes}
    assert not over


def test_there_are_builtin_decks() -> None:
    assert len(DECKS) >= 2


DECK_HEAD = 'name = "homebrew"\n\n[cards]\n"Forest" = 24\n"Grizzly Bears" = 32\n'


def test_a_deck_file_loads(tmp_path: Path) -> None:
    path = write(tmp_path, DECK_HEAD + '"Giant Growth" = 4\n', "homebrew.toml")
    deck = load_deck(str(path), CARDS)
    assert deck.name == "homebrew"
    assert len(deck.cards) == 60
    assert deck.cards.count("Giant Growth") == 4


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('"Black Lotus" = 4', r"unknown card 'Black Lotus'$"),  # nothing close to it
        ('"Grizly Bears" = 4', r"unknown card 'Grizly Bears' \(did you mean 'Grizzly Bears'\?\)$"),
        ('"The Eldest Reborn" = 4', r"'The Eldest Reborn' is a pool card not implemented yet$"),
        ('"Soldier" = 4', r"'Soldier' is a token, not a card$"),
        ('"Giant Growth" = 0', r"cards\['Giant Growth'\]: expected 1 or more, got 0$"),
        ('"Giant Growth" = -1', r"cards\['Giant Growth'\]: expected 1 or more, got -1$"),
        ('"Giant Growth" = "four"', r"cards\['Giant Growth'\]: expected int, got str 'four'$"),
        ('"Giant Growth" = 2.5', r"cards\['Giant Growth'\]: expected int, got float 2.5$"),
        ('"Giant Growth" = true', r"cards\['Giant Growth'\]: expected int, got bool True$"),
    ],
)
def test_bad_deck_file_names_deck_and_card(line: str, problem: str, tmp_path: Path) -> None:
    path = write(tmp_path, DECK_HEAD + line + "\n", "homebrew.toml")
    with pytest.raises(CardDefinitionError,
                       match=f"^{re.escape(str(path))}: deck 'homebrew': {problem}"):
        # The engine as it was before The Eldest Reborn: every pool card is implemented now.
        load_deck(str(path), {name: d for name, d in CARDS.items() if name != "The Eldest Reborn"})


def test_small_deck_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "tiny"\n[cards]\n"Forest" = 39\n', "tiny.toml")
    with pytest.raises(CardDefinitionError, match="deck 'tiny' has 39 cards; at least 40"):
        load_deck(str(path), CARDS)


def test_unknown_deck_name_is_refused() -> None:
    with pytest.raises(CardDefinitionError, match="no built-in deck or deck file 'selesnya'"):
        load_deck("selesnya", CARDS)
