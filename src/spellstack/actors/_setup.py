"""``GameSetup``: everything one game is set up from but who plays it, as one value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..cards import Deck, load_cards, load_deck
from ..rules import DEFAULT_TURN_LIMIT, CardDefinition, Game, StartSettings, new_game
from ._coordinator import SeatConfig

__all__ = ["GameSetup"]


@dataclass(frozen=True, slots=True)
class GameSetup:
    """One game before it begins: the decks and names by seat, the seed, how it starts, its
    turn limit and each seat's settings. ``build`` makes the ``Game``; the same setup played by
    the same bots is the same game."""

    decks: Sequence[str | Deck]
    """Each seat's deck: a built-in deck's name or a deck file's path (read when the game is
    built: ``load_deck``), or a ``Deck``."""
    seed: int
    """The game's seed: the shuffles and every other random choice of the rules."""
    names: Sequence[str] = ()
    """The players' names by seat; empty: ``p1``, ``p2``, ..."""
    start: StartSettings | None = None
    """None: the first seat plays first and everyone keeps seven cards. Given: the game starts
    as a game of a match does (103.1: a chosen starting player; 103.5: London mulligans)."""
    turn_limit: int = DEFAULT_TURN_LIMIT
    """The game is a draw when this turn ends (0: no limit)."""
    configs: Sequence[SeatConfig] = ()
    """Each seat's settings (deadline, automatic passes, stops); empty: the defaults."""
    bot_seeds: Sequence[int] = ()
    """The seed each seat's bot is built from; empty: ``2 * seed + 1 + seat`` (as ``spellstack
    play`` and the bench seed their random bots)."""
    game_id: str = "g1"
    """The game's name in its messages' trace lines (and a bot process's hello)."""

    def __post_init__(self) -> None:
        n = len(self.decks)
        for field, given in (("names", self.names), ("configs", self.configs), ("bot_seeds", self.bot_seeds)):
            if given and len(given) != n:
                raise ValueError(f"game setup: {n} decks but {len(given)} {field}")
        if self.names and len(set(self.names)) != n:
            raise ValueError(f"game setup: two players have the same name: {list(self.names)}")
        # Stored as tuples: a setup is a value, whatever sequences it was given.
        for field in ("decks", "names", "configs", "bot_seeds"):
            object.__setattr__(self, field, tuple(getattr(self, field)))

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names by seat."""
        return tuple(self.names) or tuple(f"p{i + 1}" for i in range(len(self.decks)))

    @property
    def seat_configs(self) -> tuple[SeatConfig, ...]:
        """Each seat's settings."""
        return tuple(self.configs) or (SeatConfig(),) * len(self.decks)

    def bot_seed(self, seat: int) -> int:
        """The seed seat ``seat``'s bot is built from."""
        return self.bot_seeds[seat] if self.bot_seeds else 2 * self.seed + 1 + seat

    def read_decks(self, cards: Mapping[str, CardDefinition] | None = None) -> tuple[Deck, ...]:
        """Every seat's deck, read (``load_deck``: ``CardDefinitionError`` for one that can't
        be)."""
        unread = any(not isinstance(d, Deck) for d in self.decks)
        pool = cards if cards is not None else load_cards() if unread else {}
        return tuple(d if isinstance(d, Deck) else load_deck(d, pool) for d in self.decks)

    def loaded(self, cards: Mapping[str, CardDefinition] | None = None) -> GameSetup:
        """The same setup with every deck read, so that building it reads no file."""
        return replace(self, decks=self.read_decks(cards))

    def build(self, cards: Mapping[str, CardDefinition] | None = None, *, history: bool = False) -> Game:
        """The game, dealt (``new_game``). ``history``: it keeps every event in
        ``game.history``."""
        cards = load_cards() if cards is None else cards
        decks = self.read_decks(cards)
        game = new_game(cards, [(name, deck.cards) for name, deck in zip(self.players, decks, strict=True)],
                        self.seed, start=self.start, turn_limit=self.turn_limit)
        if history:
            game.history = []
        return game
