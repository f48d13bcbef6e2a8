"""Mixed games as data (RULEBOOK §9): CUSTOM_MIXED, official HORSE and 8-Game.

A :class:`Rotation` is a list of games, a number of hands per game and one
table stake. The table numbers the hands it deals from 0 and asks the rotation
three questions about hand ``n``: which game (:meth:`Rotation.game_for`, a full
:class:`~cardroom.games.TableConfig`), whether the button moves before it
(:meth:`Rotation.button_moves`), and what to tell players
(:meth:`Rotation.current_and_next`). The game changes only between hands.

**Stakes from one table stake.** A mixed table is advertised by its limit
``small_bet`` (a "20/40 HORSE" table has ``small_bet=20``). Each game's forced
bets and sizes are derived from it, so the big blind is the same in every
blind game and the table's buy-in limits (multiples of the big blind) hold for
all of them:

- fixed-limit blind games (Hold'em, Omaha Hi-Lo, 2-7 Triple Draw):
  ``Stakes.limit(small_bet)``: blinds ``small_bet // 2`` / ``small_bet``, bets
  ``small_bet`` / ``2 * small_bet``;
- the stud family (Stud, Stud Hi-Lo, Razz): bets ``small_bet`` / ``2 * small_bet``,
  ante ``max(1, small_bet // 8)`` and the bring-in of every stud table, half the
  small bet (§4; a 20/40 game: ante 2, bring-in 10);
- no-limit and pot-limit blind games: blinds ``small_bet // 2`` / ``small_bet``;
- Short Deck: ante ``max(1, small_bet // 2)`` and a button blind of ``small_bet``.

Every configuration of a rotation has the same ``max_seats``: the smallest seat
limit of its games (8 with stud in the rotation, 6 with 2-7 Triple Draw), so the
table's seats fit every hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardroom.games import (
    FIXED_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    ConfigError,
    Stakes,
    TableConfig,
    get_variant,
)
from cardroom.games.betting import STRUCTURE_RULES

CUSTOM_MIXED: Final = "CUSTOM_MIXED"
HORSE: Final = "HORSE"
EIGHT_GAME: Final = "8-Game"
KINDS: Final = (CUSTOM_MIXED, HORSE, EIGHT_GAME)
"""Rotation kinds; each is also the rotation's lobby badge (RULEBOOK §9, §12)."""

DEFAULT_HANDS_PER_GAME: Final = 8

CUSTOM_MIXED_GAMES: Final = (
    "holdem",
    "omaha",
    "plo5",
    "omaha_hi_lo",
    "short_deck",
    "stud",
    "stud_hi_lo",
)
"""The games an operator may put in a CUSTOM_MIXED rotation (seed 004)."""

CUSTOM_MIXED_DEFAULT: Final = ("holdem", "omaha", "omaha_hi_lo", "stud", "stud_hi_lo", "short_deck")
"""The default CUSTOM_MIXED order (RULEBOOK §9)."""

STRUCTURE_ABBREVIATIONS: Final[Mapping[str, str]] = {
    name: rules.label for name, rules in STRUCTURE_RULES.items()
}
"""How a betting structure is written in a badge (``NL Hold'em``, ``FL Stud``): the
engine's label of each structure."""

_SHORT_TITLES: Final[Mapping[str, str]] = {
    "holdem": "Hold'em",
    "stud": "Stud",
    "short_deck": "Short Deck",
}


def game_label(game: str, structure: str) -> str:
    """A game as players read it: the structure's abbreviation, then the game.

    >>> game_label("holdem", "no_limit"), game_label("stud", "fixed_limit")
    ("NL Hold'em", 'FL Stud')
    """
    title = _SHORT_TITLES.get(game) or get_variant(game).title
    return f"{STRUCTURE_ABBREVIATIONS[structure]} {title}"


def config_label(config: TableConfig) -> str:
    """A table configuration's game as players read it (:func:`game_label`), with its
    ``hi_lo`` option said: Courchevel with ``hi_lo=True`` is "PL Courchevel Hi-Lo"
    (RULEBOOK §6.3), a Hi-Lo game with ``hi_lo=False`` plays for high only ("FL Stud").

    >>> from cardroom.games import Stakes
    >>> config_label(TableConfig.of("courchevel", Stakes.blinds(1, 2), hi_lo=True))
    'PL Courchevel Hi-Lo'
    """
    variant = config.variant
    label = game_label(variant.name, config.betting)
    if config.hi_lo and variant.low is None:
        return f"{label} Hi-Lo"
    if config.hi_lo is False and variant.low is not None:
        plain = label.removesuffix(" Hi-Lo")
        return plain if plain != label else f"{label} (high only)"
    return label


@dataclass(frozen=True, slots=True)
class RotationGame:
    """One game of a rotation: the engine's game name and its betting structure."""

    game: str
    structure: str

    @property
    def label(self) -> str:
        """The game as shown to players, e.g. ``FL Razz``."""
        return game_label(self.game, self.structure)

    @property
    def uses_button(self) -> bool:
        """True for blind games (flop and draw); the stud family deals without a button."""
        return get_variant(self.game).stud is None


@dataclass(frozen=True, slots=True)
class Rotation:
    """A mixed-game table's rotation: which game each hand plays.

    ``freeze_button_in_stud``: official HORSE and 8-Game freeze the button during
    the stud rounds; CUSTOM_MIXED keeps it moving (seed 004). Build one with
    :func:`custom_mixed`, :func:`horse` or :func:`eight_game`.
    """

    kind: str
    games: tuple[RotationGame, ...]
    small_bet: int
    hands_per_game: int = DEFAULT_HANDS_PER_GAME
    freeze_button_in_stud: bool = False
    max_seats: int | None = None

    def __post_init__(self) -> None:
        _check(self)

    @property
    def badge(self) -> str:
        """The lobby badge: ``CUSTOM_MIXED``, ``HORSE`` or ``8-Game``."""
        return self.kind

    @property
    def seat_limit(self) -> int:
        """Seats at the table: ``max_seats`` if set, else the smallest limit of the games."""
        smallest = min(get_variant(g.game).max_seats for g in self.games)
        return smallest if self.max_seats is None else self.max_seats

    def entry_for(self, hand_number: int) -> RotationGame:
        """The rotation entry that hand ``hand_number`` (from 0) plays."""
        if hand_number < 0:
            raise ValueError("hands are numbered from 0")
        return self.games[(hand_number // self.hands_per_game) % len(self.games)]

    def game_for(self, hand_number: int, **options: Any) -> TableConfig:
        """The configuration of hand ``hand_number``: its game, structure and stakes.

        ``options`` are further :class:`TableConfig` fields for every hand
        (``rake=...``, ``burn_cards=...``); ``max_seats`` is the rotation's.
        """
        entry = self.entry_for(hand_number)
        return TableConfig.of(
            entry.game,
            derived_stakes(entry.game, entry.structure, self.small_bet),
            structure=entry.structure,
            max_seats=self.seat_limit,
            **options,
        )

    def button_moves(self, hand_number: int) -> bool:
        """True when the button advances one seat between hand ``n - 1`` and hand ``n``.

        CUSTOM_MIXED: before every hand but the first. Official HORSE and 8-Game
        (``freeze_button_in_stud``): the button moves only before a hand of a
        button game (flop or draw). So when a flop game hands over to Razz, the
        button stays on the seat it had in the last flop-game hand for all the
        stud rounds, and the first flop-game hand after them is dealt with the
        button one seat on from that seat, exactly as if the stud hands had not
        been played. (Moving it past a seat that emptied meanwhile is the table's
        dead-button rule, as for any hand.)
        """
        if hand_number <= 0:
            return False
        if not self.freeze_button_in_stud:
            return True
        return self.entry_for(hand_number).uses_button

    def current_and_next(self, hand_number: int) -> tuple[str, str]:
        """Labels of the game of hand ``hand_number`` and of the game after it."""
        current = self.entry_for(hand_number)
        following = self.games[(self.games.index(current) + 1) % len(self.games)]
        return current.label, following.label

    def hands_left(self, hand_number: int) -> int:
        """Hands of the current game still to play, this one included (1 on its last hand)."""
        if hand_number < 0:
            raise ValueError("hands are numbered from 0")
        return self.hands_per_game - hand_number % self.hands_per_game


def derived_stakes(game: str, structure: str, small_bet: int) -> Stakes:
    """The stakes of ``game`` at a mixed table of limit ``small_bet`` (module docstring)."""
    variant = get_variant(game)
    if variant.stud is not None:
        return Stakes(
            ante=max(1, small_bet // 8),
            small_bet=small_bet,
            big_bet=2 * small_bet,
        )  # the bring-in is every stud table's default: half the small bet (§4)
    if variant.deck == "short":
        return Stakes.short_deck(max(1, small_bet // 2), button_blind=small_bet)
    if structure == FIXED_LIMIT:
        return Stakes.limit(small_bet)
    return Stakes.blinds(small_bet // 2, small_bet)


def custom_mixed(
    small_bet: int,
    games: Sequence[str] = CUSTOM_MIXED_DEFAULT,
    hands_per_game: int = DEFAULT_HANDS_PER_GAME,
    max_seats: int | None = None,
) -> Rotation:
    """A CUSTOM_MIXED rotation: the operator's games (at least two, no repeats) in order,
    each with its usual betting structure; the button keeps moving."""
    unknown = [g for g in games if g not in CUSTOM_MIXED_GAMES]
    if unknown:
        raise ConfigError(f"CUSTOM_MIXED games come from {CUSTOM_MIXED_GAMES}, not {unknown}")
    entries = tuple(RotationGame(g, get_variant(g).structure) for g in games)
    return Rotation(CUSTOM_MIXED, entries, small_bet, hands_per_game, False, max_seats)


HORSE_GAMES: Final = (
    RotationGame("holdem", FIXED_LIMIT),
    RotationGame("omaha_hi_lo", FIXED_LIMIT),
    RotationGame("razz", FIXED_LIMIT),
    RotationGame("stud", FIXED_LIMIT),
    RotationGame("stud_hi_lo", FIXED_LIMIT),
)
"""Official HORSE: every game fixed limit."""

EIGHT_GAME_GAMES: Final = (
    RotationGame("triple_draw_27", FIXED_LIMIT),
    *HORSE_GAMES,
    RotationGame("holdem", NO_LIMIT),
    RotationGame("omaha", POT_LIMIT),
)
"""8-Game in the usual order: 2-7 Triple Draw, the HORSE games, NL Hold'em, PLO."""


def horse(small_bet: int, hands_per_game: int = DEFAULT_HANDS_PER_GAME) -> Rotation:
    """Official HORSE: button frozen during the stud rounds."""
    return Rotation(HORSE, HORSE_GAMES, small_bet, hands_per_game, True)


def eight_game(small_bet: int, hands_per_game: int = DEFAULT_HANDS_PER_GAME) -> Rotation:
    """8-Game: HORSE plus 2-7 Triple Draw, NL Hold'em and PLO; button frozen in stud."""
    return Rotation(EIGHT_GAME, EIGHT_GAME_GAMES, small_bet, hands_per_game, True)


def rotation_to_dict(rotation: Rotation) -> dict[str, Any]:
    """The rotation as JSON-able data, for a table's snapshot."""
    return {
        "kind": rotation.kind,
        "games": [[g.game, g.structure] for g in rotation.games],
        "small_bet": rotation.small_bet,
        "hands_per_game": rotation.hands_per_game,
        "freeze_button_in_stud": rotation.freeze_button_in_stud,
        "max_seats": rotation.max_seats,
    }


def rotation_from_dict(data: Mapping[str, Any]) -> Rotation:
    """The inverse of :func:`rotation_to_dict`; ConfigError for anything malformed."""
    try:
        games = tuple(RotationGame(str(g), str(s)) for g, s in data["games"])
        return Rotation(
            data["kind"],
            games,
            data["small_bet"],
            data["hands_per_game"],
            data["freeze_button_in_stud"],
            data["max_seats"],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"not a rotation: {exc}") from exc


def _check(rotation: Rotation) -> None:
    if rotation.kind not in KINDS:
        raise ConfigError(f"a rotation is one of {KINDS}, not {rotation.kind!r}")
    if len(rotation.games) < 2:
        raise ConfigError("a mixed rotation has at least two games")
    if len(set(rotation.games)) != len(rotation.games):
        raise ConfigError("a game appears once in a rotation")
    for value, name in ((rotation.small_bet, "small_bet"), (rotation.hands_per_game, "hands")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"{name} must be a positive whole number, not {value!r}")
    if rotation.small_bet < 2:
        raise ConfigError("a mixed table's small bet is at least 2 (the small blind is half)")
    for entry in rotation.games:
        try:
            variant = get_variant(entry.game)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if entry.structure not in STRUCTURE_ABBREVIATIONS:
            raise ConfigError(f"unknown betting structure {entry.structure!r}")
        if variant.stud is not None and entry.structure != FIXED_LIMIT:
            raise ConfigError(f"{variant.title} is played fixed limit in a rotation")
    smallest = min(get_variant(g.game).max_seats for g in rotation.games)
    seats = rotation.max_seats
    if seats is not None and not (isinstance(seats, int) and 2 <= seats <= smallest):
        raise ConfigError(f"this rotation seats 2 to {smallest} players, not {seats!r}")
