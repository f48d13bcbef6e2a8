"""Which game a hand plays: the one place the mixed rotation plugs into the table.

A single-game table always plays its game. A mixed table asks its
:class:`~cardroom.room.rotation.Rotation` (RULEBOOK §9): ``hands_per_game``
hands of each game in order, changing only between hands; CUSTOM_MIXED keeps the
button moving, HORSE and 8-Game freeze it during the stud rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.room.settings import TableSettings


@dataclass(frozen=True, slots=True)
class GameSlot:
    """The game of one hand (an index into ``settings.games``), whether the button stays
    where it was for this hand, and the game that follows in the rotation."""

    index: int
    button_frozen: bool
    next_index: int


_SINGLE = GameSlot(0, False, 0)
"""Every hand of a single-game table (built once: asked at every deal)."""


def game_for(settings: TableSettings, hand_no: int) -> GameSlot:
    """The game of hand ``hand_no`` (counted from 1 without the cancelled hands:
    :meth:`~cardroom.room.state.TableState.rotation_hand`; a rotation counts from 0)."""
    rotation = settings.mixed
    if rotation is None:
        return _SINGLE
    n = max(0, hand_no - 1)
    index = rotation.games.index(rotation.entry_for(n))
    frozen = n > 0 and not rotation.button_moves(n)
    return GameSlot(index, frozen, (index + 1) % len(rotation.games))


def shown_game(settings: TableSettings, hand_no: int, in_hand: bool) -> GameSlot:
    """The game players are told about: the hand's own while one is played (``hand_no``),
    else the next hand's."""
    return game_for(settings, hand_no if in_hand else hand_no + 1)


def hands_left(settings: TableSettings, hand_no: int, in_hand: bool) -> int | None:
    """Hands of the game told about (:func:`shown_game`) still to play, that one included;
    None at a single-game table."""
    rotation = settings.mixed
    if rotation is None:
        return None
    return rotation.hands_left(max(0, (hand_no if in_hand else hand_no + 1) - 1))
