"""A random bot that is sent its view with every request, for tests that read or compare the
views a game sends (the built-in random bot reads none when it acts, so its priority requests
carry none)."""

from __future__ import annotations

from spellstack.bots import RandomBot


class ViewingRandomBot(RandomBot):
    """The random bot, sent its view with every request: the same choices, every view sent."""

    views_at_priority = True
