"""Whether a message decided at an earlier ``seq`` (its ``turn``) still applies.

An action (``act``, ``place``) is late once the player's decision has moved since
(:meth:`cardroom.server.actor.TableActor.stale`). A pre-selected action (``advance``) is
chosen while others act, so their actions do not make it late; the hand and the street
it was chosen in do: the room drops an advance when a new street begins (RULEBOOK
§10.5, "cleared when the situation they assumed changes"), and one that arrives after
that, over a slow line, was set on a street, or in a hand, its player had not seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardroom.games.events import HandStarted, StreetStarted
from cardroom.room import commands as cmd
from cardroom.server.jobs import Outcome

if TYPE_CHECKING:
    from cardroom.server.actor import TableActor

NEW_SITUATION = (HandStarted, StreetStarted)
"""The events after which an advance chosen before is late."""
STALE_ADVANCE = Outcome(
    "stale_turn", "a new street or hand began before your pre-selected action arrived: not set"
)


def refusal(actor: TableActor, command: cmd.Command, turn: int) -> Outcome | None:
    """The refusal of ``command``, decided at ``seq`` ``turn``, if it comes too late."""
    if isinstance(command, cmd.ClearAdvance):  # withdrawing one is never late
        return None
    if not isinstance(command, cmd.SetAdvance):
        return actor.stale(command.player, turn)
    if turn > actor.seq:
        return Outcome("bad_message", f"turn {turn} is past the table's last event")
    if any(isinstance(e, NEW_SITUATION) for e in actor.pending):  # not even seen yet
        return STALE_ADVANCE
    if turn == actor.seq:
        return None
    missed = actor.history.since(turn)
    if missed is None:  # older than the events kept: long gone
        return STALE_ADVANCE
    if any(isinstance(s.event, NEW_SITUATION) for s in missed):
        return STALE_ADVANCE
    return None
