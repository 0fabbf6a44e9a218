"""The package's version, in a module of its own so that any layer may read it without
importing the front door (``spellstack/__init__``), which imports the layers."""

__version__ = "0.1.0"
