"""Which game a hand plays: the one place a mixed rotation plugs into the table.

A single-game table always plays its game. A mixed table plays ``hands_per_game``
hands of each game in order, changing only between hands (RULEBOOK §9
CUSTOM_MIXED: the button keeps moving). With ``rotation="horse"`` the button is
frozen during the stud games, as in official HORSE.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.games.variants import BRING_IN
from cardroom.room.settings import TableSettings


@dataclass(frozen=True, slots=True)
class GameSlot:
    """The game of one hand (an index into ``settings.games``), whether the button stays
    where it is for this hand, and the game that follows in the rotation."""

    index: int
    button_frozen: bool
    next_index: int


def game_for(settings: TableSettings, hand_no: int) -> GameSlot:
    """The game of hand ``hand_no`` (1 for the table's first hand)."""
    games = settings.games
    per = settings.hands_per_game
    index = ((hand_no - 1) // per) % len(games)
    following = (hand_no // per) % len(games)
    stud = games[index].variant.forced_bets == BRING_IN
    return GameSlot(index, settings.rotation == "horse" and stud, following)
