"""Tests of the optional compiled build (``spellstack.build``)."""
