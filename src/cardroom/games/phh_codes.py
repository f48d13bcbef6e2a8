"""PHH variant codes: the standard's eleven and this project's extensions, as data.

A code names a game and a betting structure, shaped as the standard's codes are:
the structure's letter (``F`` fixed limit, ``P`` pot limit, ``N`` no limit), the
game's letters, and ``/8`` for a high/low split eight or better (``H`` is ours, for
half-pot limit). The standard
(``required.rst``) lists eleven; every other game and structure the engine plays
has an extension code here, documented in ``docs/phh_extensions.md`` (a test
checks that the document and this table agree). A code also fixes the fields a
file must give: the fixed-limit sizes or a minimum bet, and blinds or a bring-in.

Spread limit has no code: PHH has no field for its maxima.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from cardroom.games.options import Structure
from cardroom.games.variants import FIXED_LIMIT as FIXED
from cardroom.games.variants import HALF_POT_LIMIT as HALF
from cardroom.games.variants import NO_LIMIT as NO
from cardroom.games.variants import POT_LIMIT as POT

__all__ = ["EXTENSIONS", "PHH_CODES", "STANDARD", "PhhCode", "required_fields"]
_LETTER = {FIXED: "F", POT: "P", NO: "N", HALF: "H"}
_STRUCTURE_NAME = {FIXED: "Fixed-limit", POT: "Pot-limit", NO: "No-limit", HALF: "Half-pot-limit"}

# PHH stud as the WSOP and PokerKit play it: the bet size never changes for an
# open pair on 4th street, and a round caps at a bet (or completion) and three
# raises. Bring-in ties by suit and first-to-act ties by position are our defaults.
STUD_OPTIONS: Final[dict[str, Any]] = {"fourth_street_pair": "small", "max_raises": 3}


@dataclass(frozen=True, slots=True)
class PhhCode:
    """One variant code: our game, its structure, the table options it implies, its name."""

    code: str
    game: str
    structure: Structure
    name: str
    bring_in: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    standard: bool = False


def required_fields(code: PhhCode) -> tuple[str, ...]:
    """The amount fields a file of ``code`` must give (beyond antes, stacks, actions)."""
    forced = "bring_in" if code.bring_in else "blinds_or_straddles"
    sizes = ("small_bet", "big_bet") if code.structure == FIXED else ("min_bet",)
    return (forced, *sizes)


@dataclass(frozen=True, slots=True)
class _Game:
    letters: str
    game: str
    name: str
    bring_in: bool = False
    options: tuple[tuple[str, Any], ...] = ()


_GAMES = (
    _Game("T", "holdem", "Texas hold 'em"),
    _Game("S", "short_deck", "short-deck hold 'em"),
    _Game(
        "ST",
        "short_deck",
        "short-deck hold 'em, three of a kind beats a straight",
        options=(("short_deck_trips_beat_straight", True),),
    ),
    _Game("O", "omaha", "Omaha hold 'em"),
    _Game("O/8", "omaha_hi_lo", "Omaha hold 'em high/low-split eight or better"),
    _Game("O5", "plo5", "five-card Omaha hold 'em"),
    _Game("O5/8", "big_o", "five-card Omaha hold 'em high/low-split eight or better (Big O)"),
    _Game("O6", "plo6", "six-card Omaha hold 'em"),
    _Game("I", "irish", "Irish (four cards, two discarded after the flop)"),
    _Game("C", "courchevel", "Courchevel"),
    _Game("C/8", "courchevel_hi_lo", "Courchevel high/low-split eight or better"),
    _Game("7S", "stud", "seven card stud", True, tuple(STUD_OPTIONS.items())),
    _Game(
        "7S/8",
        "stud_hi_lo",
        "seven card stud high/low-split eight or better",
        True,
        tuple(STUD_OPTIONS.items()),
    ),
    _Game("R", "razz", "razz", True, tuple(STUD_OPTIONS.items())),
    _Game("SK", "soko", "Soko (Canadian stud)", True, tuple(STUD_OPTIONS.items())),
    _Game("5CD", "five_card_draw", "five-card draw"),
    _Game("2L1D", "single_draw_27", "deuce-to-seven lowball single draw"),
    _Game("2L3D", "triple_draw_27", "deuce-to-seven lowball triple draw"),
    _Game("AL3D", "triple_draw_a5", "ace-to-five lowball triple draw"),
    _Game("B", "badugi", "badugi"),
)

_STANDARD_CODES = ("FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")


def _codes() -> dict[str, PhhCode]:
    out: dict[str, PhhCode] = {}
    for game in _GAMES:
        for structure in (FIXED, POT, NO, HALF):
            code = _LETTER[structure] + game.letters
            name = f"{_STRUCTURE_NAME[structure]} {game.name}"
            out[code] = PhhCode(
                code,
                game.game,
                structure,
                name,
                game.bring_in,
                dict(game.options),
                code in _STANDARD_CODES,
            )
    return out


PHH_CODES: Final[dict[str, PhhCode]] = _codes()
"""Every code this build reads and writes: the standard's first, then the extensions."""
STANDARD: Final[dict[str, PhhCode]] = {c: PHH_CODES[c] for c in _STANDARD_CODES}
"""The eleven codes of the PHH standard."""
EXTENSIONS: Final[dict[str, PhhCode]] = {c: v for c, v in PHH_CODES.items() if not v.standard}
"""This project's codes for the games and structures the standard does not list."""
