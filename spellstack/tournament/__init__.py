"""Tournaments of bots: many games between entrants, played to standings that can be trusted.

A tournament package holds three things:

- the entrants: a bot (a built-in one, or a Python class named by ``module:Class`` or
  ``path/to/file.py:Class``) and a deck (a built-in deck, a TOML deck file, an MTG Arena or
  MTGO decklist), each bot built afresh for every game from a seed;
- the formats: round robin and Swiss pairings, byes, match points and the tiebreakers of the
  Magic Tournament Rules (MTR), per-pair statistics and ratings;
- the runner: best-of-N matches whose games start as the Comprehensive Rules say for a
  match (103: who chooses the starting player, London mulligans), every finished game kept
  in a results database, a tournament resumed after a crash, games spread over processes.

It sits beside the harness, above the actors, bots, cards, protocol and rules whose public
names it uses; the command line (``spellstack.cli``) calls it.
"""

from ._entrants import (
    BUILT_IN_BOTS,
    BotFactory,
    Entrant,
    EntrantError,
    built_in_entrants,
    load_bot,
    parse_entrant,
)

__all__ = ["BUILT_IN_BOTS", "BotFactory", "Entrant", "EntrantError", "built_in_entrants",
           "load_bot", "parse_entrant"]
