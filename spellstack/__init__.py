"""spellstack: a Magic: The Gathering rules engine run as an actor-based async simulation."""

__version__ = "0.1.0"

__all__ = ["__version__"]
