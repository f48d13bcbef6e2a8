"""What the room's decisions do to a hand (RULEBOOK §10.5, §10.6).

A player's action is accepted exactly when the legal set allows it
(:meth:`~cardroom.games.actions.LegalActions.refusal` is the one place that
decides). The room's decisions are not a player's to send: :func:`room_decision`
turns one into the move the hand makes, from the seat's legal set alone.
"""

from __future__ import annotations

from cardroom.games import errors as err
from cardroom.games.actions import (
    BRING_IN,
    CHECK,
    DISCONNECT_ALL_IN,
    DRAW,
    FOLD,
    TIMEOUT,
    LegalActions,
)
from cardroom.games.errors import IllegalAction


def room_decision(legal: LegalActions, kind: str, in_pot: int) -> str:
    """The move a room action of ``kind`` makes for the seat whose legal set is ``legal``
    (``in_pot``: the chips it has put in this hand).

    A ``timeout`` stands pat on a draw (``draw``), posts a due bring-in, otherwise
    checks if it can, otherwise folds. A ``disconnect_all_in`` needs a bet to face and
    chips already in; the room asks for it only when the player has one left today.

    >>> from cardroom.games.actions import nothing_for
    >>> legal = LegalActions(2, True, True, None, 4, 100)
    >>> room_decision(legal, "timeout", 2)
    'check'
    >>> room_decision(LegalActions(2, True, False, 4, 8, 100), "disconnect_all_in", 2)
    'disconnect_all_in'
    """
    if kind == TIMEOUT:
        if legal.draw is not None:
            return DRAW
        if legal.bring_in is not None:
            return BRING_IN
        return CHECK if legal.check else FOLD
    if kind != DISCONNECT_ALL_IN:
        raise IllegalAction(f"unknown room action {kind!r}", err.BAD_ACTION)
    if legal.draw is not None or legal.bring_in is not None or legal.check:
        raise IllegalAction("no bet to face: a disconnected player checks", err.NO_BET_TO_FACE)
    if not in_pot:
        why = "no chips in this hand: a disconnected player folds"
        raise IllegalAction(why, err.NOTHING_IN_POT)
    return DISCONNECT_ALL_IN
