"""``spellstack cards [--search TEXT]``: the implemented cards with their Oracle text, and the
pool cards not implemented yet; ``spellstack cards --reference``: the card format's reference
page (``docs/card-format.md``), in Markdown."""

from __future__ import annotations

import argparse
import sys

from ..cards import POOL_NAMES, card_format_reference, load_cards
from ..rules import CardDefinition
from ._errors import CommandError

__all__ = ["add_parser", "describe", "type_line"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("cards", help="list the implemented cards with their Oracle text",
                       description="List the cards a deck or scenario can name, with their "
                                   "Oracle text, then the pool cards not implemented yet.")
    p.add_argument("--search", metavar="TEXT", default=None,
                   help="only cards whose name, type line or text contains TEXT (any case)")
    p.add_argument("--reference", action="store_true",
                   help="print the card format's reference page (Markdown: every card key, "
                        "effect verb and registry) instead; redirect it to a file to save it")
    p.set_defaults(run=run)


def type_line(defn: CardDefinition) -> str:
    """``Legendary Creature — Dog``, as printed (205.1a); a token's starts with ``Token``."""
    left = " ".join((*defn.supertypes, *(("Token",) if defn.is_token else ()), *defn.card_types))
    return f"{left} — {' '.join(defn.subtypes)}" if defn.subtypes else left


def describe(defn: CardDefinition) -> list[str]:
    """A card's lines: name and mana cost, type line (with P/T or loyalty), its Oracle text."""
    head = defn.name if defn.mana_cost is None else f"{defn.name}  {defn.mana_cost}"
    if defn.test_only:
        head += "  (test only: for scenarios, never in a deck)"
    kind = type_line(defn)
    if defn.power is not None or defn.toughness is not None or "Creature" in defn.card_types:
        kind += (f"  {'*' if defn.power is None else defn.power}/"
                 f"{'*' if defn.toughness is None else defn.toughness}")
    if defn.loyalty is not None:
        kind += f"  loyalty {defn.loyalty}"
    return [head, f"  {kind}", *(f"  {line}" for line in defn.text.splitlines())]


def _matches(defn: CardDefinition, needle: str) -> bool:
    return any(needle in part.casefold() for part in (defn.name, type_line(defn), defn.text,
                                                       *defn.faces))


def run(args: argparse.Namespace) -> int:
    """Print the cards (``--search``: those matching), tokens after cards, or the card format's
    reference page (``--reference``); exit 0."""
    if args.reference:
        if args.search is not None:
            raise CommandError("--reference prints the whole card format; it takes no --search")
        sys.stdout.write(card_format_reference())
        return 0
    cards = load_cards()
    needle = None if args.search is None else args.search.casefold()
    # Whole cards: a face, half or Adventure is shown within its card's text.
    shown = sorted((d for d in cards.values() if d.card_name in ("", d.name)
                    and (needle is None or _matches(d, needle))),
                   key=lambda d: (d.is_token, d.name))
    for defn in shown:
        lines = describe(defn) if not defn.faces else [
            f"{defn.name}  ({defn.layout})",
            *(f"  {line}" for face in defn.faces for line in describe(cards[face]))]
        print("\n".join(lines) + "\n")
    n_cards = sum(not d.is_token for d in shown)
    counts = f"{n_cards} card{'s' * (n_cards != 1)}, {len(shown) - n_cards} " \
             f"token{'s' * (len(shown) - n_cards != 1)}"
    print(f"{counts} implemented" if needle is None
          else f"{counts} implemented match {args.search!r}")
    for kind, names in (("cards", POOL_NAMES.cards), ("tokens", POOL_NAMES.tokens)):
        missing = sorted(n for n in names
                         if n not in cards and (needle is None or needle in n.casefold()))
        if missing:
            which = "" if needle is None else f" whose name matches {args.search!r}"
            print(f"pool {kind} not implemented yet{which} ({len(missing)}):")
            print("\n".join(f"  {name}" for name in missing))
    return 0
