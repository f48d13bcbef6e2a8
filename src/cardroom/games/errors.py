"""The engine's error types: one for actions, one for configurations.

An :class:`IllegalAction` carries a stable machine-readable ``code`` beside the
human ``reason``: a client translates the code, a log keeps the reason. The
codes are the constants below; they never change meaning once published.
"""

from __future__ import annotations

from typing import Final

BAD_ACTION: Final = "bad_action"
"""The action is malformed: a wrong type, an unknown kind, a card that is not a card."""
HAND_OVER: Final = "hand_over"
"""The hand is over (settled or cancelled)."""
NOT_YOUR_TURN: Final = "not_your_turn"
"""Another seat is to act."""
CANNOT_CHECK: Final = "cannot_check"
"""There is a bet to call."""
NOTHING_TO_CALL: Final = "nothing_to_call"
"""There is no bet to call: check instead."""
CANNOT_FOLD: Final = "cannot_fold"
"""No fold now (a draw or a stud bring-in is due)."""
RAISE_NOT_ALLOWED: Final = "raise_not_allowed"
"""No bet or raise is possible now (the reason says why: capped, not reopened...)."""
AMOUNT_TOO_SMALL: Final = "amount_too_small"
"""A bet or raise below the minimum."""
AMOUNT_TOO_LARGE: Final = "amount_too_large"
"""A bet or raise above the maximum (the stack, the pot limit, the fixed size)."""
NOT_A_BET_SIZE: Final = "not_a_bet_size"
"""Between the bounds, but not one of the sizes allowed (stud's 4th-street option)."""
BRING_IN_DUE: Final = "bring_in_due"
"""The stud bring-in is due: post it or complete."""
NO_BRING_IN: Final = "no_bring_in"
"""There is no bring-in to post."""
DRAW_DUE: Final = "draw_due"
"""The seat is to draw (or stand pat), not to bet."""
NO_DRAW: Final = "no_draw"
"""There is no draw now."""
TOO_MANY_CARDS: Final = "too_many_cards"
"""More discards than allowed."""
TOO_FEW_CARDS: Final = "too_few_cards"
"""Fewer discards than a discard street asks for (Irish: exactly two)."""
CARDS_NOT_HELD: Final = "cards_not_held"
"""A discard the seat does not hold, or the same card twice."""
NO_BET_TO_FACE: Final = "no_bet_to_face"
"""A disconnect all-in needs a bet to face (a player who can check checks)."""
NOTHING_IN_POT: Final = "nothing_in_pot"
"""A disconnect all-in needs chips already in this hand (otherwise the player folds)."""

CODES: Final = frozenset(
    {
        BAD_ACTION,
        HAND_OVER,
        NOT_YOUR_TURN,
        CANNOT_CHECK,
        NOTHING_TO_CALL,
        CANNOT_FOLD,
        RAISE_NOT_ALLOWED,
        AMOUNT_TOO_SMALL,
        AMOUNT_TOO_LARGE,
        NOT_A_BET_SIZE,
        BRING_IN_DUE,
        NO_BRING_IN,
        DRAW_DUE,
        NO_DRAW,
        TOO_MANY_CARDS,
        TOO_FEW_CARDS,
        CARDS_NOT_HELD,
        NO_BET_TO_FACE,
        NOTHING_IN_POT,
    }
)
"""Every code an :class:`IllegalAction` may carry."""


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``reason`` says why in words, ``code``
    (one of :data:`CODES`) says it for a machine. The hand is unchanged."""

    def __init__(self, reason: str, code: str = BAD_ACTION) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class ConfigError(ValueError):
    """A table configuration, seat list or deck that cannot start a hand; says what was wrong."""
