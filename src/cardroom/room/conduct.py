"""The table's conduct: chat (§10.7), reports, integrity flags (§10.9), the lobby line.

Wires the room's pure pieces into the table: messages go through
:class:`~cardroom.room.chat.TableChat` (rate limit, foul words, links, card talk
by a player still in the hand); a blocked message or an offence is a
``ChatBlocked`` event for its sender and the server (which records chat bans with
the account); a report is a ``ChatReported`` event with the accused's recent lines
kept by the chat. After each hand the table's
:class:`~cardroom.room.integrity.IntegrityMonitor` (if one was given) sees the
hand (a Chinese poker hand: who won chips from whom), and a player sitting down
from an IP address or device the server names; its flags become
``ReviewFlagged`` events, shown to no player. The
chat's memory (recent lines, rate buckets) is not part of the record: a restored
table starts with a quiet chat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardroom.games import Hand
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.chat import OK
from cardroom.room.errors import BAD_COMMAND, TableError
from cardroom.room.games_port import shown_game
from cardroom.room.integrity import Access, Flag, HandObservation, transfers
from cardroom.room.lobby import TableSummary
from cardroom.room.rotation import game_label
from cardroom.room.seating import seat_of

if TYPE_CHECKING:
    from cardroom.room.table import Table


def _say(table: Table, c: cmd.Say) -> None:
    s = seat_of(table, c.player)
    in_hand = table.still_in_hand(s)
    verdict = table.chat.say(c.player, c.text, table.now, in_hand=in_hand)
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


def review_hand(table: Table, hand: Hand, net: Mapping[str, int]) -> None:
    """Show a finished hand to the integrity monitor (``net``: each player's result, as
    settled); emit the flags it raises."""
    monitor = table.integrity
    if monitor is None:
        return
    seats = table.state.seats
    players = {s: seat.player for s in table.state.dealt if (seat := seats[s]) is not None}
    _flagged(table, monitor.observe_events(table.state.hand_no, hand.events, players, net))


def review_result(table: Table, net: Mapping[str, int]) -> None:
    """Show the monitor who won chips from whom in a hand without betting (Chinese poker:
    ``net`` chips by player); emit the flags it raises."""
    monitor = table.integrity
    if monitor is None:
        return
    put_in = {p: -n for p, n in net.items() if n < 0}
    won = {p: n for p, n in net.items() if n > 0}
    observation = HandObservation(table.state.hand_no, (), transfers(put_in, won))
    _flagged(table, monitor.observe_hand(observation))


def review_access(table: Table, player: str, ip: str, device: str) -> None:
    """Tell the monitor where ``player`` plays from (the server knows); emit its flags."""
    monitor = table.integrity
    if monitor is not None:
        _flagged(table, monitor.observe_access(Access(player, ip, device, table.now)))


def _flagged(table: Table, flags: list[Flag]) -> None:
    for flag in flags:
        table.emit(rv.ReviewFlagged(flag.rule, flag.accounts, flag.evidence, flag.hands))


def lobby_summary(table: Table, pot: int | None = None) -> TableSummary:
    """The line a table pushes to the lobby (§12): after a hand with its pot, or when
    its seats change."""
    state = table.state
    current = ""
    if table.settings.mixed is not None:
        # The game being played (the lobby says "now ..."), the next one between hands.
        config = table.settings.games[
            shown_game(table.settings, state.hand_no, state.in_hand).index
        ]
        current = game_label(config.variant.name, config.betting)
    seated = sum(1 for s in state.seats if s is not None)
    return TableSummary(
        table.settings.table_id, table.now, seated, len(state.waitlist), pot, current
    )


HANDLERS: dict[type, Callable[[Table, Any], None]] = {cmd.Say: _say, cmd.Report: _report}
