"""Tournaments of bots: games of matches (103), formats, standings, results that survive a
crash, many processes."""

from ._games import BotFactory, GameRow, GameSpec, Seat, derive_seed, play_spec

__all__ = ["BotFactory", "GameRow", "GameSpec", "Seat", "derive_seed", "play_spec"]
