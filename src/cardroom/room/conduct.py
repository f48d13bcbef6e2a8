"""The table's conduct: chat (§10.7), reports, the lobby line.

Wires the room's pure pieces into the table: messages go through
:class:`~cardroom.room.chat.TableChat` (rate limit, foul words, links, card talk
by a player still in the hand); a blocked message or an offence is a
``ChatBlocked`` event for its sender and the server (which records chat bans with
the account); a report is a ``ChatReported`` event with the accused's recent lines
kept by the chat. (Integrity, §10.9, is the room's: a table only sets aside its
settled hands and sit-downs for :mod:`cardroom.room.review`.) The
chat's memory (recent lines, rate buckets) is not part of the record: a restored
table starts with a quiet chat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.chat import OK
from cardroom.room.errors import BAD_COMMAND, RATE_LIMITED, TableError
from cardroom.room.games_port import shown_game
from cardroom.room.lobby import TableSummary
from cardroom.room.rotation import config_label
from cardroom.room.seating import seat_of

if TYPE_CHECKING:
    from cardroom.room.table import Table


def _say(table: Table, c: cmd.Say) -> None:
    s = seat_of(table, c.player)
    in_hand = table.dealt_in(s)  # folded or not: no card talk during the hand
    verdict = table.chat.say(c.player, c.text, table.now, in_hand=in_hand)
    if verdict.code == RATE_LIMITED:
        # A refusal, not a verdict on the line: recorded, a flood of lines the player
        # may not send would be a flood of stored events.
        raise TableError(RATE_LIMITED, "too many chat lines at once: wait a moment")
    if verdict.code != OK:
        found = verdict.found
        table.emit(rv.ChatBlocked(s, c.player, verdict.code, found, verdict.offence, table.now))
    if verdict.text is not None:
        table.emit(rv.ChatSaid(c.player, verdict.text, table.now))


def _report(table: Table, c: cmd.Report) -> None:
    s = seat_of(table, c.player)
    try:
        report = table.chat.report(c.player, c.accused, c.reason, table.now, c.note)
    except ValueError as exc:
        raise TableError(BAD_COMMAND, str(exc)) from exc
    table.emit(
        rv.ChatReported(s, report.reporter, report.accused, report.reason, report.note, report.at)
    )


def lobby_summary(table: Table, pot: int | None = None) -> TableSummary:
    """The line a table pushes to the lobby (§12): after a hand with its pot, or when
    its seats change."""
    state = table.state
    current = ""
    if table.settings.mixed is not None:
        # The game being played (the lobby says "now ..."), the next one between hands.
        config = table.settings.games[
            shown_game(table.settings, state.rotation_hand(state.hand_no), state.in_hand).index
        ]
        current = config_label(config)
    seated = sum(1 for s in state.seats if s is not None)
    return TableSummary(
        table.settings.table_id, table.now, seated, len(state.waitlist), pot, current
    )


HANDLERS: dict[type, Callable[[Table, Any], None]] = {cmd.Say: _say, cmd.Report: _report}
