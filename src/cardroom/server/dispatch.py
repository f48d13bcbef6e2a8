"""Client messages to table jobs: who is asking is always the connection's player
(a client cannot name another seat), and every outcome has a stable code.

A message that changes stored state (a table command, a chat line, a report) carries its
client id to where it is stored, to be stored with it (``store/client_ids.py``)."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from cardroom.cards import Card
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room import turns
from cardroom.room.chat import OK, REPORT_REASONS
from cardroom.room.errors import TableError
from cardroom.server import protocol as p
from cardroom.server.actor import TableActor
from cardroom.server.broadcast import Watcher
from cardroom.server.jobs import NOT_STORED, Job, Outcome, unwatch
from cardroom.server.storage import Busy
from cardroom.store import SanctionKind
from cardroom.store.client_ids import Answered
from cardroom.store.leases import LeaseLost
from cardroom.store.reports import REPORT
from cardroom.store.tables import ChatOffence

if TYPE_CHECKING:
    from cardroom.server.gateway import Connection
    from cardroom.server.room import Room

log = logging.getLogger("cardroom.server")


def _cards(texts: list[str]) -> tuple[Card, ...] | None:
    try:
        return tuple(Card.parse(t) for t in texts)
    except (ValueError, TypeError, KeyError):
        return None


BAD_CARDS = Outcome("bad_message", "cards are written like 'Ah', 'Td', '2c'")


def command_for(player: str, msg: p.AnyClientMessage) -> cmd.Command | Outcome | None:
    """The table command a message asks for (an Outcome when it is malformed; None when
    it is not a command)."""
    if isinstance(msg, p.Join):
        return cmd.Sit(player, msg.seat, msg.amount, msg.post_now)
    if isinstance(msg, p.Leave):
        return cmd.Leave(player)
    if isinstance(msg, p.Stay):
        return cmd.Stay(player)
    if isinstance(msg, p.Waitlist):
        return cmd.JoinWaitlist(player) if msg.on else cmd.LeaveWaitlist(player)
    if isinstance(msg, p.Rebuy):
        return cmd.Rebuy(player, msg.amount)
    if isinstance(msg, p.SitOut):
        return cmd.SitOut(player)
    if isinstance(msg, p.SitIn):
        return cmd.SitIn(player, msg.post_now)
    if isinstance(msg, p.AutoMuck):
        return cmd.AutoMuck(player, msg.on)
    if isinstance(msg, p.ResetAllowance):
        return cmd.ResetAllowance(player)
    if isinstance(msg, p.Advance):
        if msg.kind is None:
            return cmd.ClearAdvance(player)
        return cmd.SetAdvance(player, msg.kind, msg.amount)
    if isinstance(msg, p.Act):
        cards = _cards(msg.cards)
        if cards is None:
            return BAD_CARDS
        return cmd.Act(player, msg.kind, msg.amount, cards)
    if isinstance(msg, p.Place):
        rows = [_cards(msg.top), _cards(msg.middle), _cards(msg.bottom), _cards(msg.discard)]
        top, middle, bottom, discard = rows
        if top is None or middle is None or bottom is None or discard is None:
            return BAD_CARDS
        return cmd.PlaceCards(player, top, middle, bottom, discard)
    return None


def stores_its_id(msg: p.AnyClientMessage) -> bool:
    """True when ``msg``, done, is stored with its id (a table command, a chat line, a
    report): a resend must be looked up in the store. Watching, the time bank and pings
    store nothing: done again, they change nothing."""
    return not isinstance(msg, p.Watch | p.Unwatch | p.TimeBank | p.Ping)


async def dispatch(
    conn: Connection, room: Room, msg: p.AnyClientMessage, digest: str = ""
) -> Outcome:
    """Do what ``msg`` asks and say how it went; ``digest``: what it says
    (:func:`~cardroom.server.protocol.digest`), stored with its id."""
    if isinstance(msg, p.Ping):
        return Outcome()
    assert isinstance(msg, p.TableMessage)
    actor = room.actor(msg.table)
    if actor is None:
        return Outcome("no_such_table", f"there is no table {msg.table!r}")
    try:
        return await _table_message(conn, room, actor, msg, digest)
    except Busy as exc:
        return Outcome("busy", str(exc))


def stored_since(room: Room, msg: p.Watch) -> int | None:
    """``msg.since`` when the record holds what the client saw up to it, else None (a
    snapshot). Of this run, or of another up to what this run found stored, it does:
    nothing is sent before it is stored. Of another run beyond that, it came from a time
    the record lost (a backup restored, docs/server_backup.md): the restored table's
    events after it would be laid on a table the client saw and this room never had."""
    if msg.since is None or msg.run is None or msg.run == room.instance:
        return msg.since
    return msg.since if msg.since <= room.found.get(msg.table, 0) else None


async def _watch(conn: Connection, actor: TableActor, since: int | None) -> Outcome:
    watcher = Watcher(conn.id, conn.player, conn.send)
    conn.watching.add(actor.table_id)
    return await actor.submit(Job(None, lambda a: a.add_watcher(watcher, since)))


async def _table_message(
    conn: Connection, room: Room, actor: TableActor, msg: p.TableMessage, digest: str
) -> Outcome:
    if isinstance(msg, p.Watch):
        return await _watch(conn, actor, stored_since(room, msg))
    if isinstance(msg, p.Unwatch):
        conn.watching.discard(actor.table_id)
        return await actor.submit(unwatch(conn.id))
    command = command_for(conn.player, msg)  # type: ignore[arg-type]
    if isinstance(command, Outcome):
        return command
    if command is not None:
        if isinstance(command, cmd.Sit):  # where the player sits down from: §10.9
            command = dataclasses.replace(command, ip=conn.ip, device=conn.device)
        # Sitting down, or waiting for a seat (to be told of the seat offered: §10.3),
        # the connection watches the table: this actor, which `conn.watching` (table ids)
        # cannot tell from a closed table's under the same id, reopened since.
        watches = isinstance(command, cmd.Sit | cmd.JoinWaitlist)
        if watches and conn.id not in actor.watchers:
            await _watch(conn, actor, None)
        turn = msg.turn if isinstance(msg, p.Act | p.Place | p.Advance) else None
        client = (conn.player, msg.id, digest)
        return await actor.submit(Job(command, None, client=client, turn=turn))
    if isinstance(msg, p.TimeBank):
        return await actor.submit(Job(None, lambda a: _time_bank(a, conn.player)))
    if isinstance(msg, p.Chat):
        kinds = await room.storage.run(room.players.sanctions, conn.alias)
        if SanctionKind.CHAT_BAN in kinds or SanctionKind.BAN in kinds:
            return Outcome("chat_refused", "banned")
        return await actor.submit(Job(None, lambda a: _chat(a, room, conn, msg, digest)))
    if isinstance(msg, p.Report):
        return await actor.submit(Job(None, lambda a: _report(a, room, conn, msg, digest)))
    return Outcome("unknown_type", f"{type(msg).__name__} is not handled")


async def _time_bank(actor: TableActor, player: str) -> Outcome:
    s = actor.table.state.seat_of(player)
    if s is None:
        return Outcome("not_seated", "you are not seated at this table", actor.seq)
    table = actor.table
    bank, turn = float(table.seat(s).time_bank), table.state.turn
    if turn is not None and turn.seat == s and turn.bank:  # running now: what is left
        bank = turns.bank_left(turn, table.clock())
    return Outcome(seq=actor.seq, detail={"time_bank": bank, "automatic": True})


async def _chat(
    actor: TableActor, room: Room, conn: Connection, msg: p.Chat, digest: str
) -> Outcome:
    """A chat line through the table's own chat rules (``room.commands.Say``), stored with
    its id like a command (``ChatSaid``, or ``ChatBlocked`` with the verdict's code),
    then broadcast; an offence bans the account from chat (RULEBOOK §10.7) in the same
    step. Only a seated player chats (the room's rule: ``not_seated`` else)."""
    try:
        events = actor.table.handle(cmd.Say(conn.player, msg.text))
    except TableError as exc:
        return Outcome(exc.code, exc.reason, actor.seq)
    blocked = next((e for e in events if isinstance(e, rv.ChatBlocked)), None)
    said = next((e for e in events if isinstance(e, rv.ChatSaid)), None)
    offences: tuple[ChatOffence, ...] = ()
    if blocked is not None and blocked.offence:  # its ban is stored with it, or neither
        reason = f"{blocked.code} at {actor.table_id}: {blocked.found}"
        offences = (ChatOffence(conn.alias, "server:chat", reason),)
    if not await actor.step(events, (conn.player, msg.id, digest), offences):
        return Outcome("not_stored", "the line could not be stored", actor.seq)
    if said is None:
        return Outcome("chat_refused", blocked.code if blocked else "refused", actor.seq)
    line = p.ChatLine(
        table=actor.table_id, player=conn.player, alias=conn.alias, text=said.text, at=said.at
    )
    data = p.encode(line)
    for w in actor.watchers.values():
        w.send(data)
    return Outcome(seq=actor.seq, detail={"verdict": OK if blocked is None else blocked.code})


def _at_table(actor: TableActor, room: Room, name: str) -> str | None:
    """The player seated at the table, or who left it lately (the reducing rule still
    remembers him), whose id or alias is ``name`` (an alias in any case), or None.
    Only players: a watcher can neither chat nor play, and an answer that told
    whether somebody watches would say what nothing else shows (who is on the rail)."""
    state = actor.table.state
    there = {seat.player for seat in state.seats if seat is not None} | set(state.departures)
    if name in there:
        return name
    low = name.lower()
    return next((pl for pl in there if room.aliases.get(pl, "").lower() == low), None)


async def _report(
    actor: TableActor, room: Room, conn: Connection, msg: p.Report, digest: str
) -> Outcome:
    if msg.reason not in REPORT_REASONS:
        return Outcome("bad_report", f"reasons: {', '.join(REPORT_REASONS)}", actor.seq)
    accused = _at_table(actor, room, msg.player)
    if accused is None:
        return Outcome("bad_report", f"no player {msg.player!r} at this table lately", actor.seq)
    chat, now, subject = actor.table.chat, actor.table.clock(), room.aliases.get(accused, accused)
    # The chat decides the cooldown; its memory ends with the process, so it is told the
    # stored last report too (only those recent enough to matter are looked for).
    since = now - chat.rules.report_every_seconds
    stored = await actor.storage.run(room.reports.last, conn.alias, subject, actor.table_id, since)
    try:
        report = chat.report(conn.player, accused, msg.reason, now, msg.note, stored=stored)
    except ValueError as exc:
        return Outcome("bad_report", str(exc), actor.seq)
    lines: list[dict[str, Any]] = [{"text": x.text, "at": x.at} for x in report.lines]
    answered = Answered(conn.player, msg.id, actor.table_id, actor.seq, digest)
    try:
        await actor.storage.run(
            actor.records.note, conn.alias, REPORT, subject, answered,
            table=actor.table_id, reason=msg.reason, note=report.note, lines=lines,
        )  # fmt: skip
    except LeaseLost:  # refused like a table's step: the table runs nothing more, the room stops
        log.warning("table %s: a report was not stored (the lease is lost)", actor.table_id)
        actor.lease_lost()
        return Outcome("not_stored", NOT_STORED, actor.seq)
    return Outcome(seq=actor.seq)
